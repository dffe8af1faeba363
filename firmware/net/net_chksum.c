/*
 * net_chksum.c - the three Internet checksum implementations (RFC 1071).
 *
 * RFC 1071 facts used here:
 *  - the one's complement sum is commutative and associative, so words can
 *    be added in any order and in wider accumulators, with the carries out
 *    of bit 15 added back in ("end-around carry") at any point;
 *  - it is byte-order independent: summing byte-swapped words gives the
 *    byte-swapped sum. A little-endian 32-bit load therefore yields the
 *    swapped sum, and data starting at an odd address can be summed as if
 *    shifted by one byte and swapped back.
 */
#include "net_chksum.h"

/* Fold a 32-bit accumulator to 16 bits with end-around carries. */
static uint16_t chksum_fold32(uint32_t acc) {
  acc = (acc & 0xffffu) + (acc >> 16);
  acc = (acc & 0xffffu) + (acc >> 16);
  return (uint16_t)acc;
}

/*--------------------------------------------------------------------------*/
uint16_t net_chksum_generic8(uint16_t sum, const void *data, unsigned len) {
  const uint8_t *p = (const uint8_t *)data;
  uint16_t word;

  while (len >= 2) {
    word = (uint16_t)((p[0] << 8) | p[1]);
    sum = (uint16_t)(sum + word);
    if (sum < word) { /* carry out of bit 15: add it back */
      sum++;
    }
    p += 2;
    len -= 2;
  }
  if (len) {
    word = (uint16_t)(p[0] << 8);
    sum = (uint16_t)(sum + word);
    if (sum < word) {
      sum++;
    }
  }
  return sum;
}

/*--------------------------------------------------------------------------*/
uint16_t net_chksum_word32(uint16_t sum, const void *data, unsigned len) {
  const uint8_t *p = (const uint8_t *)data;
  uint32_t acc = sum;

  /* At most 2^16 words of at most 0xffff each per chunk: no overflow. */
  while (len >= 2) {
    unsigned chunk = len > 0x1fffeu ? 0x1fffeu : (len & ~1u);
    unsigned i;
    for (i = 0; i < chunk; i += 2) {
      acc += (uint32_t)((p[i] << 8) | p[i + 1]);
    }
    acc = chksum_fold32(acc);
    p += chunk;
    len -= chunk;
  }
  if (len) {
    acc += (uint32_t)p[0] << 8;
  }
  return chksum_fold32(acc);
}

/*--------------------------------------------------------------------------*/
/* fast: 32-bit words from a 4-byte aligned pointer. */

typedef uint32_t chksum_u32_alias __attribute__((may_alias));
typedef uint16_t chksum_u16_alias __attribute__((may_alias));

#if defined(__sparc__)
/* Sum 32 bytes at the 4-aligned p into acc: eight ld interleaved with one
 * addcc/addxcc chain (each word is used two instructions after its load,
 * so no load-use interlock), then an addx that folds the last carry back
 * in. 17 instructions, one cycle each on LEON3 when the data is cached. */
static inline uint32_t chksum_add32(uint32_t acc, const uint8_t *p) {
  uint32_t t0, t1, t2, t3;
  __asm__(
      "ld [%5], %1\n\t"
      "ld [%5 + 4], %2\n\t"
      "ld [%5 + 8], %3\n\t"
      "addcc %0, %1, %0\n\t"
      "ld [%5 + 12], %4\n\t"
      "addxcc %0, %2, %0\n\t"
      "ld [%5 + 16], %1\n\t"
      "addxcc %0, %3, %0\n\t"
      "ld [%5 + 20], %2\n\t"
      "addxcc %0, %4, %0\n\t"
      "ld [%5 + 24], %3\n\t"
      "addxcc %0, %1, %0\n\t"
      "ld [%5 + 28], %4\n\t"
      "addxcc %0, %2, %0\n\t"
      "addxcc %0, %3, %0\n\t"
      "addxcc %0, %4, %0\n\t"
      "addx %0, 0, %0"
      : "+r"(acc), "=&r"(t0), "=&r"(t1), "=&r"(t2), "=&r"(t3)
      : "r"(p)
      : "cc", "memory");
  return acc;
}

