/*
 * greth_netif.h - glue between the GRETH driver (drivers/greth.h) and the
 * TCP/IP stack (firmware/net): the netif's low_level_output, and the
 * receive poll that hands every frame the MAC has given back to
 * net_input(). lwIP keeps this layer apart from the MAC driver and from the
 * application runtime (its ethernetif.c); so does this firmware.
 */
#ifndef GRETH_NETIF_H
#define GRETH_NETIF_H

#include "greth.h"
#include "net.h"

/* Region ids of the network programs (docs/timing.md "Regions"): shared
 * with every stack's port. */
#include "net_regions.h"

/* Attach the MAC `g` (opened) to `nif`: hardware address, output function
 * and state; the caller sets the IP addresses. */
void greth_netif_init(struct netif *nif, struct greth *g);

/* low_level_output for the stack: greth_send() of one built frame. */
net_err_t greth_netif_output(struct netif *nif, const uint8_t *frame, unsigned len);

/* tx_buffer for the stack: the next free TX descriptor's buffer
 * (greth_tx_buffer()), sent in place by greth_netif_output(). */
uint8_t *greth_netif_tx_buffer(struct netif *nif);

/* Hand every received frame to net_input() and give its descriptor back.
 * Returns the number of descriptors handled (errors included). */
unsigned greth_netif_poll(struct greth *g);

/* rx_hold/rx_unhold for the stack (set by greth_netif_init in zero-copy
 * builds): greth_rx_hold()/greth_rx_unhold() of the frame being processed. */
const uint8_t *greth_netif_rx_hold(struct netif *nif, const uint8_t *frame, unsigned len);
void greth_netif_rx_unhold(struct netif *nif, const uint8_t *held);

#endif /* GRETH_NETIF_H */
