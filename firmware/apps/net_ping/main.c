/*
 * net_ping - ICMP echo responder on the GRETH (board 192.168.0.53).
 * The stack answers echo requests of every size up to 1472 data bytes;
 * this program only runs the board loop. Stops after fw_params.count echo
 * requests (0 = no limit) or idle_ms (default 3000) without a frame once
 * traffic has started. Result line: {"app":"net_ping","type":"result",...}.
 */
#include "bsp.h"
#include "fwlibc.h"
#include "netapp.h"

static int done(void) { return netapp_p.count && net_stats.icmp.tx >= netapp_p.count; }

static void report(void) {
  result_begin("result");
  result_u("echo_rx", net_stats.icmp.echo_rx);
  result_u("echo_tx", net_stats.icmp.tx);
  result_u("echo_in_place", net_stats.icmp.echo_in_place);
  result_u("icmp_drop_chksum", net_stats.icmp.drop_chksum);
  result_u("icmp_drop_type", net_stats.icmp.drop_type);
  result_end();
}

static const struct netapp app = {.name = "net_ping",
                                  .default_port = 0,
                                  .default_count = 0,
                                  .default_idle_ms = 3000,
                                  .start = 0,
                                  .done = done,
                                  .report = report};

int main(void) { return netapp_run(&app); }
