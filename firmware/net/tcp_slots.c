/*
 * tcp_slots.c - the slot policy of the connection table (README.md "Slot
 * policy"): idle time, the idle timeout's and keep-alive's settings
 * (tcp_set_policy; the timers are in tcp_timer.c), the listeners' limits
 * and which connection makes room for a new peer (half-open ones first,
 * then the passive one idle longest). Part of the TCP unit (tcp_priv.h).
 */
#include "tcp_priv.h"

/* SYN flood defence: free the oldest passive half-open connection (the
 * earliest SYN_RCVD deadline) for a new SYN, if it is at least
 * NET_TCP_SYN_EVICT_MS old: a younger one may be a real peer whose ACK is
 * still on its way (or waiting behind this SYN in the receive ring).
 * @return 1 if one was freed. */
static int tcp_evict_half_open(void) {
  struct tcp_conn *old = NULL;
  unsigned i;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    struct tcp_conn *c = &tcp_conns[i];
    if (c->state == TCP_SYN_RCVD && !(c->flags & TCPF_APP_KNOWS) &&
        (old == NULL || (int32_t)(c->poll_time - old->poll_time) < 0)) {
      old = c;
    }
  }
  if (old == NULL || !tcp_time_reached(old->poll_time - NET_TCP_SYN_RCVD_MS + NET_TCP_SYN_EVICT_MS)) {
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

TCP_COLD static void tcp_policy_init(void) {
  tcp_set_policy(NULL);
  tcp_slow_last = net_now;
}

void tcp_set_policy(const struct tcp_policy *p) {
  static const struct tcp_policy dflt = {
      NET_TCP_IDLE_MS,          NET_TCP_KEEPALIVE_MS,   NET_TCP_KEEPALIVE_INTVL_MS,
      NET_TCP_KEEPALIVE_PROBES, NET_TCP_PERSIST_MAX_MS, NET_TCP_EVICT_IDLE_MS};
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

void tcp_get_policy(struct tcp_policy *p) { *p = tcp_pol; }

uint32_t tcp_idle_ms(struct tcp_conn *c) {
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
TCP_COLD static struct tcp_conn *tcp_idlest(uint16_t port, const struct tcp_conn *skip, unsigned *n) {
  struct tcp_conn *best = NULL;
  uint32_t best_idle = 0;
  unsigned i, k = 0;
  for (i = 0; i < NET_TCP_CONNS; i++) {
    struct tcp_conn *c = &tcp_conns[i];
    uint32_t idle;
    if (c == skip || !(c->pflags & TCPP_PASSIVE) || c->state < TCP_ESTABLISHED || c->state == TCP_TIME_WAIT) {
      continue;
    }
    if (port != 0 && (c->lport != port || (c->state != TCP_ESTABLISHED && c->state != TCP_CLOSE_WAIT))) {
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
TCP_COLD static void tcp_evict(struct tcp_conn *c) {
  net_stats.tcp.idle_evicted++;
  tcp_emit_conn(c, c->snd_nxt, TCP_RST | TCP_ACK, NULL, 0);
  tcp_finish(c, NET_EV_ABORTED);
}

net_err_t tcp_listen_limit(uint16_t port, unsigned max) {
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
TCP_COLD static int tcp_listen_full(const struct tcp_listener *l) {
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
TCP_COLD static int tcp_listen_room(struct tcp_conn *c) {
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
TCP_COLD static struct tcp_conn *tcp_alloc_evict(uint32_t rip, uint16_t lport, uint16_t rport) {
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
