/*
 * greth.c - GRLIB GRETH 10/100 MAC driver, netif glue and the board
 * runtime of the network programs (see greth.h).
 */
#include "greth.h"
#include "amba_pnp.h"
#include "bsp.h"
#include "fwlibc.h"
#include "gptimer.h"
#include "irqmp.h"
#include "net_chksum.h"
#include "region.h"

#define REG(g, off) (*(volatile uint32_t *)((g)->base + (off)))
#define SPIN_LIMIT 2000000u

/* Region ids (docs/timing.md "Regions") used by the network programs. */
#define REGION_NET_RX 0x4e455201u    /* net_input() of one frame (incl. replies) */
#define REGION_NET_TX 0x4e455402u    /* greth_send(): copy + descriptor + TE */
#define REGION_NET_TIMER 0x4e455403u /* net_timer_tick() */

struct greth greth0;

static uint32_t txd_table[2 * GRETH_NDESC] __attribute__((aligned(1024)));
static uint32_t rxd_table[2 * GRETH_NDESC] __attribute__((aligned(1024)));
static uint8_t txbufs[GRETH_NDESC][GRETH_BUFSZ] __attribute__((aligned(8)));
static uint8_t rxbufs[GRETH_NDESC][GRETH_BUFSZ] __attribute__((aligned(8)));

static void greth_irq(unsigned level, void *arg)
{
  struct greth *g = arg;
  uint32_t s = REG(g, GRETH_STATUS);

  (void)level;
  REG(g, GRETH_STATUS) = s & GRETH_ST_ALL;
  g->events |= s & GRETH_ST_ALL;
  g->st.irqs++;
}

int greth_mdio_read(struct greth *g, unsigned phy, unsigned reg, uint16_t *val)
{
  uint32_t i, m;

  for (i = 0; i < SPIN_LIMIT && (REG(g, GRETH_MDIO) & GRETH_MDIO_BU); i++)
    ;
  REG(g, GRETH_MDIO) = ((phy & 31u) << 11) | ((reg & 31u) << 6) | GRETH_MDIO_RD;
  for (i = 0; i < SPIN_LIMIT; i++) {
    m = REG(g, GRETH_MDIO);
    if (!(m & GRETH_MDIO_BU))
      break;
  }
  if (i == SPIN_LIMIT || (m & GRETH_MDIO_LF))
    return -1;
  *val = (uint16_t)(m >> 16);
  return 0;
}

int greth_link_up(struct greth *g)
{
  uint16_t v;

  /* BMSR's link bit latches low: read twice for the current state. */
  if (greth_mdio_read(g, 0, PHY_BMSR, &v) < 0 ||
      greth_mdio_read(g, 0, PHY_BMSR, &v) < 0)
    return 0;
  g->phy_bmsr = v;
  return (v & PHY_BMSR_LINK) != 0;
}

static inline uint32_t rx_word0(const struct greth *g, unsigned i)
{
  return GRETH_BD_EN | (g->irq_mode ? GRETH_BD_IE : 0) |
         (i == GRETH_NDESC - 1 ? GRETH_BD_WR : 0);
}

