/*
 * fw_params.c - the per-run parameter block (fw_params.h) and its reader.
 */
#include "fw_params.h"
#include <stddef.h>
#include "fwlibc.h"

/* The layout leon3vp writes (models/platform/fw_params.cpp, version 4). */
_Static_assert(sizeof(struct fw_params) == 84, "fw_params is 84 bytes");
_Static_assert(offsetof(struct fw_params, port) == 30, "fw_params.port at 30");
_Static_assert(offsetof(struct fw_params, flags) == 52, "fw_params.flags at 52");
_Static_assert(offsetof(struct fw_params, chksum) == 56, "fw_params.chksum at 56");
_Static_assert(offsetof(struct fw_params, seed) == 60, "fw_params.seed at 60");
_Static_assert(offsetof(struct fw_params, gateway) == 64, "fw_params.gateway at 64");
_Static_assert(offsetof(struct fw_params, conn_idle_ms) == 68, "fw_params.conn_idle_ms at 68");
_Static_assert(offsetof(struct fw_params, evict_idle_ms) == 80, "fw_params.evict_idle_ms at 80");

volatile struct fw_params fw_params __attribute__((section(".params"), aligned(8))) = {
    .magic = FW_PARAMS_MAGIC,
    .version = FW_PARAMS_VERSION,
    .size = sizeof(struct fw_params),
    .flags = FW_PF_VERIFY,
};

static uint32_t or_default(uint32_t v, uint32_t d) { return v ? v : d; }

static int mac_is_zero(const uint8_t *mac) { return !(mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]); }

void fw_params_load(struct fw_params *out, const struct fw_params *d) {
  static const uint8_t board_mac[6] = {0x02, 0, 0, 0, 0, 0x53};
  struct fw_params p;
  unsigned i;

  memset(&p, 0, sizeof(p));
  if (fw_params.magic == FW_PARAMS_MAGIC && fw_params.version == FW_PARAMS_VERSION) {
    /* bytewise: the block is volatile (written by the simulator) */
    const volatile uint8_t *src = (const volatile uint8_t *)&fw_params;
    uint8_t *dst = (uint8_t *)&p;
    for (i = 0; i < sizeof(p); i++) dst[i] = src[i];
  }
  p.board_ip = or_default(p.board_ip, or_default(d->board_ip, FW_PARAMS_DEFAULT_IP));
  p.netmask = or_default(p.netmask, or_default(d->netmask, FW_PARAMS_DEFAULT_MASK));
  p.peer_ip = or_default(p.peer_ip, or_default(d->peer_ip, FW_PARAMS_DEFAULT_PEER));
  if (mac_is_zero(p.mac)) memcpy(p.mac, mac_is_zero(d->mac) ? board_mac : d->mac, 6);
  if (!p.port) p.port = d->port;
  p.window = or_default(p.window, d->window);
  p.count = or_default(p.count, d->count);
  p.bytes = or_default(p.bytes, d->bytes);
  p.idle_ms = or_default(p.idle_ms, d->idle_ms);
  p.max_ms = or_default(p.max_ms, d->max_ms);
  *out = p;
}
