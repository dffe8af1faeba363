/*
 * tcp_send_buf.c - the default send model (NET_TCP_UIP_SEND 0; the build
 * picks this file or tcp_send_uip.c, firmware/net/CMakeLists.txt): a send
 * buffer (ring) per connection, or the application's own data by
 * reference (tcp_send_ref, NET_TCP_SNDREFS), several segments in flight
 * within min(cwnd, peer window), RFC 5681 congestion control (slow start
 * from the initial window of section 3.1, congestion avoidance, fast
 * retransmit after three duplicate ACKs and fast recovery with the
 * partial-ACK rule of RFC 6582), go-back-N after a retransmission timeout,
 * the persist timer for zero windows with a probe limit, the loss probe
 * (NET_TCP_LOSS_PROBE) and header prediction for pure ACKs. Part of the
 * TCP unit (tcp_priv.h).
 */
#include "tcp_priv.h"
#include "tcp_send_buf.h"

/*--------------------------------------------------------------------------*/
/* Send buffer. */
/* 1 if buffered data is tcp_send_ref()'s (not the ring's). */
static int tcp_has_refs(const struct tcp_conn *c) {
#if NET_TCP_SNDREFS
  return c->ref_n != 0;
#else
  (void)c;
  return 0;
#endif
}

unsigned tcp_sndmax(const struct tcp_conn *c) {
  if ((c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) || (c->flags & TCPF_CLOSE_REQ) ||
      tcp_has_refs(c)) {
    return 0;
  }
  return NET_TCP_SNDBUF - c->snd_buf_len;
}

unsigned tcp_unacked(const struct tcp_conn *c) { return c->snd_buf_len; }

/* Ring offset of sequence number `seq` (data starts at ISS + 1). */
/* Stream byte n lives at ring offset n + TCP_RING_BIAS (mod the size): a
 * segment starting at a multiple of 4 bytes (MSS 1460) then has the same
 * address mod 4 in the ring as its payload in the frame (offset 54), so
 * the copy into the frame and net_chksum_copy() run on aligned words. */
#define TCP_RING_BIAS ((NET_ETH_HLEN + NET_IP_HLEN + NET_TCP_HLEN) & 3u)

static unsigned tcp_ring_off(const struct tcp_conn *c, uint32_t seq) {
  return (unsigned)(seq - c->iss - 1u + TCP_RING_BIAS) & (NET_TCP_SNDBUF - 1u);
}

int tcp_send(struct tcp_conn *c, const void *data, unsigned len) {
  unsigned room, off, first;
  uint8_t *ring;

  NET_ERROR("tcp_send: c == NULL", c != NULL, return NET_ERR_ARG);
  NET_ERROR("tcp_send: data == NULL", data != NULL || len == 0, return NET_ERR_ARG);
  NET_ERROR("tcp_send: outside a callback", (c->flags & TCPF_IN_CB) != 0, return NET_ERR_STATE);
  if ((c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) || (c->flags & TCPF_CLOSE_REQ) ||
      tcp_has_refs(c)) {
    return NET_ERR_STATE;
  }
  room = NET_TCP_SNDBUF - c->snd_buf_len;
  if (len > room) {
    len = room;
  }
  ring = tcp_sndbuf[c - tcp_conns];
  off = tcp_ring_off(c, c->snd_una + c->snd_buf_len);
  first = NET_TCP_SNDBUF - off;
  if (first > len) {
    first = len;
  }
  NET_PHASE_ENTER(NET_PH_APPCOPY);
  memcpy(ring + off, data, first);
  memcpy(ring, (const uint8_t *)data + first, len - first);
  NET_PHASE_LEAVE(NET_PH_APPCOPY);
  c->snd_buf_len += len;
  return (int)len;
}

