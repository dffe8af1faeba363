/*
 * netapp.c - the board runtime of the network programs (see netapp.h):
 * parameters, tick, main loop, JSON lines and the statistics report.
 */
#include "netapp.h"
#include <stddef.h>
#include "bsp.h"
#include "fwlibc.h"
#include "gptimer.h"
#include "greth_netif.h"
#include "greth_report.h"
#include "irqmp.h"
#include "net_chksum.h"
#include "net_phase.h"
#include "phase_report.h"
#include "region.h"

struct fw_params netapp_p;
uint32_t netapp_last_rx_ms;
static struct netif nif;

static void load_params(const struct netapp *app) {
  struct fw_params d;

  memset(&d, 0, sizeof(d));
  d.port = app->default_port;
  d.window = NET_TCP_RCV_WND;
  d.count = app->default_count;
  d.idle_ms = app->default_idle_ms;
  fw_params_load(&netapp_p, &d);
}

/* A slot policy time of fw_params: 0 = `dflt`, FW_PARAMS_OFF = 0 (off). */
static uint32_t policy_ms(uint32_t v, uint32_t dflt) { return v == 0 ? dflt : v == FW_PARAMS_OFF ? 0 : v; }

/* The TCP slot policy (firmware/net/README.md "Slot policy") from the
 * parameters. Not inlined: start-up code kept out of netapp_run, whose
 * size the hot-code layout (fw-layout.ld) depends on. */
static __attribute__((noinline)) void netapp_policy(const struct netapp *app) {
  struct tcp_policy pol;

  tcp_get_policy(&pol);
  pol.idle_ms = policy_ms(netapp_p.conn_idle_ms, app->default_conn_idle_ms);
  pol.keepalive_ms = policy_ms(netapp_p.keepalive_ms, pol.keepalive_ms);
  pol.persist_max_ms = policy_ms(netapp_p.persist_max_ms, pol.persist_max_ms);
  pol.evict_idle_ms = policy_ms(netapp_p.evict_idle_ms, pol.evict_idle_ms);
  tcp_set_policy(&pol);
}

/* The counters of the "stack" line, in print order. The board-net tests
 * and scripts/measure-net read them by key. */
#define NS(key, field) \
  { key, offsetof(struct net_stats, field) }
