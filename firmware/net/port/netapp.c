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
#include "irqmp.h"
#include "net_chksum.h"
#include "net_phase.h"
#include "region.h"

/* Per-run parameter block. leon3vp overwrites fields before the start
 * (--fw-param, scenario board.params); zero fields mean "default". */
/* The layout leon3vp writes (models/platform/fw_params.cpp, version 3). */
_Static_assert(sizeof(struct fw_params) == 68, "fw_params is 68 bytes");
_Static_assert(offsetof(struct fw_params, port) == 30, "fw_params.port at 30");
_Static_assert(offsetof(struct fw_params, flags) == 52, "fw_params.flags at 52");
_Static_assert(offsetof(struct fw_params, chksum) == 56, "fw_params.chksum at 56");
_Static_assert(offsetof(struct fw_params, seed) == 60, "fw_params.seed at 60");
_Static_assert(offsetof(struct fw_params, gateway) == 64, "fw_params.gateway at 64");

volatile struct fw_params fw_params __attribute__((section(".params"), aligned(8))) = {
    .magic = FW_PARAMS_MAGIC,
    .version = FW_PARAMS_VERSION,
    .size = sizeof(struct fw_params),
    .flags = FW_PF_VERIFY,
};

struct fw_params netapp_p;
static const uint32_t netapp_ms_zero;
volatile const uint32_t *netapp_ms_counter = &netapp_ms_zero;
uint32_t netapp_last_rx_ms;

/* GPTIMER tick: 10 MHz (SRELOAD 3 at 40 MHz; SRELOAD must be at least
 * the number of timers, 2). Timer 1 interrupts every 10 000 ticks (1 ms);
 * timer 2 free-runs (wraps after 429 s) and is the phase clock
 * (0.1 us resolution) and, divided by 10, netapp_us(). */
#define NETAPP_TICK_HZ 10000000u

static struct gptimer gpt;
static int have_us_timer;
static struct netif nif;
static const char *app_name = "net";
static int json_first;

uint32_t netapp_us(void)
{
  /* Timer 2 counts down from 0xffffffff at NETAPP_TICK_HZ (10 MHz). */
  if (have_us_timer)
    return (0xffffffffu - gptimer_value(&gpt, 2)) / (NETAPP_TICK_HZ / 1000000u);
  return netapp_ms * 1000u;
}

void netapp_json_begin(const char *type)
{
  printf("{\"app\":\"%s\",\"type\":\"%s\"", app_name, type);
  json_first = 0;
}

void netapp_json_u(const char *key, uint32_t v) { printf(",\"%s\":%u", key, v); }

void netapp_json_s(const char *key, const char *v) { printf(",\"%s\":\"%s\"", key, v); }

void netapp_json_end(void) { printf("}\n"); }

static void print_ip(const char *key, uint32_t ip)
{
  printf(",\"%s\":\"%u.%u.%u.%u\"", key, ip >> 24, (ip >> 16) & 255u,
         (ip >> 8) & 255u, ip & 255u);
}

static void load_params(const struct netapp *app)
{
  static const uint8_t def_mac[6] = {0x02, 0, 0, 0, 0, 0x53};
  struct fw_params p;
  unsigned i, any = 0;

  memset(&p, 0, sizeof(p));
  if (fw_params.magic == FW_PARAMS_MAGIC && fw_params.version == FW_PARAMS_VERSION) {
    const volatile uint8_t *src = (const volatile uint8_t *)&fw_params;
    uint8_t *dst = (uint8_t *)&p;
    for (i = 0; i < sizeof(p); i++)
      dst[i] = src[i];
  }
  if (!p.board_ip)
    p.board_ip = NET_IP4(192, 168, 0, 53);
  if (!p.netmask)
    p.netmask = NET_IP4(255, 255, 255, 0);
  if (!p.peer_ip)
    p.peer_ip = NET_IP4(192, 168, 0, 55);
  for (i = 0; i < 6; i++)
    any |= p.mac[i];
  if (!any)
    memcpy(p.mac, def_mac, 6);
  if (!p.port)
    p.port = app->default_port;
  if (!p.window)
    p.window = NET_TCP_RCV_WND;
  if (!p.count)
    p.count = app->default_count;
  if (!p.idle_ms)
    p.idle_ms = app->default_idle_ms;
  netapp_p = p;
}

/* The counters of the "driver" and "stack" lines, in print order. The
 * board-net tests and scripts/measure-net read them by key. */
