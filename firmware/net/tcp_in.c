/*
 * tcp_in.c - segments in: header parsing, passive open, the state machine
 * (RFC 793 3.9 "Event Processing", corrected by RFC 1122 4.2.2 and RFC
 * 5961), header prediction for in-order data, and tcp_input(). The send
 * model takes the acknowledgment of its data (TCP_SND_ACK) and may take a
 * pure ACK on its own fast path (tcp_snd_pure_ack). Part of the TCP unit
 * (tcp_priv.h).
 */
#include "tcp_priv.h"

/*--------------------------------------------------------------------------*/
/* Parse and validate the header. @return 0 if the segment must be dropped
 * (counted). */
static int tcp_parse(const uint8_t *seg, unsigned len, struct tcp_seg *s) {
  unsigned doff, i;

  doff = (seg[12] >> 4) * 4u;
  if (doff < NET_TCP_HLEN || doff > len) {
    net_stats.tcp.drop_offset++;
    return 0;
  }
  s->mss = 0;
  i = NET_TCP_HLEN;
  while (i < doff) {
    uint8_t kind = seg[i];
    unsigned olen;
    if (kind == 0) { /* end of option list */
      break;
    }
    if (kind == 1) { /* no-operation */
      i++;
      continue;
    }
    if (i + 1 >= doff) { /* no room for the length byte */
      net_stats.tcp.drop_opt++;
      return 0;
    }
    olen = seg[i + 1];
    if (olen < 2 || olen > doff - i) { /* RFC 1122 4.2.2.5: illegal length */
      net_stats.tcp.drop_opt++;
      return 0;
    }
    if (kind == 2 && olen == 4) {
      s->mss = net_get16(seg + i + 2);
    }
    i += olen;
  }
  s->sport = net_get16(seg);
  s->dport = net_get16(seg + 2);
  s->seq = net_get32(seg + 4);
  s->ack = net_get32(seg + 8);
  s->ctl = seg[13] & 0x3f;
  s->wnd = net_get16(seg + 14);
  s->data = seg + doff;
  s->len = len - doff;
  if (s->ctl & TCP_URG) {
    net_stats.tcp.urg_ignored++;
  }
  return 1;
}

static uint16_t tcp_peer_mss(const struct tcp_seg *s) {
  unsigned m = s->mss ? s->mss : NET_TCP_DEFAULT_MSS;
  return (uint16_t)(m < NET_TCP_MSS ? m : NET_TCP_MSS);
}

/* Answer a segment that belongs to no connection (RFC 793 p. 65). */
static void tcp_reset_reply(uint32_t src, const struct tcp_seg *s) {
  if (s->ctl & TCP_RST) {
    return;
  }
  if (s->ctl & TCP_ACK) {
    tcp_emit(src, s->dport, s->sport, s->ack, 0, TCP_RST, 0, NULL, 0);
  } else {
    uint32_t seglen = s->len + !!(s->ctl & TCP_SYN) + !!(s->ctl & TCP_FIN);
    tcp_emit(src, s->dport, s->sport, 0, s->seq + seglen, TCP_RST | TCP_ACK, 0, NULL, 0);
  }
}

