/*
 * apbuart.h - GRLIB APBUART polled driver (hw-reference section 6).
 */
#ifndef APBUART_H
#define APBUART_H

#include <stdint.h>

#define APBUART_DATA 0x00
#define APBUART_STATUS 0x04
#define APBUART_CTRL 0x08
#define APBUART_SCALER 0x0c

#define APBUART_ST_DR (1u << 0)
#define APBUART_ST_TS (1u << 1) /* shift register empty */
#define APBUART_ST_TE (1u << 2) /* FIFO / holding register empty */

#define APBUART_CTRL_RE (1u << 0)
#define APBUART_CTRL_TE (1u << 1)

/* Enable transmitter and receiver (no interrupts, no parity, no flow
 * control) and set SCALER = round(clk / (8 * baud)) - 1. */
void apbuart_init(uintptr_t base, uint32_t clk_hz, uint32_t baud);
/* Wait until the transmitter can take a character, then send it. */
void apbuart_putc(uintptr_t base, char c);
/* Return a received character, or -1 if none is waiting. */
int apbuart_getc_nowait(uintptr_t base);
/* Wait until the FIFO and the shift register are empty. */
void apbuart_drain(uintptr_t base);

#endif /* APBUART_H */
