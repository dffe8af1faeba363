/*
 * tcp.c - TCP state machine (RFC 793 3.9 "Event Processing", corrected by
 * RFC 1122 4.2.2), retransmission timer (RFC 6298) with Karn's rule and
 * exponential backoff.
 *
 * Sending (NET_TCP_UIP_SEND 0, the default): a send buffer (ring) per
 * connection, several segments in flight within min(cwnd, peer window),
 * RFC 5681 congestion control (slow start from the initial window of
 * section 3.1, congestion avoidance, fast retransmit after three duplicate
 * ACKs and fast recovery with the partial-ACK rule of RFC 6582), a
 * retransmission timeout collapses cwnd to one segment and resends from
 * SND.UNA (go-back-N); persist timer with a probe limit for zero windows.
 *
 * Simplifications (see README.md):
 *  - NET_TCP_UIP_SEND 1: one segment in flight per connection; the
 *    application regenerates data for retransmissions (NET_EV_REXMIT), an
 *    ACK covering only part of the segment in flight is ignored (the
 *    whole segment is retransmitted and the peer trims the duplicate);
 *  - out-of-order data is held for reassembly only where the netif can
 *    keep received frames (zero-copy GRETH, "Receive side" below);
 *    elsewhere it is dropped, counted (tcp.drop_ooo) and answered with a
 *    duplicate ACK;
 *  - data carried by a SYN is not accepted (not acknowledged; the peer
 *    sends it again);
 *  - the urgent pointer is ignored, urgent data is delivered in line.
 */
#include "net.h"
#include "net_chksum.h"

/* tcp_conn.flags */
#define TCPF_TIMER 0x01     /* retransmission timer running */
#define TCPF_RTT 0x02       /* timing a segment (never a retransmitted one) */
#define TCPF_ACK_PENDING 0x04 /* delayed ACK owed */
#define TCPF_CLOSE_REQ 0x08 /* application called tcp_close() */
#define TCPF_ABORT_REQ 0x10 /* application called tcp_abort() */
#define TCPF_IN_CB 0x20     /* inside the application callback */
#define TCPF_REXMIT_CB 0x40 /* ... for NET_EV_REXMIT */
#define TCPF_APP_KNOWS 0x80 /* the application has seen the connection */

/* tcp_conn.pflags (slot policy) */
#define TCPP_PASSIVE 0x01  /* opened by a listener */
#define TCPP_SEEN 0x02     /* act_seq/act_time/heard are set (slow timer) */

#if !NET_TCP_UIP_SEND
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
#endif

/* Out-of-order segments are held (in the frames the netif keeps) only in
 * zero-copy builds: in the copy build the segment is in net_buf, which the
 * next frame overwrites. */
#define TCP_HOLD (NET_TCP_RX_HOLD > 0 && NET_ZERO_COPY)
#if TCP_HOLD
/* One held out-of-order segment ("Receive side" below), or data the
 * application keeps (tcp_recv_hold: conn = TCP_HELD_APP, which no
 * connection index equals, so the reassembly code never sees it; data =
 * what the application was given; seq and fin unused). */
struct tcp_held {
  const uint8_t *buf;  /* frame returned by rx_hold; NULL: entry free */
  const uint8_t *data; /* first data byte (in buf) */
  uint32_t seq;        /* its sequence number */
  uint16_t len;        /* data bytes */
  uint8_t conn;        /* index in tcp_conns, or TCP_HELD_APP */
  uint8_t fin;         /* the segment carried a FIN after its data */
};
#define TCP_HELD_APP 0xffu
static struct tcp_held tcp_held[NET_TCP_RX_HOLD];
static unsigned tcp_nheld; /* out-of-order entries of tcp_held[] in use */
static unsigned tcp_napp;  /* entries the application keeps */
/* The held entry whose data the current NET_EV_NEWDATA callback gets
 * (tcp_ooo_deliver); NULL: the data is in the frame being processed. */
static struct tcp_held *tcp_app_from;
#endif

/* Code that a bulk transfer's segments do not run (connection set-up,
 * resets, reassembly): out of line and out of the hot text (the I-cache
 * holds 8 KiB; docs/firmware.md "TCP receive: windows, buffers and
 * timers"). */
#if defined(__GNUC__)
#define TCP_COLD __attribute__((noinline, cold))
#else
#define TCP_COLD
#endif

/* How tcp_after_app() acknowledges when nothing else is sent. */
#define ACK_NONE 0
#define ACK_DELAY 1
#define ACK_NOW 2

struct tcp_listener {
  uint16_t port; /* 0: free */
  uint16_t max;  /* tcp_listen_limit (0: none) */
  tcp_appcall_fn fn;
  void *arg;
};

struct tcp_seg {
  uint16_t sport, dport;
  uint32_t seq, ack;
  uint8_t ctl;
  uint16_t wnd;
  uint16_t mss;      /* MSS option, 0 if absent */
  const uint8_t *data;
  unsigned len;      /* data bytes */
};

struct tcp_conn tcp_conns[NET_TCP_CONNS];
const uint8_t *tcp_appdata;
uint16_t tcp_applen;

static struct tcp_listener tcp_listeners[NET_TCP_LISTENERS];
static uint16_t tcp_rcv_wnd_cur;
static uint16_t tcp_next_port;
/* Challenge ACK budget of each connection slot (tcp_challenge_ack()),
 * kept beside the table: the connection it belongs to (its ISS), the
 * start of its one-second window and the ACKs sent in it. */
static struct tcp_chal {
  uint32_t iss, start;
  uint16_t count;
} tcp_chal[NET_TCP_CONNS];
static struct tcp_policy tcp_pol; /* tcp_set_policy() */
static uint32_t tcp_slow_last;    /* last run of the slow timer */
TCP_COLD static void tcp_policy_init(void);

static void tcp_after_app(struct tcp_conn *c, int ack_mode);

/*--------------------------------------------------------------------------*/
/* Initial sequence numbers (RFC 6528): ISN = M + F(localip, localport,
 * remoteip, remoteport, secretkey), F = SipHash-2-4 under the secret
 * (net_secret; net_isn_hash(), which also keeps F moving forward across
 * a rekey), M = the stack clock in RFC 793's 4 us ticks (250 per ms).
 * The same 4-tuple later gets an ISN advanced by the clock (so a new
 * incarnation starts above the old one); other 4-tuples get unrelated
 * ISNs, which nobody can compute without the secret. */
static uint32_t tcp_new_isn(uint32_t rip, uint16_t lport, uint16_t rport)
{
  uint8_t t[12];
  net_put32(t, net_netif->ipaddr);
  net_put16(t + 4, lport);
  net_put32(t + 6, rip);
  net_put16(t + 10, rport);
  return net_isn_hash(t, sizeof t) + net_now * 250u;
}

