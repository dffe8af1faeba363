/*
 * chksum_bench - cycles of the three Internet checksum variants (chksum_hw_bench:
 *   four, with hw on the checksum engine)
 * (firmware/net/net_chksum.h: generic8, word32, fast) and of memcpy, on the
 * board, measured two ways:
 *
 *  1. leon3vp region markers (bsp/region.h): every single call runs inside
 *     its own region, so `leon3vp --stats` "regions" gives per-call cycles,
 *     instructions and cache misses. Region ids (documented in
 *     firmware/README.md and docs/firmware.md):
 *
 *       checksum: 0x43530000 | variant << 12 | size index << 8 | align << 4 | kind
 *       memcpy:   0x4d430000 | case << 4 | kind
 *
 *     variant = index in net_chksum_variants[] (0 generic8, 1 word32,
 *     2 fast); size index into SIZES[] below; align = buffer address mod 4;
 *     kind 0 = cold (D-cache flushed just before, code already in the
 *     I-cache), 1 = warm (the same call again right after the cold one).
 *
 *  2. GPTIMER timer 1 free-running with a 4-clock tick (SRELOAD = 3), read
 *     right before and after each call: `*_tc` fields = ticks x 4 clocks
 *     (includes the call and one APB read; 4-cycle resolution). Works on
 *     real hardware too, where the region markers are dropped stores.
 *
 * Every checksum is compared with a plain reference sum; memcpy results are
 * compared byte by byte. Output: one JSON line per variant and size (arrays
 * over the four alignments) and one per memcpy case; exit status 0 when
 * everything matched, 1 on any mismatch, 2 without a GPTIMER.
 */
#include <stdint.h>

#include "bsp.h"
#include "fwlibc.h"
#include "gptimer.h"
#include "../../net/net_chksum.h"
#include "region.h"

#define CK_REGION(v, si, a, kind) \
  (0x43530000u | ((uint32_t)(v) << 12) | ((uint32_t)(si) << 8) | ((uint32_t)(a) << 4) | (kind))
#define MC_REGION(c, kind) (0x4d430000u | ((uint32_t)(c) << 4) | (kind))

static const unsigned SIZES[] = {64, 256, 512, 1024, 1472, 1500};
#define NSIZES (sizeof SIZES / sizeof SIZES[0])
#ifdef CHKSUM_BENCH_HW
/* chksum_hw_bench (firmware/apps/chksum_hw_bench): the same program with the
 * fourth variant, hw, on the checksum engine (leon3vp --set
 * chksum.enable=true); every length goes to the engine (threshold 1). */
#include "chksum.h"
#define NVARIANTS 4u
static struct chksum_dev engine;
static int engine_sum(uint16_t sum, const void *p, unsigned len, uint16_t *out) {
  return chksum_sum(&engine, sum, p, len, out);
}
#else
#define NVARIANTS 3u /* the software variants */
#endif

/* memcpy cases: 1460 bytes (a TCP MSS) with these (dst, src) offsets from
 * 8-aligned buffers; offset 2 is where frame payloads usually sit. */
#define MC_LEN 1460u
static const unsigned MC_CASES[][2] = {{2, 2}, {0, 0}, {4, 0}, {0, 2}, {1, 3}};
#define NMC (sizeof MC_CASES / sizeof MC_CASES[0])

static uint8_t data[1600 + 16] __attribute__((aligned(32)));
static uint8_t mc_src[MC_LEN + 16] __attribute__((aligned(32)));
static uint8_t mc_dst[MC_LEN + 16] __attribute__((aligned(32)));

static struct gptimer tim;
#define TICK_CLOCKS 4u

/* Flush the whole D-cache (ASI 0x11, hw-reference 7.5); the I-cache keeps
 * the code of the function measured next. */
static inline void dcache_flush(void) { __asm__ volatile("sta %%g0, [%%g0] 0x11" ::: "memory"); }

static inline uint32_t now(void) { return gptimer_value(&tim, 1); }

/* RFC 1071 reference: big-endian 16-bit words, odd byte padded, folded. */
static uint16_t ref_sum(const uint8_t *p, unsigned n, uint32_t acc) {
  unsigned i;
  for (i = 0; i + 1 < n; i += 2) {
    acc += ((uint32_t)p[i] << 8) | p[i + 1];
  }
  if (n & 1u) {
    acc += (uint32_t)p[n - 1] << 8;
  }
  while (acc >> 16) {
    acc = (acc & 0xffffu) + (acc >> 16);
  }
  return (uint16_t)acc;
}

static uint32_t rng_state = 0x2545f491u;
static uint32_t rng(void) { return fw_xorshift32(&rng_state); }

static void print_array(const char *key, const uint32_t *v, unsigned n) {
  unsigned i;
  printf(",\"%s\":[", key);
  for (i = 0; i < n; i++) {
    printf(i ? ",%u" : "%u", (unsigned)v[i]);
  }
  putchar(']');
}

