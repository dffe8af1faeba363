/*
 * own-firmware - a program that lives outside the leon3vp tree and uses
 * the firmware SDK (firmware/sdk/l3vp.h): per-run parameters, a named
 * measured region, a JSON result line and the exit status. It sums a
 * buffer of fw_params.bytes bytes (default 1024) fw_params.count times
 * (default 10) with a plain byte loop, the kind of kernel one measures
 * before porting it.
 *
 *   leon3vp --fw-param count=100 --stats s.json own.elf
 *   scripts/experiment run examples/own-firmware/sweep.yaml
 */
#include "l3vp.h"

#define OWN_REGION 0x4f574e01u
REGION_NAME(OWN_REGION, "own_sum");

static uint8_t buf[4096];

static uint32_t sum_bytes(const uint8_t *d, uint32_t n) {
  uint32_t s = 0;

  while (n--) s += *d++;
  return s;
}

int main(void) {
  static const struct fw_params defaults = {.count = 10, .bytes = 1024};
  struct fw_params p;
  uint32_t i, total = 0;

  fw_params_load(&p, &defaults);
  if (p.bytes > sizeof(buf)) {
    result_app("own");
    result_begin("error");
    result_s("what", "bytes larger than the buffer");
    result_u("max", sizeof(buf));
    result_end();
    return 2;
  }
  for (i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)(i * 7u);
  REGION_BEGIN(OWN_REGION);
  for (i = 0; i < p.count; i++) total += sum_bytes(buf, p.bytes);
  REGION_END(OWN_REGION);
  result_app("own");
  result_begin("result");
  result_u("count", p.count);
  result_u("bytes", p.bytes);
  result_u("sum", total);
  result_u("summed", p.count * p.bytes); /* bytes summed: a per-byte divisor */
  result_end();
  return 0;
}
