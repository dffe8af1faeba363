/*
 * chksum.c - driver of the Internet checksum engine (chksum.h).
 */
#include "chksum.h"
#include "amba_pnp.h"

#define REG(c, off) (*(volatile uint32_t *)((c)->base + (off)))

struct found {
  int apb, mst;
  struct amba_dev apb_dev, mst_dev;
};

static void match(const struct amba_dev *d, void *ctx) {
  struct found *f = ctx;

  if (d->vendor != AMBA_VENDOR_CONTRIB || d->device != AMBA_DEVICE_CHKSUM) return;
  if (d->bus == AMBA_APB_SLAVE && !f->apb) {
    f->apb = 1;
    f->apb_dev = *d;
  } else if (d->bus == AMBA_AHB_MASTER && !f->mst) {
    f->mst = 1;
    f->mst_dev = *d;
  }
}

int chksum_open(struct chksum_dev *c) {
  struct found f = {0, 0, {0}, {0}};

  /* One pass over the AHB master, AHB slave and APB records. */
  amba_scan(match, &f);
  if (!f.apb || !f.mst) return 0;
  c->base = f.apb_dev.base;
  c->irq = f.apb_dev.irq;
  c->hindex = f.mst_dev.index;
  c->maxburst = REG(c, CHKSUM_INFO) & 0xffu;
  REG(c, CHKSUM_CTRL) = 0; /* IE off: the driver polls */
  REG(c, CHKSUM_STATUS) = CHKSUM_ST_DONE | CHKSUM_ST_ERR;
  return 1;
}

int chksum_sum(const struct chksum_dev *c, uint16_t sum, const void *data, unsigned len, uint16_t *out) {
  uint32_t st;
  unsigned i;

  /* The stores below leave the write buffer in order after the ones that
   * filled the buffer, so the DMA (which starts after START) sees them. */
  REG(c, CHKSUM_ADDR) = (uint32_t)(uintptr_t)data;
  REG(c, CHKSUM_LEN) = len;
  REG(c, CHKSUM_SUM) = sum;
  REG(c, CHKSUM_CTRL) = CHKSUM_CTRL_START;
  /* Busy-wait: the operation is a few hundred clocks at most for a
   * frame; an interrupt round trip would cost a good part of that and
   * the single-threaded stack has nothing else to do meanwhile. Every
   * poll is an AHB access that the engine's next burst must wait for, so
   * first spin without touching the bus for about half the time the DMA
   * needs at best (one word per clock: len / 4 clocks; the loop below
   * takes ~3 clocks an iteration, from the I-cache). */
  for (i = len >> 4; i; i--) __asm__ volatile("" ::: "memory");
  do {
    st = REG(c, CHKSUM_STATUS);
  } while (!(st & CHKSUM_ST_DONE));
  if (st & CHKSUM_ST_ERR) return -1;
  *out = (uint16_t)REG(c, CHKSUM_SUM);
  return 0;
}
