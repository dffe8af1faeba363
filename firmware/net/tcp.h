/*
 * tcp.h - TCP (RFC 793, RFC 1122 4.2, RFC 6298) with a uIP-style
 * event-driven application interface.
 *
 * Sending (netopts.h NET_TCP_UIP_SEND): by default tcp_send() copies into a
 * per-connection send buffer (or tcp_send_ref() queues a reference to data
 * the application keeps) and the stack keeps several segments in flight
 * (min(cwnd, peer window), RFC 5681 congestion control) and retransmits
 * them itself. With NET_TCP_UIP_SEND=1 (uIP model) at most one segment is in
 * flight, the stack keeps no copy, and on a timeout the application is
 * called with NET_EV_REXMIT and sends the same data again. SYN, SYN-ACK and
 * FIN are always retransmitted by the stack.
 */
#ifndef NET_TCP_H
#define NET_TCP_H

#include "net_arch.h"

/* Connection states (RFC 793 3.2; LISTEN is a listener table entry). */
#define TCP_CLOSED 0
#define TCP_SYN_SENT 1
#define TCP_SYN_RCVD 2
#define TCP_ESTABLISHED 3
#define TCP_FIN_WAIT_1 4
#define TCP_FIN_WAIT_2 5
#define TCP_CLOSING 6
#define TCP_TIME_WAIT 7
#define TCP_CLOSE_WAIT 8
#define TCP_LAST_ACK 9

/* Header flags. */
#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_PSH 0x08
#define TCP_ACK 0x10
#define TCP_URG 0x20

/* Events passed to the application callback (several may be set). */
#define NET_EV_CONNECTED 0x01 /**< handshake completed (either direction) */
#define NET_EV_NEWDATA 0x02   /**< tcp_appdata/tcp_applen hold new data */
#define NET_EV_ACKED 0x04     /**< sent data was acknowledged (room freed) */
#define NET_EV_REXMIT 0x08    /**< uIP mode: send the unacknowledged data again */
#define NET_EV_POLL 0x10      /**< idle connection: may send */
#define NET_EV_CLOSED 0x20    /**< the peer closed its side (FIN received) */
#define NET_EV_ABORTED                              \
  0x40 /**< reset by the peer, or evicted for a new \
            peer (tcp_listen_limit); connection gone */
#define NET_EV_TIMEDOUT                              \
  0x80 /**< retry, persist, keep-alive or idle limit \
            reached; connection gone */

/* Sequence number comparisons, correct across wrap-around (RFC 793 3.3). */
#define TCP_SEQ_LT(a, b) ((int32_t)((uint32_t)(a) - (uint32_t)(b)) < 0)
#define TCP_SEQ_LEQ(a, b) ((int32_t)((uint32_t)(a) - (uint32_t)(b)) <= 0)
#define TCP_SEQ_GT(a, b) TCP_SEQ_LT(b, a)
#define TCP_SEQ_GEQ(a, b) TCP_SEQ_LEQ(b, a)

struct tcp_conn;

/**
 * Application callback, called with a bitmask of NET_EV_* events. During
 * the call the application may use tcp_send(), tcp_close(), tcp_abort().
 * After NET_EV_ABORTED or NET_EV_TIMEDOUT the connection is gone.
 */
typedef void (*tcp_appcall_fn)(struct tcp_conn *c, unsigned events);