/* Sum 16 bytes at the 4-aligned p into acc: four ld, an addcc/addxcc chain
 * and a final addx that folds the last carry back in. */
static inline uint32_t chksum_add16(uint32_t acc, const uint8_t *p) {
  uint32_t t0, t1, t2, t3;
  __asm__(
      "ld [%5], %1\n\t"
      "ld [%5 + 4], %2\n\t"
      "ld [%5 + 8], %3\n\t"
      "ld [%5 + 12], %4\n\t"
      "addcc %0, %1, %0\n\t"
      "addxcc %0, %2, %0\n\t"
      "addxcc %0, %3, %0\n\t"
      "addxcc %0, %4, %0\n\t"
      "addx %0, 0, %0"
      : "+r"(acc), "=&r"(t0), "=&r"(t1), "=&r"(t2), "=&r"(t3)
      : "r"(p)
      : "cc", "memory");
  return acc;
}

/* acc + w with the carry added back in (addcc, addx). */
static inline uint32_t chksum_addc(uint32_t acc, uint32_t w) {
  __asm__(
      "addcc %0, %1, %0\n\t"
      "addx %0, 0, %0"
      : "+r"(acc)
      : "r"(w)
      : "cc");
  return acc;
}

static inline uint32_t chksum_add4(uint32_t acc, const uint8_t *p) {
  uint32_t t0;
  __asm__(
      "ld [%2], %1\n\t"
      "addcc %0, %1, %0\n\t"
      "addx %0, 0, %0"
      : "+r"(acc), "=&r"(t0)
      : "r"(p)
      : "cc", "memory");
  return acc;
}
#else
/* Portable equivalent: 32-bit add, then add the carry back (what addxcc
 * followed by addx does). */
static inline uint32_t chksum_addc(uint32_t acc, uint32_t w) {
  acc += w;
  return acc + (acc < w);
}

static inline uint32_t chksum_add16(uint32_t acc, const uint8_t *p) {
  const chksum_u32_alias *w = (const chksum_u32_alias *)(const void *)p;
  acc = chksum_addc(acc, w[0]);
  acc = chksum_addc(acc, w[1]);
  acc = chksum_addc(acc, w[2]);
  acc = chksum_addc(acc, w[3]);
  return acc;
}

static inline uint32_t chksum_add4(uint32_t acc, const uint8_t *p) {
  return chksum_addc(acc, *(const chksum_u32_alias *)(const void *)p);
}

static inline uint32_t chksum_add32(uint32_t acc, const uint8_t *p) {
  return chksum_add16(chksum_add16(acc, p), p + 16);
}
#endif

/* Sum of len bytes at the even address p, in native load order, added to
 * acc with end-around carries and returned unfolded (32 bits): the big-
 * endian sum on a big-endian host, the byte-swapped one on a little-endian
 * host. The tail (a halfword, a byte) goes into the same accumulator, so
 * the caller folds once. */
static inline __attribute__((always_inline)) uint32_t chksum_fast_even(uint32_t acc, const uint8_t *p,
                                                                       unsigned len) {
  const uint16_t one = 1;
  int little = *(const uint8_t *)&one == 1;

  if (((uintptr_t)p & 2u) && len >= 2) { /* reach 4-byte alignment */
    acc = chksum_addc(acc, *(const chksum_u16_alias *)(const void *)p);
    p += 2;
    len -= 2;
  }
  while (len >= 32) {
    acc = chksum_add32(acc, p);
    p += 32;
    len -= 32;
  }
  if (len >= 16) {
    acc = chksum_add16(acc, p);
    p += 16;
    len -= 16;
  }
  while (len >= 4) {
    acc = chksum_add4(acc, p);
    p += 4;
    len -= 4;
  }
  if (len >= 2) {
    acc = chksum_addc(acc, *(const chksum_u16_alias *)(const void *)p);
    p += 2;
    len -= 2;
  }
  if (len) { /* last byte: the high half of a big-endian word */
    acc = chksum_addc(acc, little ? (uint32_t)p[0] : (uint32_t)p[0] << 8);
  }
  return acc;
}