#if NET_TCP_SNDREFS
int tcp_send_ref(struct tcp_conn *c, const void *data, unsigned len) {
  struct tcp_sref *r;

  NET_ERROR("tcp_send_ref: c == NULL", c != NULL, return NET_ERR_ARG);
  NET_ERROR("tcp_send_ref: data == NULL", data != NULL, return NET_ERR_ARG);
  NET_ERROR("tcp_send_ref: len not 1..65535", len - 1u < 0xffffu, return NET_ERR_ARG);
  NET_ERROR("tcp_send_ref: outside a callback", (c->flags & TCPF_IN_CB) != 0, return NET_ERR_STATE);
  if ((c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) || (c->flags & TCPF_CLOSE_REQ) ||
      (c->ref_n == 0 && c->snd_buf_len != 0)) {
    return NET_ERR_STATE; /* closing, or tcp_send()'s data is in the ring */
  }
  if (c->ref_n == NET_TCP_SNDREFS) {
    return NET_ERR_BUF;
  }
  r = &tcp_srefs[c - tcp_conns][(c->ref_head + c->ref_n) % NET_TCP_SNDREFS];
  r->p = (const uint8_t *)data;
  r->len = (uint16_t)len;
  c->ref_n++;
  c->snd_buf_len += len;
  return (int)len;
}

/* `acked` buffered bytes were acknowledged: drop the references they end. */
static void tcp_refs_acked(struct tcp_conn *c, uint32_t acked) {
  const struct tcp_sref *refs = tcp_srefs[c - tcp_conns];
  uint32_t off = c->ref_off + acked;

  while (c->ref_n && off >= refs[c->ref_head].len) {
    off -= refs[c->ref_head].len;
    c->ref_head = (uint8_t)((c->ref_head + 1u) % NET_TCP_SNDREFS);
    c->ref_n--;
  }
  c->ref_off = (uint16_t)(c->ref_n ? off : 0);
}
#endif

/* The buffered bytes from sequence number `seq` on that lie one after the
 * other in memory: *p = the first; @return how many (at least 1 while
 * `seq` is buffered). */
static unsigned tcp_piece(const struct tcp_conn *c, uint32_t seq, const uint8_t **p) {
  unsigned off;
#if NET_TCP_SNDREFS
  if (c->ref_n) {
    const struct tcp_sref *refs = tcp_srefs[c - tcp_conns];
    unsigned i = c->ref_head;
    uint32_t o = c->ref_off + (seq - c->snd_una);
    while (o >= refs[i].len) {
      o -= refs[i].len;
      i = (i + 1u) % NET_TCP_SNDREFS;
    }
    *p = refs[i].p + o;
    return refs[i].len - o;
  }
#endif
  off = tcp_ring_off(c, seq);
  *p = tcp_sndbuf[c - tcp_conns] + off;
  return NET_TCP_SNDBUF - off;
}

/* Emit `len` buffered bytes from sequence number `seq` (plus `ctl`). The
 * segment is built in the driver's transmit buffer when it hands one out
 * (net_tx_frame(), else in net_buf): the payload is copied once, from the
 * ring straight behind the header, and the driver sends it in place. With
 * the fast checksum the copy also sums the payload (net_chksum_copy); the
 * other variants keep their own pass, so comparing them stays meaningful. */
static void tcp_emit_buf(struct tcp_conn *c, uint32_t seq, unsigned len, uint8_t ctl) {
  uint8_t *frame = net_tx_frame();
  int32_t psum = -1;

  if (len) {
    uint8_t *d = frame + NET_ETH_HLEN + NET_IP_HLEN + NET_TCP_HLEN;
    int fast = net_chksum_active_is_fast();
    uint32_t acc = 0;
    unsigned done = 0;
    /* Piece by piece (the ring wraps at most once; references end). */
    if (fast) {
      NET_PHASE_ENTER(NET_PH_L4CHK);
    } else {
      NET_PHASE_ENTER(NET_PH_APPCOPY);
    }
    while (done < len) {
      const uint8_t *src;
      unsigned n = tcp_piece(c, seq + done, &src);
      if (n > len - done) {
        n = len - done;
      }
      if (fast) {
        uint32_t sum = net_chksum_copy(0, d + done, src, n);
        if (done & 1u) { /* a piece at an odd offset: its bytes swap lanes */
          sum = net_swap16((uint16_t)sum);
        }
        acc += sum;
      } else {
        memcpy(d + done, src, n);
      }
      done += n;
    }
    if (fast) {
      acc = (acc & 0xffffu) + (acc >> 16);
      psum = (int32_t)((acc & 0xffffu) + (acc >> 16));
      NET_PHASE_LEAVE(NET_PH_L4CHK);
    } else {
      NET_PHASE_LEAVE(NET_PH_APPCOPY);
    }
  }
  tcp_adv_wnd(c);
  c->flags &= (uint8_t)~TCPF_ACK_PENDING;
  tcp_emit_frame(frame, c->rip, c->lport, c->rport, seq, c->rcv_nxt, ctl, c->rcv_wnd, NULL, len, psum);
}

