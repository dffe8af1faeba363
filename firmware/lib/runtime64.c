/*
 * runtime64.c - 64-bit integer helpers that GCC calls on 32-bit SPARC
 * (libgcc is not linked: Debian's 32-bit SPARC libgcc is built for V8+).
 * Only 32-bit operations are used here so none of these call themselves.
 */
#include <stdint.h>

typedef union {
  uint64_t u;
  int64_t s;
  struct {
    uint32_t hi, lo; /* big-endian */
  } w;
} dw_t;

uint64_t __ashldi3(uint64_t a, int n);
uint64_t __lshrdi3(uint64_t a, int n);
int64_t __ashrdi3(int64_t a, int n);
uint64_t __muldi3(uint64_t a, uint64_t b);
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);

uint64_t __ashldi3(uint64_t a, int n) {
  dw_t x = {.u = a}, r;

  n &= 63;
  if (n == 0) return a;
  if (n >= 32) {
    r.w.hi = x.w.lo << (n - 32);
    r.w.lo = 0;
  } else {
    r.w.hi = (x.w.hi << n) | (x.w.lo >> (32 - n));
    r.w.lo = x.w.lo << n;
  }
  return r.u;
}

uint64_t __lshrdi3(uint64_t a, int n) {
  dw_t x = {.u = a}, r;

  n &= 63;
  if (n == 0) return a;
  if (n >= 32) {
    r.w.lo = x.w.hi >> (n - 32);
    r.w.hi = 0;
  } else {
    r.w.lo = (x.w.lo >> n) | (x.w.hi << (32 - n));
    r.w.hi = x.w.hi >> n;
  }
  return r.u;
}

int64_t __ashrdi3(int64_t a, int n) {
  dw_t x = {.s = a}, r;

  n &= 63;
  if (n == 0) return a;
  if (n >= 32) {
    r.w.lo = (uint32_t)((int32_t)x.w.hi >> (n - 32));
    r.w.hi = (uint32_t)((int32_t)x.w.hi >> 31);
  } else {
    r.w.lo = (x.w.lo >> n) | (x.w.hi << (32 - n));
    r.w.hi = (uint32_t)((int32_t)x.w.hi >> n);
  }
  return r.s;
}

/* 32x32->64 with the hardware UMUL (result high word in %y). */
static inline uint64_t umul64(uint32_t a, uint32_t b) {
  dw_t r;

  __asm__("umul %2, %3, %0\n\trd %%y, %1" : "=r"(r.w.lo), "=r"(r.w.hi) : "r"(a), "r"(b));
  return r.u;
}

uint64_t __muldi3(uint64_t a, uint64_t b) {
  dw_t x = {.u = a}, y = {.u = b}, r;

  r.u = umul64(x.w.lo, y.w.lo);
  r.w.hi += x.w.hi * y.w.lo + x.w.lo * y.w.hi;
  return r.u;
}

/* Restoring shift-subtract division, one quotient bit per step. */
uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem) {
  dw_t q = {.u = 0}, r = {.u = 0}, nn = {.u = n}, dd = {.u = d};
  int i;

  if (dd.u == 0) {
    /* Undefined in C; return all ones like the hardware saturates. */
    if (rem) *rem = n;
    return ~(uint64_t)0;
  }
  for (i = 63; i >= 0; i--) {
    uint32_t bit = i >= 32 ? (nn.w.hi >> (i - 32)) & 1 : (nn.w.lo >> i) & 1;

    /* r = (r << 1) | bit */
    r.w.hi = (r.w.hi << 1) | (r.w.lo >> 31);
    r.w.lo = (r.w.lo << 1) | bit;
    if (r.w.hi > dd.w.hi || (r.w.hi == dd.w.hi && r.w.lo >= dd.w.lo)) {
      uint32_t borrow = r.w.lo < dd.w.lo;
      r.w.lo -= dd.w.lo;
      r.w.hi -= dd.w.hi + borrow;
      if (i >= 32)
        q.w.hi |= 1u << (i - 32);
      else
        q.w.lo |= 1u << i;
    }
  }
  if (rem) *rem = r.u;
  return q.u;
}

uint64_t __udivdi3(uint64_t n, uint64_t d) { return __udivmoddi4(n, d, 0); }

uint64_t __umoddi3(uint64_t n, uint64_t d) {
  uint64_t r;

  __udivmoddi4(n, d, &r);
  return r;
}

static inline uint64_t neg64(uint64_t v) {
  dw_t x = {.u = v};

  x.w.hi = ~x.w.hi;
  x.w.lo = ~x.w.lo;
  x.w.lo += 1;
  if (x.w.lo == 0) x.w.hi += 1;
  return x.u;
}

int64_t __divdi3(int64_t n, int64_t d) {
  int neg = 0;
  uint64_t un = (uint64_t)n, ud = (uint64_t)d, q;

  if (n < 0) {
    un = neg64(un);
    neg = !neg;
  }
  if (d < 0) {
    ud = neg64(ud);
    neg = !neg;
  }
  q = __udivmoddi4(un, ud, 0);
  return (int64_t)(neg ? neg64(q) : q);
}

int64_t __moddi3(int64_t n, int64_t d) {
  uint64_t un = (uint64_t)n, ud = (uint64_t)d, r;

  if (n < 0) un = neg64(un);
  if (d < 0) ud = neg64(ud);
  __udivmoddi4(un, ud, &r);
  return (int64_t)(n < 0 ? neg64(r) : r);
}
