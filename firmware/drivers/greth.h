/*
 * greth.h - GRLIB GRETH 10/100 MAC driver (hw-reference section 3).
 *
 * One MAC, 128 TX and 128 RX descriptors (1 KiB-aligned tables), one
 * 1520-byte buffer per descriptor (a pool of 256: a buffer moves from an
 * RX to a TX descriptor and back when greth_send() transmits a received
 * frame in place, so a descriptor's buffer is its word 1, not a fixed one). Ownership is the descriptor's EN
 * bit; WR is set on descriptor 127 every time it is (re)enabled (the MAC clears WR on write-back). TE is
 * written after every newly enabled TX descriptor; RE is written again whenever descriptors are returned and
 * the MAC has turned it off (ring exhausted) or after an RX AHB error.
 *
 * The driver relies on the D-cache snooping DMA writes (the GR-XC3S-1500
 * template has it, crt0 sets CCR.DS), so descriptors and received data are
 * read with ordinary loads.
 *
 * A driver only: it knows descriptors and registers, not the TCP/IP stack.
 * The glue to the stack (netif output, received frames into net_input) is
 * firmware/net/port/greth_netif.c, the board runtime of the network
 * programs firmware/net/port/netapp.c (firmware/README.md, "Network
 * programs").
 */
#ifndef GRETH_H
#define GRETH_H

#include <stdint.h>

/* ---- registers (APB offsets) ---- */
#define GRETH_CTRL 0x00
#define GRETH_STATUS 0x04
#define GRETH_MAC_MSB 0x08
#define GRETH_MAC_LSB 0x0c
#define GRETH_MDIO 0x10
#define GRETH_TXDESC 0x14
#define GRETH_RXDESC 0x18

#define GRETH_CTRL_TE (1u << 0)
#define GRETH_CTRL_RE (1u << 1)
#define GRETH_CTRL_TI (1u << 2)
#define GRETH_CTRL_RI (1u << 3)
#define GRETH_CTRL_FD (1u << 4)
#define GRETH_CTRL_PM (1u << 5)
#define GRETH_CTRL_RS (1u << 6)
#define GRETH_CTRL_GA (1u << 27) /* GRETH_GBIT: checksum offload present */

#define GRETH_ST_RE (1u << 0)
#define GRETH_ST_TE (1u << 1)
#define GRETH_ST_RI (1u << 2)
#define GRETH_ST_TI (1u << 3)
#define GRETH_ST_RA (1u << 4)
#define GRETH_ST_TA (1u << 5)
#define GRETH_ST_TS (1u << 6)
#define GRETH_ST_IA (1u << 7)
#define GRETH_ST_PS (1u << 8)
#define GRETH_ST_ALL 0x1ffu

#define GRETH_MDIO_WR (1u << 0)
#define GRETH_MDIO_RD (1u << 1)
#define GRETH_MDIO_LF (1u << 2)
#define GRETH_MDIO_BU (1u << 3)

/* descriptor word 0 */
#define GRETH_BD_LEN 0x7ffu
#define GRETH_BD_EN (1u << 11)
#define GRETH_BD_WR (1u << 12)
#define GRETH_BD_IE (1u << 13)
#define GRETH_TXBD_UE (1u << 14)
#define GRETH_TXBD_AL (1u << 15)
#define GRETH_RXBD_AE (1u << 14)
#define GRETH_RXBD_FT (1u << 15)
#define GRETH_RXBD_CE (1u << 16)
#define GRETH_RXBD_OE (1u << 17)
#define GRETH_RXBD_LE (1u << 18)
#define GRETH_RXBD_ERR (GRETH_RXBD_AE | GRETH_RXBD_FT | GRETH_RXBD_CE | GRETH_RXBD_OE | GRETH_RXBD_LE)
/* GRETH_GBIT receive checksum offload (hw-reference 3.7); the 10/100
 * writes these bits as 0 */
