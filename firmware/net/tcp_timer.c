/*
 * tcp_timer.c - the timers of the connections (net_timer_tick calls
 * tcp_timer): retransmission with exponential backoff (RFC 6298), TIME-WAIT,
 * half-open expiry, delayed ACKs, the poll event, and the slow timer's
 * idle timeout and keep-alive (README.md "Slot policy"). The send model's
 * own timers (persist, loss probe) are in tcp_send_buf.c. Part of the TCP
 * unit (tcp_priv.h).
 */
#include "tcp_priv.h"

/* Keep-alive (RFC 1122 4.2.3.6) of c: only with nothing in flight (else
 * the retransmission or persist timer watches the peer), in ESTABLISHED,
 * CLOSE_WAIT or FIN_WAIT_2. A probe is an ACK one below SND.NXT without
 * data, which a live peer answers with an ACK (tcp_process: ka_sent 0). */
TCP_COLD static void tcp_keepalive(struct tcp_conn *c) {
  int quiet = tcp_snd_quiet(c);
  if (!quiet || (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT && c->state != TCP_FIN_WAIT_2)) {
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
TCP_COLD static void tcp_slow_timer(void) {
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

/*--------------------------------------------------------------------------*/
/* Not inlined: rare work, kept out of tcp_timer_conns() (the hot-code
 * layout, firmware/net/port/fw-layout.ld, depends on its size). */
static __attribute__((noinline)) void tcp_retransmit(struct tcp_conn *c) {
  unsigned limit =
      (c->state == TCP_SYN_SENT || c->state == TCP_SYN_RCVD) ? NET_TCP_SYN_RETRIES : NET_TCP_MAX_RETRIES;
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
    TCP_SND_REXMIT(c);
  }
}

/* The timer work of the open connections: a function of its own (noinline),
 * so that the tick of a board without connections (ping, UDP) runs only the
 * few lines of tcp_timer() below, which leon3.ld places with the other hot
 * code, and not the inlined retransmission and output code in here
 * (CHANGELOG.md, the speed entries). */
static __attribute__((noinline)) void tcp_timer_conns(void) {
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
    if (c->state == TCP_SYN_RCVD && !(c->flags & TCPF_APP_KNOWS) && tcp_time_reached(c->poll_time)) {
      net_stats.tcp.syn_expired++; /* half-open too long: forget it */
      tcp_free(c);
      continue;
    }
    if ((c->flags & TCPF_TIMER) && tcp_time_reached(c->timer)) {
      tcp_retransmit(c);
      continue;
    }
    if ((c->flags & TCPF_TIMER) && tcp_snd_dupacks(c) != 0 && tcp_snd_loss_probe(c)) {
      continue;
    }
    if (tcp_snd_persisting(c) && tcp_time_reached(c->timer)) {
      tcp_snd_persist(c);
      continue;
    }
    if ((c->flags & TCPF_ACK_PENDING) && tcp_time_reached(c->ack_deadline)) {
      tcp_emit_conn(c, c->snd_nxt, TCP_ACK, NULL, 0);
    }
    if ((c->state == TCP_ESTABLISHED || c->state == TCP_CLOSE_WAIT) && TCP_SND_IDLE(c) &&
        tcp_time_reached(c->poll_time)) {
      c->poll_time = net_now + NET_TCP_POLL_MS;
      if (tcp_snd_poll_probe(c)) {
        /* Zero window: probe with an old sequence number, which the peer
         * must answer with an ACK carrying its current window. */
        tcp_emit_conn(c, c->snd_nxt - 1, TCP_ACK, NULL, 0);
      } else {
        tcp_appcall(c, NET_EV_POLL);
        tcp_after_app(c, ACK_NONE);
      }
    }
  }
}

void tcp_timer(void) {
  unsigned i;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    if (tcp_conns[i].state != TCP_CLOSED) {
      tcp_timer_conns();
      return;
    }
  }
}