/* The odd-address case: the rest is summed by net_chksum_fast itself at
 * the even address p + 1 (one copy of the inlined loop, not two). */
static __attribute__((noinline)) uint16_t chksum_fast_odd(uint16_t sum, const uint8_t *p, unsigned len) {
  uint32_t acc = sum;

  acc += (uint32_t)p[0] << 8;
  acc += net_swap16(net_chksum_fast(0, p + 1, len - 1));
  return chksum_fold32(acc);
}

/* One piece (no partial inlining): it is called through net_chksum_active,
 * and GCC's split off "part" only added a call. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-partial-inlining")))
#endif
uint16_t
net_chksum_fast(uint16_t sum, const void *data, unsigned len) {
  const uint8_t *p = (const uint8_t *)data;
  const uint16_t one = 1;
  uint16_t r;

  if (len == 0) {
    return sum;
  }
  if ((uintptr_t)p & 1u) {
    /* First byte is the high half of the first word; the rest starts at an
     * even address but is shifted by one byte: its sum comes out swapped. */
    return chksum_fast_odd(sum, p, len);
  }
  /* The even case (every header and payload of our frames) inline: a leaf
   * function without a register window or a second call. The data's sum
   * is in native order; sum (big-endian) joins it in the same order. */
  if (*(const uint8_t *)&one == 1) {
    r = net_swap16(chksum_fold32(chksum_fast_even(0, p, len)));
    return chksum_fold32((uint32_t)r + sum);
  }
  return chksum_fold32(chksum_fast_even(sum, p, len));
}

/*--------------------------------------------------------------------------*/
/* Copy and sum in one pass: each word is added from the register it was
 * loaded into, so the sum costs no second read of the destination (which
 * is not in the write-through, no-write-allocate D-cache after the copy). */
#if defined(__sparc__)
/* Copy 16 bytes from the 4-aligned s to the 8-aligned d, summing them.
 * Two doubleword stores instead of four word stores: every store goes
 * through the write-through D-cache to memory, and an AHB write of a
 * doubleword costs little more than one of a word (SDRAM: 6 cycles against
 * 5), so this halves the bus time of the copy, its real limit. The loads
 * stay word loads (s is only 4-aligned: its alignment mod 8 is the
 * caller's). */
static inline uint32_t chksum_copy16d(uint32_t acc, uint8_t *d, const uint8_t *s) {
  uint64_t p0, p1; /* register pairs: %N = even (stored at d), %RN = odd */
  __asm__ volatile(
      "ld [%4], %1\n\t"
      "ld [%4 + 4], %R1\n\t"
      "ld [%4 + 8], %2\n\t"
      "addcc %0, %1, %0\n\t"
      "ld [%4 + 12], %R2\n\t"
      "addxcc %0, %R1, %0\n\t"
      "std %1, [%3]\n\t"
      "addxcc %0, %2, %0\n\t"
      "addxcc %0, %R2, %0\n\t"
      "std %2, [%3 + 8]\n\t"
      "addx %0, 0, %0"
      : "+r"(acc), "=&r"(p0), "=&r"(p1)
      : "r"(d), "r"(s)
      : "cc", "memory");
  return acc;
}
/* The bulk of a copy: 32 bytes per pass while s < end (end - s a positive
 * multiple of 32), d 8-aligned, s 4-aligned. Scheduled for the single-entry
 * write buffer: a doubleword store drains for the SDRAM write latency
 * after it issues, so the four stores stand about 8 cycles apart with the
 * loads and adds between them (33 cycles per pass with the loop overhead,
 * against 2 x 21 for two chksum_copy16d with their stalls). The carry is
 * folded into acc (addx) before the cmp that ends the pass. */
