/*
 * net_regions.h - the region ids (region.h) every network stack's port
 * marks, so that the tools (--stats regions, --vcd, scripts/experiment
 * metrics such as regions.net_rxframe) read every stack alike. Phase
 * regions (0x50480001..7) are net_phase.h's.
 */
#ifndef L3VP_NET_REGIONS_H
#define L3VP_NET_REGIONS_H

/* The stack's input of one frame (with the replies it sends at once) */
#define REGION_NET_RX 0x4e455201u
/* The driver's transmit of one frame: copy + descriptor + TE */
#define REGION_NET_TX 0x4e455402u
/* The stack's timers, once per millisecond tick */
#define REGION_NET_TIMER 0x4e455403u
/* One received descriptor in the port's receive poll: take, the stack's
 * input (with the replies and the application callback), release. */
#define REGION_NET_RXFRAME 0x4e455204u
/* The application's own work in a receive callback: RXFRAME minus this is
 * what the driver and the stack cost per datagram. */
#define REGION_NET_APPCB 0x4e455205u

/* Names of the regions above for the tools: invoke once, at file scope, in
 * the port's netif glue (needs region.h). */
#define NET_REGION_NAMES()                    \
  REGION_NAME(REGION_NET_RX, "net_rx");       \
  REGION_NAME(REGION_NET_TX, "net_tx");       \
  REGION_NAME(REGION_NET_TIMER, "net_timer"); \
  REGION_NAME(REGION_NET_RXFRAME, "net_rxframe")

#endif /* L3VP_NET_REGIONS_H */
