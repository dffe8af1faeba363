/*
 * gptimer.c - GRLIB GPTIMER driver.
 */
#include "gptimer.h"
#include "amba_pnp.h"

#define REG(t, off) (*(volatile uint32_t *)((t)->base + (off)))

int gptimer_open(struct gptimer *t, uint32_t clk_hz, uint32_t tick_hz) {
  struct amba_dev dev;
  uint32_t cfg;
  unsigned n;

  if (!amba_find_apb(AMBA_VENDOR_GAISLER, AMBA_DEVICE_GPTIMER, 0, &dev)) return 0;
  t->base = dev.base;
  cfg = REG(t, GPTIMER_CONFIG);
  t->ntimers = cfg & 7;
  t->irq = (cfg >> 3) & 0x1f;
  t->separate_irqs = (cfg & GPTIMER_CFG_SI) != 0;
  for (n = 1; n <= t->ntimers; n++) gptimer_stop(t, n);
  /* Tick period = SRELOAD + 1 clocks; writing SRELOAD also loads SCALER. */
  REG(t, GPTIMER_SRELOAD) = clk_hz / tick_hz - 1;
  return 1;
}

unsigned gptimer_irq(const struct gptimer *t, unsigned n) {
  return t->separate_irqs ? t->irq + n - 1 : t->irq;
}

void gptimer_start(const struct gptimer *t, unsigned n, uint32_t reload, int periodic, int irq_enable) {
  uint32_t ctrl = GPTIMER_CTRL_EN | GPTIMER_CTRL_LD | GPTIMER_CTRL_IP;

  if (periodic) ctrl |= GPTIMER_CTRL_RS;
  if (irq_enable) ctrl |= GPTIMER_CTRL_IE;
  REG(t, GPTIMER_TRLD(n)) = reload;
  REG(t, GPTIMER_TCTRL(n)) = ctrl;
}

void gptimer_stop(const struct gptimer *t, unsigned n) {
  REG(t, GPTIMER_TCTRL(n)) = GPTIMER_CTRL_IP; /* EN=IE=0, clear IP */
}

void gptimer_ack(const struct gptimer *t, unsigned n) {
  uint32_t ctrl = REG(t, GPTIMER_TCTRL(n));
  uint32_t keep = ctrl & (GPTIMER_CTRL_RS | GPTIMER_CTRL_IE | GPTIMER_CTRL_CH);

  /* EN is written back only for periodic timers. A one-shot timer has
   * EN=0 after its underflow in GRLIB, but QEMU leaves EN=1 and restarts
   * the timer when EN=1 is written again. */
  if (ctrl & GPTIMER_CTRL_RS) keep |= ctrl & GPTIMER_CTRL_EN;
  REG(t, GPTIMER_TCTRL(n)) = keep | GPTIMER_CTRL_IP;
}

uint32_t gptimer_value(const struct gptimer *t, unsigned n) { return REG(t, GPTIMER_TCNT(n)); }

uint32_t gptimer_ctrl(const struct gptimer *t, unsigned n) { return REG(t, GPTIMER_TCTRL(n)); }
