/*
 * bsp.c - C side of the board support: device discovery at start-up,
 * trap/interrupt dispatch and exit().
 */
#include "bsp.h"
#include "amba_pnp.h"
#include "apbuart.h"
#include "irqmp.h"
#include "fwlibc.h"

volatile uint32_t bsp_window_overflows;
volatile uint32_t bsp_window_underflows;
volatile uint32_t bsp_irq_wake_mask;
volatile uint32_t bsp_irq_wakes[16];
uintptr_t bsp_uart_base;
uintptr_t bsp_irqmp_base;

static trap_handler_t trap_handlers[256];
static irq_handler_t irq_handlers[16];
static void *irq_args[16];

trap_handler_t trap_set_handler(unsigned tt, trap_handler_t handler) {
  trap_handler_t old;

  if (tt > 255) return 0;
  old = trap_handlers[tt];
  trap_handlers[tt] = handler;
  return old;
}

void irq_set_handler(unsigned level, irq_handler_t handler, void *arg) {
  if (level == 0 || level > 15) return;
  irq_args[level] = arg;
  irq_handlers[level] = handler;
  bsp_irq_wake_mask &= ~(1u << (16 + level));
}

void irq_set_wake(unsigned level) {
  if (level == 0 || level > 15) return;
  irq_handlers[level] = 0;
  irq_args[level] = 0;
  bsp_irq_wake_mask |= 1u << (16 + level);
}

/* Called by crt0.S (trap_generic) with traps enabled. */
void trap_dispatch(struct trap_frame *tf) {
  unsigned tt = tf->tt & 0xff;

  if (trap_handlers[tt]) {
    trap_handlers[tt](tf);
    return;
  }
  if (tt > TT_INTERRUPT_BASE && tt < TT_INTERRUPT_BASE + 16) {
    unsigned level = tt - TT_INTERRUPT_BASE;
    if (irq_handlers[level]) {
      irq_handlers[level](level, irq_args[level]);
      return;
    }
  }
  printf("*** unexpected trap tt=0x%02x pc=0x%08x npc=0x%08x psr=0x%08x\n", tt, tf->pc, tf->npc, tf->psr);
  exit(BSP_EXIT_UNEXPECTED_TRAP);
}

void bsp_init(void) {
  struct amba_dev dev;

  if (amba_find_apb(AMBA_VENDOR_GAISLER, AMBA_DEVICE_APBUART, 0, &dev)) {
    bsp_uart_base = dev.base;
    apbuart_init(bsp_uart_base, BSP_CLOCK_HZ, BSP_UART_BAUD);
  }
  if (amba_find_apb(AMBA_VENDOR_GAISLER, AMBA_DEVICE_IRQMP, 0, &dev)) {
    bsp_irqmp_base = dev.base;
    irqmp_init(bsp_irqmp_base);
  }
  /* Everything masked at the controller: let interrupts through the CPU. */
  pil_set(0);
}

void exit(int status) {
  if (bsp_uart_base) apbuart_drain(bsp_uart_base);
  bsp_halt(status);
}
