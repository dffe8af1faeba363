/*
 * greth_netif.c - the GRETH driver as the stack's network interface (see
 * greth_netif.h). The phase hooks (net_phase.h) and region markers live
 * here, so the driver stays free of the stack.
 */
#include "greth_netif.h"
#include "fwlibc.h"
#include "net_phase.h"
#include "region.h"

/* The driver's checksum flags are the stack's. */
_Static_assert(GRETH_RXCK_UDP == NET_RXCK_UDP && GRETH_RXCK_TCP == NET_RXCK_TCP,
               "GRETH_RXCK_* and NET_RXCK_* differ");

/* Names of the network programs' regions for the tools (leon3vp --vcd). */
NET_REGION_NAMES();

void greth_netif_init(struct netif *nif, struct greth *g) {
  memcpy(nif->hwaddr, g->mac, 6);
  nif->low_level_output = greth_netif_output;
  nif->tx_buffer = greth_netif_tx_buffer;
  nif->state = g;
#if NET_ZERO_COPY
  nif->rx_hold = greth_netif_rx_hold;
  nif->rx_unhold = greth_netif_rx_unhold;
#endif
}

uint8_t *greth_netif_tx_buffer(struct netif *nif) { return greth_tx_buffer((struct greth *)nif->state); }

net_err_t greth_netif_output(struct netif *nif, const uint8_t *frame, unsigned len) {
  int r;

  NET_PHASE_ENTER(NET_PH_DRIVER);
  REGION_BEGIN(REGION_NET_TX);
  r = greth_send((struct greth *)nif->state, frame, len);
  REGION_END(REGION_NET_TX);
  NET_PHASE_LEAVE(NET_PH_DRIVER);
  return r == 0 ? NET_OK : NET_ERR_IF;
}

unsigned greth_netif_poll(struct greth *g) {
  const uint8_t *frame;
  unsigned len, n = 0;
  int ck;

  while (greth_rx_ready(g)) {
    /* One DRIVER phase per descriptor, errors included (the phase counts
     * are checked against the driver counters, docs/firmware.md). */
    NET_PHASE_ENTER(NET_PH_DRIVER);
    REGION_BEGIN(REGION_NET_RXFRAME);
    ck = greth_rx_take(g, &frame, &len);
    if (ck >= 0) {
      /* Zero copy: the stack reads the DMA buffer in place; copy mode:
       * net_input() copies it into net_buf first. Either way the buffer
       * is free again when net_input() returns. */
      NET_PHASE_ENTER(NET_PH_PROTO);
      REGION_BEGIN(REGION_NET_RX);
      net_input_checked(frame, len, (unsigned)ck);
      REGION_END(REGION_NET_RX);
      NET_PHASE_LEAVE(NET_PH_PROTO);
    }
    greth_rx_release(g);
    REGION_END(REGION_NET_RXFRAME);
    n++;
    NET_PHASE_LEAVE(NET_PH_DRIVER);
  }
  greth_rx_batch_end(g, n);
  return n;
}

/* rx_hold/rx_unhold for the stack (zero-copy builds): the DMA buffer of
 * the frame being processed leaves the ring (greth_rx_hold()). */
const uint8_t *greth_netif_rx_hold(struct netif *nif, const uint8_t *frame, unsigned len) {
  (void)len;
  return greth_rx_hold((struct greth *)nif->state, frame);
}

void greth_netif_rx_unhold(struct netif *nif, const uint8_t *held) {
  greth_rx_unhold((struct greth *)nif->state, held);
}
