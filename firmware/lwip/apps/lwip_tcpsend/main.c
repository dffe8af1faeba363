/*
 * lwip_tcpsend - TCP sender on lwIP's raw API; net_tcpsend's counterpart
 * with the same result keys. Connects to the host (fw_params.peer_ip, port
 * default 5002, a scenario "tcp_recv" experiment) and sends fw_params.bytes
 * (default 100000) of the stream pattern (byte i = i mod 251), copied into
 * lwIP's send buffer as room allows (tcp_write with TCP_WRITE_FLAG_COPY,
 * more from the sent callback), closing as soon as the last byte is queued
 * (the FIN follows the data). The time runs from the connect to the
 * acknowledgment of the last byte. Repeats for fw_params.count connections
 * (default 1), one after the other. rexmit_events counts lwIP's
 * retransmitted segments (MIB-II tcpRetransSegs). fw_params.window sets
 * lwIP's send buffer (TCP_SND_BUF: how much may be unacknowledged, the
 * "send window" of seed 002's lwIP measurements; 536..16384, default
 * 4 * MSS); a sender has no use for an advertised receive window.
 */
#include "lwip/stats.h"
#include "lwip/tcp.h"
#include "lwipapp.h"

/* Any stream offset k mod 251 followed by a full segment: 251 + MSS bytes. */
#define PATTERN_LEN (251 + TCP_MSS)
static uint8_t pattern[PATTERN_LEN] __attribute__((aligned(8)));
static uint32_t sent, acked, conns_done, conns_started, failed;
static uint32_t t_start, t_acked, t_total_us, total_bytes;
static int closing, active;
static struct tcp_pcb *cur;

static void conn_end(void) {
  conns_done++;
  total_bytes += acked;
  t_total_us += t_acked - t_start;
  active = 0;
  cur = NULL;
}

/* Queue as much of the stream as lwIP takes; close after the last byte. */
static void push(struct tcp_pcb *pcb) {
  while (sent < lwipapp_p.bytes) {
    uint32_t len = lwipapp_p.bytes - sent;
    if (len > TCP_MSS) len = TCP_MSS;
    if (len > tcp_sndbuf(pcb)) len = tcp_sndbuf(pcb);
    if (!len || tcp_write(pcb, pattern + sent % 251u, (u16_t)len, TCP_WRITE_FLAG_COPY) != ERR_OK) break;
    sent += len;
  }
  if (sent >= lwipapp_p.bytes && !closing && tcp_close(pcb) == ERR_OK)
    closing = 1;
  else
    tcp_output(pcb);
}

static err_t on_sent(void *arg, struct tcp_pcb *pcb, u16_t len) {
  (void)arg;
  acked += len;
  if (acked >= lwipapp_p.bytes && !t_acked) t_acked = tick_us();
  if (!closing) push(pcb);
  return ERR_OK;
}

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err) {
  (void)arg;
  (void)err;
  if (p) { /* the host sends nothing: discard */
    tcp_recved(pcb, p->tot_len);
    pbuf_free(p);
    return ERR_OK;
  }
  /* The peer closed too: nothing more to send on this connection. */
  if (!t_acked) t_acked = tick_us();
  tcp_recv(pcb, NULL);
  tcp_sent(pcb, NULL);
  tcp_err(pcb, NULL);
  if (!closing) tcp_close(pcb);
  conn_end();
  return ERR_OK;
}

static void on_err(void *arg, err_t err) {
  (void)arg;
  (void)err;
  failed++;
  conn_end();
}

static err_t on_connected(void *arg, struct tcp_pcb *pcb, err_t err) {
  (void)arg;
  (void)err;
  push(pcb);
  return ERR_OK;
}

static void open_next(void) {
  ip_addr_t peer;

  sent = acked = t_acked = 0;
  closing = 0;
  active = 1;
  conns_started++;
  t_start = tick_us();
  ip_addr_set_ip4_u32(&peer, lwip_htonl(lwipapp_p.peer_ip));
  cur = tcp_new();
  if (!cur) {
    failed++;
    active = 0;
    return;
  }
  tcp_sent(cur, on_sent);
  tcp_recv(cur, on_recv);
  tcp_err(cur, on_err);
  if (tcp_connect(cur, &peer, lwipapp_p.port, on_connected) != ERR_OK) {
    tcp_abort(cur);
    failed++;
    active = 0;
    cur = NULL;
  }
}

static void start(void) {
  unsigned i;

  for (i = 0; i < sizeof(pattern); i++) pattern[i] = (uint8_t)(i % 251u);
  if (!lwipapp_p.bytes) lwipapp_p.bytes = 100000;
  lwip_port_tcp_sndbuf = lwipapp_p.window < 536u     ? 536u
                         : lwipapp_p.window > 16384u ? 16384u
                                                     : lwipapp_p.window;
  open_next();
}

static int done(void) {
  if (!active && conns_started < lwipapp_p.count && !failed) open_next();
  return !active && (conns_started >= lwipapp_p.count || failed) && lwipapp_tcp_all_closed();
}

static void report(void) {
  result_begin("result");
  result_u("connections", conns_done);
  result_u("failed", failed);
  result_u("bytes", total_bytes);
  result_u("rexmit_events", lwip_stats.mib2.tcpretranssegs);
  result_u("sndbuf", lwip_port_tcp_sndbuf);
  result_u("us", t_total_us);
  result_u("goodput_bps", t_total_us ? (uint32_t)((uint64_t)total_bytes * 8000000u / t_total_us) : 0);
  result_end();
}

static const struct lwipapp app = {.name = "lwip_tcpsend",
                                   .default_port = 5002,
                                   .default_count = 1,
                                   .default_idle_ms = 5000,
                                   .start = start,
                                   .done = done,
                                   .report = report};

int main(void) { return lwipapp_run(&app); }