/*--------------------------------------------------------------------------*/
void tcp_init(uint32_t seed)
{
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

void tcp_set_rcv_wnd(uint16_t wnd)
{
  tcp_rcv_wnd_cur = wnd == 0 ? 1 : wnd;
}

static uint16_t tcp_wnd_of(const struct tcp_conn *c);

/* The receive window of c may have grown (the application's room, a
 * hold buffer given back). Window update (RFC 1122 4.2.3.3, receiver SWS
 * avoidance): owe the peer an ACK at the next timer tick when the right
 * edge moves by at least min(2 MSS, half the configured window), or a
 * closed window opens (the peer would otherwise only learn of it from its
 * next window probe); smaller increases wait for the next ACK. */
static void tcp_wnd_grown(struct tcp_conn *c)
{
  uint32_t opened, max;
  if (c->state != TCP_ESTABLISHED && c->state != TCP_FIN_WAIT_1 &&
      c->state != TCP_FIN_WAIT_2) {
    return;
  }
  opened = c->rcv_nxt + tcp_wnd_of(c) - c->rcv_adv;
  max = tcp_rcv_wnd_cur / 2u < 2u * c->mss ? tcp_rcv_wnd_cur / 2u : 2u * c->mss;
  if ((int32_t)opened > 0 && (c->rcv_wnd == 0 || opened >= max)) {
    c->flags |= TCPF_ACK_PENDING;
    c->ack_deadline = net_now;
  }
}

void tcp_set_rcv_space(struct tcp_conn *c, uint16_t space)
{
  c->rcv_space = space;
  tcp_wnd_grown(c);
}

uint16_t tcp_get_rcv_wnd(void)
{
  return tcp_rcv_wnd_cur;
}

int tcp_all_closed(void)
{
  unsigned i;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    if (tcp_conns[i].state != TCP_CLOSED && tcp_conns[i].state != TCP_TIME_WAIT) {
      return 0;
    }
  }
  return 1;
}

const char *tcp_state_name(uint8_t state)
{
  static const char *const names[] = {
    "CLOSED", "SYN_SENT", "SYN_RCVD", "ESTABLISHED", "FIN_WAIT_1",
    "FIN_WAIT_2", "CLOSING", "TIME_WAIT", "CLOSE_WAIT", "LAST_ACK"
  };
  return state < sizeof names / sizeof names[0] ? names[state] : "?";
}

static int tcp_time_reached(uint32_t deadline)
{
  return (int32_t)(net_now - deadline) >= 0;
}

/*--------------------------------------------------------------------------*/
/* Build a segment in `frame` (net_buf or the driver's transmit buffer,
 * net_tx_frame()) and send it. `data` may point into the frame (memmove);
 * NULL with len > 0: the payload is already in place (after the header).
 * SYN segments carry our MSS option. */
