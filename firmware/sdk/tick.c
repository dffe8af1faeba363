/*
 * tick.c - the GPTIMER board clock (tick.h).
 */
#include "tick.h"
#include "bsp.h"
#include "irqmp.h"

struct gptimer gpt;
int tick_have_us_timer;
static const uint32_t tick_ms_zero;
volatile const uint32_t *tick_ms_counter = &tick_ms_zero;

uint32_t tick_us(void) {
  /* Timer 2 counts down from 0xffffffff at TICK_HZ (10 MHz). */
  if (tick_have_us_timer) return (0xffffffffu - gptimer_value(&gpt, 2)) / (TICK_HZ / 1000000u);
  return tick_ms() * 1000u;
}

const volatile uint32_t *tick_counter_reg(void) {
  return tick_have_us_timer ? (const volatile uint32_t *)(gpt.base + GPTIMER_TCNT(2)) : 0;
}

int tick_start(void) {
  if (!gptimer_open(&gpt, BSP_CLOCK_HZ, TICK_HZ)) return 0;
  if (gpt.ntimers >= 2) {
    gptimer_start(&gpt, 2, 0xffffffffu, 1, 0);
    tick_have_us_timer = 1;
  }
  /* Wake-only: IP stays set, as the GPTIMER pulses the interrupt on every
   * underflow with IE=1 whatever IP holds (models/periph/gptimer). */
  irq_set_wake(gptimer_irq(&gpt, 1));
  tick_ms_counter = &bsp_irq_wakes[gptimer_irq(&gpt, 1)];
  irqmp_unmask(gptimer_irq(&gpt, 1));
  gptimer_start(&gpt, 1, TICK_HZ / 1000u - 1u, 1, 1); /* 1 ms */
  return 1;
}