struct tcp_conn {
  uint8_t state;
  uint8_t flags;   /* TCPF_* (tcp_priv.h) */
  uint8_t nrtx;    /* retransmissions of the segment in flight */
  uint8_t rtx_ctl; /* SYN/FIN carried by the segment in flight */
  uint16_t lport, rport;
  uint32_t rip;
  uint32_t iss;              /* initial send sequence number */
  uint32_t snd_una;          /* oldest unacknowledged sequence number */
  uint32_t snd_nxt;          /* next sequence number to send */
  uint32_t snd_wl1, snd_wl2; /* segment seq/ack of the last window update */
  uint16_t snd_wnd;          /* peer's window */
  uint16_t mss;              /* send MSS: min(peer's MSS option, NET_TCP_MSS) */
  uint16_t snd_datalen;      /* data bytes in flight */
  uint16_t rcv_wnd;          /* window advertised in our last segment */
  uint32_t rcv_adv;          /* ... and its right edge (rcv_nxt + rcv_wnd then) */
  uint16_t rcv_space;        /* application's free receive space (tcp_set_rcv_space),
                                0xffff = no limit */
  uint32_t rcv_nxt;          /* next sequence number expected */
  uint32_t timer;            /* retransmission / TIME-WAIT deadline (net_now) */
  uint32_t ack_deadline;     /* delayed ACK deadline */
  uint32_t poll_time;        /* next NET_EV_POLL */
  uint32_t rtt_seq;          /* RTT measurement: ends when this is acked */
  uint32_t rtt_start;
  int32_t srtt8;   /* smoothed RTT * 8 (ms) */
  int32_t rttvar4; /* RTT variation * 4 (ms) */
  uint32_t rto;    /* current retransmission timeout (ms) */
#if !NET_TCP_UIP_SEND
  /* Send side with a send buffer (tcp_send_buf.c). The ring holds
   * snd_buf_len bytes starting at snd_una; the byte of sequence number s is
   * at (s - iss - 1) mod NET_TCP_SNDBUF. */
  uint32_t snd_max;     /* highest sequence number sent + 1 */
  uint32_t snd_buf_len; /* data bytes buffered (unacknowledged + unsent) */
  uint32_t cwnd;        /* congestion window (bytes), 0 until established */
  uint32_t ssthresh;    /* slow-start threshold */
  uint32_t recover;     /* fast recovery ends when this is acknowledged */
  uint16_t snd_wnd_max; /* largest window the peer offered (SWS, RFC 5961) */
  uint8_t dupacks;      /* duplicate ACKs in a row */
  uint8_t sflags;       /* TCPS_* (tcp_send_buf.h) */
  uint8_t nprobe;       /* zero-window probes sent without the window opening;
                           a loss probe sent since SND.UNA last advanced */
#if NET_TCP_SNDREFS
  /* tcp_send_ref(): the buffered bytes are those of ref_n references (a
   * ring of NET_TCP_SNDREFS in tcp_send_buf.h) from index ref_head, whose first
   * ref_off bytes are acknowledged already; 0 references: the ring. */
  uint8_t ref_head, ref_n;
  uint16_t ref_off;
#endif
#endif
  tcp_appcall_fn appcall;
  void *arg;               /**< for the application */
  const uint8_t *app_data; /* tcp_send() during a callback */
  uint16_t app_len;
  /* Slot policy (tcp_slots.c): idle time, keep-alive, eviction;
   * kept by the slow timer (every NET_TCP_SLOW_MS), not per segment. */
  uint8_t pflags;    /* TCPP_* (tcp_priv.h) */
  uint8_t ka_sent;   /* keep-alive probes sent without an answer */
  uint32_t act_seq;  /* rcv_nxt + snd_una when act_time was set */
  uint32_t act_time; /* when data last moved either way (slow timer's view) */
  uint32_t heard;    /* when the peer last showed life: act_time or a
                        keep-alive answer */
  uint32_t ka_time;  /* when the last keep-alive probe was sent */
  uint32_t zw_since; /* persist: when the first zero-window probe went */
};

extern struct tcp_conn tcp_conns[NET_TCP_CONNS];

/** Data of the NET_EV_NEWDATA event (valid during the callback only). */
extern const uint8_t *tcp_appdata;
extern uint16_t tcp_applen;

void tcp_init(uint32_t seed);

/**
 * Accept connections on a local port; `fn` becomes the callback of each
 * accepted connection, which starts with NET_EV_CONNECTED and arg = `arg`.
 * @return NET_OK, NET_ERR_USE, NET_ERR_MEM or NET_ERR_ARG
 */
net_err_t tcp_listen(uint16_t port, tcp_appcall_fn fn, void *arg);

