/*
 * tcp_out.c - segments out: building and sending a segment, the window we
 * advertise, the retransmission timer's RTT estimate (RFC 6298) and
 * carrying out what the application asked for in its callback (the send
 * model sends the data: tcp_send_buf.c or tcp_send_uip.c). Part of the
 * TCP unit (tcp_priv.h).
 */
#include "tcp_priv.h"

/*--------------------------------------------------------------------------*/
/* Build a segment in `frame` (net_buf or the driver's transmit buffer,
 * net_tx_frame()) and send it. `data` may point into the frame (memmove);
 * NULL with len > 0: the payload is already in place (after the header).
 * SYN segments carry our MSS option. */
static net_err_t tcp_emit_frame(uint8_t *frame, uint32_t rip, uint16_t lport, uint16_t rport, uint32_t seq,
                                uint32_t ack, uint8_t ctl, uint16_t wnd, const uint8_t *data, unsigned len,
                                int32_t psum) {
  uint8_t *t = frame + NET_ETH_HLEN + NET_IP_HLEN;
  unsigned hl = (ctl & TCP_SYN) ? NET_TCP_HLEN + 4 : NET_TCP_HLEN;

  if (len && data != NULL) {
    NET_PHASE_ENTER(NET_PH_APPCOPY);
    memmove(t + hl, data, len);
    NET_PHASE_LEAVE(NET_PH_APPCOPY);
  }
  net_put16(t, lport);
  net_put16(t + 2, rport);
  net_put32(t + 4, seq);
  net_put32(t + 8, (ctl & TCP_ACK) ? ack : 0);
  t[12] = (uint8_t)((hl / 4) << 4);
  t[13] = ctl;
  net_put16(t + 14, wnd);
  net_put16(t + 16, 0);
  net_put16(t + 18, 0);
  if (ctl & TCP_SYN) {
    t[20] = 2; /* MSS option */
    t[21] = 4;
    net_put16(t + 22, NET_TCP_MSS);
  }
  NET_PHASE_ENTER(NET_PH_L4CHK);
  if (psum < 0) {
    net_put16(t + 16, (uint16_t)~net_chksum_pseudo(net_netif->ipaddr, rip, NET_IPPROTO_TCP, t, hl + len));
  } else {
    /* The payload's sum came with its copy: sum the header only (the
     * pseudo header's length field counted as hl, plus len). */
    uint32_t acc = net_chksum_pseudo(net_netif->ipaddr, rip, NET_IPPROTO_TCP, t, hl) + len + (uint32_t)psum;
    acc = (acc & 0xffffu) + (acc >> 16);
    acc = (acc & 0xffffu) + (acc >> 16);
    net_put16(t + 16, (uint16_t)~acc);
  }
  NET_PHASE_LEAVE(NET_PH_L4CHK);
  net_stats.tcp.tx++;
  if (ctl & TCP_RST) {
    net_stats.tcp.rst_tx++;
  }
  return ip_output_frame(frame, NET_IPPROTO_TCP, rip, hl + len);
}

static net_err_t tcp_emit(uint32_t rip, uint16_t lport, uint16_t rport, uint32_t seq, uint32_t ack,
                          uint8_t ctl, uint16_t wnd, const uint8_t *data, unsigned len) {
  return tcp_emit_frame(net_buf, rip, lport, rport, seq, ack, ctl, wnd, data, len, -1);
}

/* The receive window of c now: the configured one, the application's room
 * (tcp_set_rcv_space) and, where out-of-order segments are held, what the
 * free hold buffers can keep beyond the data already held. */
static uint16_t tcp_wnd_of(const struct tcp_conn *c) {
  uint32_t w = c->rcv_space < tcp_rcv_wnd_cur ? c->rcv_space : tcp_rcv_wnd_cur;
#if TCP_HOLD
  if (net_netif->rx_hold != NULL) {
    uint32_t b = (NET_TCP_RX_HOLD + 1u - tcp_nheld - tcp_napp) * c->mss + tcp_held_span(c);
    if (tcp_napp != 0 && TCP_SEQ_GT(c->rcv_adv, c->rcv_nxt + b)) {
      /* Data the application keeps must not move the right edge left
       * (RFC 1122 4.2.2.16): hold it where it was advertised. */
      b = c->rcv_adv - c->rcv_nxt;
    }
    if (b < w) {
      w = b;
    }
  }
#endif
  return (uint16_t)w;
}

/* The window for a segment sent now; remembers it and its right edge. */
static uint16_t tcp_adv_wnd(struct tcp_conn *c) {
  c->rcv_wnd = tcp_wnd_of(c);
  c->rcv_adv = c->rcv_nxt + c->rcv_wnd;
  return c->rcv_wnd;
}

