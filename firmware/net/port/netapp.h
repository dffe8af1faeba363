/*
 * netapp.h - the board runtime every network program (apps/net_*) shares:
 * the per-run parameter block fw_params, the GPTIMER tick, the classic
 * poll/input/timer main loop, and the JSON result lines (firmware/README.md,
 * "Network programs"). It sits on the GRETH netif glue (greth_netif.h) and
 * the stack (net.h); a program describes itself in a struct netapp and
 * calls netapp_run().
 */
#ifndef NETAPP_H
#define NETAPP_H

#include <stdint.h>
#include "greth.h"
#include "net.h"

/* ---- per-run parameters (section .params, symbol fw_params) ----
 * leon3vp writes them before the start (--fw-param KEY=VALUE, scenario
 * board.params); models/platform/fw_params.cpp holds the C++ copy of this
 * layout: change both (and FW_PARAMS_VERSION) together. */
#define FW_PARAMS_MAGIC 0x4e455450u /* "NETP" */
#define FW_PARAMS_VERSION 3u
struct fw_params {
  uint32_t magic;     /* FW_PARAMS_MAGIC, else the block is ignored */
  uint32_t version;   /* FW_PARAMS_VERSION */
  uint32_t size;      /* sizeof(struct fw_params) */
  uint32_t board_ip;  /* host order; 0 = default 192.168.0.53 */
  uint32_t netmask;   /* 0 = 255.255.255.0 */
  uint32_t peer_ip;   /* 0 = 192.168.0.55 (the host) */
  uint8_t mac[6];     /* all zero = 02:00:00:00:00:53 */
  uint16_t port;      /* 0 = the program's default port */
  uint32_t window;    /* TCP advertised window, 0 = NET_TCP_RCV_WND */
  uint32_t count;     /* stop after this many packets/connections (0 = default) */
  uint32_t bytes;     /* expected bytes (TCP sink, UDP receive), 0 = any */
  uint32_t idle_ms;   /* stop after this long without traffic once started
                         (0 = program default) */
  uint32_t max_ms;    /* hard stop (0 = none) */
  uint32_t flags;     /* FW_PF_* */
  uint32_t chksum;    /* checksum the stack uses: NET_CHECKSUM_GENERIC8 (1),
                         _WORD32 (2), _FAST (3), _HW (4: the checksum engine,
                         found through P&P, else fast); 0 = the build's
                         NET_CHECKSUM */
  /* version 3 */
  uint32_t seed;      /* mixed into the stack's boot secret (ISNs, IP ids)
                         with the MAC and timer readings; 0 is a value too */
  uint32_t gateway;   /* default gateway, host order; 0 = none (off-link
                         sends fail, ip.drop_no_route) */
};
#define FW_PF_POLLED 0x1u  /* GRETH polled instead of interrupt-driven */
#define FW_PF_VERBOSE 0x2u /* per-packet/connection JSON lines (slow UART!) */
#define FW_PF_VERIFY 0x4u  /* verify received TCP/UDP data patterns */
#define FW_PF_HOLD 0x8u    /* net_tcpsink: keep received segments (tcp_recv_hold) */
#define FW_PF_SIMCHECK 0x10u /* net_tcpsink: hand received data to the simulator's
                               stream checker (bsp/streamcheck.h) */

extern volatile struct fw_params fw_params;

/* ---- the program ---- */
struct netapp {
  const char *name;          /* program name, "app" in JSON lines */
  uint16_t default_port;
  uint32_t default_count;
  uint32_t default_idle_ms;
  void (*start)(void);       /* after net_init: bind/listen */
  int (*done)(void);         /* stop condition reached? */
  void (*report)(void);      /* print the program's result JSON line(s) */
  /* Optional, called every loop iteration (senders): return nonzero to
   * keep the loop from sleeping (more work is due at once). */
  int (*poll)(void);
};

/* Parameters after applying defaults (valid after netapp_run starts). */
extern struct fw_params netapp_p;
/* Where the milliseconds since the start are counted: the 1 ms GPTIMER
 * interrupt is wake-only, so crt0's trap_irq counts it in
 * bsp_irq_wakes[level] and no C handler runs (a zero before netapp_run). */
extern volatile const uint32_t *netapp_ms_counter;
/* Milliseconds since the start (GPTIMER tick). */
#define netapp_ms (*netapp_ms_counter)
/* Time (netapp_ms) of the last received frame. */
extern uint32_t netapp_last_rx_ms;
/* Free-running 1 MHz microsecond counter (GPTIMER timer 2 or ms*1000). */
uint32_t netapp_us(void);

/* bsp_init, parameters, GRETH, stack, app->start, the main loop until
 * app->done() or the idle/max time; then the JSON report and the stats
 * lines. Returns the exit status (0 = stop condition reached, 1 = timed out,
 * 2 = no GRETH). */
int netapp_run(const struct netapp *app);

#if NET_PHASES
/* Print the per-phase totals (net_phase.h) as a "phases" JSON line (the
 * runtime does this after the "stack" line; docs/firmware.md). */
void netapp_report_phases(void);
#endif

/* JSON helpers: a line is {"app":"<name>","type":"<type>", ... }\n */
void netapp_json_begin(const char *type);
void netapp_json_u(const char *key, uint32_t v);
void netapp_json_s(const char *key, const char *v);
void netapp_json_end(void);

/* A uint32_t counter of a struct, printed under `key`: tables of these
 * drive the "driver" and "stack" lines (netapp.c), so adding a counter to
 * a line is one row. */
struct netapp_counter {
  const char *key;
  uint16_t offset;           /* offsetof() of the uint32_t in the struct */
};
/* ,"key":value for each of the n rows, read from the struct at `base`. */
void netapp_json_counters(const void *base, const struct netapp_counter *rows,
                          unsigned n);

/* Data patterns of the simulated host (docs/network.md). */
static inline uint8_t netapp_stream_byte(uint32_t off) { return (uint8_t)(off % 251u); }

#endif /* NETAPP_H */