static inline uint32_t chksum_copy32_loop(uint32_t acc, uint8_t **dp, const uint8_t **sp,
                                          const uint8_t *end) {
  uint64_t p0, p1, p2, p3; /* register pairs: %N even, %RN odd */
  uint8_t *d = *dp;
  const uint8_t *s = *sp;
  __asm__ volatile(
      "1:\n\t"
      "ld [%6], %1\n\t"
      "ld [%6 + 4], %R1\n\t"
      "ld [%6 + 8], %2\n\t"
      "addcc %0, %1, %0\n\t"
      "ld [%6 + 12], %R2\n\t"
      "addxcc %0, %R1, %0\n\t"
      "std %1, [%5]\n\t"
      "addxcc %0, %2, %0\n\t"
      "ld [%6 + 16], %3\n\t"
      "addxcc %0, %R2, %0\n\t"
      "ld [%6 + 20], %R3\n\t"
      "ld [%6 + 24], %4\n\t"
      "std %2, [%5 + 8]\n\t"
      "addxcc %0, %3, %0\n\t"
      "ld [%6 + 28], %R4\n\t"
      "addxcc %0, %R3, %0\n\t"
      "addxcc %0, %4, %0\n\t"
      "add %6, 32, %6\n\t"
      "std %3, [%5 + 16]\n\t"
      "addxcc %0, %R4, %0\n\t"
      "addx %0, 0, %0\n\t"
      "cmp %6, %7\n\t"
      "std %4, [%5 + 24]\n\t"
      "bne 1b\n\t"
      " add %5, 32, %5"
      : "+r"(acc), "=&r"(p0), "=&r"(p1), "=&r"(p2), "=&r"(p3), "+r"(d), "+r"(s)
      : "r"(end)
      : "cc", "memory");
  *dp = d;
  *sp = s;
  return acc;
}
#else
static inline uint32_t chksum_copy16d(uint32_t acc, uint8_t *d, const uint8_t *s) {
  unsigned i;
  for (i = 0; i < 16; i += 4) {
    uint32_t w = *(const chksum_u32_alias *)(const void *)(s + i);
    *(chksum_u32_alias *)(void *)(d + i) = w;
    acc = chksum_addc(acc, w);
  }
  return acc;
}

/* The 32-byte passes as two 16-byte ones (no write buffer to schedule for). */
static inline uint32_t chksum_copy32_loop(uint32_t acc, uint8_t **dp, const uint8_t **sp,
                                          const uint8_t *end) {
  for (; *sp != end; *sp += 16, *dp += 16) {
    acc = chksum_copy16d(acc, *dp, *sp);
  }
  return acc;
}
#endif