static void tcp_emit_conn(struct tcp_conn *c, uint32_t seq, uint8_t ctl, const uint8_t *data, unsigned len) {
  tcp_adv_wnd(c);
  if (ctl & TCP_ACK) {
    c->flags &= (uint8_t)~TCPF_ACK_PENDING;
  }
  tcp_emit(c->rip, c->lport, c->rport, seq, c->rcv_nxt, ctl, c->rcv_wnd, data, len);
}

/* Start timing and the retransmission timer for a new (not retransmitted)
 * segment ending at `end`. */
static void tcp_start_timers(struct tcp_conn *c, uint32_t end) {
  c->flags |= TCPF_TIMER | TCPF_RTT;
  c->timer = net_now + c->rto;
  c->rtt_seq = end;
  c->rtt_start = net_now;
  c->nrtx = 0;
}

/*--------------------------------------------------------------------------*/
/* RFC 6298 2.2/2.3 in fixed point: srtt8 = 8*SRTT, rttvar4 = 4*RTTVAR,
 * RTO = SRTT + max(G, 4*RTTVAR), clamped to [RTO_MIN, RTO_MAX]. */
static void tcp_rtt_sample(struct tcp_conn *c, uint32_t r) {
  int32_t rtt = (int32_t)(r > 0x7fffffu ? 0x7fffffu : r);
  uint32_t rto;

  if (c->srtt8 < 0) { /* first measurement */
    c->srtt8 = rtt * 8;
    c->rttvar4 = rtt * 2;
  } else {
    int32_t delta = rtt - c->srtt8 / 8;
    c->rttvar4 += (delta < 0 ? -delta : delta) - c->rttvar4 / 4;
    c->srtt8 += delta;
  }
  rto = (uint32_t)(c->srtt8 / 8) +
        ((uint32_t)c->rttvar4 > NET_TCP_CLOCK_G_MS ? (uint32_t)c->rttvar4 : NET_TCP_CLOCK_G_MS);
  if (rto < NET_TCP_RTO_MIN_MS) {
    rto = NET_TCP_RTO_MIN_MS;
  }
  if (rto > NET_TCP_RTO_MAX_MS) {
    rto = NET_TCP_RTO_MAX_MS;
  }
  c->rto = rto;
}

/* Everything in flight is acknowledged by `ack`. */
static void tcp_all_acked(struct tcp_conn *c, uint32_t ack) {
  if ((c->flags & TCPF_RTT) && TCP_SEQ_GEQ(ack, c->rtt_seq)) {
    tcp_rtt_sample(c, net_now - c->rtt_start); /* Karn: only if never resent */
  }
  c->flags &= (uint8_t) ~(TCPF_RTT | TCPF_TIMER);
  c->snd_una = ack;
  c->snd_datalen = 0;
  c->rtx_ctl = 0;
  c->nrtx = 0;
}

/*--------------------------------------------------------------------------*/
/* Carry out what the application asked for and acknowledge as requested. */
static void tcp_after_app(struct tcp_conn *c, int ack_mode) {
  int can_send = c->state == TCP_ESTABLISHED || c->state == TCP_CLOSE_WAIT;

  if (c->state == TCP_CLOSED) {
    return;
  }
  if (c->flags & TCPF_ABORT_REQ) {
    if (c->state != TCP_SYN_SENT) {
      tcp_emit_conn(c, c->snd_nxt, TCP_RST | TCP_ACK, NULL, 0);
    }
    tcp_free(c);
    return;
  }
  TCP_SND_AFTER_APP(c, can_send); /* returns if segments carried the ACK */
  /* Delayed ACK (RFC 1122 4.2.3.2): at once for the second segment, or
   * when the peer has at most one MSS of our last window left: with less
   * it could send nothing more until the timer fired, and with exactly one
   * (a window of two segments) it would send that one and then wait a
   * round trip for an ACK of both, so a small window would run at half
   * its rate. */
  if (ack_mode == ACK_NOW ||
      (ack_mode == ACK_DELAY && (!NET_TCP_DELAYED_ACK || (c->flags & TCPF_ACK_PENDING) ||
                                 TCP_SEQ_GEQ(c->rcv_nxt + c->mss, c->rcv_adv)))) {
    tcp_emit_conn(c, c->snd_nxt, TCP_ACK, NULL, 0);
  } else if (ack_mode == ACK_DELAY) {
    c->flags |= TCPF_ACK_PENDING;
    c->ack_deadline = net_now + NET_TCP_DELACK_MS;
  }
}
