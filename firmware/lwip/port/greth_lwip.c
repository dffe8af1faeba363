/*
 * greth_lwip.c - lwIP's ethernetif over our GRETH driver.
 *
 * Receive: the driver hands out the DMA buffer of each received frame
 * (greth_rx_take); it is copied into one pool pbuf (PBUF_POOL_BUFSIZE holds
 * a whole frame) and the descriptor goes straight back to the MAC, then the
 * pbuf goes to ethernet_input(). Transmit: the pbuf chain is copied into
 * the next free TX buffer (greth_tx_buffer) and sent from there without a
 * second copy. The phase hooks (net_phase.h) and region markers are the
 * same as our stack's netif (firmware/net/port/greth_netif.c), so the
 * tools read both stacks alike; firmware/lwip/README.md maps the phases.
 */
#include "greth_lwip.h"
#include "lwip/etharp.h"
#include "lwip/pbuf.h"
#include "lwip/stats.h"
#include "net_phase.h"
#include "net_regions.h"
#include "netif/ethernet.h"
#include "region.h"

/* Names of the network programs' regions for the tools (leon3vp --vcd). */
NET_REGION_NAMES();

static err_t greth_lwip_output(struct netif *nif, struct pbuf *p) {
  struct greth *g = (struct greth *)nif->state;
  unsigned len = p->tot_len - ETH_PAD_SIZE;
  uint8_t *buf;
  int r = -1;

  NET_PHASE_ENTER(NET_PH_DRIVER);
  REGION_BEGIN(REGION_NET_TX);
  buf = len <= GRETH_MAXFRAME ? greth_tx_buffer(g) : 0;
  if (buf && pbuf_copy_partial(p, buf, (u16_t)len, ETH_PAD_SIZE) == len) r = greth_send(g, buf, len);
  REGION_END(REGION_NET_TX);
  NET_PHASE_LEAVE(NET_PH_DRIVER);
  if (r != 0) {
    LINK_STATS_INC(link.drop);
    return ERR_IF;
  }
  LINK_STATS_INC(link.xmit);
  return ERR_OK;
}

err_t greth_lwip_init(struct netif *nif) {
  struct greth *g = (struct greth *)nif->state;

  nif->name[0] = 'g';
  nif->name[1] = 'e';
  nif->hwaddr_len = ETH_HWADDR_LEN;
  MEMCPY(nif->hwaddr, g->mac, ETH_HWADDR_LEN);
  nif->mtu = 1500;
  nif->flags =
      NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET | (g->phy_ok ? NETIF_FLAG_LINK_UP : 0);
  nif->output = etharp_output;
  nif->linkoutput = greth_lwip_output;
  return ERR_OK;
}

/* The frame as a pbuf with ETH_PAD_SIZE bytes in front (lwIP's layout), or
 * NULL when the pool is empty. */
static struct pbuf *frame_to_pbuf(const uint8_t *frame, unsigned len) {
  struct pbuf *p;

  NET_PHASE_ENTER(NET_PH_COPY);
  p = pbuf_alloc(PBUF_RAW, (u16_t)(len + ETH_PAD_SIZE), PBUF_POOL);
  if (p) {
    pbuf_remove_header(p, ETH_PAD_SIZE);
    pbuf_take(p, frame, (u16_t)len);
    pbuf_add_header(p, ETH_PAD_SIZE);
  }
  NET_PHASE_LEAVE(NET_PH_COPY);
  return p;
}

unsigned greth_lwip_poll(struct greth *g, struct netif *nif) {
  const uint8_t *frame;
  struct pbuf *p;
  unsigned len, n = 0;

  while (greth_rx_ready(g)) {
    NET_PHASE_ENTER(NET_PH_DRIVER);
    REGION_BEGIN(REGION_NET_RXFRAME);
    p = 0;
    if (greth_rx_take(g, &frame, &len) >= 0) {
      p = frame_to_pbuf(frame, len);
      if (!p) {
        LINK_STATS_INC(link.memerr);
        LINK_STATS_INC(link.drop);
      }
    }
    greth_rx_release(g);
    if (p) {
      LINK_STATS_INC(link.recv);
      NET_PHASE_ENTER(NET_PH_PROTO);
      REGION_BEGIN(REGION_NET_RX);
      if (nif->input(p, nif) != ERR_OK) pbuf_free(p);
      REGION_END(REGION_NET_RX);
      NET_PHASE_LEAVE(NET_PH_PROTO);
    }
    REGION_END(REGION_NET_RXFRAME);
    n++;
    NET_PHASE_LEAVE(NET_PH_DRIVER);
  }
  greth_rx_batch_end(g, n);
  return n;
}