/** Stop listening (established connections stay). */
void tcp_unlisten(uint16_t port);

/**
 * At most `max` connections of the listener on `port` held by the
 * application at once (ESTABLISHED or CLOSE_WAIT; 0 = no limit but the
 * table). A handshake that would complete beyond it evicts the listener's
 * connection idle longest (RST, NET_EV_ABORTED, tcp.idle_evicted) if that
 * one has been idle at least the policy's evict_idle_ms; else the new
 * connection is reset (tcp.drop_listen_full), and while none is idle
 * enough new SYNs are dropped (the peer retries).
 * @return NET_OK, or NET_ERR_ARG when nothing listens on `port`
 */
net_err_t tcp_listen_limit(uint16_t port, unsigned max);

/** Run-time policy against slot exhaustion (README "Slot policy"); all
 *  times in ms, 0 = off (never) unless said otherwise. */
struct tcp_policy {
  uint32_t idle_ms;            /**< passively opened connections with no data
                                    received and none acknowledged for this
                                    long are reset (NET_EV_TIMEDOUT,
                                    tcp.idle_timeouts) */
  uint32_t keepalive_ms;       /**< keep-alive (RFC 1122 4.2.3.6): first probe
                                    after this long without a sign of life */
  uint32_t keepalive_intvl_ms; /**< between unanswered probes (> 0) */
  uint32_t keepalive_probes;   /**< unanswered probes before the connection
                                    is reset (NET_EV_TIMEDOUT, tcp.ka_dropped; > 0) */
  uint32_t persist_max_ms;     /**< zero peer window: reset this long after the
                                    first window probe (> 0; default build only) */
  uint32_t evict_idle_ms;      /**< a full listener (tcp_listen_limit) or table
                                    evicts a passive connection idle this long */
};

/** Set the policy (NULL: the netopts.h defaults, also after tcp_init).
 *  Zero keepalive_intvl_ms, keepalive_probes and persist_max_ms take
 *  their defaults. Applies to existing connections too. */
void tcp_set_policy(const struct tcp_policy *p);
void tcp_get_policy(struct tcp_policy *p);

/** ms since data last moved on c (received in order, or ours
 *  acknowledged), as the slow timer sees it. */
uint32_t tcp_idle_ms(struct tcp_conn *c);

/**
 * Active open: sends the SYN now from an ephemeral port.
 * @return the connection (NET_EV_CONNECTED, _ABORTED or _TIMEDOUT follows)
 *         or NULL when the table is full or an argument is invalid
 */
struct tcp_conn *tcp_connect(uint32_t rip, uint16_t rport, tcp_appcall_fn fn, void *arg);

/**
 * Send data; only during a callback.
 * Default build: copies min(len, tcp_sndmax(c)) bytes into the connection's
 * send buffer at once and returns that number (0 when the buffer is full);
 * the stack segments, sends and retransmits them; NET_EV_ACKED tells that
 * room was freed.
 * NET_TCP_UIP_SEND=1: at most tcp_sndmax(c) bytes, else NET_ERR_BUF; the
 * data is copied when the callback returns, so it may be tcp_appdata or any
 * buffer valid until then. After NET_EV_REXMIT send the same data again.
 * @return bytes taken (>= 0) or NET_ERR_STATE (not in a callback / wrong
 *         state / uIP mode: data in flight), NET_ERR_BUF or NET_ERR_ARG
 */
int tcp_send(struct tcp_conn *c, const void *data, unsigned len);

/**
 * Send data without copying it (NET_TCP_SNDREFS > 0, not the uIP mode);
 * only during a callback. The stack keeps a reference to `data` and sends
 * and retransmits segments straight from it, so the bytes must stay valid
 * and unchanged until acknowledged: until tcp_unacked(c) is no larger than
 * the bytes queued after them. All `len` bytes (1..65535) are taken, or
 * none. Fastest when the address is 2 more than the stream offset, mod 4
 * (the payload's alignment in the frame: the copy runs on words).
 * A connection uses tcp_send() or tcp_send_ref(), not both at once:
 * either fails with NET_ERR_STATE while the other's data is unacknowledged.
 * @return len, NET_ERR_BUF (all NET_TCP_SNDREFS references in use: try
 *         again after NET_EV_ACKED), NET_ERR_STATE or NET_ERR_ARG
 */