int greth_open(struct greth *g, const uint8_t mac[6], int irq_mode)
{
  struct amba_dev dev;
  uint16_t anar = 0, anlpar = 0;
  uint32_t ctrl, i;
  unsigned n;

  memset(g, 0, sizeof(*g));
  if (!amba_find_apb(AMBA_VENDOR_GAISLER, AMBA_DEVICE_GRETH, 0, &dev))
    return 0;
  g->base = dev.base;
  g->irq = dev.irq;
  g->irq_mode = irq_mode && dev.irq != 0;
  memcpy(g->mac, mac, 6);
  g->txd = txd_table;
  g->rxd = rxd_table;
  g->txbuf = txbufs;
  g->rxbuf = rxbufs;

  /* Software reset; RS stays set while an MDIO transaction runs. */
  REG(g, GRETH_CTRL) = GRETH_CTRL_RS;
  for (i = 0; i < SPIN_LIMIT && (REG(g, GRETH_CTRL) & GRETH_CTRL_RS); i++)
    ;
  REG(g, GRETH_STATUS) = GRETH_ST_ALL;
  REG(g, GRETH_MAC_MSB) = (uint32_t)mac[0] << 8 | mac[1];
  REG(g, GRETH_MAC_LSB) = (uint32_t)mac[2] << 24 | (uint32_t)mac[3] << 16 |
                          (uint32_t)mac[4] << 8 | mac[5];

  for (n = 0; n < GRETH_NDESC; n++) {
    g->txd[2 * n] = 0;
    g->txd[2 * n + 1] = (uint32_t)(uintptr_t)g->txbuf[n];
    g->rxd[2 * n + 1] = (uint32_t)(uintptr_t)g->rxbuf[n];
    g->rxd[2 * n] = rx_word0(g, n);
  }
  REG(g, GRETH_TXDESC) = (uint32_t)(uintptr_t)g->txd;
  REG(g, GRETH_RXDESC) = (uint32_t)(uintptr_t)g->rxd;

  /* PHY: link state and the common duplex ability. */
  g->phy_ok = greth_link_up(g);
  if (greth_mdio_read(g, 0, PHY_ANAR, &anar) == 0 &&
      greth_mdio_read(g, 0, PHY_ANLPAR, &anlpar) == 0)
    g->phy_anlpar = anlpar;
  ctrl = GRETH_CTRL_FD; /* full duplex unless the PHY says half only */
  if (g->phy_ok && (anar & anlpar & 0x01e0u) && !(anar & anlpar & 0x0140u))
    ctrl = 0;
  if (g->irq_mode) {
    irq_set_handler(g->irq, greth_irq, g);
    irqmp_unmask(g->irq);
    ctrl |= GRETH_CTRL_RI;
  }
  REG(g, GRETH_CTRL) = ctrl | GRETH_CTRL_RE;
  return 1;
}

void greth_tx_reclaim(struct greth *g)
{
  while (g->tx_used) {
    uint32_t w0 = g->txd[2 * g->tx_tail];
    if (w0 & GRETH_BD_EN)
      break;
    if (w0 & GRETH_TXBD_UE)
      g->st.tx_ue++;
    if (w0 & GRETH_TXBD_AL)
      g->st.tx_al++;
    g->tx_tail = (g->tx_tail + 1) % GRETH_NDESC;
    g->tx_used--;
  }
}

/* Set TE (and keep RE/TI/RI/FD/PM as they are). A stale RE=1 written
 * back after the MAC cleared it only makes the RX DMA re-read the current
 * descriptor, which clears RE again if it is still not enabled. */
static inline void greth_kick_tx(struct greth *g)
{
  REG(g, GRETH_CTRL) = REG(g, GRETH_CTRL) | GRETH_CTRL_TE;
}

int greth_send(struct greth *g, const uint8_t *frame, unsigned len)
{
  unsigned i, waited = 0;
  uint32_t spin;

  if (len > GRETH_MAXFRAME || len == 0) {
    g->st.tx_drop_len++;
    return -1;
  }
  greth_tx_reclaim(g);
  for (spin = 0; g->tx_used == GRETH_NDESC; spin++) {
    if (spin == SPIN_LIMIT) {
      g->st.tx_drop_full++;
      return -1;
    }
    if (!waited) {
      waited = 1;
      g->st.tx_ring_full_waits++;
      greth_kick_tx(g);
    }
    greth_tx_reclaim(g);
  }
  i = g->tx_head;
  memcpy(g->txbuf[i], frame, len);
  /* word 1 (buffer address) never changes; EN last. */
  g->txd[2 * i] = len | GRETH_BD_EN | (i == GRETH_NDESC - 1 ? GRETH_BD_WR : 0);
  g->tx_head = (i + 1) % GRETH_NDESC;
  g->tx_used++;
  greth_kick_tx(g); /* TE again for every newly enabled descriptor */
  g->st.tx_frames++;
  g->st.tx_bytes += len;
  return 0;
}

