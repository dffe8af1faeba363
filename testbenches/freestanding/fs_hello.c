/*
 * fs_hello.c - a freestanding C program that assumes a boot loader: no BSP,
 * its only start-up is start.S (bss, call main, exit). It uses the stack the
 * loader set, prints a few lines and some computed values, and exits 0
 * (from main: see the end of main()).
 */
#include "fs_io.h"

static uint32_t crc32(const char *s) {
  uint32_t c = 0xffffffffu;

  while (*s) {
    c ^= (uint8_t)*s++;
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
  }
  return ~c;
}

static unsigned primes_below(unsigned n) {
  static uint8_t composite[1000]; /* .bss: zeroed by start.S */
  unsigned count = 0;

  for (unsigned i = 2; i < n; i++) {
    if (composite[i]) continue;
    count++;
    for (unsigned j = i * i; j < n; j += i) composite[j] = 1;
  }
  return count;
}

static int32_t collatz_steps(uint32_t x) {
  int32_t steps = 0;

  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    steps++;
  }
  return steps;
}

int main(void) {
  uint32_t sp;
  int32_t a = -123456, b = 789;

  __asm__ volatile("mov %%sp, %0" : "=r"(sp));
  fs_puts("fs_hello: a freestanding program, no BSP\n");
  fs_puts("fs_hello: stack from the boot loader in RAM: ");
  fs_puts(sp >= 0x40000000u && sp < 0x80000000u ? "yes\n" : "no\n");
  fs_puts("fs_hello: crc32(\"leon3\") = ");
  fs_puthex(crc32("leon3"));
  fs_puts("\nfs_hello: primes below 1000 = ");
  fs_putu(primes_below(1000));
  fs_puts("\nfs_hello: collatz(27) steps = ");
  fs_putu((uint32_t)collatz_steps(27));
  fs_puts("\nfs_hello: -123456 * 789 = -");
  fs_putu((uint32_t) - (a * b));
  fs_puts("\nfs_hello: -123456 / 789 = -");
  fs_putu((uint32_t) - (a / b));
  fs_puts("\nfs_hello: done\n");
  /* Stop from here rather than return: QEMU's -kernel loader leaves the
   * entry window marked invalid (WIM = 1, CWP = 0), so returning into
   * _start would underflow with traps off there (README.md). */
  fs_exit(0);
}
