/*
 * fwlibc.h - the firmware's tiny C library: strings/memory, formatted
 * output over the console UART, 64-bit arithmetic helpers (runtime64.c).
 *
 * printf/snprintf support %d %i %u %x %X %p %s %c %% with optional '-' and
 * '0' flags, a field width and an ignored 'l' length modifier. No floating
 * point, no 64-bit conversions.
 */
#ifndef FWLIBC_H
#define FWLIBC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

int putchar(int c);
int puts(const char *s);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

/* Core formatter: calls out(c, ctx) for each produced character and
 * returns the number of characters produced. */
int fw_vformat(void (*out)(char c, void *ctx), void *ctx, const char *fmt, va_list ap);

/* xorshift32 (Marsaglia): the next value of a deterministic pseudo-random
 * sequence kept in *state (never 0). For test data, not for security. */
static inline uint32_t fw_xorshift32(uint32_t *state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

#endif /* FWLIBC_H */