void greth_status_service(struct greth *g)
{
  uint32_t s;

  /* Interrupt mode: RI/TI arrive through the handler; IA/TS/TA/RA/PS
   * raise no interrupt, so STATUS is read here in both modes. */
  unsigned pil = g->irq_mode ? pil_set(15) : 0;
  s = REG(g, GRETH_STATUS) & GRETH_ST_ALL;
  if (s)
    REG(g, GRETH_STATUS) = s;
  s |= g->events;
  g->events = 0;
  if (g->irq_mode)
    pil_set(pil);
  if (s & GRETH_ST_IA)
    g->st.st_ia++;
  if (s & GRETH_ST_TS)
    g->st.st_ts++;
  if (s & GRETH_ST_PS)
    g->st.st_ps++;
  if (s & GRETH_ST_TA) {
    /* TX AHB error: TE cleared, descriptor not written back: retry. */
    g->st.st_ta++;
    if (g->tx_used)
      greth_kick_tx(g);
  }
  if (s & GRETH_ST_RA) {
    /* RX AHB error: frame lost, RE cleared. */
    g->st.st_ra++;
    REG(g, GRETH_CTRL) = REG(g, GRETH_CTRL) | GRETH_CTRL_RE;
    g->st.rx_restarts++;
  }
}

int greth_rx_ready(const struct greth *g)
{
  return !(g->rxd[2 * g->rx_next] & GRETH_BD_EN);
}

unsigned greth_rx_poll(struct greth *g)
{
  unsigned n = 0;

  for (;;) {
    unsigned i = g->rx_next;
    uint32_t w0 = g->rxd[2 * i];

    if (w0 & GRETH_BD_EN)
      break;
    NET_PHASE_ENTER(NET_PH_DRIVER);
    if (w0 & GRETH_RXBD_ERR) {
      if (w0 & GRETH_RXBD_LE)
        g->st.rx_le++;
      if (w0 & GRETH_RXBD_OE)
        g->st.rx_oe++;
      if (w0 & GRETH_RXBD_CE)
        g->st.rx_ce++;
      if (w0 & GRETH_RXBD_FT)
        g->st.rx_ft++;
      if (w0 & GRETH_RXBD_AE)
        g->st.rx_ae++;
    } else {
      unsigned len = w0 & GRETH_BD_LEN;
      g->st.rx_frames++;
      g->st.rx_bytes += len;
      /* Zero copy: the stack reads the DMA buffer in place; copy mode:
       * net_input() copies it into net_buf first. Either way the buffer
       * is free again when net_input() returns. */
      NET_PHASE_ENTER(NET_PH_PROTO);
      REGION_BEGIN(REGION_NET_RX);
      net_input(g->rxbuf[i], len);
      REGION_END(REGION_NET_RX);
      NET_PHASE_LEAVE(NET_PH_PROTO);
    }
    g->rxd[2 * i] = rx_word0(g, i);
    g->rx_next = (i + 1) % GRETH_NDESC;
    n++;
    NET_PHASE_LEAVE(NET_PH_DRIVER);
  }
  if (n) {
    if (n > g->st.rx_max_batch)
      g->st.rx_max_batch = n;
    /* Ring exhausted earlier: the MAC turned RE off; descriptors are back. */
    if (!(REG(g, GRETH_CTRL) & GRETH_CTRL_RE)) {
      REG(g, GRETH_CTRL) = REG(g, GRETH_CTRL) | GRETH_CTRL_RE;
      g->st.rx_restarts++;
    }
  }
  return n;
}

net_err_t greth_netif_output(struct netif *nif, const uint8_t *frame,
                             unsigned len)
{
  int r;

  NET_PHASE_ENTER(NET_PH_DRIVER);
  REGION_BEGIN(REGION_NET_TX);
  r = greth_send((struct greth *)nif->state, frame, len);
  REGION_END(REGION_NET_TX);
  NET_PHASE_LEAVE(NET_PH_DRIVER);
  return r == 0 ? NET_OK : NET_ERR_IF;
}

