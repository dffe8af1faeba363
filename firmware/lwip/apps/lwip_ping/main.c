/*
 * lwip_ping - ICMP echo responder on lwIP (its icmp_input answers every
 * echo request); net_ping's counterpart. Stops after fw_params.count echo
 * replies (0 = no limit) or idle_ms (default 3000) without a frame once
 * traffic has started. Result line: the keys of net_ping's.
 */
#include "lwip/stats.h"
#include "lwipapp.h"

static int done(void) { return lwipapp_p.count && lwip_stats.icmp.xmit >= lwipapp_p.count; }

static void report(void) {
  result_begin("result");
  result_u("echo_rx", lwip_stats.icmp.recv);
  result_u("echo_tx", lwip_stats.icmp.xmit);
  result_u("echo_in_place", 0);
  result_u("icmp_drop_chksum", lwip_stats.icmp.chkerr);
  result_u("icmp_drop_type", lwip_stats.icmp.proterr);
  result_end();
}

static const struct lwipapp app = {.name = "lwip_ping",
                                   .default_port = 0,
                                   .default_count = 0,
                                   .default_idle_ms = 3000,
                                   .start = 0,
                                   .done = done,
                                   .report = report};

int main(void) { return lwipapp_run(&app); }
