/*
 * hwchk.c - the checksum engine as the stack's hw variant (hwchk.h).
 */
#include "hwchk.h"
#include "chksum.h"
#include "net_chksum.h"
#include "netapp.h"

int hwchk_attached = -1;
static struct chksum_dev hwchk_dev;

static int hwchk_engine(uint16_t sum, const void *data, unsigned len, uint16_t *out)
{
  return chksum_sum(&hwchk_dev, sum, data, len, out);
}

int hwchk_attach(void)
{
  hwchk_attached = chksum_open(&hwchk_dev);
  net_chksum_set_engine(hwchk_attached ? hwchk_engine : 0, 0);
  return hwchk_attached;
}

void hwchk_report(void)
{
  netapp_json_u("hw_engine", (uint32_t)hwchk_attached);
  netapp_json_u("hw_engine_calls", net_chksum_hw_counts.engine);
  netapp_json_u("hw_short", net_chksum_hw_counts.short_len);
  netapp_json_u("hw_absent", net_chksum_hw_counts.absent);
  netapp_json_u("hw_failed", net_chksum_hw_counts.failed);
}