#define GS(key) {#key, offsetof(struct greth_stats, key)}
static const struct netapp_counter driver_counters[] = {
    GS(tx_frames), GS(tx_bytes), GS(tx_ue), GS(tx_al), GS(tx_ring_full_waits),
    GS(tx_drop_full), GS(tx_drop_len), GS(rx_frames), GS(rx_bytes), GS(rx_le),
    GS(rx_oe), GS(rx_ce), GS(rx_ft), GS(rx_ae), GS(rx_restarts), GS(rx_max_batch),
    GS(st_ia), GS(st_ts), GS(st_ta), GS(st_ra), GS(irqs), GS(tx_swapped),
    GS(tx_in_place), GS(rx_held), GS(rx_hold_fail), GS(rx_ck_ok), GS(rx_ck_bad),
};
#undef GS
#define NS(key, field) {key, offsetof(struct net_stats, field)}
static const struct netapp_counter stack_counters[] = {
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
    /* receive side (docs/firmware.md "TCP receive") */
    NS("tcp_ooo_held", tcp.ooo_held),
    NS("tcp_ooo_delivered", tcp.ooo_delivered),
    NS("tcp_ooo_dup", tcp.ooo_dup),
    NS("tcp_app_held", tcp.app_held),
    NS("tcp_app_hold_fail", tcp.app_hold_fail),
    /* receive checksum offload (docs/firmware.md) */
    NS("udp_chk_hw", udp.chk_hw),
    NS("tcp_chk_hw", tcp.chk_hw),
};
#undef NS
#define NROWS(t) (sizeof(t) / sizeof((t)[0]))

void netapp_json_counters(const void *base, const struct netapp_counter *rows,
                          unsigned n)
{
  unsigned i;

  for (i = 0; i < n; i++)
    netapp_json_u(rows[i].key,
                  *(const uint32_t *)((const uint8_t *)base + rows[i].offset));
}

static void report_stats(const char *stop, uint32_t t_ms)
{
  netapp_json_begin("driver");
  netapp_json_s("stop", stop);
  netapp_json_u("ms", t_ms);
  netapp_json_s("mode", greth0.irq_mode ? "irq" : "polled");
  netapp_json_u("csum_offload", (unsigned)greth0.csum_offload);
  netapp_json_u("zero_copy", NET_ZERO_COPY);
  netapp_json_u("link", greth0.phy_ok);
  netapp_json_counters(&greth0.st, driver_counters, NROWS(driver_counters));
  netapp_json_end();

  netapp_json_begin("stack");
  netapp_json_counters(&net_stats, stack_counters, NROWS(stack_counters));
  netapp_json_end();
#if NET_PHASES
  netapp_report_phases();
#endif
}

#if NET_PHASES
/* {"type":"phases","unit":"us","tick_hz":..,"driver":12.3,...,
 *  "counts":{"driver":..,...},"region_base":1346895873,...} */
void netapp_report_phases(void)
{
  uint32_t hz = net_phase_tick_hz();
  unsigned i;

  netapp_json_begin("phases");
  netapp_json_s("unit", "us");
  netapp_json_u("tick_hz", hz);
  for (i = 0; i < NET_PH_N; i++) {
    /* ticks -> us with one decimal (exact for a 10 MHz clock) */
    uint64_t t10 = hz ? (uint64_t)net_phases.ticks[i] * 10000000u / hz : 0;
    printf(",\"%s\":%u.%u", net_phase_names[i], (unsigned)(t10 / 10u),
           (unsigned)(t10 % 10u));
  }
  printf(",\"counts\":{");
  for (i = 0; i < NET_PH_N; i++)
    printf("%s\"%s\":%u", i ? "," : "", net_phase_names[i], net_phases.count[i]);
  printf("}");
  netapp_json_u("region_base", NET_PH_REGION_BASE);
  netapp_json_u("overflow", net_phases.overflow);
  netapp_json_u("mismatch", net_phases.mismatch);
  netapp_json_end();
}
#endif

/* The main loop, a function of its own (noinline) so that leon3.ld can
 * place it with the other hot code, away from the set-up and report code
 * of netapp_run(). Returns the stop reason; *status 1 on max_ms. */
