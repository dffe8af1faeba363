/*
 * string.c - memory and string functions. memcpy/memmove copy by
 * doublewords/words whenever they can (below); the rest are simple loops
 * (memset with a word fast path). The compiler must not turn
 * them back into calls to themselves, hence -fno-builtin for the firmware.
 */
#include "fwlibc.h"

/*
 * memcpy/memmove. LEON3's D-cache is write-through with a one-entry write
 * buffer (up to a doubleword), so a copy is bound by its stores: one store
 * per doubleword (std) is what matters, then one per word. Strategy for
 * n >= MEM_SMALL:
 *   1. bytes until dst is 4-byte aligned;
 *   2. one word (4 bytes if src is not 4-aligned) if dst is not 8-aligned;
 *   3. src also 4-aligned ((dst ^ src) & 3 == 0, the usual case, e.g.
 *      frame payloads at offset 42/54 on both sides): 32 bytes per
 *      iteration as 4 std, from ldd when src is 8-aligned too, else from
 *      pairs of ld;
 *      src not 4-aligned ((dst ^ src) & 3 = 1, 2, 3): aligned word loads
 *      from src, each dst word merged from two of them with shifts
 *      (big-endian), two words per std. An aligned load never touches a
 *      word that holds no byte of the source;
 *   4. the last 0..7 bytes one by one.
 * The loads of each step happen before its stores, so a forward copy is
 * also right for overlapping buffers with dst < src (memmove uses that).
 */
typedef uint32_t fw_u32 __attribute__((may_alias));
typedef uint64_t fw_u64 __attribute__((may_alias));

#define MEM_SMALL 16u

#define W32(p) (*(fw_u32 *)(void *)(p))
#define CW32(p) (*(const fw_u32 *)(const void *)(p))
#define W64(p) (*(fw_u64 *)(void *)(p))
#define CW64(p) (*(const fw_u64 *)(const void *)(p))

/* One std of the words hi (at d) and lo (at d + 4); d 8-aligned. Written
 * as asm because GCC splits a 64-bit store of two separately computed
 * words into two st, and the store count is what a copy costs here. The
 * "U" constraint gives the even/odd register pair std needs. */
static inline void st64(unsigned char *d, uint32_t hi, uint32_t lo) {
#if defined(__sparc__)
  uint64_t v = ((uint64_t)hi << 32) | lo;
  __asm__ volatile("std %1, %0" : "=m"(W64(d)) : "U"(v));
#else
  W32(d) = hi;
  W32(d + 4) = lo;
#endif
}

/* dst and src 4-aligned, dst 8-aligned; copies n & ~7 bytes. */
static void copy_fwd_aligned(unsigned char *d, const unsigned char *s, size_t n) {
  if (((uintptr_t)s & 4) == 0) {
    while (n >= 32) {
      uint64_t a = CW64(s), b = CW64(s + 8), c = CW64(s + 16), e = CW64(s + 24);
      W64(d) = a;
      W64(d + 8) = b;
      W64(d + 16) = c;
      W64(d + 24) = e;
      d += 32;
      s += 32;
      n -= 32;
    }
    while (n >= 8) {
      W64(d) = CW64(s);
      d += 8;
      s += 8;
      n -= 8;
    }
  } else {
    while (n >= 32) {
      uint32_t a0 = CW32(s), a1 = CW32(s + 4), b0 = CW32(s + 8), b1 = CW32(s + 12);
      uint32_t c0 = CW32(s + 16), c1 = CW32(s + 20), e0 = CW32(s + 24), e1 = CW32(s + 28);
      st64(d, a0, a1);
      st64(d + 8, b0, b1);
      st64(d + 16, c0, c1);
      st64(d + 24, e0, e1);
      d += 32;
      s += 32;
      n -= 32;
    }
    while (n >= 8) {
      uint32_t a0 = CW32(s), a1 = CW32(s + 4);
      st64(d, a0, a1);
      d += 8;
      s += 8;
      n -= 8;
    }
  }
}

