/*
 * bsp.h - LEON3 board support: start-up, traps, interrupts, exit.
 *
 * Clock: BSP_CLOCK_HZ (default 40 MHz, the GR-XC3S-1500 template and QEMU
 * leon3_generic system clock). Override with -DBSP_CLOCK_HZ=... (CMake
 * option FW_CLOCK_HZ).
 */
#ifndef BSP_H
#define BSP_H

#include <stdint.h>
#include "bsp_asm.h"

#ifndef BSP_CLOCK_HZ
#define BSP_CLOCK_HZ 40000000u
#endif
#ifndef BSP_UART_BAUD
#define BSP_UART_BAUD 38400u
#endif

/* Exit status used when an unexpected trap ends the program. */
#define BSP_EXIT_UNEXPECTED_TRAP 254

/* Trap types (SPARC V8 tt values) used by the firmware. */
enum {
  TT_RESET = 0x00,
  TT_INSTRUCTION_ACCESS_EXCEPTION = 0x01,
  TT_ILLEGAL_INSTRUCTION = 0x02,
  TT_PRIVILEGED_INSTRUCTION = 0x03,
  TT_FP_DISABLED = 0x04,
  TT_WINDOW_OVERFLOW = 0x05,
  TT_WINDOW_UNDERFLOW = 0x06,
  TT_MEM_ADDRESS_NOT_ALIGNED = 0x07,
  TT_DATA_ACCESS_EXCEPTION = 0x09,
  TT_TAG_OVERFLOW = 0x0a,
  TT_INTERRUPT_BASE = 0x10, /* + level 1..15 */
  TT_CP_DISABLED = 0x24,
  TT_DIVISION_BY_ZERO = 0x2a,
  TT_TRAP_INSTRUCTION = 0x80, /* + software trap number 0..127 */
};

/* State saved by the generic trap entry (crt0.S). A handler may change
 * pc/npc (e.g. trap_skip) and the saved globals/Y; they are restored on
 * return from the trap. Offsets must match bsp_asm.h. */
struct trap_frame {
  uint32_t psr; /* PSR at trap time (ET=0, PS = previous S) */
  uint32_t pc;  /* PC of the trapped (or interrupted) instruction */
  uint32_t npc;
  uint32_t tt;
  uint32_t y;
  uint32_t g[8]; /* g[0] unused */
};

typedef void (*trap_handler_t)(struct trap_frame *tf);
typedef void (*irq_handler_t)(unsigned level, void *arg);

/* Install a C handler for trap type tt (not 0, 5, 6, which crt0 owns).
 * Returns the previous handler (NULL = default). */
trap_handler_t trap_set_handler(unsigned tt, trap_handler_t handler);

/* Resume after the trapped instruction instead of re-executing it. */
static inline void trap_skip(struct trap_frame *tf) {
  tf->pc = tf->npc;
  tf->npc = tf->npc + 4;
}

/* Register a handler for interrupt level 1..15. It runs with traps enabled
 * and PIL = level, so higher levels can nest. Does not touch the IRQMP. */
void irq_set_handler(unsigned level, irq_handler_t handler, void *arg);

/* Make interrupt level 1..15 wake-only: crt0's trap_irq counts it in
 * bsp_irq_wakes[level] and returns, no C handler runs (a handler set
 * before is dropped). For an interrupt whose only job is to end
 * cpu_power_down(). Does not touch the IRQMP. */
void irq_set_wake(unsigned level);

/* Bit 16 + level set: the level is wake-only (crt0 tests bit tt & 31). */
extern volatile uint32_t bsp_irq_wake_mask;
/* Interrupts taken per level on the wake-only path. */
extern volatile uint32_t bsp_irq_wakes[16];

/* Window trap counters incremented by crt0's handlers. */
extern volatile uint32_t bsp_window_overflows;
extern volatile uint32_t bsp_window_underflows;

/* Console UART and interrupt controller found by bsp_init (0 = none). */
extern uintptr_t bsp_uart_base;
extern uintptr_t bsp_irqmp_base;

void bsp_init(void);
void exit(int status) __attribute__((noreturn));
void bsp_halt(int status) __attribute__((noreturn));

/* ---- processor state helpers ---- */
static inline uint32_t psr_read(void) {
  uint32_t v;
  __asm__ volatile("rd %%psr, %0" : "=r"(v));
  return v;
}

static inline void psr_write(uint32_t v) {
  __asm__ volatile("wr %0, %%psr\n\tnop\n\tnop\n\tnop" : : "r"(v) : "memory", "cc");
}

/* Set PIL (0..15) using the recommended two-step sequence (ET=0 with the
 * new PIL, then ET=1). Returns the previous PIL. */
static inline unsigned pil_set(unsigned pil) {
  uint32_t psr = psr_read();
  uint32_t n = (psr & ~(PSR_PIL_MASK | PSR_ET)) | ((pil & 15u) << PSR_PIL_SHIFT);
  psr_write(n);
  psr_write(n | (psr & PSR_ET));
  return (psr & PSR_PIL_MASK) >> PSR_PIL_SHIFT;
}

/* Power-down until the next interrupt (LEON3 %asr19). */
static inline void cpu_power_down(void) { __asm__ volatile("wr %%g0, %%asr19" : : : "memory"); }

#endif /* BSP_H */