int tcp_send_ref(struct tcp_conn *c, const void *data, unsigned len);

/**
 * Keep the data of this NET_EV_NEWDATA callback (tcp_appdata, tcp_applen)
 * after the callback returns, without copying it: zero-copy builds whose
 * driver can hold frames (the GRETH: rx_hold, NET_TCP_RX_HOLD entries
 * shared with the out-of-order segments). Only during a NET_EV_NEWDATA
 * callback of c; calling it again in the same callback gives the same
 * handle. The data stays valid and unchanged where tcp_recv_kept(handle)
 * says (tcp_appdata is set to it: the driver may have moved the bytes;
 * the GRETH does not) until tcp_recv_done(handle), also after c is closed
 * or aborted. While it is kept the advertised windows are smaller by one
 * segment (the buffer is not free). Give it back soon: kept data stops
 * the stack from holding out-of-order segments.
 * @return a handle (> 0), or 0 when it cannot be kept (copy build, every
 *         entry or spare buffer in use, not in such a callback; counted in
 *         tcp.app_hold_fail): then use the data during the callback only
 */
int tcp_recv_hold(struct tcp_conn *c);

/** Where the data kept under `handle` is, and its length (*len, may be
 *  NULL); NULL (and 0) for a handle not kept. */
const uint8_t *tcp_recv_kept(int handle, uint16_t *len);

/**
 * Give data kept with tcp_recv_hold() back to the driver; the windows grow
 * (a window update is sent when the right edge moves far enough).
 * @return NET_OK, or NET_ERR_ARG for a handle not kept (counted in err_arg)
 */
net_err_t tcp_recv_done(int handle);

/** Bytes tcp_send() may take now. Default: free room in the send buffer
 *  (0 after tcp_close and while tcp_send_ref() data is pending). uIP mode:
 *  0 while data is in flight, else
 *  min(send MSS, peer window). */
unsigned tcp_sndmax(const struct tcp_conn *c);

/** Bytes handed to tcp_send() that are not acknowledged yet (uIP mode: the
 *  segment in flight). */
unsigned tcp_unacked(const struct tcp_conn *c);

/** Close our side (FIN after the data in flight is acknowledged). */
void tcp_close(struct tcp_conn *c);

/** Reset the connection (RST sent, slot freed, no further events). */
void tcp_abort(struct tcp_conn *c);

/** Call the application with NET_EV_POLL now (e.g. it has new data). */
void tcp_poll(struct tcp_conn *c);

/** Receive window advertised from now on (1..65535; clamped). */
void tcp_set_rcv_wnd(uint16_t wnd);

/** Flow control by the application: it can take at most `space` more bytes
 *  on c. The window advertised is min(tcp_set_rcv_wnd's, space); data
 *  beyond it is not accepted (trimmed, not acknowledged: the peer sends it
 *  again), and space 0 closes the window (the peer probes it). Set it
 *  again whenever the application's buffer changes; the next segment to
 *  the peer carries the new window. 0xffff (the default) = no limit. */
void tcp_set_rcv_space(struct tcp_conn *c, uint16_t space);
uint16_t tcp_get_rcv_wnd(void);

/** 1 when no connection is open or closing: every slot is CLOSED or in
 *  TIME-WAIT (our last ACK is out). A program that stops should wait for
 *  this: a FIN or ACK of the close handshake may be lost and must be
 *  repeated, or the peer is left retransmitting. */
int tcp_all_closed(void);

/** Name of a state ("ESTABLISHED"...). */
const char *tcp_state_name(uint8_t state);

/* Internal. */
void tcp_input(uint32_t src, uint32_t dst, int dst_kind, const uint8_t *seg, unsigned len);
void tcp_timer(void);

#endif /* NET_TCP_H */