uint16_t net_chksum_copy(uint16_t sum, void *dst, const void *src, unsigned len) {
  uint8_t *d = (uint8_t *)dst;
  const uint8_t *s = (const uint8_t *)src;
  uint32_t acc = 0;
  const uint16_t one = 1;
  int little = *(const uint8_t *)&one == 1;

  if ((((uintptr_t)d ^ (uintptr_t)s) & 3u) != 0 || ((uintptr_t)d & 1u) != 0) {
    /* Word loads and stores need the same alignment on both sides (the
     * stack arranges it for its bulk path): copy, then sum the copy. */
    memcpy(d, s, len);
    return net_chksum_fast(sum, d, len);
  }
  if (((uintptr_t)d & 2u) && len >= 2) { /* reach 4-byte alignment */
    uint16_t h = *(const chksum_u16_alias *)(const void *)s;
    *(chksum_u16_alias *)(void *)d = h;
    acc = h;
    d += 2;
    s += 2;
    len -= 2;
  }
  if (((uintptr_t)d & 4u) && len >= 4) { /* reach 8-byte alignment */
    uint32_t w = *(const chksum_u32_alias *)(const void *)s;
    *(chksum_u32_alias *)(void *)d = w;
    acc = chksum_fold32(acc) + chksum_fold32(w);
    d += 4;
    s += 4;
    len -= 4;
  }
  if (len >= 32) {
    unsigned n = len & ~31u;
    acc = chksum_copy32_loop(acc, &d, &s, s + n);
    len -= n;
  }
  if (len >= 16) {
    acc = chksum_copy16d(acc, d, s);
    d += 16;
    s += 16;
    len -= 16;
  }
  while (len >= 4) {
    uint32_t w = *(const chksum_u32_alias *)(const void *)s;
    *(chksum_u32_alias *)(void *)d = w;
    acc = chksum_fold32(acc);
    acc += chksum_fold32(w);
    d += 4;
    s += 4;
    len -= 4;
  }
  acc = chksum_fold32(acc);
  if (len >= 2) {
    uint16_t h = *(const chksum_u16_alias *)(const void *)s;
    *(chksum_u16_alias *)(void *)d = h;
    acc += h;
    d += 2;
    s += 2;
    len -= 2;
  }
  if (len) { /* last byte: the high half of a big-endian word */
    d[0] = s[0];
    acc += little ? (uint32_t)s[0] : (uint32_t)s[0] << 8;
  }
  acc = chksum_fold32(acc);
  if (little) acc = net_swap16((uint16_t)acc);
  return chksum_fold32(acc + sum);
}

/*--------------------------------------------------------------------------*/
/* The build's choice (NET_CHECKSUM), by name and function. */
#if NET_CHECKSUM == NET_CHECKSUM_GENERIC8
#define CHKSUM_DEFAULT_NAME "generic8"
#define CHKSUM_DEFAULT_FN net_chksum_generic8
#elif NET_CHECKSUM == NET_CHECKSUM_WORD32
#define CHKSUM_DEFAULT_NAME "word32"
#define CHKSUM_DEFAULT_FN net_chksum_word32
#elif NET_CHECKSUM == NET_CHECKSUM_FAST
#define CHKSUM_DEFAULT_NAME "fast"
#define CHKSUM_DEFAULT_FN net_chksum_fast
#else
#define CHKSUM_DEFAULT_NAME "hw"
#define CHKSUM_DEFAULT_FN net_chksum_hw
#endif

const char *const net_chksum_selected = CHKSUM_DEFAULT_NAME;

static unsigned chksum_active = NET_CHECKSUM; /* NET_CHECKSUM_* value */
#if NET_CHECKSUM_RUNTIME
net_chksum_fn net_chksum_active = CHKSUM_DEFAULT_FN;
#endif

int net_chksum_select(unsigned which) {
  if (which == 0) which = NET_CHECKSUM;
  if (which < NET_CHECKSUM_GENERIC8 || which > NET_CHECKSUM_HW) return -1;
#if NET_CHECKSUM_RUNTIME
  net_chksum_active = net_chksum_variants[which - NET_CHECKSUM_GENERIC8].fn;
#else
  if (which != NET_CHECKSUM) return -1;
#endif
  chksum_active = which;
  return 0;
}

int net_chksum_active_is_fast(void) { return chksum_active == NET_CHECKSUM_FAST; }

const char *net_chksum_active_name(void) {
  return net_chksum_variants[chksum_active - NET_CHECKSUM_GENERIC8].name;
}

/*--------------------------------------------------------------------------*/
uint16_t net_chksum_pseudo(uint32_t src, uint32_t dst, uint8_t proto, const uint8_t *data, unsigned len) {
  /* The pseudo-header's 16-bit words summed in a register and folded (at
   * most six words of 0xffff: no overflow), then one call of the active
   * variant over the data with that as the start: the same sum as summing
   * a 12-byte pseudo-header in memory, without building it and without a
   * second call. */
  uint32_t acc = (src >> 16) + (src & 0xffffu) + (dst >> 16) + (dst & 0xffffu) + proto + (len & 0xffffu);
  return net_chksum(chksum_fold32(acc), data, len);
}
