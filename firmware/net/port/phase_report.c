/*
 * phase_report.c - the "phases" result line (phase_report.h).
 */
#include "phase_report.h"
#include "fwlibc.h"
#include "result.h"

#if NET_PHASES
void net_phase_report(void) {
  uint32_t hz = net_phase_tick_hz();
  unsigned i;

  result_begin("phases");
  result_s("unit", "us");
  result_u("tick_hz", hz);
  for (i = 0; i < NET_PH_N; i++) {
    /* ticks -> us with one decimal (exact for a 10 MHz clock) */
    uint64_t t10 = hz ? (uint64_t)net_phases.ticks[i] * 10000000u / hz : 0;
    result_tenths(net_phase_names[i], (uint32_t)t10);
  }
  printf(",\"counts\":{");
  for (i = 0; i < NET_PH_N; i++) printf("%s\"%s\":%u", i ? "," : "", net_phase_names[i], net_phases.count[i]);
  printf("}");
  result_u("region_base", NET_PH_REGION_BASE);
  result_u("overflow", net_phases.overflow);
  result_u("mismatch", net_phases.mismatch);
  result_end();
}
#endif
