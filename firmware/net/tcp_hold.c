/*
 * tcp_hold.c - the receive side of zero-copy builds: out-of-order segments
 * held in the frames the netif keeps (rx_hold) and delivered when the gap
 * is filled, and received data the application keeps past its callback
 * (tcp_recv_hold, tcp_recv_kept, tcp_recv_done; without hold buffers they
 * report failure). Part of the TCP unit (tcp_priv.h).
 */
#include "tcp_priv.h"

#if TCP_HOLD
/*--------------------------------------------------------------------------*/
/* Receive side: out-of-order segments (held, not copied). A segment after a gap is
 * not copied: the netif keeps its whole frame (rx_hold; the GRETH takes
 * the DMA buffer out of its ring and puts a spare in its place) and an
 * entry here points at its data. Entries of one connection never overlap:
 * a new segment is trimmed against the held ones (a held segment inside
 * it is released, the new one covers it). When the in-order data reaches
 * a held segment it is delivered from its buffer (NET_EV_NEWDATA, one
 * callback per segment) and the buffer is given back. */

/* 1 if entry h holds a segment of connection number ci. */
static inline int tcp_held_by(const struct tcp_held *h, uint8_t ci) {
  return h->buf != NULL && h->conn == ci;
}

static void tcp_held_release(struct tcp_held *h) {
  net_netif->rx_unhold(net_netif, h->buf);
  h->buf = NULL;
  if (h->conn == TCP_HELD_APP) {
    tcp_napp--;
  } else {
    tcp_nheld--;
  }
}

/* A free entry holding the frame being processed (rx_hold, up to `end`),
 * its data pointer set to where `data` stays; the caller fills the rest
 * and counts it. NULL: no free entry or the netif cannot hold now. */
TCP_COLD static struct tcp_held *tcp_held_new(const uint8_t *data, const uint8_t *end) {
  struct tcp_held *h;
  const uint8_t *buf;
  for (h = tcp_held; h != tcp_held + NET_TCP_RX_HOLD && h->buf != NULL; h++) {
  }
  if (h == tcp_held + NET_TCP_RX_HOLD || net_netif->rx_hold == NULL) {
    return NULL;
  }
  buf = net_netif->rx_hold(net_netif, net_rx_frame, (unsigned)(end - net_rx_frame));
  if (buf == NULL) {
    return NULL;
  }
  h->buf = buf;
  h->data = buf + (data - net_rx_frame);
  return h;
}

TCP_COLD static void tcp_held_release_conn(const struct tcp_conn *c) {
  unsigned i;
  for (i = 0; i < NET_TCP_RX_HOLD; i++) {
    if (tcp_held_by(&tcp_held[i], (uint8_t)(c - tcp_conns))) {
      tcp_held_release(&tcp_held[i]);
    }
  }
}

/* Bytes from rcv_nxt to the end of the highest data held for c (0: none). */
static uint32_t tcp_held_span(const struct tcp_conn *c) {
  uint32_t span = 0;
  unsigned i;
  if (tcp_nheld == 0) {
    return 0;
  }
  for (i = 0; i < NET_TCP_RX_HOLD; i++) {
    const struct tcp_held *h = &tcp_held[i];
    if (tcp_held_by(h, (uint8_t)(c - tcp_conns))) {
      uint32_t e = h->seq + h->len - c->rcv_nxt;
      if ((int32_t)e > 0 && e > span) {
        span = e;
      }
    }
  }
  return span;
}

