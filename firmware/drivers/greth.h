/*
 * greth.h - GRLIB GRETH 10/100 MAC driver (hw-reference section 3) and the
 * glue between it and the firmware TCP/IP stack (firmware/net).
 *
 * One MAC, 128 TX and 128 RX descriptors (1 KiB-aligned tables), one
 * 1520-byte buffer per descriptor. Ownership is the descriptor's EN bit;
 * WR is set on descriptor 127 every time it is (re)enabled (the MAC clears
 * WR on write-back). TE is written after every newly enabled TX descriptor;
 * RE is written again whenever descriptors are returned and the MAC has
 * turned it off (ring exhausted) or after an RX AHB error.
 *
 * The driver relies on the D-cache snooping DMA writes (the GR-XC3S-1500
 * template has it, crt0 sets CCR.DS), so descriptors and received data are
 * read with ordinary loads.
 *
 * Also here: the board runtime every network program uses (fw_params
 * block, GPTIMER millisecond tick, the classic poll/input/output main loop,
 * JSON result lines). See firmware/README.md, "Network programs".
 */
#ifndef GRETH_H
#define GRETH_H

#include <stdint.h>
#include "net.h"

/* ---- registers (APB offsets) ---- */
#define GRETH_CTRL    0x00
#define GRETH_STATUS  0x04
#define GRETH_MAC_MSB 0x08
#define GRETH_MAC_LSB 0x0c
#define GRETH_MDIO    0x10
#define GRETH_TXDESC  0x14
#define GRETH_RXDESC  0x18

#define GRETH_CTRL_TE (1u << 0)
#define GRETH_CTRL_RE (1u << 1)
#define GRETH_CTRL_TI (1u << 2)
#define GRETH_CTRL_RI (1u << 3)
#define GRETH_CTRL_FD (1u << 4)
#define GRETH_CTRL_PM (1u << 5)
#define GRETH_CTRL_RS (1u << 6)

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
#define GRETH_RXBD_ERR (GRETH_RXBD_AE | GRETH_RXBD_FT | GRETH_RXBD_CE | \
                        GRETH_RXBD_OE | GRETH_RXBD_LE)

#define GRETH_NDESC 128
#define GRETH_BUFSZ 1520
#define GRETH_MAXFRAME 1514

/* PHY (clause 22) */
#define PHY_BMCR 0
#define PHY_BMSR 1
#define PHY_ANAR 4
#define PHY_ANLPAR 5
#define PHY_BMSR_LINK (1u << 2)

struct greth_stats {
  uint32_t tx_frames, tx_bytes;
  uint32_t tx_ue, tx_al;            /* TX descriptor errors by reason */
  uint32_t tx_ring_full_waits;      /* output had to wait for a descriptor */
  uint32_t tx_drop_full;            /* ... and gave up (frame dropped) */
  uint32_t tx_drop_len;             /* frame longer than 1514 bytes */
  uint32_t rx_frames, rx_bytes;
  uint32_t rx_le, rx_oe, rx_ce, rx_ft, rx_ae; /* RX descriptor errors */
  uint32_t rx_restarts;             /* RE written again (ring was exhausted) */
  uint32_t st_ia, st_ts, st_ta, st_ra, st_ps; /* STATUS error bits seen */
  uint32_t irqs;
  uint32_t rx_max_batch;            /* most frames found ready in one poll */
};

struct greth {
  uintptr_t base;
  unsigned irq;
  uint8_t mac[6];
  int irq_mode;                     /* RI interrupts on (else polled) */
  volatile uint32_t *txd, *rxd;     /* descriptor tables (2 words each) */
  uint8_t (*txbuf)[GRETH_BUFSZ], (*rxbuf)[GRETH_BUFSZ];
  unsigned tx_head, tx_tail, tx_used;
  unsigned rx_next;
  volatile uint32_t events;         /* STATUS bits collected by the IRQ handler */
  uint16_t phy_bmsr, phy_anlpar;
  int phy_ok;
  struct greth_stats st;
};

extern struct greth greth0;

/* Find the MAC (P&P vendor 0x01 device 0x01D), soft-reset it, set the
 * station address, build both rings, read the PHY (link, duplex) and
 * enable RX. irq_mode: RX descriptors with IE and CTRL.RI, IRQ handler
 * installed. Returns 1 on success, 0 if no GRETH was found. */
int greth_open(struct greth *g, const uint8_t mac[6], int irq_mode);
/* MDIO clause-22 read; returns 0 and *val, or -1 (busy timeout / LF). */
int greth_mdio_read(struct greth *g, unsigned phy, unsigned reg, uint16_t *val);
int greth_link_up(struct greth *g);
/* Queue one frame (copied into a free TX buffer); waits (bounded) for a
 * descriptor when the ring is full. Returns 0, or -1 (dropped). */
int greth_send(struct greth *g, const uint8_t *frame, unsigned len);
/* Reclaim completed TX descriptors (counts UE/AL). */
void greth_tx_reclaim(struct greth *g);
/* Service STATUS (count and clear error bits, restart stopped DMAs). */
void greth_status_service(struct greth *g);
/* Hand every received frame to net_input() and return its descriptor.
 * Returns the number of frames handled (errors included). */
unsigned greth_rx_poll(struct greth *g);
/* Does the next RX descriptor hold a frame? */
int greth_rx_ready(const struct greth *g);

/* netif glue: low_level_output for the stack. */
net_err_t greth_netif_output(struct netif *nif, const uint8_t *frame,
                             unsigned len);

/* ---- per-run parameters (section .params, symbol fw_params) ----
 * leon3vp writes them before the start (--fw-param KEY=VALUE, scenario
 * board.params); models/platform/fw_params.cpp holds the C++ copy of this
 * layout: change both (and FW_PARAMS_VERSION) together. */
#define FW_PARAMS_MAGIC 0x4e455450u /* "NETP" */
#define FW_PARAMS_VERSION 2u
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
                         _WORD32 (2), _FAST (3); 0 = the build's NET_CHECKSUM */
};
#define FW_PF_POLLED 0x1u  /* GRETH polled instead of interrupt-driven */
#define FW_PF_VERBOSE 0x2u /* per-packet/connection JSON lines (slow UART!) */
#define FW_PF_VERIFY 0x4u  /* verify received TCP/UDP data patterns */

extern volatile struct fw_params fw_params;

/* ---- board runtime ---- */
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
/* Milliseconds since the start (GPTIMER tick). */
extern volatile uint32_t netapp_ms;
/* Time (netapp_ms) of the last received frame. */
extern uint32_t netapp_last_rx_ms;
/* Free-running 1 MHz microsecond counter (GPTIMER timer 2 or ms*1000). */
uint32_t netapp_us(void);

/* bsp_init, parameters, GRETH, stack, app->start, the main loop until
 * app->done() or the idle/max time; then the JSON report and the stats
 * line. Returns the exit status (0 = stop condition reached, 1 = timed out,
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

/* Data patterns of the simulated host (docs/network.md). */
static inline uint8_t netapp_stream_byte(uint32_t off) { return (uint8_t)(off % 251u); }

#endif /* GRETH_H */
