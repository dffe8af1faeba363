/*
 * greth_report.c - the GRETH driver's counters as result-line fields
 * (sdk/result.h), shared by every stack's runtime: the "driver" line of
 * our stack's programs and of the lwIP port carries the same keys.
 */
#include "greth_report.h"
#include <stddef.h>

/* In print order: the board-net tests and scripts/measure-net read them by
 * key. */
#define GS(key) \
  { #key, offsetof(struct greth_stats, key) }
static const struct result_counter driver_counters[] = {
    GS(tx_frames),    GS(tx_bytes),    GS(tx_ue),       GS(tx_al),    GS(tx_ring_full_waits),
    GS(tx_drop_full), GS(tx_drop_len), GS(rx_frames),   GS(rx_bytes), GS(rx_le),
    GS(rx_oe),        GS(rx_ce),       GS(rx_ft),       GS(rx_ae),    GS(rx_restarts),
    GS(rx_max_batch), GS(st_ia),       GS(st_ts),       GS(st_ta),    GS(st_ra),
    GS(irqs),         GS(tx_swapped),  GS(tx_in_place), GS(rx_held),  GS(rx_hold_fail),
    GS(rx_ck_ok),     GS(rx_ck_bad),
};
#undef GS

void greth_report_counters(const struct greth *g) {
  result_counters(&g->st, driver_counters, sizeof(driver_counters) / sizeof(driver_counters[0]));
}