/* Initial window, RFC 5681 3.1. */
static uint32_t tcp_iw(const struct tcp_conn *c) {
  return c->mss > 2190 ? 2u * c->mss : c->mss > 1095 ? 3u * c->mss : 4u * c->mss;
}

/* Bytes in flight (FlightSize of RFC 5681). */
static uint32_t tcp_flight(const struct tcp_conn *c) { return c->snd_max - c->snd_una; }

/* ssthresh after a loss, RFC 5681 equation (4). */
static void tcp_set_ssthresh(struct tcp_conn *c) {
  uint32_t half = tcp_flight(c) / 2;
  c->ssthresh = half > 2u * c->mss ? half : 2u * c->mss;
}

/* Resend one segment from SND.UNA (fast retransmit, partial ACK). */
static void tcp_resend_first(struct tcp_conn *c) {
  uint32_t n = c->snd_max - c->snd_una;
  uint8_t ctl = TCP_ACK;
  if (n > c->snd_buf_len) { /* the FIN is in flight */
    n = c->snd_buf_len;
  }
  if (n > c->mss) {
    n = c->mss;
  }
  if (n == c->snd_buf_len && (c->sflags & TCPS_FIN)) {
    ctl |= TCP_FIN;
  }
  c->flags &= (uint8_t)~TCPF_RTT; /* Karn */
  net_stats.tcp.rexmit++;
  tcp_emit_buf(c, c->snd_una, n, ctl);
}

/* Send what the windows allow: new data from SND.NXT, then the FIN. */
static void tcp_output(struct tcp_conn *c) {
  uint32_t end, wnd, smss;

  if (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT && c->state != TCP_FIN_WAIT_1 &&
      c->state != TCP_LAST_ACK && c->state != TCP_CLOSING) {
    return;
  }
  if (c->cwnd == 0) { /* first send: the handshake told us the MSS */
    c->cwnd = tcp_iw(c);
    c->ssthresh = 0xffffffffu;
  }
  if (c->snd_wnd > c->snd_wnd_max) {
    c->snd_wnd_max = c->snd_wnd;
  }
  /* Segments of at most half the largest window the peer offered (when
   * that is more than 536 bytes): a receiver with a one-MSS window and
   * delayed ACKs then gets two segments and acknowledges at once instead
   * of after its delayed-ACK timer (Linux does the same). */
  smss = c->mss;
  if (c->snd_wnd_max > 536u && smss > c->snd_wnd_max / 2u) {
    smss = c->snd_wnd_max / 2u;
  }
  end = c->snd_una + c->snd_buf_len;
  wnd = c->cwnd < c->snd_wnd ? c->cwnd : c->snd_wnd;
  for (;;) {
    uint32_t inflight = c->snd_nxt - c->snd_una;
    uint32_t unsent = TCP_SEQ_LT(c->snd_nxt, end) ? end - c->snd_nxt : 0;
    uint32_t n = unsent;
    uint8_t ctl = TCP_ACK;

    if (unsent == 0) {
      if (!(c->sflags & TCPS_FIN) || c->snd_nxt != end) {
        break; /* nothing to send, or the FIN is out already */
      }
    } else {
      uint32_t usable = inflight < wnd ? wnd - inflight : 0;
      if (n > smss) {
        n = smss;
      }
      if (n > usable) {
        n = usable;
      }
      /* Sender SWS avoidance (RFC 1122 4.2.3.4): a full segment, all that
       * is left, at least half the largest window the peer offered, or
       * nothing in flight (a peer that shrank its window for good would
       * otherwise stall the connection; this replaces the override timer). */
      if (n == 0 || (n < smss && n < unsent && n < c->snd_wnd_max / 2u && inflight != 0)) {
        break;
      }
      ctl |= TCP_PSH * (n == unsent);
    }
    if (c->snd_nxt + n == end && (c->sflags & TCPS_FIN)) {
      ctl |= TCP_FIN;
    }
    if (c->snd_nxt == c->snd_max && !(c->flags & TCPF_RTT)) {
      c->flags |= TCPF_RTT; /* time this new segment (one at a time) */
      c->rtt_seq = c->snd_nxt + n;
      c->rtt_start = net_now;
    }
    if (!(c->flags & TCPF_TIMER) || (c->sflags & TCPS_PERSIST)) {
      c->sflags &= (uint8_t)~TCPS_PERSIST;
      c->flags |= TCPF_TIMER;
      c->timer = net_now + c->rto;
    }
    tcp_emit_buf(c, c->snd_nxt, n, ctl);
    c->snd_nxt += n + !!(ctl & TCP_FIN);
    if (TCP_SEQ_GT(c->snd_nxt, c->snd_max)) {
      c->snd_max = c->snd_nxt;
    }
    if (ctl & TCP_FIN) {
      break;
    }
  }
  /* Data waiting, nothing in flight, the peer's window closed: persist. */
  if (c->snd_una == c->snd_max && c->snd_wnd == 0 &&
      (TCP_SEQ_LT(c->snd_nxt, end) || (c->sflags & TCPS_FIN)) && !(c->sflags & TCPS_PERSIST)) {
    c->sflags |= TCPS_PERSIST;
    c->flags &= (uint8_t)~TCPF_TIMER;
    c->timer = net_now + c->rto;
  }
}

