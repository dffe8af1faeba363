/*
 * hello - minimal smoke test: console output, printf formatting, a little
 * arithmetic. Board-independent output (compared between leon3vp and QEMU).
 */
#include "bsp.h"
#include "fwlibc.h"

static uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
  char buf[32];
  int n;

  puts("hello: leon3vp firmware says hello");
  printf("hello: clock %u Hz\n", (unsigned)BSP_CLOCK_HZ);
  printf("hello: fmt [%d] [%u] [%x] [%08x] [%X] [%s] [%c] [%%]\n", -42, 42u, 0xbeefu, 0x1234u, 0xabcdu, "str",
         'Z');
  printf("hello: width [%5d] [%-5d] [%05d] [%-6s] [%6s]\n", 42, 42, -42, "ab", "cd");
  printf("hello: ptr %p\n", (void *)0x40001000);
  n = snprintf(buf, sizeof(buf), "%s-%d", "snprintf", 12345);
  printf("hello: %s (len %d)\n", buf, n);
  n = snprintf(buf, 8, "%s", "truncated string");
  printf("hello: [%s] (len %d)\n", buf, n);
  printf("hello: fib(20) = %u\n", fib(20));
  printf("hello: 64-bit 0x%08x%08x / 7 = %u\n", 0x12u, 0x34567890u, (uint32_t)(0x1234567890ull / 7u));
  puts("hello: done");
  return 0;
}
