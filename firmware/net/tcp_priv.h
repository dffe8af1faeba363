/*
 * tcp_priv.h - what the files of the TCP implementation share; not for
 * applications (they use tcp.h).
 *
 * The TCP implementation is split by concern:
 *   tcp.c           application interface, connection table (PCBs), ISNs
 *   tcp_slots.c     slot policy: idle time, eviction, listener limits
 *   tcp_out.c       segment building, the advertised window, RTT/RTO,
 *                   carrying out the application's requests (tcp_after_app)
 *   tcp_send_buf.c  send model: send buffer, congestion control, fast
 *     or            retransmit, persist timer, loss probe (the default)
 *   tcp_send_uip.c  send model: uIP style, one segment in flight
 *                   (NET_TCP_UIP_SEND=1)
 *   tcp_in.c        segment input: parsing, the state machine, passive open
 *   tcp_hold.c      receive side: out-of-order segments held in the netif's
 *                   frames, data the application keeps (zero-copy builds)
 *   tcp_timer.c     the timers: retransmission, TIME-WAIT, delayed ACK,
 *                   poll, keep-alive, idle timeout
 *
 * The build compiles them as ONE translation unit, including them in that
 * order (after the send model's header, tcp_send_buf.h or tcp_send_uip.h)
 * with exactly one of the two send models (firmware/net/tcp_unit.cmake
 * writes the unit; firmware/net/CMakeLists.txt picks the send model from
 * the option NET_TCP_UIP_SEND). So the functions they share stay static
 * and the compiler inlines and specialises them across the files as in
 * one file: the per-segment paths are the same instructions as before the
 * split (a call across separately compiled files would cost instructions
 * per segment, and the hot-code layout names the compiler's clones). The
 * files are not meant to be compiled on their own (TCP_UNIT guards it).
 */
#ifndef TCP_PRIV_H
#define TCP_PRIV_H

#ifndef TCP_UNIT
#error "the TCP files are compiled as one unit (tcp_priv.h, firmware/net/tcp_unit.cmake)"
#endif

#include "net.h"
#include "net_chksum.h"

/* tcp_conn.flags */
#define TCPF_TIMER 0x01       /* retransmission timer running */
#define TCPF_RTT 0x02         /* timing a segment (never a retransmitted one) */
#define TCPF_ACK_PENDING 0x04 /* delayed ACK owed */
#define TCPF_CLOSE_REQ 0x08   /* application called tcp_close() */
#define TCPF_ABORT_REQ 0x10   /* application called tcp_abort() */
#define TCPF_IN_CB 0x20       /* inside the application callback */
#define TCPF_REXMIT_CB 0x40   /* ... for NET_EV_REXMIT */
#define TCPF_APP_KNOWS 0x80   /* the application has seen the connection */

/* tcp_conn.pflags (slot policy) */
#define TCPP_PASSIVE 0x01 /* opened by a listener */
#define TCPP_SEEN 0x02    /* act_seq/act_time/heard are set (slow timer) */

/* Out-of-order segments are held (in the frames the netif keeps) only in
 * zero-copy builds: in the copy build the segment is in net_buf, which the
 * next frame overwrites. */
#define TCP_HOLD (NET_TCP_RX_HOLD > 0 && NET_ZERO_COPY)
#if TCP_HOLD
/* One held out-of-order segment (tcp_hold.c), or data the
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
  uint16_t mss; /* MSS option, 0 if absent */
  const uint8_t *data;
  unsigned len; /* data bytes */
};

/* The send model's interface (tcp_send_buf.c, tcp_send_uip.c): inlined
 * where it is used, as if written there. */
#if defined(__GNUC__)
#define TCP_SND static inline __attribute__((always_inline))
#else
#define TCP_SND static
#endif

/*--------------------------------------------------------------------------*/
/* Shared state, in the order of definition that gives .bss the layout the
 * hot-data placement was tuned with (tcp_send_buf.h). */
#if TCP_HOLD
static struct tcp_held tcp_held[NET_TCP_RX_HOLD];
static unsigned tcp_nheld; /* out-of-order entries of tcp_held[] in use */
static unsigned tcp_napp;  /* entries the application keeps */
/* The held entry whose data the current NET_EV_NEWDATA callback gets
 * (tcp_ooo_deliver); NULL: the data is in the frame being processed. */
static struct tcp_held *tcp_app_from;
#endif
struct tcp_conn tcp_conns[NET_TCP_CONNS]; /* tcp.h */
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

