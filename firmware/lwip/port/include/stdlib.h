/* stdlib.h for lwIP on the board: no malloc (lwIP's own heap and pools,
 * MEM_LIBC_MALLOC 0); atoi for netif_find() by name. */
#ifndef LWIP_PORT_STDLIB_H
#define LWIP_PORT_STDLIB_H
#include <stddef.h>

static inline int atoi(const char *s) {
  int v = 0, neg = *s == '-';

  if (*s == '-' || *s == '+') s++;
  while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
  return neg ? -v : v;
}
#endif