/* Keep segment s (after a gap) if it brings data not held yet. */
TCP_COLD static void tcp_ooo_hold(struct tcp_conn *c, const struct tcp_seg *s) {
  uint8_t ci = (uint8_t)(c - tcp_conns);
  uint32_t seq = s->seq;
  const uint8_t *data = s->data;
  uint32_t len = s->len;
  uint32_t right = c->rcv_nxt + c->rcv_wnd; /* the window we advertised */
  uint8_t fin = (s->ctl & TCP_FIN) != 0;
  struct tcp_held *h_new;
  unsigned i;

  if (TCP_SEQ_GT(seq + len, right)) { /* beyond the window: cut */
    len = right - seq;
    fin = 0;
    net_stats.tcp.trimmed++;
  }
  /* Already held whole (a duplicate): nothing to keep. Held segments
   * inside this one go; this one is cut where it overlaps the others (at
   * most one at each end, since they do not overlap). */
  for (i = 0; i < NET_TCP_RX_HOLD; i++) {
    struct tcp_held *h = &tcp_held[i];
    if (tcp_held_by(h, ci) && TCP_SEQ_LEQ(h->seq, seq) && TCP_SEQ_GEQ(h->seq + h->len, seq + len)) {
      net_stats.tcp.ooo_dup++;
      h->fin |= fin && h->seq + h->len == seq + len;
      return;
    }
  }
  for (i = 0; i < NET_TCP_RX_HOLD; i++) {
    struct tcp_held *h = &tcp_held[i];
    if (tcp_held_by(h, ci) && TCP_SEQ_GEQ(h->seq, seq) && TCP_SEQ_LEQ(h->seq + h->len, seq + len)) {
      fin |= h->fin && h->seq + h->len == seq + len;
      tcp_held_release(h);
      net_stats.tcp.ooo_dup++;
    }
  }
  for (i = 0; i < NET_TCP_RX_HOLD && len > 0; i++) {
    struct tcp_held *h = &tcp_held[i];
    uint32_t he = h->seq + h->len;
    if (!tcp_held_by(h, ci)) {
      continue;
    }
    if (TCP_SEQ_LEQ(h->seq, seq) && TCP_SEQ_GT(he, seq)) { /* head held */
      uint32_t d = he - seq;
      net_stats.tcp.ooo_dup++;
      if (d >= len) { /* all of it */
        h->fin |= fin && he == seq + len;
        return;
      }
      seq += d;
      data += d;
      len -= d;
      i = (unsigned)-1; /* the rest may meet another one: look again */
    } else if (TCP_SEQ_LT(h->seq, seq + len) && TCP_SEQ_GT(h->seq, seq)) { /* tail */
      net_stats.tcp.ooo_dup++;
      len = h->seq - seq;
      fin = 0;
    }
  }
  if (len == 0) {
    net_stats.tcp.drop_ooo++; /* a FIN alone after a gap: the peer resends it */
    return;
  }
  h_new = tcp_held_new(data, s->data + s->len);
  if (h_new == NULL) {
    net_stats.tcp.drop_ooo++; /* no hold buffer: the peer sends it again */
    return;
  }
  h_new->seq = seq;
  h_new->len = (uint16_t)len;
  h_new->conn = ci;
  h_new->fin = fin;
  tcp_nheld++;
  net_stats.tcp.ooo_held++;
}

/* In-order data (event `ev`, tcp_appdata) just arrived: if held segments
 * follow it, deliver it and them now, one callback each, and release
 * their buffers. @return 1 if the application was called. */
TCP_COLD static int tcp_ooo_deliver(struct tcp_conn *c, unsigned ev) {
  uint8_t ci = (uint8_t)(c - tcp_conns);
  int called = 0;
  unsigned i;

  for (i = 0; i < NET_TCP_RX_HOLD; i++) {
    struct tcp_held *h = &tcp_held[i];
    uint32_t off;
    if (!tcp_held_by(h, ci) || TCP_SEQ_GT(h->seq, c->rcv_nxt)) {
      continue;
    }
    off = c->rcv_nxt - h->seq;
    if (off > h->len || (off == h->len && !h->fin) || (ev & NET_EV_CLOSED) || (c->flags & TCPF_ABORT_REQ)) {
      tcp_held_release(h); /* already delivered (or nothing to deliver to) */
      continue;
    }
    if (!called) {
      tcp_appcall(c, ev); /* the segment that filled the gap first */
      called = 1;
      if (c->flags & TCPF_ABORT_REQ) {
        tcp_held_release(h);
        continue;
      }
    }
    ev = 0;
    if (off < h->len) {
      tcp_appdata = h->data + off;
      tcp_applen = (uint16_t)(h->len - off);
      c->rcv_nxt += h->len - off;
      ev = NET_EV_NEWDATA;
      net_stats.tcp.ooo_delivered++;
    }
    if (h->fin) {
      ev |= tcp_fin_in(c);
    }
    tcp_app_from = h;
    tcp_appcall(c, ev);
    tcp_app_from = NULL;
    if (h->conn == ci) { /* not kept by the application (tcp_recv_hold) */
      tcp_held_release(h);
    }
    i = (unsigned)-1; /* rcv_nxt moved: the next one may follow now */
  }
  return called;
}
#endif

