/*
 * tcp_send_buf.h - the declarations of the default send model
 * (tcp_send_buf.c): its flags and storage. The unit includes this header
 * first (tcp_unit.cmake), before tcp_priv.h defines the shared state: GCC
 * lays out .bss in the reverse order of definition, and this order is the
 * one the hot-data layout was tuned with (bsp/leon3.ld,
 * net/port/fw-data-layout.ld).
 */
#ifndef TCP_SEND_BUF_H
#define TCP_SEND_BUF_H

#include "net.h"

#if NET_TCP_UIP_SEND
#error "tcp_send_buf.c is the send model of NET_TCP_UIP_SEND=0 (tcp_send_uip.c is the other)"
#endif

/* tcp_conn.sflags (send side) */
#define TCPS_FIN 0x01      /* FIN queued after the buffered data */
#define TCPS_RECOVERY 0x02 /* in fast recovery (until `recover` is acked) */
#define TCPS_PERSIST 0x04  /* zero window: c->timer is the next probe */

#if NET_TCP_SNDBUF < 2 || (NET_TCP_SNDBUF & (NET_TCP_SNDBUF - 1)) != 0 || \
    NET_TCP_SNDBUF > 32768
#error "NET_TCP_SNDBUF must be a power of two between 2 and 32768"
#endif
/* One ring per connection slot; kept out of struct tcp_conn so that
 * tcp_alloc()'s memset does not clear it. */
static uint8_t tcp_sndbuf[NET_TCP_CONNS][NET_TCP_SNDBUF] __attribute__((aligned(8)));
static void tcp_output(struct tcp_conn *c);

#if NET_TCP_SNDREFS
#if NET_TCP_SNDREFS > 255
#error "NET_TCP_SNDREFS must be at most 255"
#endif
/* tcp_send_ref()'s references, per connection slot (tcp_conn.ref_*). */
struct tcp_sref {
  const uint8_t *p;
  uint16_t len;
};
static struct tcp_sref tcp_srefs[NET_TCP_CONNS][NET_TCP_SNDREFS];
#endif

#endif /* TCP_SEND_BUF_H */
