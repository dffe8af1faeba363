/*
 * irqmp.c - GRLIB IRQMP driver for CPU 0.
 */
#include "irqmp.h"

#define REG(off) (*(volatile uint32_t *)(irqmp_base + (off)))

static uintptr_t irqmp_base;

void irqmp_init(uintptr_t base) {
  irqmp_base = base;
  REG(IRQMP_PIMASK0) = 0;
  REG(IRQMP_ILEVEL) = 0;
  REG(IRQMP_PIFORCE0) = 0xfffe0000u; /* FC bits: clear all forces */
  REG(IRQMP_ICLEAR) = 0xfffffffeu;
}

void irqmp_unmask(unsigned irq) { REG(IRQMP_PIMASK0) |= 1u << irq; }

void irqmp_mask(unsigned irq) { REG(IRQMP_PIMASK0) &= ~(1u << irq); }

void irqmp_clear(unsigned irq) { REG(IRQMP_ICLEAR) = 1u << irq; }

void irqmp_force(unsigned irq) { REG(IRQMP_PIFORCE0) = 1u << irq; }

void irqmp_unforce(unsigned irq) { REG(IRQMP_PIFORCE0) = 1u << (irq + 16); }

uint32_t irqmp_pending(void) { return REG(IRQMP_IPEND); }

uint32_t irqmp_forced(void) { return REG(IRQMP_PIFORCE0) & 0xfffe; }

void irqmp_set_level(unsigned irq, int high) {
  if (high)
    REG(IRQMP_ILEVEL) |= 1u << irq;
  else
    REG(IRQMP_ILEVEL) &= ~(1u << irq);
}
