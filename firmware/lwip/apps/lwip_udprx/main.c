/*
 * lwip_udprx - UDP receive benchmark on lwIP's raw API (default port
 * 5002); net_udprx's counterpart with the same result keys. Checks the
 * simulated host's datagram pattern (bytes 0..3 = k big-endian, byte j >= 4
 * = (k + j) mod 251), counts received, bad, out-of-sequence and lost
 * datagrams (from the highest k seen) and the goodput between the first and
 * the last arrival (board clock). Like an application that keeps its data,
 * every payload is first copied out of the pbuf into a buffer of its own
 * (phase APPCOPY); the pattern is checked there. Stops after
 * fw_params.count datagrams (0 = no limit) or idle_ms (default 2000).
 */
#include "lwip/udp.h"
#include "lwipapp.h"
#include "net_phase.h"
#include "net_regions.h"
#include "region.h"

REGION_NAME(REGION_NET_APPCB, "udprx_recv");

static uint32_t received, bytes, bad, reordered, next_k, max_k1;
static uint32_t first_us, last_us;
static uint8_t appbuf[1520] __attribute__((aligned(4)));

static uint32_t get32(const uint8_t *d) {
  return (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 | (uint32_t)d[2] << 8 | d[3];
}

/* Is d[4..len) the pattern of datagram k? */
static int pattern_ok(const uint8_t *d, unsigned len, uint32_t k) {
  uint32_t v = (k + 4u) % 251u; /* one division per datagram */
  unsigned j;

  for (j = 4; j < len; j++) {
    if (d[j] != v) return 0;
    if (++v == 251u) v = 0;
  }
  return 1;
}

static void account(const uint8_t *d, unsigned len) {
  uint32_t k;

  if (len < 4) return;
  k = get32(d);
  if ((lwipapp_p.flags & FW_PF_VERIFY) && !pattern_ok(d, len, k)) bad++;
  if (k != next_k) reordered++;
  next_k = k + 1;
  if (k + 1 > max_k1) max_k1 = k + 1;
}

static void recv(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port) {
  uint32_t now;
  unsigned len;

  (void)arg;
  (void)pcb;
  (void)addr;
  (void)port;
  REGION_BEGIN(REGION_NET_APPCB);
  NET_PHASE_ENTER(NET_PH_APP);
  now = tick_us();
  if (!received) first_us = now;
  last_us = now;
  received++;
  bytes += p->tot_len;
  NET_PHASE_ENTER(NET_PH_APPCOPY);
  len = pbuf_copy_partial(p, appbuf, sizeof(appbuf), 0);
  NET_PHASE_LEAVE(NET_PH_APPCOPY);
  pbuf_free(p);
  account(appbuf, len);
  NET_PHASE_LEAVE(NET_PH_APP);
  REGION_END(REGION_NET_APPCB);
}

static void start(void) { lwipapp_udp_listen(recv); }

static int done(void) { return lwipapp_p.count && received >= lwipapp_p.count; }

static void report(void) {
  uint32_t us = last_us - first_us;
  uint32_t bps = 0;

  if (us && received > 1) bps = (uint32_t)((uint64_t)(bytes - bytes / received) * 8000000u / us);
  result_begin("result");
  result_u("received", received);
  result_u("bytes", bytes);
  result_u("bad", bad);
  result_u("out_of_sequence", reordered);
  result_u("lost", max_k1 > received ? max_k1 - received : 0);
  result_u("first_us", first_us);
  result_u("last_us", last_us);
  result_u("goodput_bps", bps);
  result_end();
}

static const struct lwipapp app = {.name = "lwip_udprx",
                                   .default_port = 5002,
                                   .default_count = 0,
                                   .default_idle_ms = 2000,
                                   .start = start,
                                   .done = done,
                                   .report = report};

int main(void) { return lwipapp_run(&app); }
