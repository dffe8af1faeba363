/*
 * net_hello - a protosocket server (firmware/net/psock.h) on TCP port
 * fw_params.port (default 4242). Per connection it sends the greeting
 * HELLO_GREETING, reads one line (up to '\n', at most 63 bytes), answers
 * "Hello <name>\n" (the line without its '\n' or "\r\n") and closes.
 * Up to NET_TCP_CONNS sessions run at the same time, each its own
 * protothread. Stops after fw_params.count sessions have ended (default
 * 1) or idle_ms (default 5000) without a frame once traffic has started.
 *
 * Result line: accepted, answered (reply sent and acknowledged), closed,
 * aborted (reset or timed out), discarded (input bytes after the line),
 * name_bytes, and last_name (the last name answered, printable ASCII only).
 */
#include "bsp.h"
#include "fwlibc.h"
#include "netapp.h"
#include "psock.h"

#define HELLO_GREETING "leon3vp hello server. Your name?\n"
#define NAME_MAX 63

struct session {
  struct psock ps;
  uint8_t buf[NAME_MAX + 1];
  char reply[6 + NAME_MAX + 2];
  int active;
  int finished; /* the thread ran to its end (PT_END would restart it) */
};

static struct session sessions[NET_TCP_CONNS];
static uint32_t accepted, answered, closed, aborted, discarded, name_bytes;
static char last_name[NAME_MAX + 1];

static PT_THREAD(hello_thread(struct session *s)) {
  unsigned n;

  PSOCK_BEGIN(&s->ps);
  PSOCK_SEND_STR(&s->ps, HELLO_GREETING);
  PSOCK_READTO(&s->ps, '\n');
  n = PSOCK_DATALEN(&s->ps);
  if (n && s->buf[n - 1] == '\n') n--;
  if (n && s->buf[n - 1] == '\r') n--;
  memcpy(s->reply, "Hello ", 6);
  memcpy(s->reply + 6, s->buf, n);
  s->reply[6 + n] = '\n';
  s->reply[7 + n] = '\0';
  name_bytes += n;
  PSOCK_SEND_STR(&s->ps, s->reply);
  /* Sent and acknowledged (a reset ends the session before this). */
  answered++;
  n = strlen(s->reply) - 7;
  memcpy(last_name, s->reply + 6, n);
  last_name[n] = '\0';
  PSOCK_CLOSE(&s->ps);
  PSOCK_END(&s->ps);
}

static void end_session(struct session *s, int ok) {
  if (!s->active) return;
  s->active = 0;
  discarded += s->ps.discarded + s->ps.inleft;
  if (ok)
    closed++;
  else
    aborted++;
}

static void appcall(struct tcp_conn *c, unsigned ev) {
  struct session *s = &sessions[c - tcp_conns];

  if (ev & NET_EV_CONNECTED) {
    memset(s, 0, sizeof(*s));
    s->active = 1;
    accepted++;
    PSOCK_INIT(&s->ps, c, s->buf, NAME_MAX);
  }
  if (!s->active) return;
  if (ev & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) {
    end_session(s, 0); /* the slot is already free */
    return;
  }
  psock_feed(&s->ps, ev);
  if (!s->finished && hello_thread(s) >= PT_EXITED) s->finished = 1;
  /* The peer's FIN after ours (or before it): the connection is closing
   * and the session is over. */
  if (ev & NET_EV_CLOSED) end_session(s, 1);
}

static void start(void) {
  if (tcp_listen(netapp_p.port, appcall, 0) != NET_OK)
    printf("{\"app\":\"net_hello\",\"type\":\"error\",\"what\":\"tcp_listen\"}\n");
}

static int done(void) { return netapp_p.count && closed + aborted >= netapp_p.count; }

static void report(void) {
  unsigned i;

  for (i = 0; last_name[i]; i++)
    if (last_name[i] < 0x20 || last_name[i] > 0x7e || last_name[i] == '"' || last_name[i] == '\\')
      last_name[i] = '?'; /* keep the JSON line valid */
  result_begin("result");
  result_u("accepted", accepted);
  result_u("answered", answered);
  result_u("closed", closed);
  result_u("aborted", aborted);
  result_u("discarded", discarded);
  result_u("name_bytes", name_bytes);
  result_s("last_name", last_name);
  result_end();
}

static const struct netapp app = {.name = "net_hello",
                                  .default_port = 4242,
                                  .default_count = 1,
                                  .default_idle_ms = 5000,
                                  .start = start,
                                  .done = done,
                                  .report = report,
                                  .default_conn_idle_ms = 30000};

int main(void) { return netapp_run(&app); }
