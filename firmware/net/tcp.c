/*
 * tcp.c - TCP (RFC 793, corrected by RFC 1122 4.2.2): the application
 * interface, the connection table and initial sequence numbers. The rest
 * of the implementation is in the files tcp_priv.h lists, compiled with
 * this one as one unit.
 *
 * Sending (NET_TCP_UIP_SEND 0, the default; tcp_send_buf.c): a send buffer
 * (ring) per connection, several segments in flight within min(cwnd, peer
 * window), RFC 5681 congestion control (slow start from the initial window
 * of section 3.1, congestion avoidance, fast retransmit after three
 * duplicate ACKs and fast recovery with the partial-ACK rule of RFC 6582),
 * a retransmission timeout (RFC 6298, Karn's rule, exponential backoff)
 * collapses cwnd to one segment and resends from SND.UNA (go-back-N);
 * persist timer with a probe limit for zero windows.
 *
 * Simplifications (see README.md):
 *  - NET_TCP_UIP_SEND 1 (tcp_send_uip.c): one segment in flight per
 *    connection; the application regenerates data for retransmissions
 *    (NET_EV_REXMIT), an ACK covering only part of the segment in flight
 *    is ignored (the whole segment is retransmitted and the peer trims the
 *    duplicate);
 *  - out-of-order data is held for reassembly only where the netif can
 *    keep received frames (zero-copy GRETH, tcp_hold.c); elsewhere it is
 *    dropped, counted (tcp.drop_ooo) and answered with a duplicate ACK;
 *  - data carried by a SYN is not accepted (not acknowledged; the peer
 *    sends it again);
 *  - the urgent pointer is ignored, urgent data is delivered in line.
 */
#include "tcp_priv.h"

/*--------------------------------------------------------------------------*/
/* Initial sequence numbers (RFC 6528): ISN = M + F(localip, localport,
 * remoteip, remoteport, secretkey), F = SipHash-2-4 under the secret
 * (net_secret; net_isn_hash(), which also keeps F moving forward across
 * a rekey), M = the stack clock in RFC 793's 4 us ticks (250 per ms).
 * The same 4-tuple later gets an ISN advanced by the clock (so a new
 * incarnation starts above the old one); other 4-tuples get unrelated
 * ISNs, which nobody can compute without the secret. */
static uint32_t tcp_new_isn(uint32_t rip, uint16_t lport, uint16_t rport) {
  uint8_t t[12];
  net_put32(t, net_netif->ipaddr);
  net_put16(t + 4, lport);
  net_put32(t + 6, rip);
  net_put16(t + 10, rport);
  return net_isn_hash(t, sizeof t) + net_now * 250u;
}

/*--------------------------------------------------------------------------*/
void tcp_init(uint32_t seed) {
  memset(tcp_conns, 0, sizeof tcp_conns);
  memset(tcp_listeners, 0, sizeof tcp_listeners);
  tcp_rcv_wnd_cur = NET_TCP_RCV_WND;
  memset(tcp_chal, 0, sizeof tcp_chal);
  tcp_next_port = (uint16_t)(49152u + (seed & 0x3fffu)); /* seed: secret */
  tcp_appdata = NULL;
  tcp_applen = 0;
  tcp_policy_init();
#if TCP_HOLD
  memset(tcp_held, 0, sizeof tcp_held); /* the netif starts afresh too */
  tcp_nheld = 0;
  tcp_napp = 0;
  tcp_app_from = NULL;
#endif
}

void tcp_set_rcv_wnd(uint16_t wnd) { tcp_rcv_wnd_cur = wnd == 0 ? 1 : wnd; }

/* The receive window of c may have grown (the application's room, a
 * hold buffer given back). Window update (RFC 1122 4.2.3.3, receiver SWS
 * avoidance): owe the peer an ACK at the next timer tick when the right
 * edge moves by at least min(2 MSS, half the configured window), or a
 * closed window opens (the peer would otherwise only learn of it from its
 * next window probe); smaller increases wait for the next ACK. */
static void tcp_wnd_grown(struct tcp_conn *c) {
  uint32_t opened, max;
  if (c->state != TCP_ESTABLISHED && c->state != TCP_FIN_WAIT_1 && c->state != TCP_FIN_WAIT_2) {
    return;
  }
  opened = c->rcv_nxt + tcp_wnd_of(c) - c->rcv_adv;
  max = tcp_rcv_wnd_cur / 2u < 2u * c->mss ? tcp_rcv_wnd_cur / 2u : 2u * c->mss;
  if ((int32_t)opened > 0 && (c->rcv_wnd == 0 || opened >= max)) {
    c->flags |= TCPF_ACK_PENDING;
    c->ack_deadline = net_now;
  }
}

