/*
 * net_tcpsink - TCP discard server (default port 5001). Accepts
 * connections, discards the data, counts bytes, checks the simulated
 * host's stream pattern (byte at offset i = i mod 251) when FW_PF_VERIFY
 * (verify.h: word compares, every wrong byte counted),
 * and closes when the peer closes. With FW_PF_HOLD it keeps each segment
 * in the driver's buffer (tcp_recv_hold) and checks and gives it back only
 * when SINK_KEEP later ones are kept (deferred consumption; the data must
 * still be intact then). With FW_PF_SIMCHECK it hands each piece it
 * consumes to the simulator's stream checker instead (bsp/streamcheck.h:
 * three stores per piece, every byte compared in zero simulated time), so
 * the goodput is the stack's with all data checked. The advertised window is
 * fw_params.window (default NET_TCP_RCV_WND = 1460). Stops after
 * fw_params.count connections have closed (default 1) and their close
 * handshakes are complete, or idle_ms
 * (default 5000) without a frame once traffic has started.
 * One result line per connection (type "conn") plus a summary; the
 * summary's max_open is the most connections open at the same time.
 */
#include "bsp.h"
#include "fwlibc.h"
#include "netapp.h"
#include "streamcheck.h"
#include "verify.h"

#define MAX_CONNS NET_TCP_CONNS

struct sink {
  int used;
  uint32_t id, bytes, bad, segs, kept, start_us, last_us;
};

/* FW_PF_HOLD: segments kept, oldest first (a ring). */
#define SINK_KEEP 4
struct kept {
  int handle;
  struct sink *s;
  uint32_t off; /* stream offset of its first byte */
};
static struct kept keep[SINK_KEEP];
static unsigned keep_first, keep_n;

static struct sink sinks[MAX_CONNS];
static uint32_t accepted, closed, aborted, total_bytes, total_bad;
/* Connections holding a sink slot now, and the most at any one time. */
static uint32_t open_now, max_open;

/* Finished connections, printed at the end (the UART is slow: printing
 * inside the callback would delay our ACK of the peer's FIN). */
#define MAX_FINISHED 32
static struct sink finished[MAX_FINISHED];
static const char *finished_how[MAX_FINISHED];
static unsigned nfinished;

/* What checks a consumed piece: sink_verify, sink_simcheck or nothing
 * (start() chooses from the flags). */
static uint32_t (*sink_take)(uint32_t id, const uint8_t *d, unsigned n, uint32_t off);

/* Check (sink_take) and give back the oldest kept segment. */
static void keep_release(void) {
  struct kept *k = &keep[keep_first];
  uint16_t len;
  const uint8_t *d = tcp_recv_kept(k->handle, &len);
  if (sink_take) k->s->bad += d ? sink_take(k->s->id, d, len, k->off) : 1;
  tcp_recv_done(k->handle);
  keep_first = (keep_first + 1) % SINK_KEEP;
  keep_n--;
}

/* FW_PF_HOLD: keep the segment being delivered (tcp_recv_hold). When it
 * cannot be kept, it is consumed now, so what is still kept is consumed
 * first: the sink consumes the stream in order (the stream checker
 * requires it; verify.h would not). Out of line: appcall stays small. */
static __attribute__((noinline)) int sink_hold(struct tcp_conn *c) {
  int h = tcp_recv_hold(c);
  if (!h)
    while (keep_n) keep_release();
  return h;
}

static void finish(struct sink *s, const char *how) {
  while (keep_n) /* what is still kept (of any connection) */
    keep_release();
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
  result_u("kept", s->kept);
  result_u("us", us);
  result_u("goodput_bps", us ? (uint32_t)((uint64_t)s->bytes * 8000000u / us) : 0);
  result_end();
}

/* The wrong bytes of d[0..n), stream offset `off` (FW_PF_VERIFY; verify.h:
 * exact, word-wise). Out of line: appcall stays small, and the linker
 * script places this next to it (leon3.ld, the "rx" block). */
