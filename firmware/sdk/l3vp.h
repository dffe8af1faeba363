/*
 * l3vp.h - the leon3vp firmware SDK: what any bare-metal program needs to
 * use the platform's tools (docs/porting.md).
 *
 *   exit(status)           bsp.h: ends the simulation, leon3vp exits with it
 *   REGION_BEGIN/END/NAME  region.h: measured regions (--stats regions, --vcd)
 *   fw_params_load()       fw_params.h: per-run parameters without a rebuild
 *   result_begin/u/s/end   result.h: JSON result lines for the tools
 *   tick_start/ms/us       tick.h: a 1 ms wake-only tick and a 10 MHz clock
 *   cpu_power_down()       bsp.h: sleep until the next interrupt
 */
#ifndef L3VP_H
#define L3VP_H

#include "bsp.h"
#include "fw_params.h"
#include "fwlibc.h"
#include "region.h"
#include "result.h"
#include "tick.h"

#endif /* L3VP_H */
