/*
 * greth_lwip.h - the GRETH driver (drivers/greth.h) as an lwIP netif.
 */
#ifndef GRETH_LWIP_H
#define GRETH_LWIP_H

#include "greth.h"
#include "lwip/err.h"
#include "lwip/netif.h"

/* netif_add()'s init function: state must be the opened struct greth. */
err_t greth_lwip_init(struct netif *nif);

/* Hand every received frame to lwIP (nif->input), copied into a pool pbuf;
 * returns the number of descriptors taken. Frames lwIP cannot take (no
 * pbuf) are dropped and counted in lwip_stats.link.memerr. */
unsigned greth_lwip_poll(struct greth *g, struct netif *nif);

#endif /* GRETH_LWIP_H */
