/*
 * gdb_target - the program the GDB remote-debugging tests drive
 * (testbenches/gdb): a function to break at, a global to watch, a
 * recursion shallow enough to stay in the register windows and one deep
 * enough to overflow them (bt through frames saved by the BSP's window
 * overflow handler), then exit with a status the test can change through
 * gdb. Built with -g (firmware/CMakeLists.txt).
 */
#include "bsp.h"
#include "fwlibc.h"

#define NOINLINE __attribute__((noinline, noipa))

volatile uint32_t counter;         /* watched: written by bump() */
volatile uint32_t status_code = 7; /* the exit status (tests change it) */
volatile uint32_t depth_seen;

NOINLINE void bump(uint32_t by) { counter = counter + by; }

NOINLINE uint32_t leaf(uint32_t n) {
  depth_seen = n; /* a breakpoint here sees the whole chain */
  return n * 3u;
}

NOINLINE uint32_t descend(uint32_t n) {
  uint32_t r;

  if (n == 0) return leaf(n);
  r = descend(n - 1);
  return r + n;
}

int main(void) {
  uint32_t a, b;

  bump(1);
  bump(2);
  a = descend(3);  /* 5 frames: all in the 8 register windows */
  b = descend(12); /* 14 frames: the outer ones overflow to memory */
  printf("gdb_target: counter=%u a=%u b=%u\n", (unsigned)counter, (unsigned)a, (unsigned)b);
  exit((int)status_code);
}