#define GRETH_RXBD_ID (1u << 19) /* IPv4 packet */
#define GRETH_RXBD_IR (1u << 20) /* IP header checksum error */
#define GRETH_RXBD_UD (1u << 21) /* UDP datagram */
#define GRETH_RXBD_UR (1u << 22) /* UDP checksum error */
#define GRETH_RXBD_TD (1u << 23) /* TCP segment */
#define GRETH_RXBD_TR (1u << 24) /* TCP checksum error */
#define GRETH_RXBD_IF (1u << 25) /* IP fragment: UDP/TCP results not valid */
#define GRETH_RXBD_CK                                                                              \
  (GRETH_RXBD_ID | GRETH_RXBD_IR | GRETH_RXBD_UD | GRETH_RXBD_UR | GRETH_RXBD_TD | GRETH_RXBD_TR | \
   GRETH_RXBD_IF)
/* What greth_rx_take() reports of them: the MAC confirmed the checksum of
 * a whole, unfragmented IPv4 datagram with a good header. Nothing else
 * (no offload, an error bit, a fragment) confirms anything: the stack
 * then checks itself. */
#define GRETH_RXCK_UDP 1u /* the UDP checksum is right (or none was sent) */
#define GRETH_RXCK_TCP 2u /* the TCP checksum is right */

#define GRETH_NDESC 128
#define GRETH_BUFSZ 1520
#define GRETH_MAXFRAME 1514
/* Spare receive buffers for greth_rx_hold() (at least the stack's
 * NET_TCP_RX_HOLD). */
#define GRETH_RX_SPARES 8

/* PHY (clause 22) */
#define PHY_BMCR 0
#define PHY_BMSR 1
#define PHY_ANAR 4
#define PHY_ANLPAR 5
#define PHY_BMSR_LINK (1u << 2)

struct greth_stats {
  uint32_t tx_frames, tx_bytes;
  uint32_t tx_ue, tx_al;       /* TX descriptor errors by reason */
  uint32_t tx_ring_full_waits; /* output had to wait for a descriptor */
  uint32_t tx_drop_full;       /* ... and gave up (frame dropped) */
  uint32_t tx_drop_len;        /* frame longer than 1514 bytes */
  uint32_t rx_frames, rx_bytes;
  uint32_t rx_le, rx_oe, rx_ce, rx_ft, rx_ae; /* RX descriptor errors */
  uint32_t rx_ck_ok;                          /* frames whose UDP/TCP checksum the MAC confirmed */
  uint32_t rx_ck_bad;   /* ... reported as wrong (IR, UR or TR; the stack checks again) */
  uint32_t rx_restarts; /* RE written again (ring was exhausted) */
  uint32_t st_ia, st_ts, st_ta, st_ra, st_ps; /* STATUS error bits seen */
  uint32_t irqs;                              /* GRETH interrupts (irq mode): wake-ups */
  uint32_t rx_max_batch;                      /* most frames found ready in one poll */
  uint32_t tx_swapped;                        /* frames sent from their RX buffer, no copy */
  uint32_t tx_in_place;                       /* frames built in a TX buffer, no copy */
  uint32_t rx_held;                           /* RX buffers kept out of the ring (greth_rx_hold) */
  uint32_t rx_hold_fail;                      /* ... refused: no spare buffer */
};

struct greth {
  uintptr_t base;
  unsigned irq;
  uint8_t mac[6];
  int irq_mode;                 /* RI interrupts on (else polled) */
  int csum_offload;             /* CTRL.GA: RX descriptors carry checksum results */
  volatile uint32_t *txd, *rxd; /* descriptor tables (2 words each) */
  uint8_t (*txbuf)[GRETH_BUFSZ], (*rxbuf)[GRETH_BUFSZ];
  unsigned tx_head, tx_tail, tx_used;
  unsigned rx_next;
  const uint8_t *rx_cur; /* buffer of the taken RX descriptor, or 0 */
  uint16_t phy_bmsr, phy_anlpar;
  int phy_ok;
  struct greth_stats st;
  uint8_t *rx_spare[GRETH_RX_SPARES]; /* free spare buffers (greth_rx_hold) */
  unsigned rx_nspare;                 /* entries in rx_spare[] */
  int rx_spare_init;                  /* rx_spare[] filled (first hold) */
};