void tcp_set_rcv_space(struct tcp_conn *c, uint16_t space) {
  c->rcv_space = space;
  tcp_wnd_grown(c);
}

uint16_t tcp_get_rcv_wnd(void) { return tcp_rcv_wnd_cur; }

int tcp_all_closed(void) {
  unsigned i;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    if (tcp_conns[i].state != TCP_CLOSED && tcp_conns[i].state != TCP_TIME_WAIT) {
      return 0;
    }
  }
  return 1;
}

const char *tcp_state_name(uint8_t state) {
  static const char *const names[] = {"CLOSED",     "SYN_SENT", "SYN_RCVD",  "ESTABLISHED", "FIN_WAIT_1",
                                      "FIN_WAIT_2", "CLOSING",  "TIME_WAIT", "CLOSE_WAIT",  "LAST_ACK"};
  return state < sizeof names / sizeof names[0] ? names[state] : "?";
}

static int tcp_time_reached(uint32_t deadline) { return (int32_t)(net_now - deadline) >= 0; }

/*--------------------------------------------------------------------------*/
/* The connection of a segment from rip:rport to lport (NULL: none). */
static inline struct tcp_conn *tcp_find(uint32_t rip, uint16_t lport, uint16_t rport) {
  struct tcp_conn *c;
  for (c = tcp_conns; c != tcp_conns + NET_TCP_CONNS; c++) {
    if (c->state != TCP_CLOSED && c->rip == rip && c->lport == lport && c->rport == rport) {
      return c;
    }
  }
  return NULL;
}

/* A slot for the connection (rip, lport, rport): a free one, else the
 * oldest TIME-WAIT one; NULL if none. */
static struct tcp_conn *tcp_alloc(uint32_t rip, uint16_t lport, uint16_t rport) {
  struct tcp_conn *tw = NULL;
  unsigned i;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    struct tcp_conn *c = &tcp_conns[i];
    if (c->state == TCP_CLOSED) {
      tw = c;
      break;
    }
    if (c->state == TCP_TIME_WAIT && (tw == NULL || (int32_t)(c->timer - tw->timer) < 0)) {
      tw = c; /* the oldest TIME-WAIT connection, if nothing is free */
    }
  }
  if (tw == NULL) {
    return NULL;
  }
  if (tw->state == TCP_TIME_WAIT) {
    net_stats.tcp.tw_recycled++;
  }
  memset(tw, 0, sizeof *tw);
  tw->rcv_space = 0xffffu;
  tw->srtt8 = -1;
  tw->rto = NET_TCP_RTO_INIT_MS;
  tw->mss = NET_TCP_DEFAULT_MSS;
  tw->rip = rip;
  tw->lport = lport;
  tw->rport = rport;
  tw->iss = tcp_new_isn(rip, lport, rport);
  tw->snd_una = tw->iss;
  tw->snd_nxt = tw->iss + 1;
  tcp_snd_init(tw);
  tw->poll_time = net_now + NET_TCP_POLL_MS;
  return tw;
}

static void tcp_free(struct tcp_conn *c) {
#if TCP_HOLD
  if (tcp_nheld) {
    tcp_held_release_conn(c);
  }
#endif
  c->state = TCP_CLOSED;
  c->flags = 0;
}

/* Call the application; its send/close/abort requests are recorded. */
static void tcp_appcall(struct tcp_conn *c, unsigned ev) {
  c->app_data = NULL;
  c->app_len = 0;
  if (!(ev & NET_EV_NEWDATA)) {
    tcp_appdata = NULL;
    tcp_applen = 0;
  }
  if (c->appcall == NULL) {
    return;
  }
  c->flags |= TCPF_IN_CB | TCPF_APP_KNOWS;
  if (ev & NET_EV_REXMIT) {
    c->flags |= TCPF_REXMIT_CB;
  }
  NET_PHASE_ENTER(NET_PH_APP);
  c->appcall(c, ev);
  NET_PHASE_LEAVE(NET_PH_APP);
  c->flags &= (uint8_t) ~(TCPF_IN_CB | TCPF_REXMIT_CB);
}

