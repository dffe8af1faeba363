/*
 * lwip_tcpecho - TCP echo server on lwIP's raw API (default port 7);
 * net_tcpecho's counterpart with the same result keys. Received pbufs wait
 * in a per-connection chain and are copied into lwIP's send buffer as room
 * allows (tcp_write, then the sent callback pushes more); the window is
 * reopened (tcp_recved) only for bytes that went into the send buffer, so
 * nothing acknowledged is ever dropped. When the peer closes, the rest is
 * echoed, then the connection is closed. Data starting with "quit" stops
 * the program once that connection has closed; so do fw_params.count
 * connections (default 1) once every close handshake is complete, or
 * idle_ms (default 5000) without a frame.
 */
#include "lwip/tcp.h"
#include "lwipapp.h"
#include "net_phase.h"

#define MAX_CONNS 4

struct echo {
  int used, peer_closed, quit;
  struct pbuf *pending; /* received, not yet in the send buffer */
  uint32_t rx, tx;
};

static struct echo echos[MAX_CONNS];
static uint32_t accepted, finished, total_rx, total_tx, quit;

static void finish(struct echo *e) {
  total_rx += e->rx;
  total_tx += e->tx;
  if (e->quit) quit = 1;
  if (e->pending) pbuf_free(e->pending);
  memset(e, 0, sizeof(*e));
  finished++;
}

/* Copy what fits of the pending chain into the send buffer; close once the
 * peer has closed and everything went out. */
static void push(struct tcp_pcb *pcb, struct echo *e) {
  while (e->pending) {
    u16_t len = e->pending->len;
    if (len > tcp_sndbuf(pcb)) len = tcp_sndbuf(pcb);
    if (!len || tcp_write(pcb, e->pending->payload, len, TCP_WRITE_FLAG_COPY) != ERR_OK) break;
    e->tx += len;
    tcp_recved(pcb, len);
    e->pending = pbuf_free_header(e->pending, len);
  }
  tcp_output(pcb);
  if (e->peer_closed && !e->pending && tcp_close(pcb) == ERR_OK) {
    tcp_arg(pcb, NULL);
    tcp_recv(pcb, NULL);
    tcp_sent(pcb, NULL);
    tcp_err(pcb, NULL);
    finish(e);
  }
}

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err) {
  struct echo *e = arg;
  char head[4];

  (void)err;
  NET_PHASE_ENTER(NET_PH_APP);
  if (!p) {
    e->peer_closed = 1;
  } else {
    if (e->rx == 0 && p->tot_len >= 4 && pbuf_copy_partial(p, head, 4, 0) == 4 && !memcmp(head, "quit", 4))
      e->quit = 1;
    e->rx += p->tot_len;
    if (e->pending)
      pbuf_cat(e->pending, p);
    else
      e->pending = p;
  }
  push(pcb, e);
  NET_PHASE_LEAVE(NET_PH_APP);
  return ERR_OK;
}

static err_t on_sent(void *arg, struct tcp_pcb *pcb, u16_t len) {
  (void)len;
  push(pcb, arg);
  return ERR_OK;
}

static void on_err(void *arg, err_t err) {
  (void)err;
  finish(arg); /* the pcb is gone already */
}

static err_t on_accept(void *arg, struct tcp_pcb *pcb, err_t err) {
  unsigned i;

  (void)arg;
  if (err != ERR_OK || !pcb) return ERR_VAL;
  for (i = 0; i < MAX_CONNS; i++) {
    if (!echos[i].used) {
      echos[i].used = 1;
      accepted++;
      tcp_arg(pcb, &echos[i]);
      tcp_recv(pcb, on_recv);
      tcp_sent(pcb, on_sent);
      tcp_err(pcb, on_err);
      return ERR_OK;
    }
  }
  tcp_abort(pcb);
  return ERR_ABRT;
}

static void start(void) { lwipapp_tcp_listen(on_accept); }

static int done(void) {
  return (quit || (lwipapp_p.count && finished >= lwipapp_p.count)) && lwipapp_tcp_all_closed();
}

static void report(void) {
  result_begin("result");
  result_u("accepted", accepted);
  result_u("finished", finished);
  result_u("rx_bytes", total_rx);
  result_u("tx_bytes", total_tx);
  result_u("overflow", 0);
  result_u("quit", quit);
  result_end();
}

static const struct lwipapp app = {.name = "lwip_tcpecho",
                                   .default_port = 7,
                                   .default_count = 1,
                                   .default_idle_ms = 5000,
                                   .start = start,
                                   .done = done,
                                   .report = report};

int main(void) { return lwipapp_run(&app); }
