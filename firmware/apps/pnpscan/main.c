/*
 * pnpscan - list every AMBA plug&play entry (board-specific output; not
 * part of the leon3vp-vs-QEMU comparison).
 */
#include "bsp.h"
#include "amba_pnp.h"
#include "gptimer.h"
#include "fwlibc.h"

static const char *dev_name(unsigned vendor, unsigned device) {
  if (vendor == AMBA_VENDOR_ESA && device == AMBA_DEVICE_MCTRL) return "MCTRL";
  if (vendor != AMBA_VENDOR_GAISLER) return "?";
  switch (device) {
    case AMBA_DEVICE_LEON3:
      return "LEON3";
    case AMBA_DEVICE_APBCTRL:
      return "APBCTRL";
    case 0x004:
      return "DSU3";
    case 0x007:
      return "AHBUART";
    case AMBA_DEVICE_APBUART:
      return "APBUART";
    case AMBA_DEVICE_IRQMP:
      return "IRQMP";
    case AMBA_DEVICE_GPTIMER:
      return "GPTIMER";
    case AMBA_DEVICE_GRETH:
      return "GRETH";
    case 0x01a:
      return "GRGPIO";
    case 0x01c:
      return "AHBJTAG";
    case 0x060:
      return "APBPS2";
    case 0x063:
      return "SVGACTRL";
    default:
      return "?";
  }
}

static void show(const struct amba_dev *d, void *ctx) {
  static const char *const bus[] = {"ahbmst", "ahbslv", "apb"};
  unsigned *count = ctx;

  printf("pnpscan: %-6s %2u  %02x:%03x %-8s ver %2u irq %2u at 0x%08x\n", bus[d->bus], d->index, d->vendor,
         d->device, dev_name(d->vendor, d->device), d->version, d->irq, (unsigned)d->base);
  (*count)++;
}

int main(void) {
  unsigned count = 0;
  struct gptimer t;

  amba_scan(show, &count);
  printf("pnpscan: %u entries, apb bridge at 0x%08x\n", count, (unsigned)amba_apb_base());
  if (gptimer_open(&t, BSP_CLOCK_HZ, 1000000)) {
    printf("pnpscan: gptimer %u timers, irq %u, separate irqs %d\n", t.ntimers, t.irq, t.separate_irqs);
  }
  puts("pnpscan: done");
  return count ? 0 : 1;
}