/* Final event: tell the application (if it knows the connection), free. */
static void tcp_finish(struct tcp_conn *c, unsigned ev) {
  tcp_appcall_fn fn = c->appcall;
  int knows = (c->flags & TCPF_APP_KNOWS) != 0;
  tcp_free(c);
  tcp_appdata = NULL;
  tcp_applen = 0;
  if (knows && fn != NULL) {
    NET_PHASE_ENTER(NET_PH_APP);
    fn(c, ev);
    NET_PHASE_LEAVE(NET_PH_APP);
  }
}

/*--------------------------------------------------------------------------*/
net_err_t tcp_listen(uint16_t port, tcp_appcall_fn fn, void *arg) {
  struct tcp_listener *free_l = NULL;
  unsigned i;
  NET_ERROR("tcp_listen: port 0", port != 0, return NET_ERR_ARG);
  NET_ERROR("tcp_listen: fn == NULL", fn != NULL, return NET_ERR_ARG);
  for (i = 0; i < NET_TCP_LISTENERS; i++) {
    if (tcp_listeners[i].port == port) {
      return NET_ERR_USE;
    }
    if (tcp_listeners[i].port == 0 && free_l == NULL) {
      free_l = &tcp_listeners[i];
    }
  }
  if (free_l == NULL) {
    return NET_ERR_MEM;
  }
  free_l->port = port; /* max: 0 from tcp_init or tcp_unlisten */
  free_l->fn = fn;
  free_l->arg = arg;
  return NET_OK;
}

void tcp_unlisten(uint16_t port) {
  unsigned i;
  for (i = 0; i < NET_TCP_LISTENERS; i++) {
    if (tcp_listeners[i].port == port) {
      tcp_listeners[i].port = 0;
      tcp_listeners[i].max = 0;
    }
  }
}

static int tcp_port_used(uint16_t port) {
  unsigned i;
  for (i = 0; i < NET_TCP_LISTENERS; i++) {
    if (tcp_listeners[i].port == port) {
      return 1;
    }
  }
  for (i = 0; i < NET_TCP_CONNS; i++) {
    if (tcp_conns[i].state != TCP_CLOSED && tcp_conns[i].lport == port) {
      return 1;
    }
  }
  return 0;
}

/*--------------------------------------------------------------------------*/
struct tcp_conn *tcp_connect(uint32_t rip, uint16_t rport, tcp_appcall_fn fn, void *arg) {
  struct tcp_conn *c;
  NET_ERROR("tcp_connect: bad address", rip != 0 && net_ip_is_ours(rip) == 0, return NULL);
  NET_ERROR("tcp_connect: port 0", rport != 0, return NULL);
  NET_ERROR("tcp_connect: fn == NULL", fn != NULL, return NULL);
  do {
    tcp_next_port = (uint16_t)(tcp_next_port + 1);
    if (tcp_next_port < 49152u) {
      tcp_next_port = 49152u;
    }
  } while (tcp_port_used(tcp_next_port));
  c = tcp_alloc(rip, tcp_next_port, rport);
  if (c == NULL) {
    return NULL;
  }
  c->appcall = fn;
  c->arg = arg;
  c->flags = TCPF_APP_KNOWS;
  c->state = TCP_SYN_SENT;
  c->rtx_ctl = TCP_SYN;
  tcp_start_timers(c, c->snd_nxt);
  tcp_emit_conn(c, c->iss, TCP_SYN, NULL, 0);
  return c;
}

void tcp_close(struct tcp_conn *c) {
  NET_ERROR("tcp_close: c == NULL", c != NULL, return );
  if (c->state == TCP_CLOSED) {
    return;
  }
  if (c->state == TCP_SYN_SENT) { /* nothing to close yet */
    tcp_free(c);
    return;
  }
  c->flags |= TCPF_CLOSE_REQ;
  if (!(c->flags & TCPF_IN_CB)) {
    tcp_after_app(c, ACK_NONE);
  }
}

void tcp_abort(struct tcp_conn *c) {
  NET_ERROR("tcp_abort: c == NULL", c != NULL, return );
  if (c->state == TCP_CLOSED) {
    return;
  }
  c->flags |= TCPF_ABORT_REQ;
  if (!(c->flags & TCPF_IN_CB)) {
    tcp_after_app(c, ACK_NONE);
  }
}

void tcp_poll(struct tcp_conn *c) {
  NET_ERROR("tcp_poll: c == NULL", c != NULL, return );
  NET_ERROR("tcp_poll: inside a callback", !(c->flags & TCPF_IN_CB), return );
  if (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) {
    return;
  }
  tcp_appcall(c, NET_EV_POLL);
  tcp_after_app(c, ACK_NONE);
}