/*--------------------------------------------------------------------------*/
/* Functions one file calls in another. */
/* tcp.c */
static int tcp_time_reached(uint32_t deadline);
static inline struct tcp_conn *tcp_find(uint32_t rip, uint16_t lport, uint16_t rport);
static struct tcp_conn *tcp_alloc(uint32_t rip, uint16_t lport, uint16_t rport);
static void tcp_free(struct tcp_conn *c);
static void tcp_appcall(struct tcp_conn *c, unsigned ev);
static void tcp_finish(struct tcp_conn *c, unsigned ev);
static void tcp_wnd_grown(struct tcp_conn *c);
/* tcp_slots.c */
TCP_COLD static void tcp_policy_init(void);
static int tcp_evict_half_open(void);
TCP_COLD static int tcp_listen_full(const struct tcp_listener *l);
TCP_COLD static int tcp_listen_room(struct tcp_conn *c);
TCP_COLD static struct tcp_conn *tcp_alloc_evict(uint32_t rip, uint16_t lport, uint16_t rport);
/* tcp_out.c */
static net_err_t tcp_emit_frame(uint8_t *frame, uint32_t rip, uint16_t lport, uint16_t rport, uint32_t seq,
                                uint32_t ack, uint8_t ctl, uint16_t wnd, const uint8_t *data, unsigned len,
                                int32_t psum);
static net_err_t tcp_emit(uint32_t rip, uint16_t lport, uint16_t rport, uint32_t seq, uint32_t ack,
                          uint8_t ctl, uint16_t wnd, const uint8_t *data, unsigned len);
static uint16_t tcp_wnd_of(const struct tcp_conn *c);
static uint16_t tcp_adv_wnd(struct tcp_conn *c);
static void tcp_emit_conn(struct tcp_conn *c, uint32_t seq, uint8_t ctl, const uint8_t *data, unsigned len);
static void tcp_start_timers(struct tcp_conn *c, uint32_t end);
static void tcp_rtt_sample(struct tcp_conn *c, uint32_t r);
static void tcp_all_acked(struct tcp_conn *c, uint32_t ack);
static void tcp_after_app(struct tcp_conn *c, int ack_mode);
/* tcp_in.c */
static int tcp_our_fin_acked(struct tcp_conn *c);
TCP_COLD static unsigned tcp_fin_in(struct tcp_conn *c);
/* tcp_hold.c */
#if TCP_HOLD
static uint32_t tcp_held_span(const struct tcp_conn *c);
TCP_COLD static void tcp_held_release_conn(const struct tcp_conn *c);
TCP_COLD static void tcp_ooo_hold(struct tcp_conn *c, const struct tcp_seg *s);
TCP_COLD static int tcp_ooo_deliver(struct tcp_conn *c, unsigned ev);
#endif

/* The send model (tcp_send_buf.c or tcp_send_uip.c). Besides these, it
 * defines three statement macros, its pieces of tcp_after_app(),
 * tcp_process() and tcp_retransmit(): TCP_SND_AFTER_APP(c, can_send),
 * TCP_SND_ACK(c, s, ev) (both may return from the function) and
 * TCP_SND_REXMIT(c); and TCP_SND_IDLE(c), 1 if nothing is in flight (the
 * poll timer's test, in the model's own words). */
/* A new connection's send state (tcp_alloc; snd_nxt = ISS + 1). */
TCP_SND void tcp_snd_init(struct tcp_conn *c);
/* The highest sequence number sent + 1. */
TCP_SND uint32_t tcp_snd_max(const struct tcp_conn *c);
/* 1 if nothing is in flight and no timer of the send side watches the
 * peer (keep-alive may probe). */
TCP_SND int tcp_snd_quiet(const struct tcp_conn *c);
/* The largest window the peer offered (0xffff where nothing keeps it, so
 * no window is larger) and its update. */
TCP_SND unsigned tcp_snd_wnd_max(const struct tcp_conn *c);
TCP_SND void tcp_snd_set_wnd_max(struct tcp_conn *c, uint16_t wnd);
/* Header prediction for a pure ACK (a 20-byte header, flags exactly ACK,
 * checksum checked): @return 1 if handled, 0 if tcp_process() must. */
static int tcp_snd_pure_ack(uint32_t src, const uint8_t *seg);
/* The send side's own timers (tcp_timer_conns): duplicate ACKs in a row
 * (0 in a model without them), the loss probe (@return 1 if one was sent;
 * NET_TCP_LOSS_PROBE), whether the persist timer runs, and its expiry. */
TCP_SND unsigned tcp_snd_dupacks(const struct tcp_conn *c);
TCP_SND int tcp_snd_loss_probe(struct tcp_conn *c);
TCP_SND unsigned tcp_snd_persisting(const struct tcp_conn *c);
TCP_SND void tcp_snd_persist(struct tcp_conn *c);
/* The peer's window opened: the persist state ends. */
TCP_SND void tcp_snd_persist_end(struct tcp_conn *c);
/* 1 if the poll timer is to probe a zero window instead of polling (the
 * uIP model has no persist timer). */
TCP_SND int tcp_snd_poll_probe(const struct tcp_conn *c);

#endif /* TCP_PRIV_H */