static const struct result_counter stack_counters[] = {
    NS("eth_rx", eth.rx),
    NS("eth_tx", eth.tx),
    NS("eth_tx_err", eth.tx_err),
    NS("arp_rx", arp.rx),
    NS("arp_req_tx", arp.req_tx),
    NS("arp_reply_tx", arp.reply_tx),
    NS("ip_rx", ip.rx),
    NS("ip_tx", ip.tx),
    NS("ip_drop_chksum", ip.drop_chksum),
    NS("icmp_echo_rx", icmp.echo_rx),
    NS("icmp_tx", icmp.tx),
    NS("udp_rx", udp.rx),
    NS("udp_tx", udp.tx),
    NS("udp_drop_chksum", udp.drop_chksum),
    NS("udp_drop_no_port", udp.drop_no_port),
    NS("tcp_rx", tcp.rx),
    NS("tcp_tx", tcp.tx),
    NS("tcp_drop_chksum", tcp.drop_chksum),
    NS("tcp_drop_seq", tcp.drop_seq),
    NS("tcp_drop_ooo", tcp.drop_ooo),
    NS("tcp_dup", tcp.dup),
    NS("tcp_trimmed", tcp.trimmed),
    NS("tcp_rexmit", tcp.rexmit),
    NS("tcp_rst_rx", tcp.rst_rx),
    NS("tcp_rst_tx", tcp.rst_tx),
    NS("tcp_timeouts", tcp.timeouts),
    NS("err_arg", err_arg),
    /* every other drop counter of struct net_stats (after the keys above,
     * whose order the readers of older logs know) */
    NS("eth_drop_short", eth.drop_short),
    NS("eth_drop_too_big", eth.drop_too_big),
    NS("eth_drop_not_for_us", eth.drop_not_for_us),
    NS("eth_drop_type", eth.drop_type),
    NS("arp_drop_malformed", arp.drop_malformed),
    NS("arp_drop_op", arp.drop_op),
    NS("arp_drop_not_for_us", arp.drop_not_for_us),
    NS("arp_drop_queue_full", arp.drop_queue_full),
    NS("arp_drop_unresolved", arp.drop_unresolved),
    NS("ip_drop_short", ip.drop_short),
    NS("ip_drop_version", ip.drop_version),
    NS("ip_drop_hl", ip.drop_hl),
    NS("ip_drop_len", ip.drop_len),
    NS("ip_drop_frag", ip.drop_frag),
    NS("ip_drop_not_for_us", ip.drop_not_for_us),
    NS("ip_drop_src", ip.drop_src),
    NS("ip_drop_proto", ip.drop_proto),
    NS("ip_drop_too_big", ip.drop_too_big),
    NS("icmp_drop_short", icmp.drop_short),
    NS("icmp_drop_chksum", icmp.drop_chksum),
    NS("icmp_drop_type", icmp.drop_type),
    NS("icmp_drop_bcast", icmp.drop_bcast),
    NS("udp_drop_short", udp.drop_short),
    NS("udp_drop_len", udp.drop_len),
    NS("tcp_drop_short", tcp.drop_short),
    NS("tcp_drop_offset", tcp.drop_offset),
    NS("tcp_drop_opt", tcp.drop_opt),
    NS("tcp_drop_no_conn", tcp.drop_no_conn),
    NS("tcp_drop_no_slot", tcp.drop_no_slot),
    NS("tcp_drop_bad_ack", tcp.drop_bad_ack),
    NS("tcp_drop_no_ack", tcp.drop_no_ack),
    NS("tcp_drop_state", tcp.drop_state),
    NS("tcp_drop_bcast", tcp.drop_bcast),
    NS("tcp_dupacks", tcp.dupacks),
    NS("tcp_fast_rexmit", tcp.fast_rexmit),
    NS("tcp_persist_probes", tcp.persist_probes),
    /* hardening (docs/firmware.md "Hardening policy") */
    NS("eth_drop_bad_src", eth.drop_bad_src),
    NS("ip_drop_land", ip.drop_land),
    NS("ip_drop_no_route", ip.drop_no_route),
    NS("arp_conflict", arp.conflict),
    NS("arp_conflict_kept", arp.conflict_kept),
    NS("arp_conflict_dropped", arp.conflict_dropped),
    NS("tcp_syn_evicted", tcp.syn_evicted),
    NS("tcp_syn_expired", tcp.syn_expired),
    NS("tcp_drop_challenge", tcp.drop_challenge),
    NS("tcp_challenge_limited", tcp.challenge_limited),
    NS("arp_drop_land", arp.drop_land),
    NS("rekeys", rekeys),
    /* receive side (docs/firmware.md "TCP receive") */
    NS("tcp_ooo_held", tcp.ooo_held),
    NS("tcp_ooo_delivered", tcp.ooo_delivered),
    NS("tcp_ooo_dup", tcp.ooo_dup),
    NS("tcp_app_held", tcp.app_held),
    NS("tcp_app_hold_fail", tcp.app_hold_fail),
    /* receive checksum offload (docs/firmware.md) */
    NS("udp_chk_hw", udp.chk_hw),
    NS("tcp_chk_hw", tcp.chk_hw),
    /* loss probe (netopts.h NET_TCP_LOSS_PROBE) */
    NS("tcp_loss_probes", tcp.loss_probes),
    /* slot policy (firmware/net/README.md "Slot policy") */
    NS("tcp_idle_timeouts", tcp.idle_timeouts),
    NS("tcp_idle_evicted", tcp.idle_evicted),
    NS("tcp_drop_listen_full", tcp.drop_listen_full),
    NS("tcp_ka_probes", tcp.ka_probes),
    NS("tcp_ka_dropped", tcp.ka_dropped),
};
#undef NS
#define NROWS(t) (sizeof(t) / sizeof((t)[0]))

static void report_stats(const char *stop, uint32_t t_ms) {
  result_begin("driver");
  result_s("stop", stop);
  result_u("ms", t_ms);
  result_s("mode", greth0.irq_mode ? "irq" : "polled");
  result_u("csum_offload", (unsigned)greth0.csum_offload);
  result_u("zero_copy", NET_ZERO_COPY);
  result_u("link", greth0.phy_ok);
  greth_report_counters(&greth0);
  result_end();

  result_begin("stack");
  result_counters(&net_stats, stack_counters, NROWS(stack_counters));
  result_end();
#if NET_PHASES
  net_phase_report();
#endif
}

/* The main loop, a function of its own (noinline) so that leon3.ld can
 * place it with the other hot code, away from the set-up and report code
 * of netapp_run(). Returns the stop reason; *status 1 on max_ms. */
