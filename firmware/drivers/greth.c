/*
 * greth.c - GRLIB GRETH 10/100 MAC driver (see greth.h).
 */
#include "greth.h"
#include "amba_pnp.h"
#include "bsp.h"
#include "fwlibc.h"
#include "irqmp.h"

#define REG(g, off) (*(volatile uint32_t *)((g)->base + (off)))
#define SPIN_LIMIT 2000000u

struct greth greth0;

static uint32_t txd_table[2 * GRETH_NDESC] __attribute__((aligned(1024)));
static uint32_t rxd_table[2 * GRETH_NDESC] __attribute__((aligned(1024)));
/* Buffers on D-cache lines (16 bytes; 1520 is a multiple): a frame's
 * lines do not depend on what the variables before them take. */
static uint8_t txbufs[GRETH_NDESC][GRETH_BUFSZ] __attribute__((aligned(16)));
static uint8_t rxbufs[GRETH_NDESC][GRETH_BUFSZ] __attribute__((aligned(16)));

int greth_mdio_read(struct greth *g, unsigned phy, unsigned reg, uint16_t *val) {
  uint32_t i, m;

  for (i = 0; i < SPIN_LIMIT && (REG(g, GRETH_MDIO) & GRETH_MDIO_BU); i++)
    ;
  REG(g, GRETH_MDIO) = ((phy & 31u) << 11) | ((reg & 31u) << 6) | GRETH_MDIO_RD;
  for (i = 0; i < SPIN_LIMIT; i++) {
    m = REG(g, GRETH_MDIO);
    if (!(m & GRETH_MDIO_BU)) break;
  }
  if (i == SPIN_LIMIT || (m & GRETH_MDIO_LF)) return -1;
  *val = (uint16_t)(m >> 16);
  return 0;
}

int greth_link_up(struct greth *g) {
  uint16_t v;

  /* BMSR's link bit latches low: read twice for the current state. */
  if (greth_mdio_read(g, 0, PHY_BMSR, &v) < 0 || greth_mdio_read(g, 0, PHY_BMSR, &v) < 0) return 0;
  g->phy_bmsr = v;
  return (v & PHY_BMSR_LINK) != 0;
}

static inline uint32_t rx_word0(const struct greth *g, unsigned i) {
  return GRETH_BD_EN | (g->irq_mode ? GRETH_BD_IE : 0) | (i == GRETH_NDESC - 1 ? GRETH_BD_WR : 0);
}

int greth_open(struct greth *g, const uint8_t mac[6], int irq_mode) {
  struct amba_dev dev;
  uint16_t anar = 0, anlpar = 0;
  uint32_t ctrl, i;
  unsigned n;

  memset(g, 0, sizeof(*g));
  if (!amba_find_apb(AMBA_VENDOR_GAISLER, AMBA_DEVICE_GRETH, 0, &dev)) return 0;
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
  REG(g, GRETH_MAC_LSB) = (uint32_t)mac[2] << 24 | (uint32_t)mac[3] << 16 | (uint32_t)mac[4] << 8 | mac[5];

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
  if (greth_mdio_read(g, 0, PHY_ANAR, &anar) == 0 && greth_mdio_read(g, 0, PHY_ANLPAR, &anlpar) == 0)
    g->phy_anlpar = anlpar;
  /* GRETH_GBIT: its RX descriptors carry checksum results (read by
   * greth_rx_take() whatever this says; for the start line and tests). */
  g->csum_offload = (REG(g, GRETH_CTRL) & GRETH_CTRL_GA) != 0;
  ctrl = GRETH_CTRL_FD; /* full duplex unless the PHY says half only */
  if (g->phy_ok && (anar & anlpar & 0x01e0u) && !(anar & anlpar & 0x0140u)) ctrl = 0;
  if (g->irq_mode) {
    /* No handler: the interrupt only wakes the main loop, which polls the
     * ring and STATUS anyway (a C handler's trap frame and dispatch cost
     * about 300 cycles of every frame's turnaround). */
    irq_set_wake(g->irq);
    irqmp_unmask(g->irq);
    ctrl |= GRETH_CTRL_RI;
  }
  REG(g, GRETH_CTRL) = ctrl | GRETH_CTRL_RE;
  return 1;
}

void greth_tx_reclaim(struct greth *g) {
  while (g->tx_used) {
    uint32_t w0 = g->txd[2 * g->tx_tail];
    if (w0 & GRETH_BD_EN) break;
    if (w0 & GRETH_TXBD_UE) g->st.tx_ue++;
    if (w0 & GRETH_TXBD_AL) g->st.tx_al++;
    g->tx_tail = (g->tx_tail + 1) % GRETH_NDESC;
    g->tx_used--;
  }
}

