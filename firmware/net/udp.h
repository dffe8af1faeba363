/*
 * udp.h - UDP (RFC 768): bound endpoints with a receive callback, sendto.
 */
#ifndef NET_UDP_H
#define NET_UDP_H

#include "net_arch.h"

struct udp_ep;

/**
 * Receive callback. `data` points into the received frame and is valid only
 * during the call. In copy mode (NET_ZERO_COPY=0) sending from the callback
 * overwrites it: copy what is still needed first (udp_sendto() itself may
 * be given `data`).
 */
typedef void (*udp_recv_fn)(struct udp_ep *ep, uint32_t src, uint16_t sport, const uint8_t *data,
                            unsigned len);

struct udp_ep {
  uint16_t lport; /**< 0: free slot */
  udp_recv_fn recv;
  void *arg; /**< for the application */
};

void udp_init(void);

/**
 * Bind a local port.
 * @return the endpoint, or NULL (port 0 or in use: NET_ERR_ARG/NET_ERR_USE;
 *         table full) with *err set if err != NULL
 */
struct udp_ep *udp_bind(uint16_t lport, udp_recv_fn recv, void *arg, net_err_t *err);

/** Release an endpoint. */
void udp_unbind(struct udp_ep *ep);

/**
 * Send one datagram from ep's port to dst:dport. `data` may point anywhere,
 * also into net_buf.
 * @return NET_OK, NET_ERR_ARG, NET_ERR_BUF (too long), ARP/link errors
 */
net_err_t udp_sendto(struct udp_ep *ep, uint32_t dst, uint16_t dport, const void *data, unsigned len);

/* Internal: called by ip_input(). */
void udp_input(uint32_t src, uint32_t dst, int dst_kind, const uint8_t *seg, unsigned len);

#endif /* NET_UDP_H */
