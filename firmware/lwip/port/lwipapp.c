/*
 * lwipapp.c - the lwIP programs' board runtime (lwipapp.h).
 */
#include "lwipapp.h"
#include <stddef.h>
#include "bsp.h"
#include "fwlibc.h"
#include "greth.h"
#include "greth_lwip.h"
#include "greth_report.h"
#include "lwip/init.h"
#include "lwip/netif.h"
#include "lwip/priv/tcp_priv.h"
#include "lwip/stats.h"
#include "lwip/tcp.h"
#include "lwip/timeouts.h"
#include "lwip/udp.h"
#include "net_phase.h"
#include "net_regions.h"
#include "netif/ethernet.h"
#include "phase_report.h"
#include "region.h"

struct fw_params lwipapp_p;
struct netif lwipapp_netif;
uint32_t lwipapp_last_rx_ms;
/* TCP_WND (lwipopts.h): the advertised receive window of new connections */
unsigned lwip_port_tcp_wnd = 4 * TCP_MSS;
/* TCP_SND_BUF (lwipopts.h): the send buffer of new connections */
unsigned lwip_port_tcp_sndbuf = 4 * TCP_MSS;

static void load_params(const struct lwipapp *app) {
  struct fw_params d;

  memset(&d, 0, sizeof(d));
  d.port = app->default_port;
  d.window = 4 * TCP_MSS; /* lwIP's default TCP_WND */
  d.count = app->default_count;
  d.idle_ms = app->default_idle_ms;
  fw_params_load(&lwipapp_p, &d);
  lwip_port_tcp_wnd = lwipapp_p.window > 65535u ? 65535u : lwipapp_p.window;
}

int lwipapp_tcp_all_closed(void) { return tcp_active_pcbs == NULL; }

static void endpoint_error(const char *call) {
  result_begin("error");
  result_s("what", call);
  result_end();
}

void lwipapp_udp_listen(udp_recv_fn recv) {
  struct udp_pcb *pcb = udp_new();

  if (!pcb || udp_bind(pcb, IP_ANY_TYPE, lwipapp_p.port) != ERR_OK) {
    endpoint_error("udp_bind");
    return;
  }
  udp_recv(pcb, recv, NULL);
}

void lwipapp_tcp_listen(tcp_accept_fn accept) {
  struct tcp_pcb *pcb = tcp_new();

  if (!pcb || tcp_bind(pcb, IP_ANY_TYPE, lwipapp_p.port) != ERR_OK || !(pcb = tcp_listen(pcb))) {
    endpoint_error("tcp_listen");
    return;
  }
  tcp_accept(pcb, accept);
}

static int fail(const char *what) {
  result_begin("error");
  result_s("what", what);
  result_end();
  return 2;
}

static void netif_start(void) {
  ip4_addr_t ip, mask, gw;

  ip4_addr_set_u32(&ip, lwip_htonl(lwipapp_p.board_ip));
  ip4_addr_set_u32(&mask, lwip_htonl(lwipapp_p.netmask));
  ip4_addr_set_u32(&gw, lwip_htonl(lwipapp_p.gateway));
  netif_add(&lwipapp_netif, &ip, &mask, &gw, &greth0, greth_lwip_init, ethernet_input);
  netif_set_default(&lwipapp_netif);
  netif_set_up(&lwipapp_netif);
}

/* One pass of the loop's timer work, when the millisecond tick moved. */
static void timers(void) {
  REGION_BEGIN(REGION_NET_TIMER);
  sys_check_timeouts();
  REGION_END(REGION_NET_TIMER);
  greth_tx_reclaim(&greth0);
}

/* The main loop; returns the stop reason, *status 1 on max_ms. */
static const char *loop(const struct lwipapp *app, int *status) {
  uint32_t last_ms = 0, now;
  unsigned n;
  int busy;

  for (;;) {
    n = greth_lwip_poll(&greth0, &lwipapp_netif);
    greth_status_service(&greth0);
    now = tick_ms();
    if (n) lwipapp_last_rx_ms = now ? now : 1;
    if (now != last_ms) {
      timers();
      last_ms = now;
    }
    busy = app->poll ? app->poll() : 0;
    if (app->done && app->done()) return "done";
    if (lwipapp_p.idle_ms && lwipapp_last_rx_ms && now - lwipapp_last_rx_ms >= lwipapp_p.idle_ms)
      return "idle";
    if (lwipapp_p.max_ms && now >= lwipapp_p.max_ms) {
      *status = 1;
      return "max";
    }
    /* Sleep until the next GRETH or timer interrupt (both wake-only). */
    if (greth0.irq_mode && !n && !busy && !greth_rx_ready(&greth0) && tick_ms() == last_ms) cpu_power_down();
  }
}

