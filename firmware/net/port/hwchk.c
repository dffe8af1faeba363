/*
 * hwchk.c - the checksum engine as the stack's hw variant (hwchk.h).
 */
#include "hwchk.h"
#include "chksum.h"
#include "net_chksum.h"

int hwchk_attached = -1;
static struct chksum_dev hwchk_dev;

static int hwchk_engine(uint16_t sum, const void *data, unsigned len, uint16_t *out) {
  return chksum_sum(&hwchk_dev, sum, data, len, out);
}

int hwchk_attach(void) {
  hwchk_attached = chksum_open(&hwchk_dev);
  net_chksum_set_engine(hwchk_attached ? hwchk_engine : 0, 0);
  return hwchk_attached;
}

void net_chksum_hw_probe(void) { (void)hwchk_attach(); }
