/*
 * tcp_send_uip.h - the declarations of the uIP-style send model
 * (tcp_send_uip.c): none beyond struct tcp_conn's fields (tcp.h). The unit
 * includes the send model's header first (tcp_unit.cmake, tcp_send_buf.h).
 */
#ifndef TCP_SEND_UIP_H
#define TCP_SEND_UIP_H

#include "net.h"

#if !NET_TCP_UIP_SEND
#error "tcp_send_uip.c is the send model of NET_TCP_UIP_SEND=1 (tcp_send_buf.c is the other)"
#endif

/* tcp_after_app(): send the application's data (tcp_send) or, with
 * nothing in flight, the FIN of its close request; return from
 * tcp_after_app() if a segment went out (it carried the ACK). Macros, not
 * functions, as in tcp_send_buf.c. */
#define TCP_SND_AFTER_APP(c, can_send)                                             \
  do {                                                                             \
    if ((c)->app_len > 0 && (can_send)) {                                          \
      unsigned len = (c)->app_len;                                                 \
      const uint8_t *data = (c)->app_data;                                         \
      int rexmit = (c)->snd_nxt != (c)->snd_una; /* only possible for REXMIT */    \
      (c)->app_len = 0;                                                            \
      (c)->snd_datalen = (uint16_t)len;                                            \
      (c)->snd_nxt = (c)->snd_una + len;                                           \
      (c)->rtx_ctl = 0;                                                            \
      if (!rexmit) {                                                               \
        tcp_start_timers(c, (c)->snd_nxt);                                         \
      }                                                                            \
      tcp_emit_conn(c, (c)->snd_una, TCP_ACK | TCP_PSH, data, len);                \
      return;                                                                      \
    }                                                                              \
    (c)->app_len = 0;                                                              \
    if (((c)->flags & TCPF_CLOSE_REQ) && (c)->snd_nxt == (c)->snd_una &&           \
        ((can_send) || (c)->state == TCP_SYN_RCVD)) {                              \
      (c)->state = ((c)->state == TCP_CLOSE_WAIT) ? TCP_LAST_ACK : TCP_FIN_WAIT_1; \
      (c)->flags &= (uint8_t)~TCPF_CLOSE_REQ;                                      \
      (c)->rtx_ctl = TCP_FIN;                                                      \
      (c)->snd_nxt = (c)->snd_una + 1;                                             \
      tcp_start_timers(c, (c)->snd_nxt);                                           \
      tcp_emit_conn(c, (c)->snd_una, TCP_FIN | TCP_ACK, NULL, 0);                  \
      return;                                                                      \
    }                                                                              \
                                                                                   \
  } while (0)

/* tcp_process(), an ACK in a synchronised state: one of data never sent
 * is dropped and answered (return); only an ACK of the whole segment
 * counts (after a partial one the whole segment is resent): ev |=
 * NET_EV_ACKED; return if our FIN was acknowledged and that freed the
 * connection. */
#define TCP_SND_ACK(c, s, ev)                                                 \
  do {                                                                        \
    if (TCP_SEQ_GT((s)->ack, (c)->snd_nxt)) { /* acks something never sent */ \
      net_stats.tcp.drop_bad_ack++;                                           \
      tcp_emit_conn(c, (c)->snd_nxt, TCP_ACK, NULL, 0);                       \
      return;                                                                 \
    }                                                                         \
    if ((s)->ack == (c)->snd_nxt && (c)->snd_una != (c)->snd_nxt) {           \
      int had_data = (c)->snd_datalen != 0;                                   \
      int fin_acked = ((c)->rtx_ctl & TCP_FIN) != 0;                          \
      tcp_all_acked(c, (s)->ack);                                             \
      if (had_data) {                                                         \
        (ev) |= NET_EV_ACKED;                                                 \
      }                                                                       \
      if (fin_acked && tcp_our_fin_acked(c)) {                                \
        return;                                                               \
      }                                                                       \
    }                                                                         \
                                                                              \
  } while (0)

/* tcp_retransmit(), the timer expired in a synchronised state (after the
 * backoff): the FIN again, or the application regenerates the data
 * (NET_EV_REXMIT). A macro, as in tcp_send_buf.c. */
#define TCP_SND_REXMIT(c)                                           \
  do {                                                              \
    if ((c)->rtx_ctl & TCP_FIN) {                                   \
      tcp_emit_conn((c), (c)->snd_una, TCP_FIN | TCP_ACK, NULL, 0); \
    } else if ((c)->snd_datalen) {                                  \
      tcp_appcall((c), NET_EV_REXMIT);                              \
      tcp_after_app((c), ACK_NONE);                                 \
    }                                                               \
  } while (0)

/* tcp_timer_conns(): 1 if nothing is in flight (the poll timer may poll). */
#define TCP_SND_IDLE(c) ((c)->snd_nxt == (c)->snd_una)

#endif /* TCP_SEND_UIP_H */