static void report_start(void) {
  result_begin("start");
  result_s("stack", "lwip");
  result_s("lwip", LWIP_VERSION_STRING);
  result_ip("ip", lwipapp_p.board_ip);
  result_ip("peer", lwipapp_p.peer_ip);
  result_ip("gateway", lwipapp_p.gateway);
  result_u("port", lwipapp_p.port);
  result_u("window", lwip_port_tcp_wnd);
  result_u("count", lwipapp_p.count);
  result_u("idle_ms", lwipapp_p.idle_ms);
  result_u("max_ms", lwipapp_p.max_ms);
  result_u("flags", lwipapp_p.flags);
  result_s("chksum", lwip_port_chksum_name);
  result_u("link", greth0.phy_ok);
  result_s("mode", greth0.irq_mode ? "irq" : "polled");
  result_u("csum_offload", (unsigned)greth0.csum_offload);
  result_end();
}

/* lwIP's counters as "<protocol>_<counter>" fields (lwip_stats). */
#define PS(proto, field) \
  { #proto "_" #field, offsetof(struct stats_, proto.field) }
#define PROTO_ROWS(proto)                                                                  \
  PS(proto, xmit), PS(proto, recv), PS(proto, drop), PS(proto, chkerr), PS(proto, lenerr), \
      PS(proto, memerr), PS(proto, proterr), PS(proto, opterr), PS(proto, err)
static const struct result_counter stack_counters[] = {
    PROTO_ROWS(link),
    PROTO_ROWS(etharp),
    PROTO_ROWS(ip),
    PROTO_ROWS(icmp),
    PROTO_ROWS(udp),
    PROTO_ROWS(tcp),
    PS(tcp, rterr),
    PS(ip, rterr),
    /* retransmitted segments, the key our stack's line has */
    {"tcp_rexmit", offsetof(struct stats_, mib2.tcpretranssegs)},
};
#undef PROTO_ROWS
#undef PS
_Static_assert(sizeof(STAT_COUNTER) == 4, "LWIP_STATS_LARGE: 32-bit counters");

static void report_stats(const char *stop) {
  result_begin("driver");
  result_s("stop", stop);
  result_u("ms", tick_ms());
  result_s("mode", greth0.irq_mode ? "irq" : "polled");
  result_u("csum_offload", (unsigned)greth0.csum_offload);
  result_u("zero_copy", 0);
  result_u("link", greth0.phy_ok);
  greth_report_counters(&greth0);
  result_end();

  result_begin("stack");
  result_s("stack", "lwip");
  result_counters(&lwip_stats, stack_counters, sizeof(stack_counters) / sizeof(stack_counters[0]));
  result_end();
#if NET_PHASES
  net_phase_report();
#endif
}

int lwipapp_run(const struct lwipapp *app) {
  const char *stop;
  int status = 0;

  result_app(app->name);
  load_params(app);
  if (!tick_start()) return fail("no GPTIMER");
  if (!greth_open(&greth0, lwipapp_p.mac, !(lwipapp_p.flags & FW_PF_POLLED))) return fail("no GRETH");
  /* The boot secret, as our stack's: the seed parameter, the address and
   * the raw 10 MHz timer after greth_open (whose MDIO reads take a time
   * that varies on hardware). */
  lwip_port_seed(lwipapp_p.seed ^ lwipapp_p.board_ip ^ tick_raw());
  lwip_init();
  netif_start();
#if NET_PHASES
  if (tick_counter_reg()) net_phase_start(tick_counter_reg(), TICK_HZ);
#endif
  if (app->start) app->start();

  stop = loop(app, &status);
  greth_tx_drain(&greth0);
  /* Nothing is printed before the end: the UART is slow. */
  report_start();
  if (app->report) app->report();
  report_stats(stop);
  return status;
}
