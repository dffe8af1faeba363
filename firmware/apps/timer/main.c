/*
 * timer - GPTIMER + IRQMP + interrupt handling test.
 *
 * Timer 1 runs periodically at 1 kHz (1 MHz prescaler tick, reload 999)
 * with its IRQ; the handler counts ticks. Then:
 *   - nesting: from inside the timer-1 handler a higher interrupt level is
 *     forced through IRQMP, and later timer 2 (next IRQ line) is started
 *     as a one-shot; the higher-level handler must run while the timer-1
 *     handler is still active;
 *   - PIL masking: with PIL >= the timer level no tick is taken (the
 *     interrupt stays pending in IRQMP); lowering PIL takes it at once.
 * QEMU's timers follow host time, so only deterministic facts are printed.
 * Exit status = number of failed checks.
 */
#include "bsp.h"
#include "irqmp.h"
#include "gptimer.h"
#include "fwlibc.h"

#define TICK_HZ 1000000u /* prescaler output */
#define RELOAD_1KHZ 999u
#define TICKS 20u
#define SPIN_LIMIT 20000000u /* bound for every busy wait */

enum request { REQ_NONE, REQ_NEST_FORCE, REQ_NEST_TIMER };

static struct gptimer gpt;
static unsigned irq_lo, irq_hi;

static volatile uint32_t ticks, tick_limit;
static volatile uint32_t lo_level_ok = 1;
static volatile int in_lo;
static volatile enum request request;
static volatile uint32_t hi_runs, hi_nested, hi_pil_ok = 1;
static volatile uint32_t nest_force_ok, nest_timer_ok;

static unsigned passed, failed;

static void check(int ok, const char *name, const char *what) {
  if (ok) {
    printf("PASS %s: %s\n", name, what);
    passed++;
  } else {
    /* Details only on failure: they may be timing-dependent. */
    printf("FAIL %s: %s (ticks %u, hi runs %u nested %u)\n", name, what, ticks, hi_runs, hi_nested);
    failed++;
  }
}

/* Wait (bounded) until *v != old; returns 1 if it changed. */
static int wait_change(volatile uint32_t *v, uint32_t old) {
  uint32_t i;

  for (i = 0; i < SPIN_LIMIT; i++) {
    if (*v != old) return 1;
  }
  return 0;
}

static void hi_isr(unsigned level, void *arg) {
  (void)arg;
  gptimer_ack(&gpt, 2);
  if (((psr_read() & PSR_PIL_MASK) >> PSR_PIL_SHIFT) != level) hi_pil_ok = 0;
  if (in_lo) hi_nested++;
  hi_runs++;
}

static void lo_isr(unsigned level, void *arg) {
  uint32_t before;

  (void)arg;
  gptimer_ack(&gpt, 1);
  if (level != irq_lo) lo_level_ok = 0;
  in_lo = 1;
  if (ticks < tick_limit) ticks++;

  switch (request) {
    case REQ_NEST_FORCE:
      before = hi_runs;
      irqmp_force(irq_hi);
      nest_force_ok = wait_change(&hi_runs, before) && hi_nested == 1;
      request = REQ_NONE;
      break;
    case REQ_NEST_TIMER:
      before = hi_runs;
      gptimer_start(&gpt, 2, 49, 0, 1); /* one-shot, 50 us */
      nest_timer_ok = wait_change(&hi_runs, before) && hi_nested == 2;
      request = REQ_NONE;
      break;
    default:
      break;
  }
  in_lo = 0;
}

/* Ask the timer-1 handler to run a nesting experiment; wait for it. */
static void run_in_handler(enum request r) {
  uint32_t i;

  request = r;
  for (i = 0; i < SPIN_LIMIT && request != REQ_NONE; i++)
    cpu_power_down(); /* timer 1 keeps ticking: no lost wake-up */
}

int main(void) {
  uint32_t snap, i;
  int pending;

  puts("timer: start");
  if (!gptimer_open(&gpt, BSP_CLOCK_HZ, TICK_HZ) || !bsp_irqmp_base) {
    puts("FAIL setup: no GPTIMER or IRQMP found");
    return 1;
  }
  check(gpt.ntimers >= 2 && gpt.separate_irqs, "setup", "GPTIMER with >= 2 timers and separate IRQs");
  irq_lo = gptimer_irq(&gpt, 1);
  irq_hi = gptimer_irq(&gpt, 2);
  if (irq_hi <= irq_lo || irq_hi > 15) irq_hi = irq_lo + 1; /* shared line: nest on the next level */

  irq_set_handler(irq_lo, lo_isr, 0);
  irq_set_handler(irq_hi, hi_isr, 0);
  irqmp_unmask(irq_lo);
  irqmp_unmask(irq_hi);

  /* 1. Count 20 ticks, sleeping in power-down between interrupts. */
  tick_limit = TICKS;
  gptimer_start(&gpt, 1, RELOAD_1KHZ, 1, 1);
  for (i = 0; i < SPIN_LIMIT && ticks < TICKS; i++) cpu_power_down();
  snap = ticks;
  printf("timer: %u ticks counted\n", snap);
  check(snap == TICKS, "tick-count", "20 timer-1 interrupts at 1 kHz");
  check(lo_level_ok, "tick-level", "timer-1 handler called for the IRQ level from GPTIMER CONFIG");

  /* 2. Nesting, forced (deterministic) and with the real timer 2. */
  run_in_handler(REQ_NEST_FORCE);
  check(nest_force_ok, "nest-force", "forced higher level ran inside the timer-1 handler");
  run_in_handler(REQ_NEST_TIMER);
  check(nest_timer_ok, "nest-timer", "timer-2 interrupt nested inside the timer-1 handler");
  check(hi_runs == 2 && hi_nested == 2, "nest-count", "higher-level handler ran exactly twice, both nested");
  check(hi_pil_ok, "nest-pil", "handlers run with PIL = their interrupt level");

  /* 3. PIL masking. Ticks are no longer limited. */
  tick_limit = 0xffffffffu;
  pil_set(15);
  snap = ticks;
  irqmp_clear(irq_lo);
  for (i = 0, pending = 0; i < SPIN_LIMIT && !pending; i++) pending = (irqmp_pending() >> irq_lo) & 1;
  for (i = 0; i < 1000; i++) __asm__ volatile("nop");
  check(pending && ticks == snap, "pil-mask", "PIL=15: tick pending in IRQMP, not taken");
  pil_set(0);
  check(wait_change(&ticks, snap), "pil-unmask", "PIL=0: pending tick taken");

  pil_set(irq_lo); /* equal level must still mask */
  snap = ticks;
  irqmp_clear(irq_lo);
  for (i = 0, pending = 0; i < SPIN_LIMIT && !pending; i++) pending = (irqmp_pending() >> irq_lo) & 1;
  check(pending && ticks == snap, "pil-equal", "PIL = timer level masks the tick");
  pil_set(irq_lo - 1);
  check(wait_change(&ticks, snap), "pil-below", "PIL = timer level - 1 lets the tick in");
  pil_set(0);

  gptimer_stop(&gpt, 1);
  gptimer_stop(&gpt, 2);
  irqmp_mask(irq_lo);
  irqmp_mask(irq_hi);
  printf("timer: %u passed, %u failed\n", passed, failed);
  puts("timer: done");
  return (int)failed;
}
