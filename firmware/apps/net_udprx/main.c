/*
 * net_udprx - UDP receive benchmark (default port 5002). Checks the
 * simulated host's datagram pattern (docs/network.md: bytes 0..3 = k
 * big-endian, byte j >= 4 = (k + j) mod 251), counts received, bad,
 * duplicate/out-of-order and lost datagrams (from the highest k seen),
 * and the goodput between the first and the last arrival (board clock).
 * Stops after fw_params.count datagrams (0 = no limit) or idle_ms
 * (default 2000) without a frame once traffic has started.
 * Like an application that keeps its data, every payload is first copied
 * into a secondary buffer (phase APPCOPY, net_phase.h); the pattern is
 * checked there.
 */
#include "bsp.h"
#include "fwlibc.h"
#include "greth_netif.h"
#include "netapp.h"
#include "region.h"

REGION_NAME(REGION_NET_APPCB, "udprx_recv");

static uint32_t received, bytes, bad, reordered, next_k, max_k1;
static uint32_t first_us, last_us;
static uint8_t appbuf[NET_BUF_SIZE] __attribute__((aligned(4)));

static void recv(struct udp_ep *ep, uint32_t src, uint16_t sport, const uint8_t *data, unsigned len) {
  uint32_t now, k = 0;
  unsigned j;

  (void)ep;
  (void)src;
  (void)sport;
  REGION_BEGIN(REGION_NET_APPCB);
  now = tick_us();
  if (!received) first_us = now;
  last_us = now;
  received++;
  bytes += len;
  if (len > sizeof(appbuf)) len = sizeof(appbuf); /* cannot happen: the frame fit in net_buf */
  NET_PHASE_ENTER(NET_PH_APPCOPY);
  memcpy(appbuf, data, len);
  NET_PHASE_LEAVE(NET_PH_APPCOPY);
  data = appbuf;
  if (len >= 4) {
    k = net_get32(data);
    if (netapp_p.flags & FW_PF_VERIFY) {
      uint32_t v = (k + 4u) % 251u; /* one division per datagram */
      for (j = 4; j < len; j++) {
        if (data[j] != v) {
          bad++;
          break;
        }
        if (++v == 251u) v = 0;
      }
    }
    if (k != next_k) reordered++;
    next_k = k + 1;
    if (k + 1 > max_k1) max_k1 = k + 1;
  }
  REGION_END(REGION_NET_APPCB);
}

static void start(void) {
  if (!udp_bind(netapp_p.port, recv, 0, 0))
    printf("{\"app\":\"net_udprx\",\"type\":\"error\",\"what\":\"udp_bind\"}\n");
}

static int done(void) { return netapp_p.count && received >= netapp_p.count; }

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

static const struct netapp app = {.name = "net_udprx",
                                  .default_port = 5002,
                                  .default_count = 0,
                                  .default_idle_ms = 2000,
                                  .start = start,
                                  .done = done,
                                  .report = report};

int main(void) { return netapp_run(&app); }
