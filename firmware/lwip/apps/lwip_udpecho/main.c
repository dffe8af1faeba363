/*
 * lwip_udpecho - UDP echo server on lwIP's raw API (default port 7);
 * net_udpecho's counterpart: every datagram goes back to its sender
 * unchanged (the received pbuf is sent again). A datagram "quit" stops the
 * program (it is echoed first); so do fw_params.count datagrams (0 = no
 * limit) and idle_ms (default 3000) without a frame once traffic started.
 */
#include "lwip/udp.h"
#include "lwipapp.h"
#include "net_phase.h"

static uint32_t datagrams, bytes, echoed, send_err, no_reply;
static int quit;

static void recv(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port) {
  char head[4];

  (void)arg;
  NET_PHASE_ENTER(NET_PH_APP);
  datagrams++;
  bytes += p->tot_len;
  if (p->tot_len >= 4 && pbuf_copy_partial(p, head, 4, 0) == 4 && !memcmp(head, "quit", 4)) quit = 1;
  /* Source port 0: the sender expects no reply (RFC 768). */
  if (port == 0)
    no_reply++;
  else if (udp_sendto(pcb, p, addr, port) == ERR_OK)
    echoed++;
  else
    send_err++;
  pbuf_free(p);
  NET_PHASE_LEAVE(NET_PH_APP);
}

static void start(void) { lwipapp_udp_listen(recv); }

static int done(void) { return quit || (lwipapp_p.count && datagrams >= lwipapp_p.count); }

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

static const struct lwipapp app = {.name = "lwip_udpecho",
                                   .default_port = 7,
                                   .default_count = 0,
                                   .default_idle_ms = 3000,
                                   .start = start,
                                   .done = done,
                                   .report = report};

int main(void) { return lwipapp_run(&app); }
