/*
 * net_tcpecho - TCP echo server (default port 7). Received data is kept in
 * a per-connection ring buffer and handed to the stack's send buffer as
 * room allows (with NET_TCP_UIP_SEND: sent back one segment at a time, the
 * stack keeping one segment in flight and no retransmission buffer, so on
 * NET_EV_REXMIT the same bytes are sent again). When the peer closes, the
 * rest is echoed, then the connection is closed. The advertised window
 * never exceeds the free space of the ring (tcp_set_rcv_space), so
 * nothing acknowledged is ever dropped. Data starting with
 * "quit" at the start of a connection stops the program once that
 * connection has closed. Also stops after fw_params.count connections
 * (default 1) have closed and every close handshake is complete, or after
 * idle_ms (default 5000) without a frame. At most MAX_CONNS connections
 * (tcp_listen_limit): a new peer beyond them evicts the one idle longest
 * (at least evict_idle_ms, default 1 s), and a connection idle for
 * conn_idle_ms (default 30 s) is reset (firmware/net/README.md "Slot
 * policy"); either ends it like a reset (it counts as finished).
 */
#include "bsp.h"
#include "fwlibc.h"
#include "netapp.h"

#define MAX_CONNS 4
#define RING 16384u

struct echo {
  int used, peer_closed, quit;
  uint32_t head, tail; /* ring: [tail, head) buffered, tail..+inflight sent */
  uint32_t inflight;
  uint32_t rx, tx, overflow;
  uint8_t buf[RING];
};

static struct echo echos[MAX_CONNS];
static uint32_t accepted, finished, total_rx, total_tx, total_overflow, quit;

static void finish(struct echo *e) {
  total_rx += e->rx;
  total_tx += e->tx;
  total_overflow += e->overflow;
  if (e->quit) quit = 1;
  e->used = 0;
  finished++;
}

#if !NET_TCP_UIP_SEND
/* Hand the ring's contents to the stack's send buffer (it copies what fits
 * and retransmits by itself): the ring space is free at once. */
static void push(struct tcp_conn *c, struct echo *e, int resend) {
  (void)resend;
  while (e->head != e->tail) {
    uint32_t off = e->tail % RING, len = e->head - e->tail;
    int n;
    if (len > RING - off) len = RING - off;
    n = tcp_send(c, e->buf + off, len);
    if (n <= 0) break;
    e->tail += (uint32_t)n;
    e->tx += (uint32_t)n;
  }
}
#else
/* Send (or resend) the next contiguous piece of the ring. */
static void push(struct tcp_conn *c, struct echo *e, int resend) {
  uint32_t avail, len, off;

  if (!resend) {
    if (e->inflight) return;
    avail = e->head - e->tail;
    if (!avail) return;
    len = tcp_sndmax(c);
    if (!len) return;
    off = e->tail % RING;
    if (len > avail) len = avail;
    if (len > RING - off) len = RING - off;
    e->inflight = len;
  }
  if (e->inflight) tcp_send(c, e->buf + e->tail % RING, e->inflight);
}
#endif

static void appcall(struct tcp_conn *c, unsigned ev) {
  struct echo *e = c->arg;
  unsigned i;

  if (ev & NET_EV_CONNECTED) {
    e = 0;
    for (i = 0; i < MAX_CONNS; i++)
      if (!echos[i].used) {
        e = &echos[i];
        break;
      }
    if (!e) {
      tcp_abort(c);
      return;
    }
    memset(e, 0, sizeof(*e) - RING);
    e->used = 1;
    accepted++;
    c->arg = e;
  }
  if (!e) return;
  if (ev & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) {
    finish(e);
    return;
  }
  if (ev & NET_EV_ACKED) {
    e->tail += e->inflight;
    e->tx += e->inflight;
    e->inflight = 0;
  }
  if (ev & NET_EV_NEWDATA) {
    const uint8_t *d = tcp_appdata;
    uint32_t n = tcp_applen, k;
    if (e->rx == 0 && n >= 4 && memcmp(d, "quit", 4) == 0) e->quit = 1;
    e->rx += n;
    for (k = 0; k < n; k++) {
      if (e->head - e->tail == RING) {
        e->overflow += n - k;
        break;
      }
      e->buf[e->head++ % RING] = d[k];
    }
  }
  if (ev & NET_EV_CLOSED) e->peer_closed = 1;
  push(c, e, (ev & NET_EV_REXMIT) != 0);
  /* Flow control: never advertise more than the ring can take, so data
   * the stack acknowledges is never dropped (overflow stays 0). */
  tcp_set_rcv_space(c,
                    (uint16_t)(RING - (e->head - e->tail) > 0xffffu ? 0xffffu : RING - (e->head - e->tail)));
  if (e->peer_closed && !e->inflight && e->head == e->tail) {
    tcp_close(c);
    c->arg = 0;
    finish(e);
  }
}

static void start(void) {
  if (tcp_listen(netapp_p.port, appcall, 0) != NET_OK)
    printf("{\"app\":\"net_tcpecho\",\"type\":\"error\",\"what\":\"tcp_listen\"}\n");
  /* No more connections than echo slots: a fifth peer evicts the one idle
   * longest (firmware/net/README.md "Slot policy") instead of being reset. */
  tcp_listen_limit(netapp_p.port, MAX_CONNS);
}

static int done(void) {
  /* Linger until every close handshake is complete (tcp_all_closed). */
  return (quit || (netapp_p.count && finished >= netapp_p.count)) && tcp_all_closed();
}

static void report(void) {
  result_begin("result");
  result_u("accepted", accepted);
  result_u("finished", finished);
  result_u("rx_bytes", total_rx);
  result_u("tx_bytes", total_tx);
  result_u("overflow", total_overflow);
  result_u("quit", quit);
  result_end();
}

static const struct netapp app = {.name = "net_tcpecho",
                                  .default_port = 7,
                                  .default_count = 1,
                                  .default_idle_ms = 5000,
                                  .start = start,
                                  .done = done,
                                  .report = report,
                                  .default_conn_idle_ms = 30000};

int main(void) { return netapp_run(&app); }