/*--------------------------------------------------------------------------*/
/* Deferred consumption: the application keeps received data in the
 * driver's buffer past its callback (tcp.h). The entry and the buffer are
 * the ones out-of-order segments use, so what the application keeps
 * narrows every connection's window (tcp_wnd_of) until tcp_recv_done. */
#if TCP_HOLD
/* The entry of a handle the application keeps, else NULL. */
static struct tcp_held *tcp_kept_entry(int handle) {
  struct tcp_held *h;
  if (handle < 1 || handle > NET_TCP_RX_HOLD) {
    return NULL;
  }
  h = &tcp_held[handle - 1];
  return h->buf != NULL && h->conn == TCP_HELD_APP ? h : NULL;
}
#endif

TCP_COLD int tcp_recv_hold(struct tcp_conn *c) {
#if TCP_HOLD
  struct tcp_held *h = tcp_app_from;
  int k;

  if (c == NULL || c < tcp_conns || c >= tcp_conns + NET_TCP_CONNS || !(c->flags & TCPF_IN_CB) ||
      tcp_appdata == NULL || tcp_applen == 0 || net_netif->rx_hold == NULL) {
    return 0; /* not in a NET_EV_NEWDATA callback of c */
  }
  for (k = 1; k <= NET_TCP_RX_HOLD; k++) { /* kept already in this callback */
    const struct tcp_held *kh = tcp_kept_entry(k);
    if (kh != NULL && kh->data == tcp_appdata) {
      return k;
    }
  }
  if (h != NULL) { /* delivered from a held segment: the entry changes hands */
    h->conn = TCP_HELD_APP;
    h->data = tcp_appdata;
    h->len = tcp_applen;
    tcp_nheld--;
    tcp_napp++;
    net_stats.tcp.app_held++;
    return (int)(h - tcp_held) + 1;
  }
  h = tcp_held_new(tcp_appdata, tcp_appdata + tcp_applen);
  if (h == NULL) {
    net_stats.tcp.app_hold_fail++;
    return 0;
  }
  h->len = tcp_applen;
  h->conn = TCP_HELD_APP;
  h->fin = 0;
  tcp_napp++;
  net_stats.tcp.app_held++;
  tcp_appdata = h->data; /* where the bytes stay (the GRETH: where they are) */
  return (int)(h - tcp_held) + 1;
#else
  (void)c;
  net_stats.tcp.app_hold_fail++;
  return 0;
#endif
}

const uint8_t *tcp_recv_kept(int handle, uint16_t *len) {
#if TCP_HOLD
  const struct tcp_held *h = tcp_kept_entry(handle);
  if (h != NULL) {
    if (len != NULL) {
      *len = h->len;
    }
    return h->data;
  }
#else
  (void)handle;
#endif
  if (len != NULL) {
    *len = 0;
  }
  return NULL;
}

TCP_COLD net_err_t tcp_recv_done(int handle) {
#if TCP_HOLD
  struct tcp_held *h = tcp_kept_entry(handle);
  unsigned i;
  if (h == NULL) {
    net_stats.err_arg++; /* not kept (given back twice?) */
    return NET_ERR_ARG;
  }
  tcp_held_release(h);
  for (i = 0; i < NET_TCP_CONNS; i++) { /* a buffer is free: windows grow */
    tcp_wnd_grown(&tcp_conns[i]);
  }
  return NET_OK;
#else
  (void)handle;
  net_stats.err_arg++;
  return NET_ERR_ARG;
#endif
}