/* ======================================================================
 * Board runtime of the network programs.
 * ==================================================================== */

/* Per-run parameter block. leon3vp overwrites fields before the start
 * (--fw-param, scenario board.params); zero fields mean "default". */
/* The layout leon3vp writes (models/platform/fw_params.cpp, version 2). */
_Static_assert(sizeof(struct fw_params) == 60, "fw_params is 60 bytes");
_Static_assert(offsetof(struct fw_params, port) == 30, "fw_params.port at 30");
_Static_assert(offsetof(struct fw_params, flags) == 52, "fw_params.flags at 52");
_Static_assert(offsetof(struct fw_params, chksum) == 56, "fw_params.chksum at 56");

volatile struct fw_params fw_params __attribute__((section(".params"), aligned(8))) = {
    .magic = FW_PARAMS_MAGIC,
    .version = FW_PARAMS_VERSION,
    .size = sizeof(struct fw_params),
    .flags = FW_PF_VERIFY,
};

struct fw_params netapp_p;
volatile uint32_t netapp_ms;
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

static void tick_irq(unsigned level, void *arg)
{
  (void)level;
  (void)arg;
  netapp_ms++;
  gptimer_ack(&gpt, 1);
}

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

static void report_stats(const char *stop, uint32_t t_ms)
{
  const struct greth_stats *s = &greth0.st;

  netapp_json_begin("driver");
  netapp_json_s("stop", stop);
  netapp_json_u("ms", t_ms);
  netapp_json_s("mode", greth0.irq_mode ? "irq" : "polled");
  netapp_json_u("zero_copy", NET_ZERO_COPY);
  netapp_json_u("link", greth0.phy_ok);
  netapp_json_u("tx_frames", s->tx_frames);
  netapp_json_u("tx_bytes", s->tx_bytes);
  netapp_json_u("tx_ue", s->tx_ue);
  netapp_json_u("tx_al", s->tx_al);
  netapp_json_u("tx_ring_full_waits", s->tx_ring_full_waits);
  netapp_json_u("tx_drop_full", s->tx_drop_full);
  netapp_json_u("tx_drop_len", s->tx_drop_len);
  netapp_json_u("rx_frames", s->rx_frames);
  netapp_json_u("rx_bytes", s->rx_bytes);
  netapp_json_u("rx_le", s->rx_le);
  netapp_json_u("rx_oe", s->rx_oe);
  netapp_json_u("rx_ce", s->rx_ce);
  netapp_json_u("rx_ft", s->rx_ft);
  netapp_json_u("rx_ae", s->rx_ae);
  netapp_json_u("rx_restarts", s->rx_restarts);
  netapp_json_u("rx_max_batch", s->rx_max_batch);
  netapp_json_u("st_ia", s->st_ia);
  netapp_json_u("st_ts", s->st_ts);
  netapp_json_u("st_ta", s->st_ta);
  netapp_json_u("st_ra", s->st_ra);
  netapp_json_u("irqs", s->irqs);
  netapp_json_end();

  netapp_json_begin("stack");
  netapp_json_u("eth_rx", net_stats.eth.rx);
  netapp_json_u("eth_tx", net_stats.eth.tx);
  netapp_json_u("eth_tx_err", net_stats.eth.tx_err);
  netapp_json_u("arp_rx", net_stats.arp.rx);
  netapp_json_u("arp_req_tx", net_stats.arp.req_tx);
  netapp_json_u("arp_reply_tx", net_stats.arp.reply_tx);
  netapp_json_u("ip_rx", net_stats.ip.rx);
  netapp_json_u("ip_tx", net_stats.ip.tx);
  netapp_json_u("ip_drop_chksum", net_stats.ip.drop_chksum);
  netapp_json_u("icmp_echo_rx", net_stats.icmp.echo_rx);
  netapp_json_u("icmp_tx", net_stats.icmp.tx);
  netapp_json_u("udp_rx", net_stats.udp.rx);
  netapp_json_u("udp_tx", net_stats.udp.tx);
  netapp_json_u("udp_drop_chksum", net_stats.udp.drop_chksum);
  netapp_json_u("udp_drop_no_port", net_stats.udp.drop_no_port);
  netapp_json_u("tcp_rx", net_stats.tcp.rx);
  netapp_json_u("tcp_tx", net_stats.tcp.tx);
  netapp_json_u("tcp_drop_chksum", net_stats.tcp.drop_chksum);
  netapp_json_u("tcp_drop_seq", net_stats.tcp.drop_seq);
  netapp_json_u("tcp_drop_ooo", net_stats.tcp.drop_ooo);
  netapp_json_u("tcp_dup", net_stats.tcp.dup);
  netapp_json_u("tcp_trimmed", net_stats.tcp.trimmed);
  netapp_json_u("tcp_rexmit", net_stats.tcp.rexmit);
  netapp_json_u("tcp_rst_rx", net_stats.tcp.rst_rx);
  netapp_json_u("tcp_rst_tx", net_stats.tcp.rst_tx);
  netapp_json_u("tcp_timeouts", net_stats.tcp.timeouts);
  netapp_json_u("err_arg", net_stats.err_arg);
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

int netapp_run(const struct netapp *app)
{
  uint32_t last_ms = 0, now, seed;
  const char *stop;
  int status = 0, busy;
  unsigned n;

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
  irq_set_handler(gptimer_irq(&gpt, 1), tick_irq, 0);
  irqmp_unmask(gptimer_irq(&gpt, 1));
  gptimer_start(&gpt, 1, NETAPP_TICK_HZ / 1000u - 1u, 1, 1); /* 1 ms */

  if (!greth_open(&greth0, netapp_p.mac, !(netapp_p.flags & FW_PF_POLLED))) {
    netapp_json_begin("error");
    netapp_json_s("what", "no GRETH");
    netapp_json_end();
    return 2;
  }
  memcpy(nif.hwaddr, netapp_p.mac, 6);
  nif.ipaddr = netapp_p.board_ip;
  nif.netmask = netapp_p.netmask;
  nif.gw = 0;
  nif.low_level_output = greth_netif_output;
  nif.state = &greth0;
  seed = netapp_us() ^ 0x9e3779b9u;
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

  netapp_last_rx_ms = 0;
  for (;;) {
    greth_status_service(&greth0);
    n = greth_rx_poll(&greth0);
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
      status = 1;
      break;
    }
    /* Interrupt mode: sleep until the next GRETH or timer interrupt. A
     * frame arriving between this check and the power-down is picked up
     * at the next timer tick at the latest (<= 1 ms). */
    if (greth0.irq_mode && !n && !busy && !greth_rx_ready(&greth0) &&
        !greth0.events && netapp_ms == last_ms)
      cpu_power_down();
  }
  /* Let queued frames leave before reporting. */
  for (n = 0; n < SPIN_LIMIT && greth0.tx_used; n++)
    greth_tx_reclaim(&greth0);
  /* Nothing is printed before the end: at 38400 baud a line takes tens of
   * ms, during which frames would pile up in the RX ring. */
  netapp_json_begin("start");
  print_ip("ip", nif.ipaddr);
  print_ip("peer", netapp_p.peer_ip);
  netapp_json_u("port", netapp_p.port);
  netapp_json_u("window", tcp_get_rcv_wnd());
  netapp_json_u("count", netapp_p.count);
  netapp_json_u("idle_ms", netapp_p.idle_ms);
  netapp_json_u("max_ms", netapp_p.max_ms);
  netapp_json_u("flags", netapp_p.flags);
  netapp_json_s("chksum", net_chksum_active_name());
  netapp_json_u("link", greth0.phy_ok);
  netapp_json_s("mode", greth0.irq_mode ? "irq" : "polled");
  netapp_json_end();
  if (app->report)
    app->report();
  report_stats(stop, netapp_ms);
  return status;
}