static net_err_t tcp_emit_frame(uint8_t *frame, uint32_t rip, uint16_t lport,
                                uint16_t rport, uint32_t seq, uint32_t ack,
                                uint8_t ctl, uint16_t wnd, const uint8_t *data,
                                unsigned len, int32_t psum)
{
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
    net_put16(t + 16, (uint16_t)~net_chksum_pseudo(net_netif->ipaddr, rip,
                                                   NET_IPPROTO_TCP, t, hl + len));
  } else {
    /* The payload's sum came with its copy: sum the header only (the
     * pseudo header's length field counted as hl, plus len). */
    uint32_t acc = net_chksum_pseudo(net_netif->ipaddr, rip, NET_IPPROTO_TCP, t, hl) +
                   len + (uint32_t)psum;
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

static net_err_t tcp_emit(uint32_t rip, uint16_t lport, uint16_t rport,
                          uint32_t seq, uint32_t ack, uint8_t ctl, uint16_t wnd,
                          const uint8_t *data, unsigned len)
{
  return tcp_emit_frame(net_buf, rip, lport, rport, seq, ack, ctl, wnd, data,
                        len, -1);
}

#if TCP_HOLD
static uint32_t tcp_held_span(const struct tcp_conn *c);
static void tcp_held_release_conn(const struct tcp_conn *c);
#endif

/* The receive window of c now: the configured one, the application's room
 * (tcp_set_rcv_space) and, where out-of-order segments are held, what the
 * free hold buffers can keep beyond the data already held. */
static uint16_t tcp_wnd_of(const struct tcp_conn *c)
{
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
static uint16_t tcp_adv_wnd(struct tcp_conn *c)
{
  c->rcv_wnd = tcp_wnd_of(c);
  c->rcv_adv = c->rcv_nxt + c->rcv_wnd;
  return c->rcv_wnd;
}

static void tcp_emit_conn(struct tcp_conn *c, uint32_t seq, uint8_t ctl,
                          const uint8_t *data, unsigned len)
{
  tcp_adv_wnd(c);
  if (ctl & TCP_ACK) {
    c->flags &= (uint8_t)~TCPF_ACK_PENDING;
  }
  tcp_emit(c->rip, c->lport, c->rport, seq, c->rcv_nxt, ctl, c->rcv_wnd, data,
           len);
}

/* Start timing and the retransmission timer for a new (not retransmitted)
 * segment ending at `end`. */
static void tcp_start_timers(struct tcp_conn *c, uint32_t end)
{
  c->flags |= TCPF_TIMER | TCPF_RTT;
  c->timer = net_now + c->rto;
  c->rtt_seq = end;
  c->rtt_start = net_now;
  c->nrtx = 0;
}

/*--------------------------------------------------------------------------*/
/* RFC 6298 2.2/2.3 in fixed point: srtt8 = 8*SRTT, rttvar4 = 4*RTTVAR,
 * RTO = SRTT + max(G, 4*RTTVAR), clamped to [RTO_MIN, RTO_MAX]. */
static void tcp_rtt_sample(struct tcp_conn *c, uint32_t r)
{
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
        ((uint32_t)c->rttvar4 > NET_TCP_CLOCK_G_MS ? (uint32_t)c->rttvar4
                                                   : NET_TCP_CLOCK_G_MS);
  if (rto < NET_TCP_RTO_MIN_MS) {
    rto = NET_TCP_RTO_MIN_MS;
  }
  if (rto > NET_TCP_RTO_MAX_MS) {
    rto = NET_TCP_RTO_MAX_MS;
  }
  c->rto = rto;
}

/* Everything in flight is acknowledged by `ack`. */
static void tcp_all_acked(struct tcp_conn *c, uint32_t ack)
{
  if ((c->flags & TCPF_RTT) && TCP_SEQ_GEQ(ack, c->rtt_seq)) {
    tcp_rtt_sample(c, net_now - c->rtt_start); /* Karn: only if never resent */
  }
  c->flags &= (uint8_t)~(TCPF_RTT | TCPF_TIMER);
  c->snd_una = ack;
  c->snd_datalen = 0;
  c->rtx_ctl = 0;
  c->nrtx = 0;
}

/*--------------------------------------------------------------------------*/
/* The connection of a segment from rip:rport to lport (NULL: none). */
static inline struct tcp_conn *tcp_find(uint32_t rip, uint16_t lport, uint16_t rport)
{
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
static struct tcp_conn *tcp_alloc(uint32_t rip, uint16_t lport, uint16_t rport)
{
  struct tcp_conn *tw = NULL;
  unsigned i;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    struct tcp_conn *c = &tcp_conns[i];
    if (c->state == TCP_CLOSED) {
      tw = c;
      break;
    }
    if (c->state == TCP_TIME_WAIT &&
        (tw == NULL || (int32_t)(c->timer - tw->timer) < 0)) {
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
#if !NET_TCP_UIP_SEND
  tw->snd_max = tw->snd_nxt;
#endif
  tw->poll_time = net_now + NET_TCP_POLL_MS;
  return tw;
}

static void tcp_free(struct tcp_conn *c)
{
#if TCP_HOLD
  if (tcp_nheld) {
    tcp_held_release_conn(c);
  }
#endif
  c->state = TCP_CLOSED;
  c->flags = 0;
}

/* Call the application; its send/close/abort requests are recorded. */
static void tcp_appcall(struct tcp_conn *c, unsigned ev)
{
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
  c->flags &= (uint8_t)~(TCPF_IN_CB | TCPF_REXMIT_CB);
}

/* Final event: tell the application (if it knows the connection), free. */
static void tcp_finish(struct tcp_conn *c, unsigned ev)
{
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
net_err_t tcp_listen(uint16_t port, tcp_appcall_fn fn, void *arg)
{
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

void tcp_unlisten(uint16_t port)
{
  unsigned i;
  for (i = 0; i < NET_TCP_LISTENERS; i++) {
    if (tcp_listeners[i].port == port) {
      tcp_listeners[i].port = 0;
      tcp_listeners[i].max = 0;
    }
  }
}

static int tcp_port_used(uint16_t port)
{
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
struct tcp_conn *tcp_connect(uint32_t rip, uint16_t rport, tcp_appcall_fn fn,
                             void *arg)
{
  struct tcp_conn *c;
  NET_ERROR("tcp_connect: bad address", rip != 0 && net_ip_is_ours(rip) == 0,
            return NULL);
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

/*--------------------------------------------------------------------------*/
#if NET_TCP_UIP_SEND
unsigned tcp_sndmax(const struct tcp_conn *c)
{
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

unsigned tcp_unacked(const struct tcp_conn *c)
{
  return c->snd_datalen;
}

int tcp_send(struct tcp_conn *c, const void *data, unsigned len)
{
  NET_ERROR("tcp_send: c == NULL", c != NULL, return NET_ERR_ARG);
  NET_ERROR("tcp_send: data == NULL", data != NULL || len == 0,
            return NET_ERR_ARG);
  NET_ERROR("tcp_send: outside a callback", (c->flags & TCPF_IN_CB) != 0,
            return NET_ERR_STATE);
  if (len > tcp_sndmax(c)) {
    return tcp_sndmax(c) == 0 ? NET_ERR_STATE : NET_ERR_BUF;
  }
  c->app_data = (const uint8_t *)data;
  c->app_len = (uint16_t)len;
  return (int)len;
}
#else
/*--------------------------------------------------------------------------*/
/* Send buffer. */
/* 1 if buffered data is tcp_send_ref()'s (not the ring's). */
static int tcp_has_refs(const struct tcp_conn *c)
{
#if NET_TCP_SNDREFS
  return c->ref_n != 0;
#else
  (void)c;
  return 0;
#endif
}

unsigned tcp_sndmax(const struct tcp_conn *c)
{
  if ((c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) ||
      (c->flags & TCPF_CLOSE_REQ) || tcp_has_refs(c)) {
    return 0;
  }
  return NET_TCP_SNDBUF - c->snd_buf_len;
}

unsigned tcp_unacked(const struct tcp_conn *c)
{
  return c->snd_buf_len;
}

/* Ring offset of sequence number `seq` (data starts at ISS + 1). */
/* Stream byte n lives at ring offset n + TCP_RING_BIAS (mod the size): a
 * segment starting at a multiple of 4 bytes (MSS 1460) then has the same
 * address mod 4 in the ring as its payload in the frame (offset 54), so
 * the copy into the frame and net_chksum_copy() run on aligned words. */
#define TCP_RING_BIAS ((NET_ETH_HLEN + NET_IP_HLEN + NET_TCP_HLEN) & 3u)

static unsigned tcp_ring_off(const struct tcp_conn *c, uint32_t seq)
{
  return (unsigned)(seq - c->iss - 1u + TCP_RING_BIAS) & (NET_TCP_SNDBUF - 1u);
}

int tcp_send(struct tcp_conn *c, const void *data, unsigned len)
{
  unsigned room, off, first;
  uint8_t *ring;

  NET_ERROR("tcp_send: c == NULL", c != NULL, return NET_ERR_ARG);
  NET_ERROR("tcp_send: data == NULL", data != NULL || len == 0,
            return NET_ERR_ARG);
  NET_ERROR("tcp_send: outside a callback", (c->flags & TCPF_IN_CB) != 0,
            return NET_ERR_STATE);
  if ((c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) ||
      (c->flags & TCPF_CLOSE_REQ) || tcp_has_refs(c)) {
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
int tcp_send_ref(struct tcp_conn *c, const void *data, unsigned len)
{
  struct tcp_sref *r;

  NET_ERROR("tcp_send_ref: c == NULL", c != NULL, return NET_ERR_ARG);
  NET_ERROR("tcp_send_ref: data == NULL", data != NULL, return NET_ERR_ARG);
  NET_ERROR("tcp_send_ref: len not 1..65535", len - 1u < 0xffffu,
            return NET_ERR_ARG);
  NET_ERROR("tcp_send_ref: outside a callback", (c->flags & TCPF_IN_CB) != 0,
            return NET_ERR_STATE);
  if ((c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) ||
      (c->flags & TCPF_CLOSE_REQ) || (c->ref_n == 0 && c->snd_buf_len != 0)) {
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
static void tcp_refs_acked(struct tcp_conn *c, uint32_t acked)
{
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
static unsigned tcp_piece(const struct tcp_conn *c, uint32_t seq, const uint8_t **p)
{
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
static void tcp_emit_buf(struct tcp_conn *c, uint32_t seq, unsigned len,
                         uint8_t ctl)
{
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
  tcp_emit_frame(frame, c->rip, c->lport, c->rport, seq, c->rcv_nxt, ctl,
                 c->rcv_wnd, NULL, len, psum);
}

/* Initial window, RFC 5681 3.1. */
static uint32_t tcp_iw(const struct tcp_conn *c)
{
  return c->mss > 2190 ? 2u * c->mss : c->mss > 1095 ? 3u * c->mss : 4u * c->mss;
}

/* Bytes in flight (FlightSize of RFC 5681). */
static uint32_t tcp_flight(const struct tcp_conn *c)
{
  return c->snd_max - c->snd_una;
}

/* ssthresh after a loss, RFC 5681 equation (4). */
static void tcp_set_ssthresh(struct tcp_conn *c)
{
  uint32_t half = tcp_flight(c) / 2;
  c->ssthresh = half > 2u * c->mss ? half : 2u * c->mss;
}

/* Resend one segment from SND.UNA (fast retransmit, partial ACK). */
static void tcp_resend_first(struct tcp_conn *c)
{
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
static void tcp_output(struct tcp_conn *c)
{
  uint32_t end, wnd, smss;

  if (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT &&
      c->state != TCP_FIN_WAIT_1 && c->state != TCP_LAST_ACK &&
      c->state != TCP_CLOSING) {
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
      if (n == 0 || (n < smss && n < unsent && n < c->snd_wnd_max / 2u &&
                     inflight != 0)) {
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
      (TCP_SEQ_LT(c->snd_nxt, end) || (c->sflags & TCPS_FIN)) &&
      !(c->sflags & TCPS_PERSIST)) {
    c->sflags |= TCPS_PERSIST;
    c->flags &= (uint8_t)~TCPF_TIMER;
    c->timer = net_now + c->rto;
  }
}

/* Acknowledgment processing of the send side (RFC 5681, RFC 6582 partial
 * ACKs, RFC 6298 timer). @return NET_EV_ACKED if buffered data was
 * acknowledged; *fin_acked set if our FIN was. */
static unsigned tcp_ack_sent(struct tcp_conn *c, const struct tcp_seg *s,
                             int *fin_acked)
{
  uint32_t acked = s->ack - c->snd_una;
  uint32_t data = acked;
  unsigned ev = 0;

  if (TCP_SEQ_LEQ(s->ack, c->snd_una)) {
    /* Duplicate ACK (RFC 5681 section 2): data outstanding, no data, no
     * SYN/FIN, same ACK number, window unchanged. */
    if (s->ack == c->snd_una && c->snd_max != c->snd_una && s->len == 0 &&
        !(s->ctl & (TCP_SYN | TCP_FIN)) && s->wnd == c->snd_wnd) {
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
#endif

void tcp_close(struct tcp_conn *c)
{
  NET_ERROR("tcp_close: c == NULL", c != NULL, return);
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

void tcp_abort(struct tcp_conn *c)
{
  NET_ERROR("tcp_abort: c == NULL", c != NULL, return);
  if (c->state == TCP_CLOSED) {
    return;
  }
  c->flags |= TCPF_ABORT_REQ;
  if (!(c->flags & TCPF_IN_CB)) {
    tcp_after_app(c, ACK_NONE);
  }
}

void tcp_poll(struct tcp_conn *c)
{
  NET_ERROR("tcp_poll: c == NULL", c != NULL, return);
  NET_ERROR("tcp_poll: inside a callback", !(c->flags & TCPF_IN_CB), return);
  if (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT) {
    return;
  }
  tcp_appcall(c, NET_EV_POLL);
  tcp_after_app(c, ACK_NONE);
}

/*--------------------------------------------------------------------------*/
/* Carry out what the application asked for and acknowledge as requested. */
static void tcp_after_app(struct tcp_conn *c, int ack_mode)
{
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
#if !NET_TCP_UIP_SEND
  if ((c->flags & TCPF_CLOSE_REQ) && can_send) {
    /* The FIN goes after the buffered data (tcp_output). */
    c->state = (c->state == TCP_CLOSE_WAIT) ? TCP_LAST_ACK : TCP_FIN_WAIT_1;
    c->flags &= (uint8_t)~TCPF_CLOSE_REQ;
    c->sflags |= TCPS_FIN;
  }
  {
    uint32_t nxt = c->snd_nxt;
    tcp_output(c);
    if (c->snd_nxt != nxt) {
      return; /* the segments carried the ACK */
    }
  }
#else
  if (c->app_len > 0 && can_send) {
    unsigned len = c->app_len;
    const uint8_t *data = c->app_data;
    int rexmit = c->snd_nxt != c->snd_una; /* only possible for REXMIT */
    c->app_len = 0;
    c->snd_datalen = (uint16_t)len;
    c->snd_nxt = c->snd_una + len;
    c->rtx_ctl = 0;
    if (!rexmit) {
      tcp_start_timers(c, c->snd_nxt);
    }
    tcp_emit_conn(c, c->snd_una, TCP_ACK | TCP_PSH, data, len);
    return;
  }
  c->app_len = 0;
  if ((c->flags & TCPF_CLOSE_REQ) && c->snd_nxt == c->snd_una &&
      (can_send || c->state == TCP_SYN_RCVD)) {
    c->state = (c->state == TCP_CLOSE_WAIT) ? TCP_LAST_ACK : TCP_FIN_WAIT_1;
    c->flags &= (uint8_t)~TCPF_CLOSE_REQ;
    c->rtx_ctl = TCP_FIN;
    c->snd_nxt = c->snd_una + 1;
    tcp_start_timers(c, c->snd_nxt);
    tcp_emit_conn(c, c->snd_una, TCP_FIN | TCP_ACK, NULL, 0);
    return;
  }
#endif
  /* Delayed ACK (RFC 1122 4.2.3.2): at once for the second segment, or
   * when the peer has at most one MSS of our last window left: with less
   * it could send nothing more until the timer fired, and with exactly one
   * (a window of two segments) it would send that one and then wait a
   * round trip for an ACK of both, so a small window would run at half
   * its rate. */
  if (ack_mode == ACK_NOW ||
      (ack_mode == ACK_DELAY && (!NET_TCP_DELAYED_ACK ||
                                 (c->flags & TCPF_ACK_PENDING) ||
                                 TCP_SEQ_GEQ(c->rcv_nxt + c->mss, c->rcv_adv)))) {
    tcp_emit_conn(c, c->snd_nxt, TCP_ACK, NULL, 0);
  } else if (ack_mode == ACK_DELAY) {
    c->flags |= TCPF_ACK_PENDING;
    c->ack_deadline = net_now + NET_TCP_DELACK_MS;
  }
}

/*--------------------------------------------------------------------------*/
/* Parse and validate the header. @return 0 if the segment must be dropped
 * (counted). */
static int tcp_parse(const uint8_t *seg, unsigned len, struct tcp_seg *s)
{
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

static uint16_t tcp_peer_mss(const struct tcp_seg *s)
{
  unsigned m = s->mss ? s->mss : NET_TCP_DEFAULT_MSS;
  return (uint16_t)(m < NET_TCP_MSS ? m : NET_TCP_MSS);
}

/* Answer a segment that belongs to no connection (RFC 793 p. 65). */
static void tcp_reset_reply(uint32_t src, const struct tcp_seg *s)
{
  if (s->ctl & TCP_RST) {
    return;
  }
  if (s->ctl & TCP_ACK) {
    tcp_emit(src, s->dport, s->sport, s->ack, 0, TCP_RST, 0, NULL, 0);
  } else {
    uint32_t seglen = s->len + !!(s->ctl & TCP_SYN) + !!(s->ctl & TCP_FIN);
    tcp_emit(src, s->dport, s->sport, 0, s->seq + seglen, TCP_RST | TCP_ACK,
             0, NULL, 0);
  }
}

/* SYN flood defence: free the oldest passive half-open connection (the
 * earliest SYN_RCVD deadline) for a new SYN, if it is at least
 * NET_TCP_SYN_EVICT_MS old: a younger one may be a real peer whose ACK is
 * still on its way (or waiting behind this SYN in the receive ring).
 * @return 1 if one was freed. */
static int tcp_evict_half_open(void)
{
  struct tcp_conn *old = NULL;
  unsigned i;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    struct tcp_conn *c = &tcp_conns[i];
    if (c->state == TCP_SYN_RCVD && !(c->flags & TCPF_APP_KNOWS) &&
        (old == NULL || (int32_t)(c->poll_time - old->poll_time) < 0)) {
      old = c;
    }
  }
  if (old == NULL ||
      !tcp_time_reached(old->poll_time - NET_TCP_SYN_RCVD_MS + NET_TCP_SYN_EVICT_MS)) {
    return 0;
  }
  net_stats.tcp.syn_evicted++;
  tcp_free(old); /* silently: its peer may never have existed */
  return 1;
}

/*--------------------------------------------------------------------------*/
/* Slot policy (README.md "Slot policy"): a connection's idle time is the
 * time since data last moved either way, i.e. since RCV.NXT or SND.UNA
 * last changed. The slow timer (every NET_TCP_SLOW_MS) notices the change
 * by comparing their sum with the one it saw last, so the per-segment
 * paths do no work for it. On that: the idle timeout of passive
 * connections, keep-alive probes, and eviction of the connection idle
 * longest when a new peer finds no room. */

TCP_COLD static void tcp_policy_init(void)
{
  tcp_set_policy(NULL);
  tcp_slow_last = net_now;
}

void tcp_set_policy(const struct tcp_policy *p)
{
  static const struct tcp_policy dflt = {
    NET_TCP_IDLE_MS, NET_TCP_KEEPALIVE_MS, NET_TCP_KEEPALIVE_INTVL_MS,
    NET_TCP_KEEPALIVE_PROBES, NET_TCP_PERSIST_MAX_MS, NET_TCP_EVICT_IDLE_MS
  };
  tcp_pol = p != NULL ? *p : dflt;
  if (tcp_pol.keepalive_intvl_ms == 0) {
    tcp_pol.keepalive_intvl_ms = dflt.keepalive_intvl_ms;
  }
  if (tcp_pol.keepalive_probes == 0) {
    tcp_pol.keepalive_probes = dflt.keepalive_probes;
  }
  if (tcp_pol.keepalive_probes > 255u) { /* counted in a byte */
    tcp_pol.keepalive_probes = 255u;
  }
  if (tcp_pol.persist_max_ms == 0) {
    tcp_pol.persist_max_ms = dflt.persist_max_ms;
  }
}

void tcp_get_policy(struct tcp_policy *p)
{
  *p = tcp_pol;
}

uint32_t tcp_idle_ms(struct tcp_conn *c)
{
  uint32_t sum = c->rcv_nxt + c->snd_una;
  if (!(c->pflags & TCPP_SEEN) || sum != c->act_seq) {
    c->pflags |= TCPP_SEEN; /* new, or data moved: active now */
    c->act_seq = sum;
    c->act_time = net_now;
    c->heard = net_now;
    c->ka_sent = 0;
  }
  return net_now - c->act_time;
}

/* The passive connection idle longest among the candidates, `skip`
 * excepted: with `port` those of its listener that the application holds
 * (ESTABLISHED, CLOSE_WAIT), else any synchronised one but TIME-WAIT; *n =
 * how many candidates there are. @return it if it has been idle at least
 * evict_idle_ms, else NULL. */
TCP_COLD static struct tcp_conn *tcp_idlest(uint16_t port, const struct tcp_conn *skip,
                                            unsigned *n)
{
  struct tcp_conn *best = NULL;
  uint32_t best_idle = 0;
  unsigned i, k = 0;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    struct tcp_conn *c = &tcp_conns[i];
    uint32_t idle;
    if (c == skip || !(c->pflags & TCPP_PASSIVE) || c->state < TCP_ESTABLISHED ||
        c->state == TCP_TIME_WAIT) {
      continue;
    }
    if (port != 0 && (c->lport != port ||
                      (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT))) {
      continue;
    }
    k++;
    idle = tcp_idle_ms(c);
    if (best == NULL || idle > best_idle) {
      best = c;
      best_idle = idle;
    }
  }
  *n = k;
  if (best == NULL || tcp_pol.evict_idle_ms == 0 || best_idle < tcp_pol.evict_idle_ms) {
    return NULL;
  }
  return best;
}

/* Reset c to make room for a new peer; the application gets ABORTED. */
TCP_COLD static void tcp_evict(struct tcp_conn *c)
{
  net_stats.tcp.idle_evicted++;
  tcp_emit_conn(c, c->snd_nxt, TCP_RST | TCP_ACK, NULL, 0);
  tcp_finish(c, NET_EV_ABORTED);
}

net_err_t tcp_listen_limit(uint16_t port, unsigned max)
{
  unsigned i;
  for (i = 0; i < NET_TCP_LISTENERS; i++) {
    if (port != 0 && tcp_listeners[i].port == port) {
      tcp_listeners[i].max = (uint16_t)(max > 0xffffu ? 0xffffu : max);
      return NET_OK;
    }
  }
  return NET_ERR_ARG;
}

/* A SYN for listener l: 1 (counted) if l is at its limit and none of its
 * connections is idle enough to make room; the SYN is then dropped and
 * the peer retries. Nothing is evicted for a SYN, which may be forged:
 * that waits until the handshake completes (tcp_listen_room). */
TCP_COLD static int tcp_listen_full(const struct tcp_listener *l)
{
  unsigned n;
  if (l->max == 0 || tcp_idlest(l->port, NULL, &n) != NULL || n < l->max) {
    return 0;
  }
  net_stats.tcp.drop_listen_full++;
  return 1;
}

/* The handshake of c completes: room under its listener's limit, evicting
 * the listener's connection idle longest if need be. @return 0 if there is
 * none: c was reset and freed (the application never saw it). */
TCP_COLD static int tcp_listen_room(struct tcp_conn *c)
{
  struct tcp_conn *v;
  unsigned i, n;
  if (!(c->pflags & TCPP_PASSIVE)) {
    return 1;
  }
  for (i = 0; i < NET_TCP_LISTENERS && tcp_listeners[i].port != c->lport; i++) {
  }
  if (i == NET_TCP_LISTENERS || tcp_listeners[i].max == 0) {
    return 1;
  }
  v = tcp_idlest(c->lport, c, &n);
  if (n < tcp_listeners[i].max) {
    return 1;
  }
  if (v != NULL) {
    tcp_evict(v);
    return 1;
  }
  net_stats.tcp.drop_listen_full++;
  tcp_emit_conn(c, c->snd_nxt, TCP_RST | TCP_ACK, NULL, 0);
  tcp_free(c);
  return 0;
}

/* A slot for a SYN that found the table full: the oldest TIME-WAIT one
 * was taken already (tcp_alloc), so an old half-open one, else a passive
 * connection idle at least evict_idle_ms (unlike the listener limit, this
 * may be for a forged SYN: only connections that idle are at risk). */
TCP_COLD static struct tcp_conn *tcp_alloc_evict(uint32_t rip, uint16_t lport,
                                                 uint16_t rport)
{
  unsigned n;
  struct tcp_conn *v;
  if (!tcp_evict_half_open()) {
    v = tcp_idlest(0, NULL, &n);
    if (v == NULL) {
      return NULL;
    }
    tcp_evict(v);
  }
  return tcp_alloc(rip, lport, rport);
}

/* Keep-alive (RFC 1122 4.2.3.6) of c: only with nothing in flight (else
 * the retransmission or persist timer watches the peer), in ESTABLISHED,
 * CLOSE_WAIT or FIN_WAIT_2. A probe is an ACK one below SND.NXT without
 * data, which a live peer answers with an ACK (tcp_process: ka_sent 0). */
TCP_COLD static void tcp_keepalive(struct tcp_conn *c)
{
#if NET_TCP_UIP_SEND
  int quiet = c->snd_nxt == c->snd_una;
#else
  int quiet = c->snd_max == c->snd_una && !(c->sflags & TCPS_PERSIST);
#endif
  if (!quiet || (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT &&
                 c->state != TCP_FIN_WAIT_2)) {
    return;
  }
  if (c->ka_sent == 0) {
    if (net_now - c->heard < tcp_pol.keepalive_ms) {
      return;
    }
  } else if (net_now - c->ka_time < tcp_pol.keepalive_intvl_ms) {
    return;
  } else if (c->ka_sent >= tcp_pol.keepalive_probes) {
    net_stats.tcp.ka_dropped++; /* the peer is gone */
    tcp_emit_conn(c, c->snd_nxt, TCP_RST | TCP_ACK, NULL, 0);
    tcp_finish(c, NET_EV_TIMEDOUT);
    return;
  }
  c->ka_sent++;
  c->ka_time = net_now;
  net_stats.tcp.ka_probes++;
  tcp_emit_conn(c, c->snd_nxt - 1, TCP_ACK, NULL, 0);
}

/* Every NET_TCP_SLOW_MS (tcp_timer_conns): the idle timeout of passive
 * connections and keep-alive, for every synchronised connection. */
TCP_COLD static void tcp_slow_timer(void)
{
  unsigned i;
  tcp_slow_last = net_now;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    struct tcp_conn *c = &tcp_conns[i];
    uint32_t idle;
    if (c->state < TCP_ESTABLISHED || c->state == TCP_TIME_WAIT) {
      continue;
    }
    idle = tcp_idle_ms(c);
    if ((c->pflags & TCPP_PASSIVE) && tcp_pol.idle_ms != 0 && idle >= tcp_pol.idle_ms) {
      net_stats.tcp.idle_timeouts++;
      tcp_emit_conn(c, c->snd_nxt, TCP_RST | TCP_ACK, NULL, 0);
      tcp_finish(c, NET_EV_TIMEDOUT);
    } else if (tcp_pol.keepalive_ms != 0) {
      tcp_keepalive(c);
    }
  }
}

/* Segment for no connection: passive open or reset. */
TCP_COLD static void tcp_input_closed(uint32_t src, const struct tcp_seg *s)
{
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
TCP_COLD static void tcp_input_syn_sent(struct tcp_conn *c, const struct tcp_seg *s)
{
  if ((s->ctl & TCP_ACK) &&
      (TCP_SEQ_LEQ(s->ack, c->iss) || TCP_SEQ_GT(s->ack, c->snd_nxt))) {
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
static int tcp_seq_ok(const struct tcp_conn *c, const struct tcp_seg *s,
                      uint32_t seglen)
{
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
TCP_COLD static int tcp_challenge_budget(struct tcp_conn *c)
{
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

TCP_COLD static void tcp_challenge_ack(struct tcp_conn *c)
{
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
static int tcp_our_fin_acked(struct tcp_conn *c)
{
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
TCP_COLD static unsigned tcp_fin_in(struct tcp_conn *c)
{
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

#if TCP_HOLD
/*--------------------------------------------------------------------------*/
/* Receive side: out-of-order segments (issue 15). A segment after a gap is
 * not copied: the netif keeps its whole frame (rx_hold; the GRETH takes
 * the DMA buffer out of its ring and puts a spare in its place) and an
 * entry here points at its data. Entries of one connection never overlap:
 * a new segment is trimmed against the held ones (a held segment inside
 * it is released, the new one covers it). When the in-order data reaches
 * a held segment it is delivered from its buffer (NET_EV_NEWDATA, one
 * callback per segment) and the buffer is given back. */

/* 1 if entry h holds a segment of connection number ci. */
static inline int tcp_held_by(const struct tcp_held *h, uint8_t ci)
{
  return h->buf != NULL && h->conn == ci;
}

static void tcp_held_release(struct tcp_held *h)
{
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
TCP_COLD static struct tcp_held *tcp_held_new(const uint8_t *data, const uint8_t *end)
{
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

TCP_COLD static void tcp_held_release_conn(const struct tcp_conn *c)
{
  unsigned i;
  for (i = 0; i < NET_TCP_RX_HOLD; i++) {
    if (tcp_held_by(&tcp_held[i], (uint8_t)(c - tcp_conns))) {
      tcp_held_release(&tcp_held[i]);
    }
  }
}

/* Bytes from rcv_nxt to the end of the highest data held for c (0: none). */
static uint32_t tcp_held_span(const struct tcp_conn *c)
{
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
TCP_COLD static void tcp_ooo_hold(struct tcp_conn *c, const struct tcp_seg *s)
{
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
    if (tcp_held_by(h, ci) && TCP_SEQ_LEQ(h->seq, seq) &&
        TCP_SEQ_GEQ(h->seq + h->len, seq + len)) {
      net_stats.tcp.ooo_dup++;
      h->fin |= fin && h->seq + h->len == seq + len;
      return;
    }
  }
  for (i = 0; i < NET_TCP_RX_HOLD; i++) {
    struct tcp_held *h = &tcp_held[i];
    if (tcp_held_by(h, ci) && TCP_SEQ_GEQ(h->seq, seq) &&
        TCP_SEQ_LEQ(h->seq + h->len, seq + len)) {
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
TCP_COLD static int tcp_ooo_deliver(struct tcp_conn *c, unsigned ev)
{
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
    if (off > h->len || (off == h->len && !h->fin) ||
        (ev & NET_EV_CLOSED) || (c->flags & TCPF_ABORT_REQ)) {
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
static struct tcp_held *tcp_kept_entry(int handle)
{
  struct tcp_held *h;
  if (handle < 1 || handle > NET_TCP_RX_HOLD) {
    return NULL;
  }
  h = &tcp_held[handle - 1];
  return h->buf != NULL && h->conn == TCP_HELD_APP ? h : NULL;
}
#endif

TCP_COLD int tcp_recv_hold(struct tcp_conn *c)
{
#if TCP_HOLD
  struct tcp_held *h = tcp_app_from;
  int k;

  if (c == NULL || c < tcp_conns || c >= tcp_conns + NET_TCP_CONNS ||
      !(c->flags & TCPF_IN_CB) || tcp_appdata == NULL || tcp_applen == 0 ||
      net_netif->rx_hold == NULL) {
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

const uint8_t *tcp_recv_kept(int handle, uint16_t *len)
{
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

TCP_COLD net_err_t tcp_recv_done(int handle)
{
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

/* Header prediction (after Jacobson): the next in-order data segment of an
 * established connection that acknowledges nothing new, changes no window
 * and fits the window needs none of the steps below but the data: deliver
 * it on a short, straight path (a bulk receiver's every segment; the hot
 * code exceeds the I-cache, so fewer lines touched per segment count).
 * @return 1 if the segment was handled. */
static int tcp_fast_data(struct tcp_conn *c, const struct tcp_seg *s)
{
#if NET_TCP_UIP_SEND
  uint32_t out = c->snd_nxt;
#else
  uint32_t out = c->snd_max;
#endif
  if (c->state != TCP_ESTABLISHED || (s->ctl & ~TCP_PSH) != TCP_ACK ||
      s->seq != c->rcv_nxt || s->len == 0 || s->ack != c->snd_una ||
      out != c->snd_una || s->wnd != c->snd_wnd || s->len > tcp_wnd_of(c)) {
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

static void tcp_process(struct tcp_conn *c, const struct tcp_seg *s)
{
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
  if (c->state == TCP_SYN_RCVD &&
      (s->ctl & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN &&
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
    case TCP_SYN_RCVD:       /* passive: back to LISTEN; active: refused */
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
#if NET_TCP_UIP_SEND
    if (TCP_SEQ_GT(s->ack, c->snd_nxt)) { /* acks something never sent */
      net_stats.tcp.drop_bad_ack++;
      tcp_emit_conn(c, c->snd_nxt, TCP_ACK, NULL, 0);
      return;
    }
    if (s->ack == c->snd_nxt && c->snd_una != c->snd_nxt) {
      int had_data = c->snd_datalen != 0;
      int fin_acked = (c->rtx_ctl & TCP_FIN) != 0;
      tcp_all_acked(c, s->ack);
      if (had_data) {
        ev |= NET_EV_ACKED;
      }
      if (fin_acked && tcp_our_fin_acked(c)) {
        return;
      }
    }
#else
    /* RFC 5961 5.2: acceptable if SND.UNA - MAX.SND.WND <= SEG.ACK <=
     * SND.MAX; an ACK of data never sent (or far too old) is dropped and
     * answered with an ACK. */
    if (TCP_SEQ_GT(s->ack, c->snd_max) ||
        TCP_SEQ_LT(s->ack, c->snd_una - c->snd_wnd_max)) {
      net_stats.tcp.drop_bad_ack++;
      tcp_emit_conn(c, c->snd_nxt, TCP_ACK, NULL, 0);
      return;
    }
    {
      int fin_acked = 0;
      ev |= tcp_ack_sent(c, s, &fin_acked);
      if (fin_acked) {
        c->sflags &= (uint8_t)~TCPS_FIN;
        if (tcp_our_fin_acked(c)) {
          return;
        }
      }
    }
#endif
    if (TCP_SEQ_LT(c->snd_wl1, s->seq) ||
        (c->snd_wl1 == s->seq && TCP_SEQ_LEQ(c->snd_wl2, s->ack))) {
      c->snd_wnd = s->wnd;
      c->snd_wl1 = s->seq;
      c->snd_wl2 = s->ack;
#if !NET_TCP_UIP_SEND
      if (s->wnd > c->snd_wnd_max) {
        c->snd_wnd_max = s->wnd;
      }
      if (s->wnd > 0 && (c->sflags & TCPS_PERSIST)) {
        c->sflags &= (uint8_t)~TCPS_PERSIST; /* window open: send again */
        c->nprobe = 0;
      }
#endif
    }
  }

  /* Seventh: data; eighth: FIN. */
  if (s->len > 0 || (s->ctl & TCP_FIN)) {
    if (c->state == TCP_ESTABLISHED || c->state == TCP_FIN_WAIT_1 ||
        c->state == TCP_FIN_WAIT_2) {
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

/*--------------------------------------------------------------------------*/
#if !NET_TCP_UIP_SEND
/* Header prediction for the sender's common segment: a pure ACK (20-byte
 * header, flags exactly ACK, checksum checked) in ESTABLISHED, at RCV.NXT,
 * that acknowledges new data (SND.UNA < SEG.ACK <= SND.MAX) outside fast
 * recovery and the persist state. Handled here in a few lines instead of
 * tcp_process()'s general path, whose code would push the send path out of
 * the I-cache; the outcome is the same as there: tcp_ack_sent(), the
 * window update (always due: SEG.SEQ = RCV.NXT and SEG.ACK > SND.UNA >=
 * SND.WL2), the application, then tcp_after_app() without an ACK of its
 * own. @return 0 if the segment is not such an ACK (tcp_process() takes it). */
static int tcp_pure_ack(uint32_t src, const uint8_t *seg)
{
  struct tcp_seg s;
  struct tcp_conn *c;
  unsigned ev;
  int fin_acked = 0;

  s.sport = net_get16(seg);
  s.dport = net_get16(seg + 2);
  s.seq = net_get32(seg + 4);
  s.ack = net_get32(seg + 8);
  c = tcp_find(src, s.dport, s.sport);
  if (c == NULL || c->state != TCP_ESTABLISHED || s.seq != c->rcv_nxt ||
      !TCP_SEQ_LT(c->snd_una, s.ack) || TCP_SEQ_GT(s.ack, c->snd_max) ||
      (c->sflags & (TCPS_RECOVERY | TCPS_PERSIST))) {
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
#endif

/* Every segment but tcp_pure_ack()'s, after the checksum. Not inlined:
 * tcp_input() stays a few cache lines. */
static __attribute__((noinline)) void tcp_input_general(uint32_t src, const uint8_t *seg,
                                                        unsigned len)
{
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

void tcp_input(uint32_t src, uint32_t dst, int dst_kind, const uint8_t *seg,
               unsigned len)
{
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
#if !NET_TCP_UIP_SEND
  if (len == NET_TCP_HLEN && seg[12] == (NET_TCP_HLEN / 4) << 4 &&
      (seg[13] & 0x3f) == TCP_ACK && tcp_pure_ack(src, seg)) {
    return;
  }
#endif
  tcp_input_general(src, seg, len);
}

/*--------------------------------------------------------------------------*/
/* Not inlined: rare work, kept out of tcp_timer_conns() (the hot-code
 * layout, firmware/net/port/fw-layout.ld, depends on its size). */
static __attribute__((noinline)) void tcp_retransmit(struct tcp_conn *c)
{
  unsigned limit = (c->state == TCP_SYN_SENT || c->state == TCP_SYN_RCVD)
                       ? NET_TCP_SYN_RETRIES
                       : NET_TCP_MAX_RETRIES;
  if (c->nrtx >= limit) {
    net_stats.tcp.timeouts++;
    if (c->state != TCP_SYN_SENT) {
      tcp_emit_conn(c, c->snd_nxt, TCP_RST | TCP_ACK, NULL, 0);
    }
    tcp_finish(c, NET_EV_TIMEDOUT);
    return;
  }
  c->nrtx++;
  c->rto = c->rto * 2 > NET_TCP_RTO_MAX_MS ? NET_TCP_RTO_MAX_MS : c->rto * 2;
  c->timer = net_now + c->rto;
  c->flags &= (uint8_t)~TCPF_RTT; /* Karn: no sample from a resent segment */
  net_stats.tcp.rexmit++;
  if (c->state == TCP_SYN_SENT) {
    tcp_emit_conn(c, c->iss, TCP_SYN, NULL, 0);
  } else if (c->state == TCP_SYN_RCVD) {
    tcp_emit_conn(c, c->iss, TCP_SYN | TCP_ACK, NULL, 0);
  } else {
#if NET_TCP_UIP_SEND
    if (c->rtx_ctl & TCP_FIN) {
      tcp_emit_conn(c, c->snd_una, TCP_FIN | TCP_ACK, NULL, 0);
    } else if (c->snd_datalen) {
      tcp_appcall(c, NET_EV_REXMIT);
      tcp_after_app(c, ACK_NONE);
    }
#else
    /* RFC 5681 3.1: ssthresh from the flight (once per loss, not for the
     * repeated timeouts of one segment), cwnd collapses to one segment;
     * go back to SND.UNA and send again from the buffer. */
    if (c->nrtx == 1) {
      tcp_set_ssthresh(c);
    }
    c->cwnd = c->mss;
    c->dupacks = 0;
    c->sflags &= (uint8_t)~TCPS_RECOVERY;
    c->snd_nxt = c->snd_una;
    c->flags &= (uint8_t)~TCPF_RTT;
    tcp_output(c);
    if (c->snd_nxt == c->snd_una && c->snd_wnd == 0 && c->snd_buf_len) {
      /* The peer closed its window with data in flight: tcp_output() may
       * send nothing and the persist timer only starts with nothing in
       * flight, so resend the first segment anyway (RFC 9293 3.8.6.1: keep
       * retransmitting to a zero window; it probes the window, and the
       * retry limit still applies). */
      uint32_t n = c->snd_buf_len < c->mss ? c->snd_buf_len : c->mss;
      tcp_emit_buf(c, c->snd_una, n, TCP_ACK);
      c->snd_nxt += n;
      if (TCP_SEQ_GT(c->snd_nxt, c->snd_max)) {
        c->snd_max = c->snd_nxt; /* more than was in flight: new data */
      }
    }
#endif
  }
}

#if !NET_TCP_UIP_SEND
/* Zero window: probe (an old sequence number forces an ACK with the current
 * window), back off, give up persist_max_ms after the first probe (the
 * timer is set to that moment at the latest). Not inlined: rare work, kept
 * out of tcp_timer_conns(). */
TCP_COLD static void tcp_persist(struct tcp_conn *c)
{
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
#endif

#if !NET_TCP_UIP_SEND && NET_TCP_LOSS_PROBE
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
static __attribute__((noinline)) int tcp_loss_probe(struct tcp_conn *c)
{
  uint32_t end, dend, n, pto;
  uint8_t ctl = TCP_ACK;
  if ((c->sflags & (TCPS_RECOVERY | TCPS_PERSIST)) || c->nrtx != 0 ||
      c->nprobe != 0 || c->srtt8 < 0 || c->snd_nxt != c->snd_max ||
      c->snd_una == c->snd_max) {
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

/* The timer work of the open connections: a function of its own (noinline),
 * so that the tick of a board without connections (ping, UDP) runs only the
 * few lines of tcp_timer() below, which leon3.ld places with the other hot
 * code, and not the inlined retransmission and output code in here
 * (docs/firmware.md "Speed: before and after (issue 15)"). */
static __attribute__((noinline)) void tcp_timer_conns(void)
{
  unsigned i;
  if (net_now - tcp_slow_last >= NET_TCP_SLOW_MS) {
    tcp_slow_timer(); /* idle time, keep-alive */
  }
  for (i = 0; i < NET_TCP_CONNS; i++) {
    struct tcp_conn *c = &tcp_conns[i];
    if (c->state == TCP_CLOSED) {
      continue;
    }
    if (c->state == TCP_TIME_WAIT) {
      if (tcp_time_reached(c->timer)) {
        tcp_free(c);
      }
      continue;
    }
    if (c->state == TCP_SYN_RCVD && !(c->flags & TCPF_APP_KNOWS) &&
        tcp_time_reached(c->poll_time)) {
      net_stats.tcp.syn_expired++; /* half-open too long: forget it */
      tcp_free(c);
      continue;
    }
    if ((c->flags & TCPF_TIMER) && tcp_time_reached(c->timer)) {
      tcp_retransmit(c);
      continue;
    }
#if !NET_TCP_UIP_SEND
#if NET_TCP_LOSS_PROBE
    if ((c->flags & TCPF_TIMER) && c->dupacks != 0 && tcp_loss_probe(c)) {
      continue;
    }
#endif
    if ((c->sflags & TCPS_PERSIST) && tcp_time_reached(c->timer)) {
      tcp_persist(c);
      continue;
    }
#endif
    if ((c->flags & TCPF_ACK_PENDING) && tcp_time_reached(c->ack_deadline)) {
      tcp_emit_conn(c, c->snd_nxt, TCP_ACK, NULL, 0);
    }
#if NET_TCP_UIP_SEND
    if ((c->state == TCP_ESTABLISHED || c->state == TCP_CLOSE_WAIT) &&
        c->snd_nxt == c->snd_una && tcp_time_reached(c->poll_time)) {
      c->poll_time = net_now + NET_TCP_POLL_MS;
      if (c->snd_wnd == 0) {
        /* Zero window: probe with an old sequence number, which the peer
         * must answer with an ACK carrying its current window. */
        tcp_emit_conn(c, c->snd_nxt - 1, TCP_ACK, NULL, 0);
      } else {
        tcp_appcall(c, NET_EV_POLL);
        tcp_after_app(c, ACK_NONE);
      }
    }
#else
    if ((c->state == TCP_ESTABLISHED || c->state == TCP_CLOSE_WAIT) &&
        c->snd_una == c->snd_max && tcp_time_reached(c->poll_time)) {
      c->poll_time = net_now + NET_TCP_POLL_MS;
      tcp_appcall(c, NET_EV_POLL);
      tcp_after_app(c, ACK_NONE);
    }
#endif
  }
}

void tcp_timer(void)
{
  unsigned i;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    if (tcp_conns[i].state != TCP_CLOSED) {
      tcp_timer_conns();
      return;
    }
  }
}