/* Acknowledgment processing of the send side (RFC 5681, RFC 6582 partial
 * ACKs, RFC 6298 timer). @return NET_EV_ACKED if buffered data was
 * acknowledged; *fin_acked set if our FIN was. */
static unsigned tcp_ack_sent(struct tcp_conn *c, const struct tcp_seg *s, int *fin_acked) {
  uint32_t acked = s->ack - c->snd_una;
  uint32_t data = acked;
  unsigned ev = 0;

  if (TCP_SEQ_LEQ(s->ack, c->snd_una)) {
    /* Duplicate ACK (RFC 5681 section 2): data outstanding, no data, no
     * SYN/FIN, same ACK number, window unchanged. */
    if (s->ack == c->snd_una && c->snd_max != c->snd_una && s->len == 0 && !(s->ctl & (TCP_SYN | TCP_FIN)) &&
        s->wnd == c->snd_wnd) {
      net_stats.tcp.dupacks++;
      if (++c->dupacks == 3 && !(c->sflags & TCPS_RECOVERY)) {
        tcp_set_ssthresh(c);
        c->recover = c->snd_max;
        c->sflags |= TCPS_RECOVERY;
        net_stats.tcp.fast_rexmit++;
        tcp_resend_first(c);
        c->cwnd = c->ssthresh + 3u * c->mss;
      } else if (c->dupacks > 3 || (c->sflags & TCPS_RECOVERY)) {
        c->cwnd += c->mss; /* inflate: a segment has left the network */
      }
    }
    return 0;
  }
  if ((c->sflags & TCPS_FIN) && s->ack == c->snd_una + c->snd_buf_len + 1u) {
    *fin_acked = 1;
    data--;
  }
  if ((c->flags & TCPF_RTT) && TCP_SEQ_GEQ(s->ack, c->rtt_seq)) {
    tcp_rtt_sample(c, net_now - c->rtt_start); /* Karn: only if never resent */
    c->flags &= (uint8_t)~TCPF_RTT;
  }
  c->snd_buf_len -= data;
#if NET_TCP_SNDREFS
  tcp_refs_acked(c, data);
#endif
  c->snd_una = s->ack;
  if (TCP_SEQ_LT(c->snd_nxt, c->snd_una)) {
    c->snd_nxt = c->snd_una;
  }
  c->nrtx = 0;
  c->nprobe = 0;
  if (c->snd_una == c->snd_max) {
    c->flags &= (uint8_t)~TCPF_TIMER;
  } else {
    c->flags |= TCPF_TIMER; /* RFC 6298 5.3: restart for the rest */
    c->timer = net_now + c->rto;
  }
  if (c->sflags & TCPS_RECOVERY) {
    if (TCP_SEQ_GEQ(s->ack, c->recover)) { /* full ACK: leave recovery */
      c->sflags &= (uint8_t)~TCPS_RECOVERY;
      c->cwnd = c->ssthresh;
      c->dupacks = 0;
    } else { /* partial ACK (RFC 6582 3.2 step 3): next hole, deflate */
      tcp_resend_first(c);
      c->cwnd = (c->cwnd > acked ? c->cwnd - acked : 0) + c->mss;
    }
  } else {
    c->dupacks = 0;
    if (c->cwnd < c->ssthresh) { /* slow start */
      c->cwnd += acked < c->mss ? acked : c->mss;
    } else { /* congestion avoidance: about one MSS per RTT */
      uint32_t inc = (uint32_t)c->mss * c->mss / c->cwnd;
      c->cwnd += inc ? inc : 1u;
    }
  }
  if (data) {
    ev = NET_EV_ACKED;
  }
  return ev;
}

