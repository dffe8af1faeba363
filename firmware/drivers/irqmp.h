/*
 * irqmp.h - GRLIB IRQMP driver for CPU 0 (hw-reference section 5).
 * Interrupt numbers are 1..15.
 */
#ifndef IRQMP_H
#define IRQMP_H

#include <stdint.h>

#define IRQMP_ILEVEL 0x00
#define IRQMP_IPEND 0x04
#define IRQMP_IFORCE0 0x08
#define IRQMP_ICLEAR 0x0c
#define IRQMP_MPSTAT 0x10
#define IRQMP_PIMASK0 0x40
#define IRQMP_PIFORCE0 0x80

/* Mask everything, clear pending and forced interrupts, all level 0. */
void irqmp_init(uintptr_t base);
void irqmp_unmask(unsigned irq);
void irqmp_mask(unsigned irq);
/* Clear a pending interrupt. */
void irqmp_clear(unsigned irq);
/* Force (software-trigger) / unforce an interrupt on CPU 0. */
void irqmp_force(unsigned irq);
void irqmp_unforce(unsigned irq);
uint32_t irqmp_pending(void);
uint32_t irqmp_forced(void);
/* Put an interrupt in the high-priority (ILEVEL=1) group or back. */
void irqmp_set_level(unsigned irq, int high);

#endif /* IRQMP_H */
