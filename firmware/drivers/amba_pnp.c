/*
 * amba_pnp.c - GRLIB AMBA plug&play scanning.
 */
#include "amba_pnp.h"

static inline uint32_t rd32(uintptr_t a) { return *(volatile uint32_t *)a; }

static void decode_id(uint32_t id, struct amba_dev *dev) {
  dev->vendor = (id >> 24) & 0xff;
  dev->device = (id >> 12) & 0xfff;
  dev->version = (id >> 5) & 0x1f;
  dev->irq = id & 0x1f;
}

uintptr_t amba_bar_start(uint32_t bar, uintptr_t apb_base) {
  uint32_t addr = (bar >> 20) & 0xfff;
  uint32_t mask = (bar >> 4) & 0xfff;

  switch (bar & 0xf) {
    case 1: /* APB I/O */
      return apb_base | ((addr & mask) << 8);
    case 2: /* AHB memory */
      return (addr & mask) << 20;
    case 3: /* AHB I/O */
      return 0xfff00000u | ((addr & mask) << 8);
    default:
      return 0;
  }
}

static void read_ahb(uintptr_t area, unsigned i, enum amba_bus bus, struct amba_dev *dev) {
  uintptr_t e = area + 32u * i;
  unsigned b;
  int found = 0;

  decode_id(rd32(e), dev);
  dev->bus = bus;
  dev->index = i;
  dev->base = 0;
  for (b = 0; b < 4; b++) {
    dev->bar[b] = rd32(e + 16 + 4 * b);
    /* The first non-empty bar gives the base; it may legitimately be 0
     * (the memory controller's PROM bar), so track it with a flag. */
    if (!found && (dev->bar[b] & 0xf)) {
      dev->base = amba_bar_start(dev->bar[b], 0);
      found = 1;
    }
  }
}

uintptr_t amba_apb_base(void) {
  struct amba_dev d;

  if (amba_find_ahb(AMBA_VENDOR_GAISLER, AMBA_DEVICE_APBCTRL, 0, &d)) return d.base;
  return 0x80000000u; /* legacy fixed location */
}

static void read_apb(uintptr_t apb_base, unsigned i, struct amba_dev *dev) {
  uintptr_t e = apb_base + AMBA_APB_PNP_OFFSET + 8u * i;

  decode_id(rd32(e), dev);
  dev->bus = AMBA_APB_SLAVE;
  dev->index = i;
  dev->bar[0] = rd32(e + 4);
  dev->bar[1] = dev->bar[2] = dev->bar[3] = 0;
  dev->base = amba_bar_start(dev->bar[0], apb_base);
}

int amba_find_ahb(unsigned vendor, unsigned device, unsigned n, struct amba_dev *dev) {
  unsigned i;

  for (i = 0; i < AMBA_AHB_MAX; i++) {
    read_ahb(AMBA_AHB_PNP_SLAVES, i, AMBA_AHB_SLAVE, dev);
    if (dev->vendor == vendor && dev->device == device && n-- == 0) return 1;
  }
  return 0;
}

int amba_find_apb(unsigned vendor, unsigned device, unsigned n, struct amba_dev *dev) {
  uintptr_t apb = amba_apb_base();
  unsigned i;

  for (i = 0; i < AMBA_APB_MAX; i++) {
    read_apb(apb, i, dev);
    if (dev->vendor == vendor && dev->device == device && n-- == 0) return 1;
  }
  return 0;
}

void amba_scan(void (*fn)(const struct amba_dev *dev, void *ctx), void *ctx) {
  struct amba_dev d;
  uintptr_t apb;
  unsigned i;

  for (i = 0; i < AMBA_AHB_MAX; i++) {
    read_ahb(AMBA_AHB_PNP_MASTERS, i, AMBA_AHB_MASTER, &d);
    if (d.vendor) fn(&d, ctx);
  }
  for (i = 0; i < AMBA_AHB_MAX; i++) {
    read_ahb(AMBA_AHB_PNP_SLAVES, i, AMBA_AHB_SLAVE, &d);
    if (d.vendor) fn(&d, ctx);
  }
  apb = amba_apb_base();
  for (i = 0; i < AMBA_APB_MAX; i++) {
    read_apb(apb, i, &d);
    if (d.vendor) fn(&d, ctx);
  }
}
