/*
 * net_pinger - ping client: sends fw_params.count echo requests (default
 * 10) with fw_params.bytes data bytes (default 56, at most 1472) to
 * fw_params.peer_ip, one every fw_params.window microseconds (0: default
 * 10000 us), and measures each reply's round trip on the board clock
 * (timer 2, 0.1 us). Another board (net_ping answers pings, so does every
 * other net_* program) or a simulated host can be the peer.
 *
 * Request k carries identifier 0x4c33, sequence number k and data byte
 * j = (k + j) mod 251; a reply counts when its identifier, sequence
 * number (one of the last 64 sent) and data match, else it is "bad". The
 * first request waits in the ARP queue while the peer's address is
 * resolved, so its round trip includes that exchange: it is reported
 * apart (first_rtt_ns) and left out of the min/avg/max of the others.
 * The program stops when every reply is in, or 100 ms after the last
 * request. Links with fw_net_icmpc, the stack with its ping client.
 *
 * Result line: sent, received, bad, lost, size, gap_us, first_rtt_ns,
 * rtt_min_ns, rtt_avg_ns, rtt_max_ns (of the received replies after the
 * first request).
 */
#include "bsp.h"
#include "fwlibc.h"
#include "netapp.h"

#define PING_ID 0x4c33u
#define MAX_SIZE 1472u
#define WINDOW 64u /* requests whose send times are kept */
#define TAIL_US 100000u

static uint32_t count, size, gap_us;
static uint32_t sent, received, bad, arp_queued, first_us, last_us;
static uint32_t first_rtt, rtt_min = 0xffffffffu, rtt_max, rtt_n;
static uint64_t rtt_sum;
static uint32_t sent_at[WINDOW]; /* tick_raw() at each request (a down-counter) */
static uint8_t answered[WINDOW]; /* whether that request's reply came */
static uint8_t data[MAX_SIZE] __attribute__((aligned(4)));

static void fill(uint32_t k) {
  uint32_t v = k % 251u, j;

  for (j = 0; j < size; j++) {
    data[j] = (uint8_t)v;
    if (++v == 251u) v = 0;
  }
}

static int data_ok(uint32_t k, const uint8_t *d, unsigned n) {
  uint32_t v = k % 251u, j;

  if (n != size) return 0;
  for (j = 0; j < n; j++) {
    if (d[j] != v) return 0;
    if (++v == 251u) v = 0;
  }
  return 1;
}

static void record(uint32_t k, uint32_t ticks) {
  uint32_t ns = ticks * (1000000000u / TICK_HZ);

  if (k == 0) {
    first_rtt = ns;
    return;
  }
  if (ns < rtt_min) rtt_min = ns;
  if (ns > rtt_max) rtt_max = ns;
  rtt_sum += ns;
  rtt_n++;
}

void icmp_echo_reply_in(uint32_t src, const uint8_t *msg, unsigned len) {
  uint32_t now = tick_raw(), k;

  if (src != netapp_p.peer_ip || len < 8 || net_get16(msg + 4) != PING_ID) {
    bad++;
    return;
  }
  /* the sequence number's low 16 bits: the request among the last WINDOW */
  k = sent - (uint16_t)(sent - net_get16(msg + 6));
  if (k >= sent || sent - k > WINDOW || answered[k % WINDOW] || !data_ok(k, msg + 8, len - 8)) {
    bad++;
    return;
  }
  answered[k % WINDOW] = 1;
  received++;
  record(k, sent_at[k % WINDOW] - now); /* timer 2 counts down */
}

static void start(void) {
  uint32_t w = fw_params.magic == FW_PARAMS_MAGIC ? fw_params.window : 0;

  count = netapp_p.count;
  size = netapp_p.bytes ? netapp_p.bytes : 56u;
  if (size > MAX_SIZE) size = MAX_SIZE;
  gap_us = w ? w : 10000u;
}

static int poll(void) {
  uint32_t now;
  net_err_t err;

  if (sent >= count) return 0;
  /* One request waits in the ARP queue; a second would replace it. */
  if (sent > 0 && arp_lookup(netapp_p.peer_ip) == NULL) return 0;
  now = tick_us();
  if (sent > 0 && now - first_us < sent * gap_us) return 1;
  fill(sent);
  answered[sent % WINDOW] = 0;
  sent_at[sent % WINDOW] = tick_raw();
  err = icmp_echo_request(netapp_p.peer_ip, PING_ID, (uint16_t)sent, data, size);
  if (err == NET_ERR_ARP) arp_queued++;
  if (!sent) first_us = now;
  last_us = now;
  sent++;
  return sent < count;
}

static int done(void) { return sent >= count && (received >= count || tick_us() - last_us >= TAIL_US); }

static void report(void) {
  result_begin("result");
  result_u("sent", sent);
  result_u("received", received);
  result_u("bad", bad);
  result_u("lost", sent - received);
  result_u("arp_queued", arp_queued);
  result_u("size", size);
  result_u("gap_us", gap_us);
  result_u("first_rtt_ns", first_rtt);
  result_u("rtt_min_ns", rtt_n ? rtt_min : 0);
  result_u("rtt_avg_ns", rtt_n ? (uint32_t)(rtt_sum / rtt_n) : 0);
  result_u("rtt_max_ns", rtt_max);
  result_end();
}

static const struct netapp app = {.name = "net_pinger",
                                  .default_port = 0,
                                  .default_count = 10,
                                  .default_idle_ms = 0,
                                  .start = start,
                                  .done = done,
                                  .report = report,
                                  .poll = poll};

int main(void) { return netapp_run(&app); }
