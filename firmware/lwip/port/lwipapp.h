/*
 * lwipapp.h - the board runtime of the lwIP programs (firmware/lwip/apps):
 * parameters (sdk/fw_params.h), the GPTIMER clock (sdk/tick.h), the GRETH
 * as lwIP's netif (greth_lwip.h), lwIP's timers, the main loop with
 * power-down while idle, and the result lines (start, the program's own,
 * driver, stack, phases) with the same keys as our stack's runtime
 * (firmware/net/port/netapp.h), so the tools read both alike.
 */
#ifndef LWIPAPP_H
#define LWIPAPP_H

#include <stdint.h>
#include "fw_params.h"
#include "lwip/tcp.h"
#include "lwip/udp.h"
#include "result.h"
#include "tick.h"

struct netif;

/* Exit status after a failed lwIP assertion (LWIP_PLATFORM_ASSERT). */
#define LWIPAPP_EXIT_ASSERT 3

struct lwipapp {
  const char *name; /* program name, "app" in the result lines */
  uint16_t default_port;
  uint32_t default_count;
  uint32_t default_idle_ms;
  void (*start)(void);  /* after the netif is up: bind/listen/connect */
  int (*done)(void);    /* stop condition reached? */
  void (*report)(void); /* print the program's "result" line(s) */
  /* Optional, every loop iteration (senders): nonzero keeps the loop from
   * sleeping (more work is due at once). */
  int (*poll)(void);
};

/* Parameters after applying defaults (valid once lwipapp_run started). */
extern struct fw_params lwipapp_p;
/* The board's netif (valid once lwipapp_run started). */
extern struct netif lwipapp_netif;
/* tick_ms() of the last received frame. */
extern uint32_t lwipapp_last_rx_ms;

/* No TCP connection open or closing (TIME-WAIT ones do not count): a
 * program lingers until then so its last FIN/ACK exchange completes. */
int lwipapp_tcp_all_closed(void);

/* Bind a UDP receive function to fw_params.port / listen for TCP
 * connections on it; on failure an "error" result line names the call
 * (the program then runs without the endpoint and reports nothing
 * received). */
void lwipapp_udp_listen(udp_recv_fn recv);
void lwipapp_tcp_listen(tcp_accept_fn accept);

/* Seed the port's random numbers (TCP ISNs, local ports). */
void lwip_port_seed(uint32_t seed);
/* "lwip" or "net_fast": the checksum routine of this build (chksum.c). */
extern const char *const lwip_port_chksum_name;

/* Start-up, the loop until app->done(), idle_ms without a frame once
 * traffic started, or max_ms; then the result lines. Returns the exit
 * status: 0 stop condition reached, 1 max_ms, 2 no GPTIMER/GRETH or a bad
 * parameter. */
int lwipapp_run(const struct lwipapp *app);

#endif /* LWIPAPP_H */