extern struct greth greth0;

/* Find the MAC (P&P vendor 0x01 device 0x01D), soft-reset it, set the
 * station address, build both rings, read the PHY (link, duplex) and
 * enable RX. irq_mode: RX descriptors with IE and CTRL.RI, the IRQ
 * level wake-only (irq_set_wake(): it only ends cpu_power_down(); the
 * main loop polls the ring and greth_status_service() reads STATUS). Returns 1 on success, 0 if no GRETH was
 * found. */
int greth_open(struct greth *g, const uint8_t mac[6], int irq_mode);
/* MDIO clause-22 read; returns 0 and *val, or -1 (busy timeout / LF). */
int greth_mdio_read(struct greth *g, unsigned phy, unsigned reg, uint16_t *val);
int greth_link_up(struct greth *g);
/* Queue one frame (copied into a free TX buffer); waits (bounded) for a
 * descriptor when the ring is full. Returns 0, or -1 (dropped). A frame
 * that is the buffer of the taken RX descriptor (greth_rx_take(), a reply
 * built in the received frame) is not copied: that buffer becomes the TX
 * descriptor's and the TX descriptor's free one the RX descriptor's
 * (tx_swapped); the caller must not touch the frame afterwards. Nor is a
 * frame built in the buffer greth_tx_buffer() handed out (tx_in_place). */
int greth_send(struct greth *g, const uint8_t *frame, unsigned len);
/* The buffer (GRETH_BUFSZ bytes, 16-aligned) of the next free TX
 * descriptor, after waiting (bounded) for one; 0 if none came free. A
 * frame built there and passed to greth_send() is sent without a copy.
 * The buffer stays the next one until a frame is sent: a greth_send() of
 * another frame in between overwrites it. */
uint8_t *greth_tx_buffer(struct greth *g);
/* Reclaim completed TX descriptors (counts UE/AL). */
void greth_tx_reclaim(struct greth *g);
/* Service STATUS (count and clear error bits, restart stopped DMAs). */
void greth_status_service(struct greth *g);
/* Take the next received descriptor (call only when greth_rx_ready()).
 * For a good frame (*frame, *len: the DMA buffer, valid until
 * greth_rx_release()) returns the GRETH_RXCK_* the MAC confirmed (0
 * without checksum offload); for a descriptor with an error -1. Both are
 * counted (rx_frames/rx_bytes, or rx_le/oe/ce/ft/ae). */
int greth_rx_take(struct greth *g, const uint8_t **frame, unsigned *len);
/* Give the descriptor taken last back to the MAC (EN, IE, WR). */
void greth_rx_release(struct greth *g);
/* End of a poll that took n descriptors: track the largest batch and turn
 * RE on again if the MAC ran out of descriptors meanwhile. */
void greth_rx_batch_end(struct greth *g, unsigned n);
/* Does the next RX descriptor hold a frame? Inline: it starts every
 * received frame's way up and every poll of the main loop. */
static inline int greth_rx_ready(const struct greth *g) { return !(g->rxd[2 * g->rx_next] & GRETH_BD_EN); }
/* Wait (bounded) until every queued frame has left. */
void greth_tx_drain(struct greth *g);

/* Keep the buffer of the taken RX descriptor (`frame`, from
 * greth_rx_take() and not released yet) after greth_rx_release(): a spare
 * buffer takes its place in the descriptor, so the ring stays full.
 * Returns frame (valid until greth_rx_unhold()), or 0 if frame is not the
 * taken buffer or no spare is free (rx_hold_fail). A held buffer is never
 * swapped into a TX descriptor by greth_send(). */
const uint8_t *greth_rx_hold(struct greth *g, const uint8_t *frame);
/* Give a buffer returned by greth_rx_hold() back (it becomes a spare). */
void greth_rx_unhold(struct greth *g, const uint8_t *buf);

#endif /* GRETH_H */
