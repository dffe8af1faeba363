/* prof_regions: known workload for the per-function profile and the
 * measured regions (firmware/bsp/region.h, docs/timing.md).
 *
 *   region 1: region_loop(1, 100), cold caches  -> 402 instructions
 *   region 2: region_loop(2, 100) twice, warm   -> 2 entries, 804 instructions
 *   region 3: C code around sum_words(buf, 64) (16 D-cache line fills)
 *
 * The UART output is the same in every mode and on the board.
 */
#include <stdint.h>

#include "bsp.h"
#include "fwlibc.h"
#include "region.h"

void region_warm(void);
uint32_t region_loop(uint32_t id, uint32_t n);
uint32_t sum_words(const uint32_t* p, uint32_t n);

/* 64 words = 16 D-cache lines of 16 bytes, never read before sum_words. */
static uint32_t buf[64] __attribute__((aligned(32)));

REGION_NAME(1, "loop_cold");
REGION_NAME(2, "loop_warm");
REGION_NAME(3, "sum_words");

int main(void) {
  region_warm(); /* region_loop's first I-cache line warm (loops.S) */
  uint32_t a = region_loop(1, 100);
  uint32_t b = region_loop(2, 100);
  uint32_t c = region_loop(2, 100);
  for (uint32_t i = 0; i < 64; ++i) buf[i] = i * 3u; /* write-through, no allocation */
  REGION_BEGIN(3);
  uint32_t s = sum_words(buf, 64);
  REGION_END(3);
  printf("prof_regions: loops %u %u %u\n", (unsigned)a, (unsigned)b, (unsigned)c);
  printf("prof_regions: sum %u\n", (unsigned)s);
  int ok = a == 5050 && b == 5050 && c == 5050 && s == 3u * 2016u;
  printf("prof_regions: %s\n", ok ? "PASS" : "FAIL");
  printf("prof_regions: done\n");
  return ok ? 0 : 1;
}
