/*
 * fs_io.h - console output for the freestanding programs: polls the APBUART
 * at 0x80000100 (QEMU leon3_generic and the GR-XC3S-1500 template) and
 * writes its data register. The UART is never configured here: that is the
 * boot loader's job.
 */
#ifndef FS_IO_H
#define FS_IO_H
#include <stdint.h>

#define FS_UART_DATA (*(volatile uint32_t *)0x80000100u)
#define FS_UART_STATUS (*(volatile uint32_t *)0x80000104u)
#define FS_UART_ST_TE 0x4u /* transmitter FIFO empty */

void fs_exit(int status) __attribute__((noreturn));

static inline void fs_putc(char c) {
  while (!(FS_UART_STATUS & FS_UART_ST_TE))
    ;
  FS_UART_DATA = (uint8_t)c;
}

static inline void fs_puts(const char *s) {
  while (*s) fs_putc(*s++);
}

static inline void fs_putu(uint32_t v) {
  char buf[11];
  int n = 0;

  do {
    buf[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) fs_putc(buf[--n]);
}

static inline void fs_puthex(uint32_t v) {
  fs_puts("0x");
  for (int s = 28; s >= 0; s -= 4) fs_putc("0123456789abcdef"[(v >> s) & 0xf]);
}
#endif