/* Set TE (and keep RE/TI/RI/FD/PM as they are). A stale RE=1 written
 * back after the MAC cleared it only makes the RX DMA re-read the current
 * descriptor, which clears RE again if it is still not enabled. */
static inline void greth_kick_tx(struct greth *g) { REG(g, GRETH_CTRL) = REG(g, GRETH_CTRL) | GRETH_CTRL_TE; }

/* Wait (bounded) for a free TX descriptor; 0 if none came. */
static int greth_tx_wait_free(struct greth *g) {
  unsigned waited = 0;
  uint32_t spin;

  greth_tx_reclaim(g);
  for (spin = 0; g->tx_used == GRETH_NDESC; spin++) {
    if (spin == SPIN_LIMIT) {
      g->st.tx_drop_full++;
      return 0;
    }
    if (!waited) {
      waited = 1;
      g->st.tx_ring_full_waits++;
      greth_kick_tx(g);
    }
    greth_tx_reclaim(g);
  }
  return 1;
}

/* Enable the descriptor at tx_head with its buffer holding len bytes and
 * kick the MAC first, the bookkeeping after: the frame's time to the wire
 * (the turnaround, docs/firmware.md) ends at the CTRL write. Descriptors
 * the MAC has finished are reclaimed after the kick too (greth_send());
 * the one at tx_head is free (greth_tx_wait_free()). */
static void greth_tx_enable(struct greth *g, unsigned len) {
  unsigned i = g->tx_head;

  /* EN last. */
  g->txd[2 * i] = len | GRETH_BD_EN | (i == GRETH_NDESC - 1 ? GRETH_BD_WR : 0);
  greth_kick_tx(g); /* TE again for every newly enabled descriptor */
  g->tx_head = (i + 1) % GRETH_NDESC;
  g->tx_used++;
  g->st.tx_frames++;
  g->st.tx_bytes += len;
}

uint8_t *greth_tx_buffer(struct greth *g) {
  if (!greth_tx_wait_free(g)) return 0;
  return (uint8_t *)(uintptr_t)g->txd[2 * g->tx_head + 1];
}

int greth_send(struct greth *g, const uint8_t *frame, unsigned len) {
  unsigned i;
  uint8_t *buf;

  if (len > GRETH_MAXFRAME || len == 0) {
    g->st.tx_drop_len++;
    return -1;
  }
  /* A free descriptor at tx_head: reclaiming waits until after the kick
   * (below) unless the ring is full now. */
  if (g->tx_used == GRETH_NDESC && !greth_tx_wait_free(g)) return -1;
  i = g->tx_head;
  buf = (uint8_t *)(uintptr_t)g->txd[2 * i + 1];
  if (frame == buf) {
    /* Built in place by the caller (greth_tx_buffer()): nothing to copy. */
    g->st.tx_in_place++;
  } else if (frame == g->rx_cur) {
    /* The frame is the received one still being processed (a reply built
     * in place, zero-copy stack): give its buffer to the TX descriptor and
     * the TX descriptor's free buffer to the RX descriptor, which
     * greth_rx_release() enables again; nothing is copied. */
    g->txd[2 * i + 1] = (uint32_t)(uintptr_t)frame;
    g->rxd[2 * g->rx_next + 1] = (uint32_t)(uintptr_t)buf;
    g->rx_cur = 0;
    g->st.tx_swapped++;
  } else {
    memcpy(buf, frame, len);
  }
  greth_tx_enable(g, len);
  greth_tx_reclaim(g);
  return 0;
}

void greth_status_service(struct greth *g) {
  uint32_t s;

  /* STATUS is read here in both modes: the interrupt (RI/TI) is wake-only
   * and IA/TS/TA/RA/PS raise none. Nothing else touches STATUS, so no
   * PIL guard is needed. */
  s = REG(g, GRETH_STATUS) & GRETH_ST_ALL;
  if (s) REG(g, GRETH_STATUS) = s;
  if (g->irq_mode) g->st.irqs = bsp_irq_wakes[g->irq];
  if (s & GRETH_ST_IA) g->st.st_ia++;
  if (s & GRETH_ST_TS) g->st.st_ts++;
  if (s & GRETH_ST_PS) g->st.st_ps++;
  if (s & GRETH_ST_TA) {
    /* TX AHB error: TE cleared, descriptor not written back: retry. */
    g->st.st_ta++;
    if (g->tx_used) greth_kick_tx(g);
  }
  if (s & GRETH_ST_RA) {
    /* RX AHB error: frame lost, RE cleared. */
    g->st.st_ra++;
    REG(g, GRETH_CTRL) = REG(g, GRETH_CTRL) | GRETH_CTRL_RE;
    g->st.rx_restarts++;
  }
}

