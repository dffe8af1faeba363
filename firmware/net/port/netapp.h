/*
 * netapp.h - the board runtime every network program (apps/net_*) shares:
 * the classic poll/input/timer main loop over the GRETH netif glue
 * (greth_netif.h) and the stack (net.h), and the driver, stack and phase
 * statistics lines (firmware/README.md, "Network programs"). It is built on
 * the firmware SDK (sdk/l3vp.h): per-run parameters (fw_params), the
 * GPTIMER clock (tick_ms(), tick_us()) and the JSON result lines. A program
 * describes itself in a struct netapp and calls netapp_run().
 */
#ifndef NETAPP_H
#define NETAPP_H

#include <stdint.h>
#include "fw_params.h"
#include "greth.h"
#include "net.h"
#include "result.h"
#include "tick.h"

/* fw_params.chksum selects the stack's checksum: NET_CHECKSUM_GENERIC8
 * (1), _WORD32 (2), _FAST (3), _HW (4: the checksum engine, found through
 * P&P, else fast); 0 = the build's NET_CHECKSUM. fw_params.window 0 =
 * NET_TCP_RCV_WND. The slot policy times (conn_idle_ms, keepalive_ms,
 * persist_max_ms, evict_idle_ms) go to tcp_set_policy(): 0 = the program's
 * default (struct netapp) or the stack's, FW_PARAMS_OFF = off. */

/* ---- the program ---- */
struct netapp {
  const char *name; /* program name, "app" in JSON lines */
  uint16_t default_port;
  uint32_t default_count;
  uint32_t default_idle_ms;
  void (*start)(void);  /* after net_init: bind/listen */
  int (*done)(void);    /* stop condition reached? */
  void (*report)(void); /* print the program's result JSON line(s) */
  /* Optional, called every loop iteration (senders): return nonzero to
   * keep the loop from sleeping (more work is due at once). */
  int (*poll)(void);
  /* Idle timeout of passively opened TCP connections when fw_params
   * conn_idle_ms is 0 (firmware/net/README.md "Slot policy"; 0: none). */
  uint32_t default_conn_idle_ms;
};

/* Parameters after applying defaults (valid after netapp_run starts). */
extern struct fw_params netapp_p;
/* Time (tick_ms()) of the last received frame. */
extern uint32_t netapp_last_rx_ms;

/* bsp_init, parameters, GRETH, stack, app->start, the main loop until
 * app->done() or the idle/max time; then the JSON report and the stats
 * lines. Returns the exit status (0 = stop condition reached, 1 = timed out,
 * 2 = no GRETH). */
int netapp_run(const struct netapp *app);

/* Data patterns of the simulated host (docs/network.md). */
static inline uint8_t netapp_stream_byte(uint32_t off) { return (uint8_t)(off % 251u); }

#endif /* NETAPP_H */
