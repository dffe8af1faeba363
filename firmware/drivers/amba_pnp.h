/*
 * amba_pnp.h - GRLIB AMBA plug&play scanning (hw-reference section 2).
 *
 * AHB P&P: masters at 0xFFFFF000 + 32*i, slaves at 0xFFFFF800 + 32*i
 * (8 words: ID, 3 user words, 4 BARs). APB P&P: 0xFF000 above the APB
 * bridge base (found as the AHB slave APBCTRL), 2 words per slot (ID, BAR).
 */
#ifndef AMBA_PNP_H
#define AMBA_PNP_H

#include <stdint.h>

#define AMBA_AHB_PNP_MASTERS 0xfffff000u
#define AMBA_AHB_PNP_SLAVES 0xfffff800u
#define AMBA_AHB_MAX 16
#define AMBA_APB_PNP_OFFSET 0x000ff000u
#define AMBA_APB_MAX 16

#define AMBA_VENDOR_GAISLER 0x01
#define AMBA_VENDOR_ESA 0x04

#define AMBA_DEVICE_LEON3 0x003
#define AMBA_DEVICE_APBCTRL 0x006
#define AMBA_DEVICE_APBUART 0x00c
#define AMBA_DEVICE_IRQMP 0x00d
#define AMBA_DEVICE_GPTIMER 0x011
#define AMBA_DEVICE_GRETH 0x01d
#define AMBA_DEVICE_MCTRL 0x00f /* vendor ESA */

enum amba_bus { AMBA_AHB_MASTER, AMBA_AHB_SLAVE, AMBA_APB_SLAVE };

struct amba_dev {
  enum amba_bus bus;
  unsigned index; /* slot number on that bus */
  unsigned vendor;
  unsigned device;
  unsigned version;
  unsigned irq;    /* 0 = none */
  uintptr_t base;  /* start of the first non-empty BAR (0 if none) */
  uint32_t bar[4]; /* raw BAR words (APB: only bar[0]) */
};

/* Decode one BAR word; returns the start address (0 for an empty BAR).
 * apb_base is used for APB bars (type 1). */
uintptr_t amba_bar_start(uint32_t bar, uintptr_t apb_base);

/* Base of the first AHB/APB bridge (0xFFFFFFFF bits clear if none found). */
uintptr_t amba_apb_base(void);

/* Find the n-th (0-based) APB slave / AHB slave with the given ids.
 * Returns 1 and fills *dev if found, else 0. */
int amba_find_apb(unsigned vendor, unsigned device, unsigned n, struct amba_dev *dev);
int amba_find_ahb(unsigned vendor, unsigned device, unsigned n, struct amba_dev *dev);

/* Call fn for every non-empty P&P entry: AHB masters, AHB slaves, APB. */
void amba_scan(void (*fn)(const struct amba_dev *dev, void *ctx), void *ctx);

#endif /* AMBA_PNP_H */
