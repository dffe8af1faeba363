/*
 * greth_report.h - the GRETH driver's counters in a JSON result line.
 */
#ifndef GRETH_REPORT_H
#define GRETH_REPORT_H

#include "greth.h"
#include "result.h"

/* ,"tx_frames":..,"tx_bytes":.. ... for every counter of g->st. */
void greth_report_counters(const struct greth *g);

#endif /* GRETH_REPORT_H */
