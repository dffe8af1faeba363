/*
 * fw_params.h - per-run parameters leon3vp writes into the firmware.
 *
 * A program that defines the block (link sdk/fw_params.c, or define it
 * yourself with this layout) can be given parameters without a rebuild:
 *
 *   leon3vp --fw-param window=300 --fw-param count=20 fw.elf
 *   scenario file: "board": {"params": {"window": 300}}
 *   experiment file: firmware: {params: {window: "{window}"}}
 *
 * leon3vp finds the block by its symbol `fw_params` (84 bytes, in loaded
 * initialised data), checks magic, version and size, and overwrites the
 * named fields before the first instruction runs. A zero field means "the
 * program's default". models/platform/fw_params.cpp holds the simulator's
 * copy of this layout: change both (and FW_PARAMS_VERSION) together.
 */
#ifndef L3VP_FW_PARAMS_H
#define L3VP_FW_PARAMS_H

#include <stdint.h>

#define FW_PARAMS_MAGIC 0x4e455450u /* "NETP" */
#define FW_PARAMS_VERSION 4u
struct fw_params {
  uint32_t magic;    /* FW_PARAMS_MAGIC, else the block is ignored */
  uint32_t version;  /* FW_PARAMS_VERSION */
  uint32_t size;     /* sizeof(struct fw_params) */
  uint32_t board_ip; /* host order; 0 = default 192.168.0.53 */
  uint32_t netmask;  /* 0 = 255.255.255.0 */
  uint32_t peer_ip;  /* 0 = 192.168.0.55 (the host) */
  uint8_t mac[6];    /* all zero = 02:00:00:00:00:53 */
  uint16_t port;     /* 0 = the program's default port */
  uint32_t window;   /* TCP advertised window, 0 = the stack's default */
  uint32_t count;    /* stop after this many packets/connections (0 = default) */
  uint32_t bytes;    /* expected bytes (TCP sink, UDP receive), 0 = any */
  uint32_t idle_ms;  /* stop after this long without traffic once started
                        (0 = program default) */
  uint32_t max_ms;   /* hard stop (0 = none) */
  uint32_t flags;    /* FW_PF_* */
  uint32_t chksum;   /* checksum routine of the stack (stack-specific
                        numbers; 0 = the build's default) */
  /* version 3 */
  uint32_t seed;    /* mixed into the stack's boot secret (ISNs, IP ids)
                       with the MAC and timer readings; 0 is a value too */
  uint32_t gateway; /* default gateway, host order; 0 = none */
  /* version 4: TCP slot policy (firmware/net/README.md "Slot policy"), in
   * ms; 0 = the program's default, FW_PARAMS_OFF = off (not for
   * persist_max_ms) */
  uint32_t conn_idle_ms;   /* reset passive connections idle this long */
  uint32_t keepalive_ms;   /* keep-alive probes after this long quiet */
  uint32_t persist_max_ms; /* zero window: give up this long after the first probe */
  uint32_t evict_idle_ms;  /* a new peer may evict a connection idle this long */
};
#define FW_PARAMS_OFF 0xffffffffu /* a version 4 time: "off" */
#define FW_PF_POLLED 0x1u         /* MAC polled instead of interrupt-driven */
#define FW_PF_VERBOSE 0x2u        /* per-packet/connection JSON lines (slow UART!) */
#define FW_PF_VERIFY 0x4u         /* verify received TCP/UDP data patterns */
#define FW_PF_HOLD 0x8u           /* TCP sink: keep received segments (zero-copy) */
#define FW_PF_SIMCHECK                                     \
  0x10u /* TCP sink: hand received data to the simulator's \
          stream checker (bsp/streamcheck.h) */

/* The block leon3vp writes (sdk/fw_params.c; flags default FW_PF_VERIFY). */
extern volatile struct fw_params fw_params;

/* The board's addresses when the block leaves them zero. */
#define FW_PARAMS_DEFAULT_IP 0xc0a80035u   /* 192.168.0.53 */
#define FW_PARAMS_DEFAULT_MASK 0xffffff00u /* 255.255.255.0 */
#define FW_PARAMS_DEFAULT_PEER 0xc0a80037u /* 192.168.0.55 */

/* Copy the block into *out (all zero when its magic or version is wrong),
 * then give every zero field the value of the same field in *defaults (a
 * zero MAC: the whole MAC). board_ip, netmask, peer_ip and mac fall back to
 * the board's addresses above when *defaults leaves them zero too. seed,
 * gateway, flags and chksum are copied as they are (0 is a value), and so
 * are the version 4 policy times (0 = the program's default, which the
 * program applies). */
void fw_params_load(struct fw_params *out, const struct fw_params *defaults);

#endif /* L3VP_FW_PARAMS_H */
