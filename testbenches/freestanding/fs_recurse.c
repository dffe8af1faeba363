/*
 * fs_recurse.c - a freestanding program that recurses 100 calls deep, far
 * more than the 8 register windows, with window overflow/underflow handlers
 * it installs itself (fs_traps.S: its own trap table, TBR, ET = 1). Prints a
 * checksum of the recursion and whether the handlers ran.
 */
#include "fs_io.h"

extern volatile uint32_t fs_overflows, fs_underflows;
void fs_install_traps(void);

/* Not a tail call (the result is combined after the call) and a frame that
 * lives across the call, so every level keeps its own register window. */
__attribute__((noinline)) static uint32_t walk(uint32_t n, uint32_t acc) {
  volatile uint32_t local = acc * 31u + n;

  if (n == 0) return local;
  uint32_t r = walk(n - 1, local);
  return (r ^ (n * 2654435761u)) + local;
}

int main(void) {
  fs_install_traps();
  fs_puts("fs_recurse: trap table installed\n");
  uint32_t sum = walk(100, 1);
  fs_puts("fs_recurse: walk(100) checksum = ");
  fs_puthex(sum);
  fs_puts("\nfs_recurse: walk(7) checksum = ");
  fs_puthex(walk(7, 1));
  fs_puts("\nfs_recurse: window overflows handled: ");
  fs_puts(fs_overflows >= 90 ? "yes" : "NO");
  fs_puts("\nfs_recurse: window underflows handled: ");
  fs_puts(fs_underflows >= 90 ? "yes" : "NO");
  fs_puts("\nfs_recurse: done\n");
  return 0; /* the underflow handler reloads _start's window if needed */
}
