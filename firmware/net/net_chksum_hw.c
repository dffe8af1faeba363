/*
 * net_chksum_hw.c - the hw checksum variant (net_chksum.h): the port's
 * checksum engine for long buffers, net_chksum_fast for the rest; and the
 * table of all four variants. In a file of its own, linked after the rest
 * of the stack, so that the other variants and the stack's hot code keep
 * their addresses (the 2 x 4 KiB I-cache makes timing layout-sensitive).
 */
#include "net_chksum.h"

/* The port's engine probe (firmware/net/port/hwchk.c), run at the first hw
 * call; absent (weak, NULL) on the host and in programs without the port. */
extern void net_chksum_hw_probe(void) __attribute__((weak));

/* hw: the engine for long buffers, fast for the rest. The engine reads the
 * buffer from memory over the AHB; the CPU's D-cache is write-through, so
 * whatever the CPU wrote is in memory before the port's START store, which
 * the write buffer drains after it (stores reach the bus in order). The
 * engine writes nothing, so no cache line needs invalidating. */

struct net_chksum_hw_counts net_chksum_hw_counts;
static net_chksum_engine_fn chksum_engine;
static unsigned chksum_engine_min = NET_CHECKSUM_HW_MIN;
static int chksum_probed; /* the probe ran or set_engine was called */

void net_chksum_set_engine(net_chksum_engine_fn fn, unsigned min_len) {
  chksum_probed = 1;
  chksum_engine = fn;
  chksum_engine_min = min_len ? min_len : NET_CHECKSUM_HW_MIN;
}

uint16_t net_chksum_hw(uint16_t sum, const void *data, unsigned len) {
  uint16_t out;
  if (!chksum_probed) {
    chksum_probed = 1;
    if (net_chksum_hw_probe) net_chksum_hw_probe(); /* installs the engine if there is one */
  }
  if (!chksum_engine) {
    net_chksum_hw_counts.absent++;
  } else if (len < chksum_engine_min) {
    net_chksum_hw_counts.short_len++;
  } else if (len > 0xffffu) { /* LEN is 16 bits: split at an even length */
    return net_chksum_hw(net_chksum_hw(sum, data, 0xfffeu), (const uint8_t *)data + 0xfffeu, len - 0xfffeu);
  } else if (chksum_engine(sum, data, len, &out) == 0) {
    net_chksum_hw_counts.engine++;
    return out;
  } else {
    net_chksum_hw_counts.failed++;
  }
  return net_chksum_fast(sum, data, len);
}

/*--------------------------------------------------------------------------*/
const struct net_chksum_variant net_chksum_variants[NET_CHKSUM_NVARIANTS] = {
    {"generic8", net_chksum_generic8},
    {"word32", net_chksum_word32},
    {"fast", net_chksum_fast},
    {"hw", net_chksum_hw},
};
