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

/* Wrong bytes in d[0..n) for a stream that is at offset `off` mod 251 at
 * d[0]. */
static inline uint32_t sink_check(const uint8_t *d, unsigned n, uint32_t off)
{
  uint32_t bad = 0, p = off % 251u;

  while (n > 0) {
    unsigned k = (251u - p) / 4u; /* whole words before the wrap */
    if (((uintptr_t)d & 3u) == 0 && k > 0 && n >= 4) {
      const sink_word *w = (const sink_word *)d;
      uint32_t exp = p * 0x01010101u + SINK_WORD_RAMP, diff = 0;
      unsigned j;
      if (k > n / 4u)
        k = n / 4u;
      for (j = 0; j + 4 <= k; j += 4) {
        diff |= (w[j] ^ exp) | (w[j + 1] ^ (exp + 0x04040404u)) |
                (w[j + 2] ^ (exp + 0x08080808u)) | (w[j + 3] ^ (exp + 0x0c0c0c0cu));
        exp += 0x10101010u;
      }
      for (; j < k; j++) {
        diff |= w[j] ^ exp;
        exp += 0x04040404u;
      }
      if (diff) { /* count the wrong bytes of the run one by one */
        for (j = 0; j < 4u * k; j++)
          bad += d[j] != (uint8_t)(p + j);
      }
      d += 4u * k;
      n -= 4u * k;
      p += 4u * k;
      if (p == 251u)
        p = 0;
      continue;
    }
    bad += *d != p;
    d++;
    n--;
    if (++p == 251u)
      p = 0;
  }
  return bad;
}

#endif /* NET_TCPSINK_VERIFY_H */
