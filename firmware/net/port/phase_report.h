/*
 * phase_report.h - the per-phase totals (net_phase.h) as a "phases" result
 * line, for every stack's runtime on the board (docs/firmware.md).
 */
#ifndef PHASE_REPORT_H
#define PHASE_REPORT_H

#include "net_phase.h"

#if NET_PHASES
/* {"app":..,"type":"phases","unit":"us","tick_hz":..,"driver":12.3,...,
 *  "counts":{"driver":..,...},"region_base":1346895873,...} */
void net_phase_report(void);
#endif

#endif /* PHASE_REPORT_H */