static __attribute__((noinline)) uint32_t sink_verify(uint32_t id, const uint8_t *d, unsigned n,
                                                      uint32_t off) {
  (void)id;
  return sink_check(d, n, off);
}

/* FW_PF_SIMCHECK: the piece goes to the simulator's stream checker (its
 * verdict is in --stats, not here), and to sink_verify() too with
 * FW_PF_VERIFY. */
static __attribute__((noinline)) uint32_t sink_simcheck(uint32_t id, const uint8_t *d, unsigned n,
                                                        uint32_t off) {
  STREAM_CHECK(id, d, n);
  return netapp_p.flags & FW_PF_VERIFY ? sink_verify(id, d, n, off) : 0;
}

static void appcall(struct tcp_conn *c, unsigned ev) {
  struct sink *s = c->arg;
  unsigned i;

  if (ev & NET_EV_CONNECTED) {
    s = 0;
    for (i = 0; i < MAX_CONNS; i++)
      if (!sinks[i].used) {
        s = &sinks[i];
        break;
      }
    if (!s) {
      tcp_abort(c);
      return;
    }
    memset(s, 0, sizeof(*s));
    s->used = 1;
    s->id = accepted++;
    s->start_us = s->last_us = tick_us();
    c->arg = s;
    if (++open_now > max_open) max_open = open_now;
  }
  if (!s) return;
  if (ev & NET_EV_NEWDATA) {
    const uint8_t *d = tcp_appdata;
    unsigned n = tcp_applen;
    int h = 0;
    s->segs++;
    s->last_us = tick_us();
    if (netapp_p.flags & FW_PF_HOLD) h = sink_hold(c);
    if (h) { /* checked when given back */
      if (keep_n == SINK_KEEP) keep_release();
      keep[(keep_first + keep_n++) % SINK_KEEP] = (struct kept){h, s, s->bytes};
      s->kept++;
    } else if (sink_take) {
      s->bad += sink_take(s->id, d, n, s->bytes);
    }
    s->bytes += n;
  }
  if (ev & NET_EV_CLOSED) {
    s->last_us = tick_us();
    tcp_close(c);
    closed++;
    finish(s, "closed");
    c->arg = 0;
  } else if (ev & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) {
    aborted++;
    finish(s, ev & NET_EV_ABORTED ? "aborted" : "timedout");
  }
}

static void start(void) {
  if (netapp_p.flags & FW_PF_SIMCHECK)
    sink_take = sink_simcheck;
  else if (netapp_p.flags & FW_PF_VERIFY)
    sink_take = sink_verify;
  if (tcp_listen(netapp_p.port, appcall, 0) != NET_OK)
    printf("{\"app\":\"net_tcpsink\",\"type\":\"error\",\"what\":\"tcp_listen\"}\n");
}

static int done(void) {
  /* Linger until every close handshake is complete (tcp_all_closed). */
  return netapp_p.count && closed + aborted >= netapp_p.count && tcp_all_closed();
}

static void report(void) {
  unsigned i;

  for (i = 0; i < nfinished; i++) conn_report(&finished[i], finished_how[i]);
  result_begin("result");
  result_u("window", tcp_get_rcv_wnd());
  result_u("accepted", accepted);
  result_u("closed", closed);
  result_u("aborted", aborted);
  result_u("max_open", max_open);
  result_u("bytes", total_bytes);
  result_u("bad", total_bad);
  result_u("expected", netapp_p.bytes);
  result_u("ok", (!netapp_p.bytes || total_bytes == netapp_p.bytes * closed) && !total_bad && !aborted);
  result_end();
}

static const struct netapp app = {.name = "net_tcpsink",
                                  .default_port = 5001,
                                  .default_count = 1,
                                  .default_idle_ms = 5000,
                                  .start = start,
                                  .done = done,
                                  .report = report,
                                  .default_conn_idle_ms = 30000};

int main(void) { return netapp_run(&app); }
