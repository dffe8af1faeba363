/*
 * net_arch.h - the porting boundary: C library pieces the stack uses, byte
 * order helpers and the argument-check macro.
 *
 * Hosted builds (host unit tests, NET_ARCH_HOSTED defined) take memcpy and
 * friends from <string.h>; the firmware build takes them from fwlibc.h.
 * All packet fields are read and written byte by byte through the helpers
 * below, so the code is independent of host byte order and alignment.
 */
#ifndef NET_ARCH_H
#define NET_ARCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef NET_ARCH_HOSTED
#include <string.h>
#else
#include "fwlibc.h"
#endif

#include "netopts.h"

/* ---- Byte order: network (big-endian) fields at any alignment ---------- */

static inline uint16_t net_get16(const uint8_t *p)
{
  return (uint16_t)(((uint16_t)p[0] << 8) | p[1]);
}

static inline uint32_t net_get32(const uint8_t *p)
{
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
         ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void net_put16(uint8_t *p, uint16_t v)
{
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}

static inline void net_put32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/** Swap the two bytes of a 16-bit value. */
static inline uint16_t net_swap16(uint16_t v)
{
  return (uint16_t)((v << 8) | (v >> 8));
}

/* ---- Argument checks (lwIP style) --------------------------------------- */

/**
 * NET_ERROR(msg, cond, action): if cond is false, report msg through
 * NET_DIAG, count it in net_stats.err_arg and run action (typically
 * "return NET_ERR_ARG"). Compiled out with NET_ARG_CHECK 0.
 */
#if NET_ARG_CHECK
#define NET_ERROR(msg, cond, action)                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      NET_DIAG(msg);                                                          \
      net_stats.err_arg++;                                                    \
      action;                                                                 \
    }                                                                         \
  } while (0)
#else
#define NET_ERROR(msg, cond, action) ((void)0)
#endif

#endif /* NET_ARCH_H */
