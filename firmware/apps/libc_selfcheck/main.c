/*
 * libc_selfcheck - memcpy, memmove and memset of the firmware libc
 * (firmware/lib/string.c) against byte-loop references:
 *
 *   MEMCPY   every length 0..80 and a few long ones (255, 1460) x every
 *            dst and src address mod 8; the return value, the copied
 *            bytes and 16 guard bytes on each side of dst;
 *   MEMMOVE  the same for separate buffers, plus overlapping moves inside
 *            one buffer: every length 0..80 x dst, src offsets 0..11
 *            (both directions, every distance mod 8, dst == src);
 *   MEMSET   every length 0..80 and the long ones x dst mod 8, fill
 *            values 0x00, 0xa5 and 0x1ff (only the low byte counts).
 *
 * One PASS/FAIL line per group (first few mismatches are printed), exit
 * status = failed groups. Board-independent output.
 */
#include <stdint.h>

#include "bsp.h"
#include "fwlibc.h"

#define GUARD 16u
#define MAXLEN 1500u
#define AREA (GUARD + 8u + MAXLEN + GUARD)

static uint8_t src_area[AREA] __attribute__((aligned(8)));
static uint8_t dst_area[AREA] __attribute__((aligned(8)));
static uint8_t ref_area[AREA] __attribute__((aligned(8)));

static const unsigned long_lens[] = {255, 1460};
#define NLONG (sizeof long_lens / sizeof long_lens[0])

static uint32_t rng_state = 0x9e3779b9u;
static uint8_t rnd(void) { return (uint8_t)(fw_xorshift32(&rng_state) >> 7); }

/* References through volatile pointers, so the compiler cannot turn them
 * into calls of the functions under test. */
static void ref_copy(uint8_t *d, const uint8_t *s, unsigned n) {
  volatile uint8_t *vd = d;
  const volatile uint8_t *vs = s;
  unsigned i;
  for (i = 0; i < n; i++) {
    vd[i] = vs[i];
  }
}

static void ref_move(uint8_t *d, const uint8_t *s, unsigned n) {
  static uint8_t tmp[MAXLEN];
  ref_copy(tmp, s, n);
  ref_copy(d, tmp, n);
}

static void ref_fill(uint8_t *d, uint8_t c, unsigned n) {
  volatile uint8_t *vd = d;
  unsigned i;
  for (i = 0; i < n; i++) {
    vd[i] = c;
  }
}

static void randomize(uint8_t *p, unsigned n) {
  unsigned i;
  for (i = 0; i < n; i++) {
    p[i] = rnd();
  }
}

/* Fills the first n bytes of dst_area with a fresh pattern and copies them
 * to ref_area. */
static void prepare(unsigned n) {
  uint8_t b = rnd();
  unsigned i;
  for (i = 0; i < n; i++) {
    dst_area[i] = ref_area[i] = b;
    b = (uint8_t)(b * 5u + 17u);
  }
}

/* Compares the first n bytes of dst_area with ref_area; prints the first
 * difference. */
static int same(const char *what, unsigned n, unsigned len, unsigned da, unsigned sa, int *reported) {
  unsigned i;
  for (i = 0; i < n; i++) {
    if (dst_area[i] != ref_area[i]) {
      if ((*reported)++ < 4) {
        printf("  %s len %u dst+%u src+%u: byte %d is %02x, want %02x\n", what, len, da, sa,
               (int)i - (int)(GUARD + da), dst_area[i], ref_area[i]);
      }
      return 0;
    }
  }
  return 1;
}

static unsigned length(unsigned k) { return k <= 80 ? k : long_lens[k - 81]; }
#define NLENGTHS (81 + NLONG)

/* memcpy or memmove between the two separate areas. */
static int check_copy(int move) {
  const char *name = move ? "memmove" : "memcpy";
  int reported = 0, ok = 1;
  unsigned k, da, sa;
  for (k = 0; k < NLENGTHS; k++) {
    unsigned len = length(k);
    for (da = 0; da < 8; da++) {
      for (sa = 0; sa < 8; sa++) {
        uint8_t *d = dst_area + GUARD + da;
        const uint8_t *s = src_area + GUARD + sa;
        unsigned n = GUARD + da + len + GUARD;
        void *r;
        prepare(n);
        ref_copy(ref_area + GUARD + da, s, len);
        r = move ? memmove(d, s, len) : memcpy(d, s, len);
        if (r != d) {
          if (reported++ < 4) {
            printf("  %s len %u: returned %p, want %p\n", name, len, r, (void *)d);
          }
          ok = 0;
        }
        ok &= same(name, n, len, da, sa, &reported);
      }
    }
  }
  return ok;
}

/* memmove inside dst_area: dst and src offsets 0..11, lengths 0..80. */
static int check_overlap(void) {
  int reported = 0, ok = 1;
  unsigned len, da, sa;
  for (len = 0; len <= 80; len++) {
    for (da = 0; da < 12; da++) {
      for (sa = 0; sa < 12; sa++) {
        uint8_t *d = dst_area + GUARD + da;
        uint8_t *s = dst_area + GUARD + sa;
        unsigned n = GUARD + 12 + len + GUARD;
        void *r;
        prepare(n);
        ref_move(ref_area + GUARD + da, ref_area + GUARD + sa, len);
        r = memmove(d, s, len);
        if (r != d) {
          if (reported++ < 4) {
            printf("  memmove overlap len %u: bad return value\n", len);
          }
          ok = 0;
        }
        ok &= same("memmove overlap", n, len, da, sa, &reported);
      }
    }
  }
  return ok;
}

static int check_memset(void) {
  static const int values[] = {0x00, 0xa5, 0x1ff};
  int reported = 0, ok = 1;
  unsigned k, da, v;
  for (k = 0; k < NLENGTHS; k++) {
    unsigned len = length(k);
    for (da = 0; da < 8; da++) {
      for (v = 0; v < 3; v++) {
        uint8_t *d = dst_area + GUARD + da;
        unsigned n = GUARD + da + len + GUARD;
        void *r;
        prepare(n);
        ref_fill(ref_area + GUARD + da, (uint8_t)values[v], len);
        r = memset(d, values[v], len);
        if (r != d) {
          if (reported++ < 4) {
            printf("  memset len %u: bad return value\n", len);
          }
          ok = 0;
        }
        ok &= same("memset", n, len, da, v, &reported);
      }
    }
  }
  return ok;
}

static int failed;
static void group(const char *name, int ok) {
  printf("%s %s\n", ok ? "PASS" : "FAIL", name);
  failed += !ok;
}

int main(void) {
  randomize(src_area, AREA);
  group("MEMCPY", check_copy(0));
  group("MEMMOVE", check_copy(1) & check_overlap());
  group("MEMSET", check_memset());
  printf("libc_selfcheck: done\n");
  return failed;
}
