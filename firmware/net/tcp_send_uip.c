/*
 * tcp_send_uip.c - the uIP-style send model (NET_TCP_UIP_SEND 1; the build
 * picks this file or tcp_send_buf.c, firmware/net/CMakeLists.txt): no send
 * buffer, at most one segment in flight per connection, which the
 * application hands over in its callback and sends again on NET_EV_REXMIT;
 * an ACK covering only part of it is ignored (the whole segment is resent
 * and the peer trims the duplicate); a zero window is probed from the poll
 * timer. Part of the TCP unit (tcp_priv.h).
 */
#include "tcp_priv.h"
#include "tcp_send_uip.h"

unsigned tcp_sndmax(const struct tcp_conn *c) {
  unsigned n;
  if (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) {
    return 0;
  }
  if (c->flags & TCPF_REXMIT_CB) {
    return c->mss;
  }
  if (c->snd_nxt != c->snd_una || (c->flags & TCPF_CLOSE_REQ)) {
    return 0;
  }
  n = c->mss;
  return n < c->snd_wnd ? n : c->snd_wnd;
}

unsigned tcp_unacked(const struct tcp_conn *c) { return c->snd_datalen; }

int tcp_send(struct tcp_conn *c, const void *data, unsigned len) {
  NET_ERROR("tcp_send: c == NULL", c != NULL, return NET_ERR_ARG);
  NET_ERROR("tcp_send: data == NULL", data != NULL || len == 0, return NET_ERR_ARG);
  NET_ERROR("tcp_send: outside a callback", (c->flags & TCPF_IN_CB) != 0, return NET_ERR_STATE);
  if (len > tcp_sndmax(c)) {
    return tcp_sndmax(c) == 0 ? NET_ERR_STATE : NET_ERR_BUF;
  }
  c->app_data = (const uint8_t *)data;
  c->app_len = (uint16_t)len;
  return (int)len;
}

/*--------------------------------------------------------------------------*/
/* The send model's interface (tcp_priv.h). */
TCP_SND void tcp_snd_init(struct tcp_conn *c) { (void)c; /* snd_nxt = snd_una + 1 is all */ }

TCP_SND uint32_t tcp_snd_max(const struct tcp_conn *c) { return c->snd_nxt; }

TCP_SND int tcp_snd_quiet(const struct tcp_conn *c) { return c->snd_nxt == c->snd_una; }

TCP_SND unsigned tcp_snd_wnd_max(const struct tcp_conn *c) {
  (void)c;
  return 0xffffu;
}

TCP_SND void tcp_snd_set_wnd_max(struct tcp_conn *c, uint16_t wnd) {
  (void)c;
  (void)wnd;
}

/* No header prediction for pure ACKs: tcp_process() takes them. */
static int tcp_snd_pure_ack(uint32_t src, const uint8_t *seg) {
  (void)src;
  (void)seg;
  return 0;
}

/* No duplicate ACK count, no loss probe, no persist timer (the poll
 * timer probes a zero window). */
TCP_SND unsigned tcp_snd_dupacks(const struct tcp_conn *c) {
  (void)c;
  return 0;
}

TCP_SND int tcp_snd_loss_probe(struct tcp_conn *c) {
  (void)c;
  return 0;
}

TCP_SND unsigned tcp_snd_persisting(const struct tcp_conn *c) {
  (void)c;
  return 0;
}

TCP_SND void tcp_snd_persist(struct tcp_conn *c) { (void)c; }

TCP_SND void tcp_snd_persist_end(struct tcp_conn *c) { (void)c; }

TCP_SND int tcp_snd_poll_probe(const struct tcp_conn *c) { return c->snd_wnd == 0; }