static __attribute__((noinline)) const char *netapp_loop(const struct netapp *app, int *status) {
  uint32_t last_ms = 0, now;
  const char *stop;
  int busy;
  unsigned n;
  /* The entropy source: timer 2's counter register (10 MHz), read in
   * place, or the millisecond count on a board with one timer. */
  const volatile uint32_t *ent = tick_counter_reg();

  if (!ent) ent = tick_ms_counter;
  netapp_last_rx_ms = 0;
  for (;;) {
    /* Received frames first, the status service (error counters and
     * recovery, which no frame waits for) after them: a frame is served
     * that much sooner after the wake-up. */
    n = greth_netif_poll(&greth0);
    greth_status_service(&greth0);
    now = tick_ms();
    if (n) netapp_last_rx_ms = now ? now : 1;
    /* Entropy (docs/firmware.md "Hardening policy"): the 10 MHz timer
     * after every batch of received frames and every tick, into the
     * stack's pool (a load, a rotate and an add; the stack hashes it into
     * its secret before the first ISN and then each NET_SECRET_REKEY_MS).
     * On hardware the reading carries the jitter of the frames' arrival
     * and of the wake-up; in the simulator it follows the scenario. */
    if (n || now != last_ms) net_entropy_mix(*ent);
    if (now != last_ms) {
      REGION_BEGIN(REGION_NET_TIMER);
      net_timer_tick(now - last_ms);
      REGION_END(REGION_NET_TIMER);
      last_ms = now;
      greth_tx_reclaim(&greth0);
    }
    busy = app->poll ? app->poll() : 0;
    if (app->done && app->done()) {
      stop = "done";
      break;
    }
    if (netapp_p.idle_ms && netapp_last_rx_ms && now - netapp_last_rx_ms >= netapp_p.idle_ms) {
      stop = "idle";
      break;
    }
    if (netapp_p.max_ms && now >= netapp_p.max_ms) {
      stop = "max";
      *status = 1;
      break;
    }
    /* Interrupt mode: sleep until the next GRETH or timer interrupt. A
     * frame arriving between this check and the power-down is picked up
     * at the next timer tick at the latest (<= 1 ms). */
    if (greth0.irq_mode && !n && !busy && !greth_rx_ready(&greth0) && tick_ms() == last_ms) cpu_power_down();
  }
  return stop;
}

int netapp_run(const struct netapp *app) {
  uint32_t seed;
  const char *stop;
  int status = 0;

  result_app(app->name);
  load_params(app);

  /* The tick is wake-only (docs/firmware.md "The fast path"): crt0 counts it and returns, about 20
   * instructions instead of a trap frame, the C dispatch and a handler. */
  if (!tick_start()) {
    result_begin("error");
    result_s("what", "no GPTIMER");
    result_end();
    return 2;
  }

  if (!greth_open(&greth0, netapp_p.mac, !(netapp_p.flags & FW_PF_POLLED))) {
    result_begin("error");
    result_s("what", "no GRETH");
    result_end();
    return 2;
  }
  greth_netif_init(&nif, &greth0);
  nif.ipaddr = netapp_p.board_ip;
  nif.netmask = netapp_p.netmask;
  nif.gw = netapp_p.gateway;
  /* Boot secret (docs/firmware.md "Hardening policy"): the seed parameter,
   * the MAC and IP address (net_init mixes them in), and the raw 10 MHz
   * timer after greth_open, whose MDIO reads of the PHY's link state take
   * a time that varies on hardware (fixed in the simulator). The loop
   * adds timer readings at every frame and tick (net_entropy_mix). */
  seed = netapp_p.seed ^ tick_raw();
  net_init(&nif, seed);
  if (net_chksum_select(netapp_p.chksum) != 0) {
    result_begin("error");
    result_s("what", "unknown checksum variant in fw_params.chksum");
    result_u("chksum", netapp_p.chksum);
    result_end();
    return 2;
  }
  tcp_set_rcv_wnd((uint16_t)(netapp_p.window > 65535u ? 65535u : netapp_p.window));
  netapp_policy(app);
#if NET_PHASES
  if (tick_counter_reg()) net_phase_start(tick_counter_reg(), TICK_HZ);
#endif
  if (app->start) app->start();

  stop = netapp_loop(app, &status);
  /* Let queued frames leave before reporting. */
  greth_tx_drain(&greth0);
  /* Nothing is printed before the end: at 38400 baud a line takes tens of
   * ms, during which frames would pile up in the RX ring. */
  result_begin("start");
  result_ip("ip", nif.ipaddr);
  result_ip("peer", netapp_p.peer_ip);
  result_ip("gateway", nif.gw);
  result_u("port", netapp_p.port);
  result_u("window", tcp_get_rcv_wnd());
  result_u("count", netapp_p.count);
  result_u("idle_ms", netapp_p.idle_ms);
  result_u("max_ms", netapp_p.max_ms);
  result_u("flags", netapp_p.flags);
  result_s("chksum", net_chksum_active_name());
  result_u("link", greth0.phy_ok);
  result_s("mode", greth0.irq_mode ? "irq" : "polled");
  result_u("csum_offload", (unsigned)greth0.csum_offload);
  result_end();
  if (app->report) app->report();
  report_stats(stop, tick_ms());
  return status;
}
