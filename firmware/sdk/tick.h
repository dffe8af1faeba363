/*
 * tick.h - the board clock of the network programs, from the GPTIMER.
 *
 * tick_start() sets the GPTIMER prescaler to 10 MHz (SRELOAD 3 at 40 MHz),
 * makes timer 1 interrupt every millisecond and timer 2 free-run (it wraps
 * after 429 s). Timer 1's interrupt is wake-only (bsp.h irq_set_wake()):
 * crt0's trap_irq counts it in bsp_irq_wakes[level] and returns, about 20
 * instructions, so the millisecond counter costs no C handler and ends a
 * cpu_power_down(). Use it as any stack's time base (lwIP's sys_now()).
 */
#ifndef L3VP_TICK_H
#define L3VP_TICK_H

#include <stdint.h>
#include "gptimer.h"

#define TICK_HZ 10000000u /* timer 2: 0.1 us per count */

/* Returns 1, or 0 when the board has no GPTIMER (the counters then stay 0). */
int tick_start(void);

/* Where the milliseconds since tick_start() are counted (a zero before). */
extern volatile const uint32_t *tick_ms_counter;
#define tick_ms() (*tick_ms_counter)
/* Microseconds since tick_start() (timer 2, or ms * 1000 with one timer). */
uint32_t tick_us(void);
/* The GPTIMER found by tick_start(), and whether it has a timer 2. */
extern struct gptimer gpt;
extern int tick_have_us_timer;
/* Timer 2's raw down-counter at TICK_HZ (for entropy), or the ms count.
 * Inline: the network programs' main loop calls it. */
static inline uint32_t tick_raw(void) { return tick_have_us_timer ? gptimer_value(&gpt, 2) : tick_ms(); }
/* Timer 2's counter register (0 with one timer): a phase clock. */
const volatile uint32_t *tick_counter_reg(void);

#endif /* L3VP_TICK_H */
