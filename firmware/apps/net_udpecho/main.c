/*
 * net_udpecho - UDP echo server (default port 7): every datagram goes back
 * to its sender unchanged. A datagram "quit" stops the program (it is
 * echoed first); so do fw_params.count datagrams (0 = no limit) and
 * idle_ms (default 3000) without a frame once traffic has started.
 */
#include "bsp.h"
#include "fwlibc.h"
#include "netapp.h"

static uint32_t datagrams, bytes, echoed, send_err, no_reply;
static int quit;

static void recv(struct udp_ep *ep, uint32_t src, uint16_t sport, const uint8_t *data, unsigned len) {
  int is_quit = len >= 4 && memcmp(data, "quit", 4) == 0;

  datagrams++;
  bytes += len;
  /* udp_sendto may be given the received data (memmove in the stack).
   * Source port 0: the sender expects no reply (RFC 768), and port 0 is
   * an argument error for udp_sendto. */
  if (sport == 0)
    no_reply++;
  else if (udp_sendto(ep, src, sport, data, len) == NET_OK)
    echoed++;
  else
    send_err++;
  if (is_quit) quit = 1;
}

static void start(void) {
  if (!udp_bind(netapp_p.port, recv, 0, 0))
    printf("{\"app\":\"net_udpecho\",\"type\":\"error\",\"what\":\"udp_bind\"}\n");
}

static int done(void) { return quit || (netapp_p.count && datagrams >= netapp_p.count); }

static void report(void) {
  result_begin("result");
  result_u("datagrams", datagrams);
  result_u("bytes", bytes);
  result_u("echoed", echoed);
  result_u("send_err", send_err);
  result_u("no_reply", no_reply);
  result_u("quit", quit);
  result_end();
}

static const struct netapp app = {.name = "net_udpecho",
                                  .default_port = 7,
                                  .default_count = 0,
                                  .default_idle_ms = 3000,
                                  .start = start,
                                  .done = done,
                                  .report = report};

int main(void) { return netapp_run(&app); }
