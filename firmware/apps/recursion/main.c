/*
 * recursion - deep and irregular recursion that exercises the window
 * overflow/underflow trap handlers many times. Every result is checked
 * against a closed form or an iterative computation, and the number of
 * window traps per experiment is printed (deterministic: 8 windows, no
 * interrupts enabled).
 */
#include "bsp.h"
#include "fwlibc.h"

/* Keep every recursive call a real call: no tail-call/accumulator loops. */
#pragma GCC optimize("no-optimize-sibling-calls")

/* noipa: the compiler must treat each call as opaque. Otherwise it knows
 * that e.g. fib() touches no memory and may move the reads of the trap
 * counters across the call (the window traps are invisible to C). */
#define RECURSIVE __attribute__((noinline, noipa))

static unsigned failed;

struct counts {
  uint32_t ovf, unf;
};

static void snap(struct counts *c) {
  c->ovf = bsp_window_overflows;
  c->unf = bsp_window_underflows;
}

static void report(const char *name, uint32_t got, uint32_t want, const struct counts *before) {
  struct counts after;

  snap(&after); /* before printing: printf has its own calls */
  if (got != want) failed++;
  printf("%s %s = %u (expected %u), overflow traps %u, underflow traps %u\n", got == want ? "PASS" : "FAIL",
         name, got, want, after.ovf - before->ovf, after.unf - before->unf);
}

/* Each level keeps values in locals/ins across the call, so a corrupted
 * window spill or fill shows up in the result. */
RECURSIVE static uint32_t deep(uint32_t n, uint32_t acc) {
  volatile uint32_t keep = acc ^ (n * 0x9e3779b9u);
  uint32_t r;

  if (n == 0) return acc;
  r = deep(n - 1, acc * 33u + n);
  return r + (keep ^ (n * 0x9e3779b9u)) - acc;
}

static uint32_t deep_iter(uint32_t n, uint32_t acc) {
  /* deep(n, acc) = deep(n-1, acc*33+n) (the other terms cancel). */
  while (n) {
    acc = acc * 33u + n;
    n--;
  }
  return acc;
}

RECURSIVE static uint32_t ack(uint32_t m, uint32_t n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

RECURSIVE static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int is_odd(uint32_t n);

RECURSIVE static int is_even(uint32_t n) { return n == 0 ? 1 : is_odd(n - 1) & 1; }

RECURSIVE static int is_odd(uint32_t n) { return n == 0 ? 0 : is_even(n - 1) & 1; }

/* Eight arguments: two go through the caller's stack frame, which must
 * survive the window traps. */
RECURSIVE static uint32_t many(uint32_t d, uint32_t a, uint32_t b, uint32_t c, uint32_t e, uint32_t f,
                               uint32_t g, uint32_t h) {
  if (d == 0) return a + 2 * b + 3 * c + 4 * e + 5 * f + 6 * g + 7 * h;
  return many(d - 1, h, a, b, c, e, f, g) + d;
}

int main(void) {
  struct counts c;
  uint32_t v;

  puts("recursion: start");

  snap(&c);
  v = deep(300, 1);
  report("deep(300)", v, deep_iter(300, 1), &c);

  snap(&c);
  v = ack(2, 3);
  report("ack(2,3)", v, 9, &c);

  snap(&c);
  v = ack(3, 3);
  report("ack(3,3)", v, 61, &c);

  snap(&c);
  v = fib(18);
  report("fib(18)", v, 2584, &c);

  snap(&c);
  v = (uint32_t)is_even(301) * 10 + (uint32_t)is_odd(301);
  report("even/odd(301)", v, 1, &c);

  snap(&c);
  /* 64 levels = 8 full rotations of the 7 argument slots (+1 each). */
  v = many(64, 1, 2, 3, 4, 5, 6, 7);
  /* Rotation by 64 mod 7 = 1 position: a gets h's value etc. */
  report("many(64)", v, 7 + 2 * 1 + 3 * 2 + 4 * 3 + 5 * 4 + 6 * 5 + 7 * 6 + 64 * 65 / 2, &c);

  printf("recursion: %u failed\n", failed);
  puts("recursion: done");
  return (int)failed;
}