/* dst 8-aligned, src not 4-aligned; copies n & ~7 bytes. Each dst word is
 * (w0 << sh) | (w1 >> (32 - sh)) of two consecutive aligned src words. */
static void copy_fwd_shift(unsigned char *d, const unsigned char *s, size_t n) {
  unsigned sh = 8u * ((uintptr_t)s & 3u), rs = 32u - sh;
  const unsigned char *w = s - ((uintptr_t)s & 3u);
  uint32_t w0 = CW32(w);

  while (n >= 16) {
    uint32_t w1 = CW32(w + 4), w2 = CW32(w + 8), w3 = CW32(w + 12), w4 = CW32(w + 16);
    st64(d, (w0 << sh) | (w1 >> rs), (w1 << sh) | (w2 >> rs));
    st64(d + 8, (w2 << sh) | (w3 >> rs), (w3 << sh) | (w4 >> rs));
    w0 = w4;
    w += 16;
    d += 16;
    n -= 16;
  }
  if (n >= 8) {
    uint32_t w1 = CW32(w + 4), w2 = CW32(w + 8);
    st64(d, (w0 << sh) | (w1 >> rs), (w1 << sh) | (w2 >> rs));
  }
}

void *memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;

  if (n >= MEM_SMALL) {
    size_t bulk;
    while ((uintptr_t)d & 3) {
      *d++ = *s++;
      n--;
    }
    if ((uintptr_t)d & 4) { /* one word to reach 8-byte alignment */
      if (((uintptr_t)s & 3) == 0) {
        W32(d) = CW32(s);
      } else {
        d[0] = s[0];
        d[1] = s[1];
        d[2] = s[2];
        d[3] = s[3];
      }
      d += 4;
      s += 4;
      n -= 4;
    }
    bulk = n & ~(size_t)7;
    if (((uintptr_t)s & 3) == 0)
      copy_fwd_aligned(d, s, bulk);
    else
      copy_fwd_shift(d, s, bulk);
    d += bulk;
    s += bulk;
    n -= bulk;
  }
  while (n--) *d++ = *s++;
  return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;

  if (d == s || n == 0) return dst;
  if (d < s || d >= s + n) return memcpy(dst, src, n); /* forward copy is right for d < s */
  /* Overlap with dst above src: copy backwards. */
  d += n;
  s += n;
  if (n >= MEM_SMALL && (((uintptr_t)d ^ (uintptr_t)s) & 3) == 0) {
    while ((uintptr_t)d & 3) {
      *--d = *--s;
      n--;
    }
    while (n >= 16) {
      uint32_t a = CW32(s - 4), b = CW32(s - 8), c = CW32(s - 12), e = CW32(s - 16);
      W32(d - 4) = a;
      W32(d - 8) = b;
      W32(d - 12) = c;
      W32(d - 16) = e;
      d -= 16;
      s -= 16;
      n -= 16;
    }
    while (n >= 4) {
      d -= 4;
      s -= 4;
      W32(d) = CW32(s);
      n -= 4;
    }
  }
  while (n--) *--d = *--s;
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  uint32_t w = (uint8_t)c;

  w |= w << 8;
  w |= w << 16;
  while (n && ((uintptr_t)d & 3)) {
    *d++ = (unsigned char)c;
    n--;
  }
  while (n >= 4) {
    *(uint32_t *)d = w;
    d += 4;
    n -= 4;
  }
  while (n--) *d++ = (unsigned char)c;
  return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;

  for (; n; n--, p++, q++) {
    if (*p != *q) return *p < *q ? -1 : 1;
  }
  return 0;
}

size_t strlen(const char *s) {
  const char *p = s;

  while (*p) p++;
  return (size_t)(p - s);
}

int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) {
    a++;
    b++;
  }
  return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n) {
  for (; n; n--, a++, b++) {
    if (*a != *b || !*a) return (int)(unsigned char)*a - (int)(unsigned char)*b;
  }
  return 0;
}
