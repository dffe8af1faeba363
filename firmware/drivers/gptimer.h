/*
 * gptimer.h - GRLIB GPTIMER driver (hw-reference section 4).
 * Timers are numbered 1..n as in the GRLIB manual.
 */
#ifndef GPTIMER_H
#define GPTIMER_H

#include <stdint.h>

#define GPTIMER_SCALER 0x00
#define GPTIMER_SRELOAD 0x04
#define GPTIMER_CONFIG 0x08
#define GPTIMER_TCNT(n) (0x10 * (n) + 0x0)
#define GPTIMER_TRLD(n) (0x10 * (n) + 0x4)
#define GPTIMER_TCTRL(n) (0x10 * (n) + 0x8)

#define GPTIMER_CTRL_EN (1u << 0)
#define GPTIMER_CTRL_RS (1u << 1)
#define GPTIMER_CTRL_LD (1u << 2)
#define GPTIMER_CTRL_IE (1u << 3)
#define GPTIMER_CTRL_IP (1u << 4)
#define GPTIMER_CTRL_CH (1u << 5)

#define GPTIMER_CFG_SI (1u << 8)

struct gptimer {
  uintptr_t base;
  unsigned ntimers;
  unsigned irq;      /* IRQ of timer 1 (from CONFIG) */
  int separate_irqs; /* timer n uses irq + n - 1 */
};

/* Find the first GPTIMER via plug&play, read its CONFIG, stop all timers
 * and set the prescaler so that it ticks at tick_hz (e.g. 1 MHz).
 * Returns 1 on success, 0 if no GPTIMER was found. */
int gptimer_open(struct gptimer *t, uint32_t clk_hz, uint32_t tick_hz);
/* IRQ number used by timer n. */
unsigned gptimer_irq(const struct gptimer *t, unsigned n);
/* Start timer n: interrupts every (reload + 1) ticks; periodic restarts. */
void gptimer_start(const struct gptimer *t, unsigned n, uint32_t reload, int periodic, int irq_enable);
void gptimer_stop(const struct gptimer *t, unsigned n);
/* Clear timer n's interrupt-pending bit (write 1), keeping its mode. */
void gptimer_ack(const struct gptimer *t, unsigned n);
uint32_t gptimer_value(const struct gptimer *t, unsigned n);
uint32_t gptimer_ctrl(const struct gptimer *t, unsigned n);

#endif /* GPTIMER_H */