static int bench_chksum(void) {
  unsigned v, si, a;
  int bad = 0;

  for (v = 0; v < NVARIANTS; v++) {
    net_chksum_fn fn = net_chksum_variants[v].fn;
    for (si = 0; si < NSIZES; si++) {
      unsigned n = SIZES[si];
      uint32_t cold_tc[4], warm_tc[4];
      int ok = 1;
      for (a = 0; a < 4; a++) {
        const uint8_t *p = data + a;
        uint16_t init = (uint16_t)rng();
        uint16_t want = ref_sum(p, n, init);
        uint16_t r0, r1;
        uint32_t t0, t1, t2;

        (void)fn(init, data + 8, 16); /* code into the I-cache */
        dcache_flush();
        t0 = now();
        REGION_BEGIN(CK_REGION(v, si, a, 0));
        r0 = fn(init, p, n);
        REGION_END(CK_REGION(v, si, a, 0));
        t1 = now();
        REGION_BEGIN(CK_REGION(v, si, a, 1));
        r1 = fn(init, p, n);
        REGION_END(CK_REGION(v, si, a, 1));
        t2 = now();
        cold_tc[a] = (t0 - t1) * TICK_CLOCKS;
        warm_tc[a] = (t1 - t2) * TICK_CLOCKS;
        if (r0 != want || r1 != want) {
          ok = 0;
          printf("chksum_bench: MISMATCH %s len %u align %u: %x %x want %x\n", net_chksum_variants[v].name, n,
                 a, r0, r1, want);
        }
      }
      printf(
          "{\"app\":\"chksum_bench\",\"type\":\"chksum\",\"variant\":\"%s\",\"v\":%u,"
          "\"size\":%u,\"si\":%u,\"ok\":%d",
          net_chksum_variants[v].name, v, n, si, ok);
      print_array("cold_tc", cold_tc, 4);
      print_array("warm_tc", warm_tc, 4);
      printf("}\n");
      bad += !ok;
    }
  }
  return bad;
}

static int bench_memcpy(void) {
  unsigned c, i;
  int bad = 0;

  for (i = 0; i < sizeof mc_src; i++) {
    mc_src[i] = (uint8_t)rng();
  }
  for (c = 0; c < NMC; c++) {
    uint8_t *d = mc_dst + MC_CASES[c][0];
    const uint8_t *s = mc_src + MC_CASES[c][1];
    uint32_t t0, t1, t2;
    int ok = 1;

    memcpy(mc_dst, mc_src + 8, 16); /* code into the I-cache */
    memset(mc_dst, 0, sizeof mc_dst);
    dcache_flush();
    t0 = now();
    REGION_BEGIN(MC_REGION(c, 0));
    memcpy(d, s, MC_LEN);
    REGION_END(MC_REGION(c, 0));
    t1 = now();
    REGION_BEGIN(MC_REGION(c, 1));
    memcpy(d, s, MC_LEN);
    REGION_END(MC_REGION(c, 1));
    t2 = now();
    for (i = 0; i < sizeof mc_dst; i++) {
      unsigned off = MC_CASES[c][0];
      uint8_t want = (i >= off && i < off + MC_LEN) ? s[i - off] : 0;
      if (mc_dst[i] != want) {
        ok = 0;
      }
    }
    printf(
        "{\"app\":\"chksum_bench\",\"type\":\"memcpy\",\"case\":%u,\"len\":%u,"
        "\"dst_off\":%u,\"src_off\":%u,\"ok\":%d,\"cold_tc\":%u,\"warm_tc\":%u}\n",
        c, MC_LEN, MC_CASES[c][0], MC_CASES[c][1], ok, (unsigned)((t0 - t1) * TICK_CLOCKS),
        (unsigned)((t1 - t2) * TICK_CLOCKS));
    bad += !ok;
  }
  return bad;
}

int main(void) {
  unsigned i;
  int bad;

  if (!gptimer_open(&tim, BSP_CLOCK_HZ, BSP_CLOCK_HZ / TICK_CLOCKS)) {
    printf("{\"app\":\"chksum_bench\",\"type\":\"error\",\"what\":\"no GPTIMER\"}\n");
    return 2;
  }
  gptimer_start(&tim, 1, 0xffffffffu, 1, 0);
#ifdef CHKSUM_BENCH_HW
  if (!chksum_open(&engine)) {
    printf("{\"app\":\"chksum_bench\",\"type\":\"error\",\"what\":\"no checksum engine\"}\n");
    return 2;
  }
  net_chksum_set_engine(engine_sum, 1);
#endif
  for (i = 0; i < sizeof data; i++) {
    data[i] = (uint8_t)rng();
  }
  printf(
      "{\"app\":\"chksum_bench\",\"type\":\"start\",\"variants\":%u,\"sizes\":%u,"
      "\"tick_clocks\":%u,\"selected\":\"%s\"}\n",
      (unsigned)NVARIANTS, (unsigned)NSIZES, TICK_CLOCKS, net_chksum_selected);
  bad = bench_chksum();
  bad += bench_memcpy();
  printf("{\"app\":\"chksum_bench\",\"type\":\"result\",\"failed\":%d}\n", bad);
  return bad ? 1 : 0;
}
