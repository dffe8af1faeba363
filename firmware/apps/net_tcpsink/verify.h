/*
 * verify.h - the net_tcpsink data check: the simulated host sends byte
 * (i mod 251) at stream offset i (docs/network.md). Exact, but cheap: the
 * bytes are compared four at a time against the arithmetic pattern (a word
 * of four consecutive pattern bytes p, p+1, p+2, p+3 is p * 0x01010101 plus
 * a constant, and the next word is 0x04040404 more) as long as the pattern
 * does not wrap inside the word; only around the wrap at 251 and to align
 * the data to a word are bytes compared one by one. A run of words whose
 * XOR differences are not all zero is counted again byte by byte, so the
 * result is the number of wrong bytes, as the plain byte loop counts them.
 * Header-only so the host tests (testbenches/fw-host/test_sinkverify.cpp)
 * compile the same code.
 */
#ifndef NET_TCPSINK_VERIFY_H
#define NET_TCPSINK_VERIFY_H

#include <stdint.h>

typedef uint32_t sink_word __attribute__((may_alias));

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SINK_WORD_RAMP 0x03020100u /* bytes p, p+1, p+2, p+3 in memory order */
#else
#define SINK_WORD_RAMP 0x00010203u
#endif

/* Big-endian view of the word of bytes p, p+1, p+2, p+3 when the pattern
 * wraps inside it (p = 248, 249, 250): the bytes past 250 are 251 less. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SINK_WRAP(k) ((k) == 0 ? 0xfb000000u : (k) == 1 ? 0xfbfb0000u : 0xfbfbfb00u)
#else
#define SINK_WRAP(k) ((k) == 0 ? 0x000000fbu : (k) == 1 ? 0x0000fbfbu : 0x00fbfbfbu)
#endif

/* Byte-wise count (the reference, and the recount when a word differs). */
static inline uint32_t sink_check_bytes(const uint8_t *d, unsigned n, uint32_t p) {
  uint32_t bad = 0;
  while (n-- > 0) {
    bad += *d++ != p;
    if (++p == 251u) p = 0;
  }
  return bad;
}

#if defined(__sparc__)
/* diff | OR over j < k of w[j] ^ (*exp + j * 0x04040404), *exp advanced
 * past them: one run of words between two wraps of the pattern (62 at
 * most), eight words per pass with each load two or more instructions
 * before its use (no load-use stall) and the xors or-ed in pairs, then the
 * rest one word at a time, all in one piece of code: 36 instructions per
 * 32 bytes and no set-up between the two loops. */
static inline uint32_t sink_run(const sink_word *w, unsigned k, uint32_t *exp, uint32_t diff) {
  uint32_t e = *exp, a, b, c, d;
  const uint32_t step = 0x04040404u;
  __asm__(
      "cmp %[n], 8\n\t"
      "blu 2f\n\t"
      " nop\n"
      "1:\n\t"
      "ld [%[w]], %[a]\n\t"
      "ld [%[w] + 4], %[b]\n\t"
      "ld [%[w] + 8], %[c]\n\t"
      "xor %[a], %[e], %[a]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "ld [%[w] + 12], %[d]\n\t"
      "xor %[b], %[e], %[b]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "or %[a], %[b], %[a]\n\t"
      "xor %[c], %[e], %[c]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "ld [%[w] + 16], %[b]\n\t"
      "xor %[d], %[e], %[d]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "or %[c], %[d], %[c]\n\t"
      "ld [%[w] + 20], %[d]\n\t"
      "or %[a], %[c], %[a]\n\t"
      "xor %[b], %[e], %[b]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "ld [%[w] + 24], %[c]\n\t"
      "xor %[d], %[e], %[d]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "or %[b], %[d], %[b]\n\t"
      "ld [%[w] + 28], %[d]\n\t"
      "xor %[c], %[e], %[c]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "or %[a], %[b], %[a]\n\t"
      "xor %[d], %[e], %[d]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "or %[c], %[d], %[c]\n\t"
      "or %[a], %[c], %[a]\n\t"
      "sub %[n], 8, %[n]\n\t"
      "cmp %[n], 8\n\t"
      "add %[w], 32, %[w]\n\t"
      "bgeu 1b\n\t"
      " or %[diff], %[a], %[diff]\n"
      "2:\n\t"
      "cmp %[n], 0\n\t"
      "be 4f\n\t"
      " nop\n"
      "3:\n\t"
      "ld [%[w]], %[a]\n\t"
      "add %[w], 4, %[w]\n\t"
      "xor %[a], %[e], %[a]\n\t"
      "add %[e], %[k], %[e]\n\t"
      "subcc %[n], 1, %[n]\n\t"
      "bne 3b\n\t"
      " or %[diff], %[a], %[diff]\n"
      "4:"
      : [diff] "+r"(diff), [e] "+r"(e), [w] "+r"(w), [n] "+r"(k), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c),
        [d] "=&r"(d)
      : [k] "r"(step)
      : "cc", "memory");
  *exp = e;
  return diff;
}
#endif

/* Wrong bytes in d[0..n) for a stream that is at offset `off` mod 251 at
 * d[0]. Words all the way once d is aligned: runs of words that do not
 * straddle the wrap against p * 0x01010101 + ramp, the one word that does
 * against the same minus 251 in its wrapped bytes. Only if some word
 * differs is the whole piece counted again byte by byte. */
static inline uint32_t sink_check(const uint8_t *d, unsigned n, uint32_t off) {
  const uint8_t *d0 = d;
  unsigned n0 = n;
  uint32_t p = off % 251u, p0 = p, diff = 0;

  while (((uintptr_t)d & 3u) != 0 && n > 0) { /* head, to a word boundary */
    diff |= *d++ ^ p;
    n--;
    if (++p == 251u) p = 0;
  }
  while (n >= 4) {
    const sink_word *w = (const sink_word *)d;
    unsigned k = (251u - p) / 4u, j; /* whole words before the wrap */
    uint32_t exp = p * 0x01010101u + SINK_WORD_RAMP;
    if (k > n / 4u) k = n / 4u;
#if defined(__sparc__)
    (void)j;
    diff = sink_run(w, k, &exp, diff);
#else
    for (j = 0; j + 4 <= k; j += 4) {
      diff |= (w[j] ^ exp) | (w[j + 1] ^ (exp + 0x04040404u)) | (w[j + 2] ^ (exp + 0x08080808u)) |
              (w[j + 3] ^ (exp + 0x0c0c0c0cu));
      exp += 0x10101010u;
    }
    for (; j < k; j++) {
      diff |= w[j] ^ exp;
      exp += 0x04040404u;
    }
#endif
    d += 4u * k;
    n -= 4u * k;
    p += 4u * k;
    if (p == 251u) {
      p = 0;
    } else if (p > 247u && n >= 4) { /* the word across the wrap */
      diff |= *(const sink_word *)d ^ (exp - SINK_WRAP(p - 248u));
      d += 4;
      n -= 4;
      p -= 247u;
    }
  }
  while (n > 0) { /* tail */
    diff |= *d++ ^ p;
    n--;
    if (++p == 251u) p = 0;
  }
  return diff ? sink_check_bytes(d0, n0, p0) : 0;
}

#endif /* NET_TCPSINK_VERIFY_H */
