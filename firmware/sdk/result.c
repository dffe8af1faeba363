/*
 * result.c - JSON result lines (result.h) over the BSP's printf.
 */
#include "result.h"
#include "fwlibc.h"

static const char *app_name = "fw";

void result_app(const char *name) { app_name = name; }

void result_begin(const char *type) { printf("{\"app\":\"%s\",\"type\":\"%s\"", app_name, type); }

void result_u(const char *key, uint32_t v) { printf(",\"%s\":%u", key, v); }

void result_s(const char *key, const char *v) { printf(",\"%s\":\"%s\"", key, v); }

void result_ip(const char *key, uint32_t ip) {
  printf(",\"%s\":\"%u.%u.%u.%u\"", key, ip >> 24, (ip >> 16) & 255u, (ip >> 8) & 255u, ip & 255u);
}

void result_tenths(const char *key, uint32_t tenths) {
  printf(",\"%s\":%u.%u", key, tenths / 10u, tenths % 10u);
}

void result_end(void) { printf("}\n"); }

void result_counters(const void *base, const struct result_counter *rows, unsigned n) {
  unsigned i;

  for (i = 0; i < n; i++) result_u(rows[i].key, *(const uint32_t *)((const uint8_t *)base + rows[i].offset));
}