static __attribute__((noinline)) const char *netapp_loop(const struct netapp *app,
                                                        int *status)
{
  uint32_t last_ms = 0, now;
  const char *stop;
  int busy;
  unsigned n;

  netapp_last_rx_ms = 0;
  for (;;) {
    /* Received frames first, the status service (error counters and
     * recovery, which no frame waits for) after them: a frame is served
     * that much sooner after the wake-up. */
    /* More entropy: the timer when the first frame is waiting (before the
     * stack sees it, so the first passive open already uses it). On
     * hardware its arrival is unrelated to the boot; in the simulator it
     * follows the scenario. */
    if (!netapp_last_rx_ms && greth_rx_ready(&greth0))
      net_add_entropy(have_us_timer ? gptimer_value(&gpt, 2) : netapp_ms);
    n = greth_netif_poll(&greth0);
    greth_status_service(&greth0);
    now = netapp_ms;
    if (n)
      netapp_last_rx_ms = now ? now : 1;
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
    if (netapp_p.idle_ms && netapp_last_rx_ms &&
        now - netapp_last_rx_ms >= netapp_p.idle_ms) {
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
    if (greth0.irq_mode && !n && !busy && !greth_rx_ready(&greth0) &&
        netapp_ms == last_ms)
      cpu_power_down();
  }
  return stop;
}

int netapp_run(const struct netapp *app)
{
  uint32_t seed;
  const char *stop;
  int status = 0;

  app_name = app->name;
  load_params(app);

  if (!gptimer_open(&gpt, BSP_CLOCK_HZ, NETAPP_TICK_HZ)) {
    netapp_json_begin("error");
    netapp_json_s("what", "no GPTIMER");
    netapp_json_end();
    return 2;
  }
  if (gpt.ntimers >= 2) {
    gptimer_start(&gpt, 2, 0xffffffffu, 1, 0);
    have_us_timer = 1;
  }
  /* The tick is wake-only (docs/firmware.md "Speed: before and after
   * (issue 15)"): crt0 counts it and returns, about 20 instructions
   * instead of a trap frame, the C dispatch and a handler that acked
   * TCTRL.IP over the APB. IP stays set: GPTIMER pulses the interrupt on
   * every underflow with IE=1 whatever IP holds (models/periph/gptimer). */
  irq_set_wake(gptimer_irq(&gpt, 1));
  netapp_ms_counter = &bsp_irq_wakes[gptimer_irq(&gpt, 1)];
  irqmp_unmask(gptimer_irq(&gpt, 1));
  gptimer_start(&gpt, 1, NETAPP_TICK_HZ / 1000u - 1u, 1, 1); /* 1 ms */

  if (!greth_open(&greth0, netapp_p.mac, !(netapp_p.flags & FW_PF_POLLED))) {
    netapp_json_begin("error");
    netapp_json_s("what", "no GRETH");
    netapp_json_end();
    return 2;
  }
  greth_netif_init(&nif, &greth0);
  nif.ipaddr = netapp_p.board_ip;
  nif.netmask = netapp_p.netmask;
  nif.gw = netapp_p.gateway;
  /* Boot secret (docs/firmware.md "Hardening policy"): the seed parameter,
   * the MAC and IP address (net_init mixes them in), and the raw 10 MHz
   * timer after greth_open, whose MDIO reads of the PHY's link state take
   * a time that varies on hardware (fixed in the simulator). */
  seed = netapp_p.seed ^ (have_us_timer ? gptimer_value(&gpt, 2) : netapp_ms);
  net_init(&nif, seed);
  if (net_chksum_select(netapp_p.chksum) != 0) {
    netapp_json_begin("error");
    netapp_json_s("what", "unknown checksum variant in fw_params.chksum");
    netapp_json_u("chksum", netapp_p.chksum);
    netapp_json_end();
    return 2;
  }
  tcp_set_rcv_wnd((uint16_t)(netapp_p.window > 65535u ? 65535u : netapp_p.window));
#if NET_PHASES
  if (have_us_timer)
    net_phase_start((const volatile uint32_t *)(gpt.base + GPTIMER_TCNT(2)),
                    NETAPP_TICK_HZ);
#endif
  if (app->start)
    app->start();

  stop = netapp_loop(app, &status);
  /* Let queued frames leave before reporting. */
  greth_tx_drain(&greth0);
  /* Nothing is printed before the end: at 38400 baud a line takes tens of
   * ms, during which frames would pile up in the RX ring. */
  netapp_json_begin("start");
  print_ip("ip", nif.ipaddr);
  print_ip("peer", netapp_p.peer_ip);
  print_ip("gateway", nif.gw);
  netapp_json_u("port", netapp_p.port);
  netapp_json_u("window", tcp_get_rcv_wnd());
  netapp_json_u("count", netapp_p.count);
  netapp_json_u("idle_ms", netapp_p.idle_ms);
  netapp_json_u("max_ms", netapp_p.max_ms);
  netapp_json_u("flags", netapp_p.flags);
  netapp_json_s("chksum", net_chksum_active_name());
  netapp_json_u("link", greth0.phy_ok);
  netapp_json_s("mode", greth0.irq_mode ? "irq" : "polled");
  netapp_json_u("csum_offload", (unsigned)greth0.csum_offload);
  netapp_json_end();
  if (app->report)
    app->report();
  report_stats(stop, netapp_ms);
  return status;
}
