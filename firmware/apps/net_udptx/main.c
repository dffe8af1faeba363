/*
 * net_udptx - UDP transmit benchmark: sends fw_params.count datagrams
 * (default 100) of fw_params.bytes payload bytes (default and maximum
 * 1472) from port 5003 to peer_ip:port (default 5001, a scenario
 * "udp_recv" experiment), in the simulated host's datagram pattern
 * (docs/network.md: bytes 0..3 = k big-endian, byte j >= 4 = (k + j) mod
 * 251), so the host verifies every byte.
 *
 * Datagram k is sent at first + k * gap, gap = fw_params.window as written in
 * the block, in microseconds (the TCP window means nothing to a UDP
 * sender; 0 = default 1000 us; 1 = back to back, limited by the TX ring
 * and the wire). The first datagram waits in the ARP queue until the
 * host's MAC is known; the others go out after that. Sending busy-waits
 * between datagrams (the loop does not sleep until the last one is out).
 *
 * Result line: sent, send_err (udp_sendto failures other than the ARP
 * queue), bytes, gap_us, first_us/last_us (board clock at the first and
 * last udp_sendto) and rate_bps (payload after the first datagram over
 * that span). The "phases" line has the per-phase times of the send path.
 */
#include "bsp.h"
#include "fwlibc.h"
#include "netapp.h"

#define SRC_PORT 5003u
#define MAX_SIZE 1472u

static struct udp_ep *ep;
static uint32_t count, size, gap_us;
static uint32_t sent, send_err, arp_queued, first_us, last_us;
static uint8_t payload[MAX_SIZE] __attribute__((aligned(4)));

static void fill(uint32_t k) {
  uint32_t v = (k + 4u) % 251u, j;

  net_put32(payload, k);
  for (j = 4; j < size; j++) {
    payload[j] = (uint8_t)v;
    if (++v == 251u) v = 0;
  }
}

static void recv(struct udp_ep *e, uint32_t src, uint16_t sport, const uint8_t *data, unsigned len) {
  (void)e;
  (void)src;
  (void)sport;
  (void)data;
  (void)len; /* ignored */
}

static void start(void) {
  uint32_t w = fw_params.magic == FW_PARAMS_MAGIC ? fw_params.window : 0;

  count = netapp_p.count;
  size = netapp_p.bytes ? netapp_p.bytes : MAX_SIZE;
  if (size > MAX_SIZE) size = MAX_SIZE;
  if (size < 4) size = 4; /* room for the sequence number */
  gap_us = w ? w : 1000u;
  ep = udp_bind(SRC_PORT, recv, 0, 0);
  if (!ep) printf("{\"app\":\"net_udptx\",\"type\":\"error\",\"what\":\"udp_bind\"}\n");
}

static int poll(void) {
  uint32_t now;
  net_err_t err;

  if (!ep || sent >= count) return 0;
  /* The first datagram waits in the ARP queue; a second one would replace
   * it, so wait (sleeping) until the host's address is resolved. */
  if (sent > 0 && arp_lookup(netapp_p.peer_ip) == NULL) return 0;
  /* Datagram k is due at first_us + k * gap_us (a fixed schedule: the
   * loop's own jitter does not add up). */
  now = tick_us();
  if (sent > 0 && now - first_us < sent * gap_us) return 1;
  fill(sent);
  err = udp_sendto(ep, netapp_p.peer_ip, netapp_p.port, payload, size);
  if (err == NET_ERR_ARP)
    arp_queued++;
  else if (err != NET_OK)
    send_err++;
  if (!sent) first_us = now;
  last_us = now;
  sent++;
  return sent < count;
}

static int done(void) { return ep == NULL || sent >= count; }

static void report(void) {
  uint32_t us = last_us - first_us, bps = 0;

  if (us && sent > 1) bps = (uint32_t)((uint64_t)(sent - 1) * size * 8000000u / us);
  result_begin("result");
  result_u("sent", sent);
  result_u("send_err", send_err);
  result_u("arp_queued", arp_queued);
  result_u("size", size);
  result_u("bytes", sent * size);
  result_u("gap_us", gap_us);
  result_u("first_us", first_us);
  result_u("last_us", last_us);
  result_u("rate_bps", bps);
  result_end();
}

static const struct netapp app = {.name = "net_udptx",
                                  .default_port = 5001,
                                  .default_count = 100,
                                  .default_idle_ms = 0,
                                  .start = start,
                                  .done = done,
                                  .report = report,
                                  .poll = poll};

int main(void) { return netapp_run(&app); }