/*--------------------------------------------------------------------------*/
/* Header prediction for the sender's common segment: a pure ACK (20-byte
 * header, flags exactly ACK, checksum checked) in ESTABLISHED, at RCV.NXT,
 * that acknowledges new data (SND.UNA < SEG.ACK <= SND.MAX) outside fast
 * recovery and the persist state. Handled here in a few lines instead of
 * tcp_process()'s general path, whose code would push the send path out of
 * the I-cache; the outcome is the same as there: tcp_ack_sent(), the
 * window update (always due: SEG.SEQ = RCV.NXT and SEG.ACK > SND.UNA >=
 * SND.WL2), the application, then tcp_after_app() without an ACK of its
 * own. @return 0 if the segment is not such an ACK (tcp_process() takes it). */
static int tcp_snd_pure_ack(uint32_t src, const uint8_t *seg) {
  struct tcp_seg s;
  struct tcp_conn *c;
  unsigned ev;
  int fin_acked = 0;

  s.sport = net_get16(seg);
  s.dport = net_get16(seg + 2);
  s.seq = net_get32(seg + 4);
  s.ack = net_get32(seg + 8);
  c = tcp_find(src, s.dport, s.sport);
  if (c == NULL || c->state != TCP_ESTABLISHED || s.seq != c->rcv_nxt || !TCP_SEQ_LT(c->snd_una, s.ack) ||
      TCP_SEQ_GT(s.ack, c->snd_max) || (c->sflags & (TCPS_RECOVERY | TCPS_PERSIST))) {
    return 0;
  }
  s.ctl = TCP_ACK;
  s.wnd = net_get16(seg + 14);
  s.mss = 0;
  s.data = seg + NET_TCP_HLEN;
  s.len = 0;
  ev = tcp_ack_sent(c, &s, &fin_acked);
  c->snd_wnd = s.wnd;
  c->snd_wl1 = s.seq;
  c->snd_wl2 = s.ack;
  if (s.wnd > c->snd_wnd_max) {
    c->snd_wnd_max = s.wnd;
  }
  if (ev) {
    tcp_appcall(c, ev);
  }
  tcp_after_app(c, ACK_NONE);
  tcp_appdata = NULL;
  tcp_applen = 0;
  return 1;
}

/* Zero window: probe (an old sequence number forces an ACK with the current
 * window), back off, give up persist_max_ms after the first probe (the
 * timer is set to that moment at the latest). Not inlined: rare work, kept
 * out of tcp_timer_conns(). */
TCP_COLD static void tcp_persist(struct tcp_conn *c) {
  uint32_t iv, left;
  if (c->nprobe == 0) {
    c->zw_since = net_now;
  } else if (net_now - c->zw_since >= tcp_pol.persist_max_ms) {
    net_stats.tcp.timeouts++;
    tcp_emit_conn(c, c->snd_nxt, TCP_RST | TCP_ACK, NULL, 0);
    tcp_finish(c, NET_EV_TIMEDOUT);
    return;
  }
  if (c->nprobe < 255u) {
    c->nprobe++;
  }
  net_stats.tcp.persist_probes++;
  tcp_emit_conn(c, c->snd_una - 1, TCP_ACK, NULL, 0);
  iv = c->rto << (c->nprobe < 16 ? c->nprobe : 16);
  if (iv > NET_TCP_RTO_MAX_MS) {
    iv = NET_TCP_RTO_MAX_MS;
  }
  left = c->zw_since + tcp_pol.persist_max_ms - net_now;
  c->timer = net_now + (iv < left ? iv : left);
}

