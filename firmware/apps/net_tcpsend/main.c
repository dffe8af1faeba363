/*
 * net_tcpsend - TCP sender: connects to the host (fw_params.peer_ip, port
 * default 5002, a scenario "tcp_recv" experiment) and sends fw_params.bytes
 * (default 100000) of the stream pattern (byte i = i mod 251): by
 * reference (tcp_send_ref, one MSS per reference, from a constant buffer:
 * nothing copied) or, with NET_TCP_SNDREFS 0, into the stack's send buffer,
 * as room allows (NET_EV_ACKED), closing as soon as the last byte is queued
 * (the FIN follows the data); with NET_TCP_UIP_SEND one
 * segment of tcp_sndmax() bytes at a time (on NET_EV_REXMIT the same bytes
 * go again), closing once everything is acknowledged. The time is taken
 * from the connect to the acknowledgment of the last byte. Repeats for
 * fw_params.count connections (default 1), one after the other. Stops
 * when the last connection is closed, or idle_ms (default 5000).
 */
#include "bsp.h"
#include "fwlibc.h"
#include "netapp.h"

/* The pattern from offset 0, NET_TCP_MSS + 4 * 251 bytes: any stream offset
 * k mod 251 appears at k, k + 251, k + 502 and k + 753, one at each
 * address mod 4 (251 = 3 mod 4), so tcp_send_ref() can always pick the one
 * with the frame payload's alignment (word copy). 2464 bytes: within the
 * 4 KiB D-cache. */
#define PATTERN_LEN (NET_TCP_MSS + 4 * 251)
static uint8_t pattern[PATTERN_LEN] __attribute__((aligned(8)));
static uint32_t sent, acked, inflight, conns_done, conns_started, rexmits, failed;
static uint32_t t_start, t_acked, t_total_us, total_bytes;
static int closing, active;

static void appcall(struct tcp_conn *c, unsigned ev);

static void open_next(void) {
  sent = acked = inflight = t_acked = 0;
  closing = 0;
  active = 1;
  conns_started++;
  t_start = tick_us();
  if (!tcp_connect(netapp_p.peer_ip, netapp_p.port, appcall, 0)) {
    failed++;
    active = 0;
  }
}

#if !NET_TCP_UIP_SEND
/* The pattern from stream offset `at` on (NET_TCP_MSS bytes valid), at an
 * address 2 more than `at` mod 4, like the payload in the frame (offset
 * 54): the stack's copy into the frame then runs on aligned words. */
static const uint8_t *pattern_at(uint32_t at) {
  uint32_t k = at % 251u;
  while (((uintptr_t)(pattern + k) & 3u) != ((at + 2u) & 3u)) k += 251u;
  return pattern + k;
}

/* Queue the stream (NET_TCP_SNDREFS: references into the constant pattern,
 * nothing copied; else copies into the send buffer); close once the last
 * byte is queued. */
static void push(struct tcp_conn *c, int resend) {
  (void)resend;
  while (sent < netapp_p.bytes) {
    uint32_t len = netapp_p.bytes - sent;
    int n;
    if (len > NET_TCP_MSS) len = NET_TCP_MSS; /* pattern_at() guarantees MSS bytes */
#if NET_TCP_SNDREFS
    n = tcp_send_ref(c, pattern_at(sent), len);
#else
    n = tcp_send(c, pattern_at(sent), len);
#endif
    if (n <= 0) return;
    sent += (uint32_t)n;
  }
  if (!closing) {
    closing = 1;
    tcp_close(c);
  }
}
#else
static void push(struct tcp_conn *c, int resend) {
  uint32_t len;

  if (resend) {
    if (inflight) tcp_send(c, pattern + (acked % 251u), inflight);
    return;
  }
  if (inflight || acked >= netapp_p.bytes) return;
  len = tcp_sndmax(c);
  if (len > netapp_p.bytes - acked) len = netapp_p.bytes - acked;
  if (!len) return;
  inflight = len;
  sent += len;
  tcp_send(c, pattern + (acked % 251u), len);
}
#endif

static void conn_end(void) {
  conns_done++;
  total_bytes += acked;
  t_total_us += t_acked - t_start;
  active = 0;
}

static void appcall(struct tcp_conn *c, unsigned ev) {
  if (ev & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) {
    failed++;
    conn_end();
    return;
  }
#if !NET_TCP_UIP_SEND
  if (ev & NET_EV_ACKED) {
    acked = sent - tcp_unacked(c);
    if (acked >= netapp_p.bytes && !t_acked) t_acked = tick_us();
  }
#else
  if (ev & NET_EV_ACKED) {
    acked += inflight;
    inflight = 0;
    if (acked >= netapp_p.bytes && !closing) {
      t_acked = tick_us();
      closing = 1;
      tcp_close(c);
      return;
    }
  }
#endif
  if (ev & NET_EV_REXMIT) rexmits++;
  if (ev & NET_EV_CLOSED) {
    /* The peer closed too: nothing more to send on this connection. */
    if (!t_acked) t_acked = tick_us();
    if (!closing) {
      closing = 1;
      tcp_close(c);
    }
    conn_end();
    return;
  }
  if (!closing) push(c, (ev & NET_EV_REXMIT) != 0);
}

static void start(void) {
  unsigned i;

  for (i = 0; i < sizeof(pattern); i++) pattern[i] = (uint8_t)(i % 251u);
  /* NET_TCP_SNDREFS: the stack sends straight from `pattern`, which never
   * changes again (tcp_send_ref()'s rule). */
  if (!netapp_p.bytes) netapp_p.bytes = 100000;
  open_next();
  /* The idle timer only runs once a frame has been received. */
}

static int done(void) {
  if (!active && conns_started < netapp_p.count && !failed) open_next();
  return !active && (conns_started >= netapp_p.count || failed);
}

static void report(void) {
  result_begin("result");
  result_u("connections", conns_done);
  result_u("failed", failed);
  result_u("bytes", total_bytes);
  result_u("rexmit_events", rexmits);
  result_u("us", t_total_us);
  result_u("goodput_bps", t_total_us ? (uint32_t)((uint64_t)total_bytes * 8000000u / t_total_us) : 0);
  result_end();
}

static const struct netapp app = {.name = "net_tcpsend",
                                  .default_port = 5002,
                                  .default_count = 1,
                                  .default_idle_ms = 5000,
                                  .start = start,
                                  .done = done,
                                  .report = report};

int main(void) { return netapp_run(&app); }