/* Segment for no connection: passive open or reset. */
TCP_COLD static void tcp_input_closed(uint32_t src, const struct tcp_seg *s) {
  unsigned i;
  struct tcp_conn *c;

  if (s->sport == 0 || s->dport == 0) {
    /* reserved port: no connection, no RST (fuzz/regress/, README.md) */
    net_stats.tcp.drop_no_conn++;
    return;
  }
  if ((s->ctl & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN) {
    for (i = 0; i < NET_TCP_LISTENERS; i++) {
      if (tcp_listeners[i].port == s->dport) {
        break;
      }
    }
    if (i < NET_TCP_LISTENERS) {
      if (tcp_listen_full(&tcp_listeners[i])) {
        return;
      }
      c = tcp_alloc(src, s->dport, s->sport);
      if (c == NULL) {
        c = tcp_alloc_evict(src, s->dport, s->sport);
      }
      if (c == NULL) {
        net_stats.tcp.drop_no_slot++;
        return;
      }
      c->state = TCP_SYN_RCVD;
      c->pflags = TCPP_PASSIVE;
      /* Until established, poll_time is the half-open deadline (tcp_timer)
       * and the age the SYN flood eviction compares. */
      c->poll_time = net_now + NET_TCP_SYN_RCVD_MS;
      c->rcv_nxt = s->seq + 1;
      c->snd_wnd = s->wnd;
      c->snd_wl1 = s->seq;
      c->snd_wl2 = c->iss;
      c->mss = tcp_peer_mss(s);
      c->appcall = tcp_listeners[i].fn;
      c->arg = tcp_listeners[i].arg;
      c->rtx_ctl = TCP_SYN;
      tcp_start_timers(c, c->snd_nxt);
      tcp_emit_conn(c, c->iss, TCP_SYN | TCP_ACK, NULL, 0);
      return;
    }
  }
  net_stats.tcp.drop_no_conn++;
  tcp_reset_reply(src, s);
}

/*--------------------------------------------------------------------------*/
TCP_COLD static void tcp_input_syn_sent(struct tcp_conn *c, const struct tcp_seg *s) {
  if ((s->ctl & TCP_ACK) && (TCP_SEQ_LEQ(s->ack, c->iss) || TCP_SEQ_GT(s->ack, c->snd_nxt))) {
    net_stats.tcp.drop_bad_ack++;
    if (!(s->ctl & TCP_RST)) {
      tcp_emit(c->rip, c->lport, c->rport, s->ack, 0, TCP_RST, 0, NULL, 0);
    }
    return;
  }
  if (s->ctl & TCP_RST) {
    if (s->ctl & TCP_ACK) { /* connection refused */
      net_stats.tcp.rst_rx++;
      tcp_finish(c, NET_EV_ABORTED);
    } else {
      net_stats.tcp.drop_state++;
    }
    return;
  }
  if (!(s->ctl & TCP_SYN)) {
    net_stats.tcp.drop_state++;
    return;
  }
  c->rcv_nxt = s->seq + 1;
  c->mss = tcp_peer_mss(s);
  c->snd_wnd = s->wnd;
  c->snd_wl1 = s->seq;
  c->snd_wl2 = s->ack;
  if (s->ctl & TCP_ACK) {
    tcp_all_acked(c, s->ack);
    c->state = TCP_ESTABLISHED;
    c->poll_time = net_now + NET_TCP_POLL_MS;
    tcp_appcall(c, NET_EV_CONNECTED);
    tcp_after_app(c, ACK_NOW);
  } else { /* simultaneous open (RFC 793 figure 8) */
    c->state = TCP_SYN_RCVD;
    tcp_emit_conn(c, c->iss, TCP_SYN | TCP_ACK, NULL, 0);
  }
}

/* Is the segment acceptable (RFC 793 p. 69)? A closed window
 * (tcp_set_rcv_space 0) counts as one byte wide here, so a segment at
 * rcv_nxt is still processed for its ACK, RST and FIN (RFC 793's "special
 * allowance"); its data is trimmed to the window later. */
static int tcp_seq_ok(const struct tcp_conn *c, const struct tcp_seg *s, uint32_t seglen) {
  uint32_t wnd = c->rcv_wnd ? c->rcv_wnd : 1;
  uint32_t start = s->seq - c->rcv_nxt;
  if (seglen == 0) {
    return start < wnd;
  }
  return start < wnd || (s->seq + seglen - 1 - c->rcv_nxt) < wnd;
}

/* RFC 5961: answer a RST or SYN that might be forged with an ACK instead
 * of acting on it; a real peer that lost the connection answers the ACK
 * with a RST at exactly RCV.NXT. At most NET_TCP_CHALLENGE_ACKS per
 * second (RFC 5961 7) for each connection: with one budget for all, an
 * attacker counting the challenge ACKs on a connection of his own learns
 * whether his spoofed segments hit another connection's window
 * (CVE-2016-5696). A slot's budget starts afresh with each connection
 * (another ISS). */
TCP_COLD static int tcp_challenge_budget(struct tcp_conn *c) {
  struct tcp_chal *b = &tcp_chal[c - tcp_conns];
  if (b->iss != c->iss || net_now - b->start >= 1000u) {
    b->iss = c->iss;
    b->start = net_now;
    b->count = 0;
  }
  if (b->count >= NET_TCP_CHALLENGE_ACKS) {
    return 0;
  }
  b->count++;
  return 1;
}

TCP_COLD static void tcp_challenge_ack(struct tcp_conn *c) {
  net_stats.tcp.drop_challenge++;
  if (!tcp_challenge_budget(c)) {
    net_stats.tcp.challenge_limited++;
    return;
  }
  tcp_emit_conn(c, c->snd_nxt, TCP_ACK, NULL, 0);
}

/* Our FIN is acknowledged: the state that follows it (RFC 793 p. 73).
 * @return 1 if the connection was freed (LAST_ACK: the application has
 * closed, so no event). */
static int tcp_our_fin_acked(struct tcp_conn *c) {
  if (c->state == TCP_FIN_WAIT_1) {
    c->state = TCP_FIN_WAIT_2;
  } else if (c->state == TCP_CLOSING) {
    c->state = TCP_TIME_WAIT;
    c->timer = net_now + NET_TCP_TIME_WAIT_MS;
  } else if (c->state == TCP_LAST_ACK) {
    tcp_free(c);
    return 1;
  }
  return 0;
}

/*--------------------------------------------------------------------------*/
/* The peer's FIN arrived in order (rcv_nxt is at it): the state that
 * follows (RFC 793 p. 75). @return the event for the application. */
TCP_COLD static unsigned tcp_fin_in(struct tcp_conn *c) {
  c->rcv_nxt++;
  if (c->state == TCP_ESTABLISHED) {
    c->state = TCP_CLOSE_WAIT;
  } else if (c->state == TCP_FIN_WAIT_1) {
    c->state = TCP_CLOSING; /* simultaneous close */
  } else {
    c->state = TCP_TIME_WAIT;
    c->timer = net_now + NET_TCP_TIME_WAIT_MS;
    c->flags &= (uint8_t)~TCPF_TIMER;
  }
  return NET_EV_CLOSED;
}

/* Header prediction (after Jacobson): the next in-order data segment of an
 * established connection that acknowledges nothing new, changes no window
 * and fits the window needs none of the steps below but the data: deliver
 * it on a short, straight path (a bulk receiver's every segment; the hot
 * code exceeds the I-cache, so fewer lines touched per segment count).
 * @return 1 if the segment was handled. */
static int tcp_fast_data(struct tcp_conn *c, const struct tcp_seg *s) {
  uint32_t out = tcp_snd_max(c);
  if (c->state != TCP_ESTABLISHED || (s->ctl & ~TCP_PSH) != TCP_ACK || s->seq != c->rcv_nxt || s->len == 0 ||
      s->ack != c->snd_una || out != c->snd_una || s->wnd != c->snd_wnd || s->len > tcp_wnd_of(c)) {
    return 0;
  }
#if TCP_HOLD
  if (tcp_nheld) {
    return 0; /* may fill a gap */
  }
#endif
  c->snd_wl1 = s->seq;
  c->snd_wl2 = s->ack;
  tcp_appdata = s->data;
  tcp_applen = (uint16_t)s->len;
  c->rcv_nxt += s->len;
  tcp_appcall(c, NET_EV_NEWDATA);
  tcp_after_app(c, ACK_DELAY);
  tcp_appdata = NULL;
  tcp_applen = 0;
  return 1;
}

static void tcp_process(struct tcp_conn *c, const struct tcp_seg *s) {
  uint32_t seglen = s->len + !!(s->ctl & TCP_SYN) + !!(s->ctl & TCP_FIN);
  unsigned ev = 0;
  int ack_mode = ACK_NONE;

  if (tcp_fast_data(c, s)) {
    return;
  }
  if (c->state == TCP_SYN_SENT) {
    tcp_input_syn_sent(c, s);
    return;
  }
  /* The peer did not get our SYN-ACK and sent its SYN again. */
  if (c->state == TCP_SYN_RCVD && (s->ctl & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN &&
      s->seq + 1 == c->rcv_nxt) {
    net_stats.tcp.dup++;
    tcp_emit_conn(c, c->iss, TCP_SYN | TCP_ACK, NULL, 0);
    return;
  }
  /* Any other SYN, whatever its sequence number (RFC 5961 4.2). */
  if (s->ctl & TCP_SYN) {
    tcp_challenge_ack(c);
    return;
  }

  /* First: sequence number. */
  if (!tcp_seq_ok(c, s, seglen)) {
    if (s->ctl & TCP_RST) {
      net_stats.tcp.drop_seq++;
      return;
    }
    if (TCP_SEQ_LEQ(s->seq + seglen, c->rcv_nxt)) {
      net_stats.tcp.dup++; /* old duplicate, e.g. a resent FIN */
      if (c->state == TCP_TIME_WAIT && (s->ctl & TCP_FIN)) {
        c->timer = net_now + NET_TCP_TIME_WAIT_MS;
      }
    } else {
      net_stats.tcp.drop_seq++;
    }
    tcp_emit_conn(c, c->snd_nxt, TCP_ACK, NULL, 0);
    return;
  }

  /* Second: RST, only exactly at RCV.NXT (RFC 5961 3.2). */
  if ((s->ctl & TCP_RST) && s->seq != c->rcv_nxt) {
    tcp_challenge_ack(c);
    return;
  }
  if (s->ctl & TCP_RST) {
    net_stats.tcp.rst_rx++;
    switch (c->state) {
      case TCP_SYN_RCVD: /* passive: back to LISTEN; active: refused */
      case TCP_ESTABLISHED:
      case TCP_FIN_WAIT_1:
      case TCP_FIN_WAIT_2:
      case TCP_CLOSE_WAIT:
        tcp_finish(c, NET_EV_ABORTED);
        break;
      default: /* CLOSING, LAST_ACK, TIME_WAIT: the application is done */
        tcp_free(c);
        break;
    }
    return;
  }
  if (c->ka_sent) { /* an acceptable segment answers the keep-alive */
    c->ka_sent = 0;
    c->heard = net_now;
  }

  /* Fifth: ACK. */
  if (!(s->ctl & TCP_ACK)) {
    net_stats.tcp.drop_no_ack++;
    return;
  }
  if (c->state == TCP_SYN_RCVD) {
    if (TCP_SEQ_LT(c->snd_una, s->ack) && TCP_SEQ_LEQ(s->ack, c->snd_nxt)) {
      if (!tcp_listen_room(c)) {
        return;
      }
      tcp_all_acked(c, s->ack);
      c->state = TCP_ESTABLISHED;
      c->poll_time = net_now + NET_TCP_POLL_MS;
      c->snd_wnd = s->wnd;
      c->snd_wl1 = s->seq;
      c->snd_wl2 = s->ack;
      ev |= NET_EV_CONNECTED;
    } else {
      net_stats.tcp.drop_bad_ack++;
      tcp_emit(c->rip, c->lport, c->rport, s->ack, 0, TCP_RST, 0, NULL, 0);
      return;
    }
  } else {
    TCP_SND_ACK(c, s, ev); /* returns if dropped or freed */
    if (TCP_SEQ_LT(c->snd_wl1, s->seq) || (c->snd_wl1 == s->seq && TCP_SEQ_LEQ(c->snd_wl2, s->ack))) {
      c->snd_wnd = s->wnd;
      c->snd_wl1 = s->seq;
      c->snd_wl2 = s->ack;
      if (s->wnd > tcp_snd_wnd_max(c)) {
        tcp_snd_set_wnd_max(c, s->wnd);
      }
      if (s->wnd > 0 && tcp_snd_persisting(c)) {
        tcp_snd_persist_end(c); /* window open: send again */
      }
    }
  }

  /* Seventh: data; eighth: FIN. */
  if (s->len > 0 || (s->ctl & TCP_FIN)) {
    if (c->state == TCP_ESTABLISHED || c->state == TCP_FIN_WAIT_1 || c->state == TCP_FIN_WAIT_2) {
      if (TCP_SEQ_GT(s->seq, c->rcv_nxt)) { /* gap before it */
#if TCP_HOLD
        tcp_ooo_hold(c, s);
#else
        net_stats.tcp.drop_ooo++;
#endif
        ack_mode = ACK_NOW; /* duplicate ACK (RFC 5681 4.2) */
      } else {
        uint32_t off = c->rcv_nxt - s->seq;
        int fin_ok = 1;
        if (off < s->len) {
          unsigned dlen = s->len - off;
          /* Within the current window: the global one and the room the
           * application has now (tcp_set_rcv_space), whichever is smaller. */
          unsigned lim = tcp_wnd_of(c);
          if (dlen > lim) {
            dlen = lim;
            fin_ok = 0;
            net_stats.tcp.trimmed++;
          }
          if (dlen > 0) {
            tcp_appdata = s->data + off;
            tcp_applen = (uint16_t)dlen;
            c->rcv_nxt += dlen;
            ev |= NET_EV_NEWDATA;
            ack_mode = ACK_DELAY;
          } else {
            ack_mode = ACK_NOW; /* window closed: tell the peer */
          }
        } else if (s->len > 0) {
          net_stats.tcp.dup++;
          ack_mode = ACK_NOW;
        }
        if ((s->ctl & TCP_FIN) && fin_ok && s->seq + s->len == c->rcv_nxt) {
          ev |= tcp_fin_in(c);
          ack_mode = ACK_NOW;
        }
#if TCP_HOLD
        if (tcp_nheld && (ev & NET_EV_NEWDATA)) {
          /* This segment may fill a gap: deliver what was held behind it
           * and acknowledge at once (RFC 5681 4.2). */
          if (tcp_ooo_deliver(c, ev)) {
            ev = 0;
            ack_mode = ACK_NOW;
          }
        }
#endif
      }
    } else if (s->len > 0) { /* data after the peer's FIN */
      net_stats.tcp.drop_state++;
      ack_mode = ACK_NOW;
    }
  }

  if (ev) {
    tcp_appcall(c, ev);
  }
  tcp_after_app(c, ack_mode);
  tcp_appdata = NULL;
  tcp_applen = 0;
}

/* Every segment but tcp_pure_ack()'s, after the checksum. Not inlined:
 * tcp_input() stays a few cache lines. */
static __attribute__((noinline)) void tcp_input_general(uint32_t src, const uint8_t *seg, unsigned len) {
  struct tcp_seg s;
  struct tcp_conn *c;

  if (!tcp_parse(seg, len, &s)) {
    return;
  }
  c = tcp_find(src, s.dport, s.sport);
  if (c != NULL) {
    tcp_process(c, &s);
  } else {
    tcp_input_closed(src, &s);
  }
}

void tcp_input(uint32_t src, uint32_t dst, int dst_kind, const uint8_t *seg, unsigned len) {
  unsigned i;

  net_stats.tcp.rx++;
  if (dst_kind != 1) {
    net_stats.tcp.drop_bcast++;
    return;
  }
  if (len < NET_TCP_HLEN) {
    net_stats.tcp.drop_short++;
    return;
  }
  if (net_rx_checked & NET_RXCK_TCP) {
    net_stats.tcp.chk_hw++;
  } else {
    NET_PHASE_ENTER(NET_PH_L4CHK);
    i = net_chksum_pseudo(src, dst, NET_IPPROTO_TCP, seg, len);
    NET_PHASE_LEAVE(NET_PH_L4CHK);
    if (i != 0xffff) {
      net_stats.tcp.drop_chksum++;
      return;
    }
  }
  if (len == NET_TCP_HLEN && seg[12] == (NET_TCP_HLEN / 4) << 4 && (seg[13] & 0x3f) == TCP_ACK &&
      tcp_snd_pure_ack(src, seg)) {
    return;
  }
  tcp_input_general(src, seg, len);
}