int greth_rx_take(struct greth *g, const uint8_t **frame, unsigned *len) {
  uint32_t w0 = g->rxd[2 * g->rx_next];
  uint32_t c;
  int ck = 0;

  if (w0 & GRETH_RXBD_ERR) {
    if (w0 & GRETH_RXBD_LE) g->st.rx_le++;
    if (w0 & GRETH_RXBD_OE) g->st.rx_oe++;
    if (w0 & GRETH_RXBD_CE) g->st.rx_ce++;
    if (w0 & GRETH_RXBD_FT) g->st.rx_ft++;
    if (w0 & GRETH_RXBD_AE) g->st.rx_ae++;
    return -1;
  }
  /* Word 1, not rxbuf[]: greth_send() may have swapped the buffer. */
  *frame = g->rx_cur = (const uint8_t *)(uintptr_t)g->rxd[2 * g->rx_next + 1];
  *len = w0 & GRETH_BD_LEN;
  /* Checksum offload: a good UDP datagram reads exactly ID|UD, a good TCP
   * segment ID|TD (UD and TD exclude each other); a 10/100 MAC writes 0. */
  c = w0 & GRETH_RXBD_CK;
  if (c) {
    if (c == (GRETH_RXBD_ID | GRETH_RXBD_UD))
      ck = GRETH_RXCK_UDP;
    else if (c == (GRETH_RXBD_ID | GRETH_RXBD_TD))
      ck = GRETH_RXCK_TCP;
    if (ck)
      g->st.rx_ck_ok++;
    else if (c & (GRETH_RXBD_IR | GRETH_RXBD_UR | GRETH_RXBD_TR))
      g->st.rx_ck_bad++;
  }
  g->st.rx_frames++;
  g->st.rx_bytes += *len;
  return ck;
}

void greth_rx_release(struct greth *g) {
  unsigned i = g->rx_next;

  g->rx_cur = 0;
  g->rxd[2 * i] = rx_word0(g, i);
  g->rx_next = (i + 1) % GRETH_NDESC;
}

void greth_rx_batch_end(struct greth *g, unsigned n) {
  if (!n) return;
  if (n > g->st.rx_max_batch) g->st.rx_max_batch = n;
  /* Ring exhausted earlier: the MAC turned RE off; descriptors are back. */
  if (!(REG(g, GRETH_CTRL) & GRETH_CTRL_RE)) {
    REG(g, GRETH_CTRL) = REG(g, GRETH_CTRL) | GRETH_CTRL_RE;
    g->st.rx_restarts++;
  }
}

void greth_tx_drain(struct greth *g) {
  uint32_t n;

  for (n = 0; n < SPIN_LIMIT && g->tx_used; n++) greth_tx_reclaim(g);
}

/* ---- Held receive buffers (zero-copy TCP reassembly) ----
 * The spares are extra buffers, not ring ones: a held buffer leaves the
 * ring and a spare takes its place, so the MAC keeps all 128 descriptors
 * while the stack holds out-of-order segments. */
static uint8_t rxspares[GRETH_RX_SPARES][GRETH_BUFSZ] __attribute__((aligned(16)));

const uint8_t *greth_rx_hold(struct greth *g, const uint8_t *frame) {
  unsigned n;

  if (!g->rx_spare_init) {
    for (n = 0; n < GRETH_RX_SPARES; n++) g->rx_spare[n] = rxspares[n];
    g->rx_nspare = GRETH_RX_SPARES;
    g->rx_spare_init = 1;
  }
  if (frame == 0 || frame != g->rx_cur || g->rx_nspare == 0) {
    g->st.rx_hold_fail++;
    return 0;
  }
  g->rxd[2 * g->rx_next + 1] = (uint32_t)(uintptr_t)g->rx_spare[--g->rx_nspare];
  g->rx_cur = 0; /* greth_send() must not swap it into a TX descriptor */
  g->st.rx_held++;
  return frame;
}

void greth_rx_unhold(struct greth *g, const uint8_t *buf) {
  if (buf != 0 && g->rx_nspare < GRETH_RX_SPARES) g->rx_spare[g->rx_nspare++] = (uint8_t *)(uintptr_t)buf;
}