#if NET_TCP_LOSS_PROBE
/* Loss probe (netopts.h NET_TCP_LOSS_PROBE; RFC 8985 section 7 without
 * SACK): one or two duplicate ACKs, no recovery, no timeout yet, no probe
 * since SND.UNA last advanced (nprobe counts this probe too: an advancing
 * ACK clears it), an RTT sample, and PTO = 2 * SRTT + NET_TCP_PTO_MIN_MS
 * (below the RTO) has passed since the retransmission timer was last
 * started, i.e. since SND.UNA last advanced. New data would have gone out
 * on the duplicates already (tcp_output() after each ACK; RFC 3042), so
 * there is none the windows allow.
 * If due, send the last segment in flight again (the probe): its duplicate
 * ACK from a receiver with a hole is the third, which starts fast
 * retransmit (RFC 5681 3.2) and recovery; then restart the retransmission
 * timer (RFC 8985 7.3). Karn: no RTT sample from it. A probe that itself
 * repairs a lost last segment goes without a congestion response (RFC 8985
 * 7.4 needs DSACK). Not inlined, like tcp_retransmit(): rare work, kept out
 * of tcp_timer_conns(), whose size the hot-code layout depends on.
 * @return 1 if a probe was sent */
static __attribute__((noinline)) int tcp_loss_probe(struct tcp_conn *c) {
  uint32_t end, dend, n, pto;
  uint8_t ctl = TCP_ACK;
  if ((c->sflags & (TCPS_RECOVERY | TCPS_PERSIST)) || c->nrtx != 0 || c->nprobe != 0 || c->srtt8 < 0 ||
      c->snd_nxt != c->snd_max || c->snd_una == c->snd_max) {
    return 0;
  }
  pto = (uint32_t)c->srtt8 / 4u + NET_TCP_PTO_MIN_MS;
  if (pto >= c->rto || !tcp_time_reached(c->timer - c->rto + pto)) {
    return 0;
  }
  end = c->snd_una + c->snd_buf_len; /* end of the data */
  dend = TCP_SEQ_LT(c->snd_max, end) ? c->snd_max : end;
  n = dend - c->snd_una;
  if (n > c->mss) {
    n = c->mss;
  }
  if ((c->sflags & TCPS_FIN) && c->snd_max == end + 1u) {
    ctl |= TCP_FIN; /* the FIN is in flight: it ends the last segment */
  }
  c->nprobe = 1;
  c->flags &= (uint8_t)~TCPF_RTT;
  c->timer = net_now + c->rto;
  net_stats.tcp.rexmit++;
  net_stats.tcp.loss_probes++;
  tcp_emit_buf(c, dend - n, n, ctl);
  return 1;
}
#endif

/*--------------------------------------------------------------------------*/
/* The send model's interface (tcp_priv.h). */
TCP_SND void tcp_snd_init(struct tcp_conn *c) { c->snd_max = c->snd_nxt; }

TCP_SND uint32_t tcp_snd_max(const struct tcp_conn *c) { return c->snd_max; }

TCP_SND int tcp_snd_quiet(const struct tcp_conn *c) {
  return c->snd_max == c->snd_una && !(c->sflags & TCPS_PERSIST);
}

TCP_SND unsigned tcp_snd_wnd_max(const struct tcp_conn *c) { return c->snd_wnd_max; }

TCP_SND void tcp_snd_set_wnd_max(struct tcp_conn *c, uint16_t wnd) { c->snd_wnd_max = wnd; }

TCP_SND unsigned tcp_snd_dupacks(const struct tcp_conn *c) { return c->dupacks; }

TCP_SND int tcp_snd_loss_probe(struct tcp_conn *c) {
#if NET_TCP_LOSS_PROBE
  return tcp_loss_probe(c);
#else
  (void)c;
  return 0;
#endif
}

TCP_SND unsigned tcp_snd_persisting(const struct tcp_conn *c) { return c->sflags & TCPS_PERSIST; }

TCP_SND void tcp_snd_persist(struct tcp_conn *c) { tcp_persist(c); }

TCP_SND void tcp_snd_persist_end(struct tcp_conn *c) {
  c->sflags &= (uint8_t)~TCPS_PERSIST;
  c->nprobe = 0;
}

TCP_SND int tcp_snd_poll_probe(const struct tcp_conn *c) {
  (void)c; /* the persist timer probes */
  return 0;
}
