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

#if NET_TCP_SNDBUF < 2 || (NET_TCP_SNDBUF & (NET_TCP_SNDBUF - 1)) != 0 || NET_TCP_SNDBUF > 32768
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

/* tcp_after_app(): queue the FIN of a close request, send what the windows
 * allow; return from tcp_after_app() if segments went out (they carried
 * the ACK). The model's pieces of tcp_after_app(), tcp_process() and
 * tcp_retransmit() are macros, not functions: their branches are then
 * estimated as part of those functions, which keeps the code as it was
 * before the split (README.md "The TCP files are one translation unit"). */
#define TCP_SND_AFTER_APP(c, can_send)                                             \
  do {                                                                             \
    if (((c)->flags & TCPF_CLOSE_REQ) && (can_send)) {                             \
      /* The FIN goes after the buffered data (tcp_output). */                     \
      (c)->state = ((c)->state == TCP_CLOSE_WAIT) ? TCP_LAST_ACK : TCP_FIN_WAIT_1; \
      (c)->flags &= (uint8_t)~TCPF_CLOSE_REQ;                                      \
      (c)->sflags |= TCPS_FIN;                                                     \
    }                                                                              \
    {                                                                              \
      uint32_t nxt = (c)->snd_nxt;                                                 \
      tcp_output(c);                                                               \
      if ((c)->snd_nxt != nxt) {                                                   \
        return; /* the segments carried the ACK */                                 \
      }                                                                            \
    }                                                                              \
                                                                                   \
  } while (0)

/* tcp_process(), an ACK in a synchronised state: RFC 5961 5.2, acceptable
 * if SND.UNA - MAX.SND.WND <= SEG.ACK <= SND.MAX (else dropped and
 * answered: return), then its effect on the send side (ev |= NET_EV_ACKED;
 * return if our FIN was acknowledged and that freed the connection). */
#define TCP_SND_ACK(c, s, ev)                                                                          \
  do {                                                                                                 \
    /* RFC 5961 5.2: acceptable if SND.UNA - MAX.SND.WND <= SEG.ACK <=                                 \
     * SND.MAX; an ACK of data never sent (or far too old) is dropped and                              \
     * answered with an ACK. */                                                                        \
    if (TCP_SEQ_GT((s)->ack, (c)->snd_max) || TCP_SEQ_LT((s)->ack, (c)->snd_una - (c)->snd_wnd_max)) { \
      net_stats.tcp.drop_bad_ack++;                                                                    \
      tcp_emit_conn(c, (c)->snd_nxt, TCP_ACK, NULL, 0);                                                \
      return;                                                                                          \
    }                                                                                                  \
    {                                                                                                  \
      int fin_acked = 0;                                                                               \
      (ev) |= tcp_ack_sent(c, s, &fin_acked);                                                          \
      if (fin_acked) {                                                                                 \
        (c)->sflags &= (uint8_t)~TCPS_FIN;                                                             \
        if (tcp_our_fin_acked(c)) {                                                                    \
          return;                                                                                      \
        }                                                                                              \
      }                                                                                                \
    }                                                                                                  \
                                                                                                       \
  } while (0)

/* tcp_retransmit(), the timer expired in a synchronised state (after the
 * backoff): send again. A macro, not a function: its branches are then
 * estimated as part of tcp_retransmit(), which keeps its code as it was
 * before the split (README.md "The TCP files are one translation unit"). */
#define TCP_SND_REXMIT(c)                                                        \
  do {                                                                           \
    /* RFC 5681 3.1: ssthresh from the flight (once per loss, not for the        \
     * repeated timeouts of one segment), cwnd collapses to one segment;         \
     * go back to SND.UNA and send again from the buffer. */                     \
    if ((c)->nrtx == 1) {                                                        \
      tcp_set_ssthresh(c);                                                       \
    }                                                                            \
    (c)->cwnd = (c)->mss;                                                        \
    (c)->dupacks = 0;                                                            \
    (c)->sflags &= (uint8_t)~TCPS_RECOVERY;                                      \
    (c)->snd_nxt = (c)->snd_una;                                                 \
    (c)->flags &= (uint8_t)~TCPF_RTT;                                            \
    tcp_output(c);                                                               \
    if ((c)->snd_nxt == (c)->snd_una && (c)->snd_wnd == 0 && (c)->snd_buf_len) { \
      /* The peer closed its window with data in flight: tcp_output() may        \
       * send nothing and the persist timer only starts with nothing in          \
       * flight, so resend the first segment anyway (RFC 9293 3.8.6.1: keep      \
       * retransmitting to a zero window; it probes the window, and the          \
       * retry limit still applies). */                                          \
      uint32_t n = (c)->snd_buf_len < (c)->mss ? (c)->snd_buf_len : (c)->mss;    \
      tcp_emit_buf((c), (c)->snd_una, n, TCP_ACK);                               \
      (c)->snd_nxt += n;                                                         \
      if (TCP_SEQ_GT((c)->snd_nxt, (c)->snd_max)) {                              \
        (c)->snd_max = (c)->snd_nxt; /* more than was in flight: new data */     \
      }                                                                          \
    }                                                                            \
  } while (0)

/* tcp_timer_conns(): 1 if nothing is in flight (the poll timer may poll). */
#define TCP_SND_IDLE(c) ((c)->snd_una == (c)->snd_max)

#endif /* TCP_SEND_BUF_H */
