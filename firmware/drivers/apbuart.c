/*
 * apbuart.c - GRLIB APBUART polled driver.
 */
#include "apbuart.h"

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))

void apbuart_init(uintptr_t base, uint32_t clk_hz, uint32_t baud) {
  uint32_t div = 8u * baud;
  uint32_t scaler = (clk_hz + div / 2) / div;

  REG(base, APBUART_CTRL) = 0;
  REG(base, APBUART_SCALER) = scaler ? scaler - 1 : 0;
  REG(base, APBUART_STATUS) = 0; /* clear BR/OV/PE/FE */
  REG(base, APBUART_CTRL) = APBUART_CTRL_RE | APBUART_CTRL_TE;
}

void apbuart_putc(uintptr_t base, char c) {
  while (!(REG(base, APBUART_STATUS) & APBUART_ST_TE))
    ;
  REG(base, APBUART_DATA) = (uint8_t)c;
}

int apbuart_getc_nowait(uintptr_t base) {
  if (!(REG(base, APBUART_STATUS) & APBUART_ST_DR)) return -1;
  return (int)(REG(base, APBUART_DATA) & 0xff);
}

void apbuart_drain(uintptr_t base) {
  const uint32_t idle = APBUART_ST_TE | APBUART_ST_TS;

  while ((REG(base, APBUART_STATUS) & idle) != idle)
    ;
}
