/*
 * lwip_tcpsink - TCP bulk sink on lwIP's raw API (default port 5001);
 * net_tcpsink's counterpart with the same "conn" and "result" keys. Every
 * received pbuf is checked against the host's stream pattern (byte i = i
 * mod 251) with FW_PF_VERIFY (net_tcpsink's verify.h), or handed to the
 * simulator's stream checker with FW_PF_SIMCHECK, then acknowledged to
 * lwIP (tcp_recved) and freed. FW_PF_HOLD (keeping segments) is not
 * supported here: lwIP holds pbufs, not the driver's buffers. Stops after
 * fw_params.count connections (default 1) have closed and every close
 * handshake is complete, or idle_ms (default 5000) without a frame.
 */
#include "lwip/tcp.h"
#include "lwipapp.h"
#include "net_phase.h"
#include "streamcheck.h"
#include "verify.h"

#define MAX_CONNS 10

struct sink {
  int used;
  uint32_t id, bytes, bad, segs, start_us, last_us;
};

static struct sink sinks[MAX_CONNS];
static uint32_t accepted, closed, aborted, total_bytes, total_bad, open_now, max_open;

/* Finished connections, printed at the end (the UART is slow). */
#define MAX_FINISHED 32
static struct sink finished[MAX_FINISHED];
static const char *finished_how[MAX_FINISHED];
static unsigned nfinished;

static void finish(struct sink *s, const char *how) {
  total_bytes += s->bytes;
  total_bad += s->bad;
  open_now--;
  if (nfinished < MAX_FINISHED) {
    finished[nfinished] = *s;
    finished_how[nfinished++] = how;
  }
  s->used = 0;
}

static void conn_report(const struct sink *s, const char *how) {
  uint32_t us = s->last_us - s->start_us;

  result_begin("conn");
  result_u("id", s->id);
  result_s("end", how);
  result_u("bytes", s->bytes);
  result_u("bad", s->bad);
  result_u("segments", s->segs);
  result_u("kept", 0);
  result_u("us", us);
  result_u("goodput_bps", us ? (uint32_t)((uint64_t)s->bytes * 8000000u / us) : 0);
  result_end();
}

/* Check one piece of stream `s` at its current offset. */
static void take(struct sink *s, const uint8_t *d, unsigned n) {
  if (lwipapp_p.flags & FW_PF_SIMCHECK) {
    STREAM_CHECK(s->id, d, n);
  } else if (lwipapp_p.flags & FW_PF_VERIFY) {
    s->bad += sink_check(d, n, s->bytes % 251u);
  }
  s->bytes += n;
}

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err) {
  struct sink *s = arg;
  struct pbuf *q;

  (void)err;
  NET_PHASE_ENTER(NET_PH_APP);
  s->last_us = tick_us();
  if (!p) { /* the peer closed */
    tcp_arg(pcb, NULL);
    tcp_recv(pcb, NULL);
    tcp_err(pcb, NULL);
    tcp_close(pcb);
    closed++;
    finish(s, "closed");
  } else {
    s->segs++;
    for (q = p; q; q = q->next) take(s, q->payload, q->len);
    tcp_recved(pcb, p->tot_len);
    pbuf_free(p);
  }
  NET_PHASE_LEAVE(NET_PH_APP);
  return ERR_OK;
}

static void on_err(void *arg, err_t err) {
  aborted++;
  finish(arg, err == ERR_ABRT || err == ERR_RST ? "aborted" : "timedout");
}

static err_t on_accept(void *arg, struct tcp_pcb *pcb, err_t err) {
  unsigned i;

  (void)arg;
  if (err != ERR_OK || !pcb) return ERR_VAL;
  for (i = 0; i < MAX_CONNS; i++) {
    struct sink *s = &sinks[i];
    if (s->used) continue;
    memset(s, 0, sizeof(*s));
    s->used = 1;
    s->id = accepted++;
    s->start_us = s->last_us = tick_us();
    if (++open_now > max_open) max_open = open_now;
    tcp_arg(pcb, s);
    tcp_recv(pcb, on_recv);
    tcp_err(pcb, on_err);
    return ERR_OK;
  }
  tcp_abort(pcb);
  return ERR_ABRT;
}

static void start(void) { lwipapp_tcp_listen(on_accept); }

static int done(void) {
  return lwipapp_p.count && closed + aborted >= lwipapp_p.count && lwipapp_tcp_all_closed();
}

static void report(void) {
  unsigned i;

  for (i = 0; i < nfinished; i++) conn_report(&finished[i], finished_how[i]);
  result_begin("result");
  result_u("window", lwip_port_tcp_wnd);
  result_u("accepted", accepted);
  result_u("closed", closed);
  result_u("aborted", aborted);
  result_u("max_open", max_open);
  result_u("bytes", total_bytes);
  result_u("bad", total_bad);
  result_u("expected", lwipapp_p.bytes);
  result_u("ok", (!lwipapp_p.bytes || total_bytes == lwipapp_p.bytes * closed) && !total_bad && !aborted);
  result_end();
}

static const struct lwipapp app = {.name = "lwip_tcpsink",
                                   .default_port = 5001,
                                   .default_count = 1,
                                   .default_idle_ms = 5000,
                                   .start = start,
                                   .done = done,
                                   .report = report};

int main(void) { return lwipapp_run(&app); }
