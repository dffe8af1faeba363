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

static inline uint16_t net_get16(const uint8_t *p) { return (uint16_t)(((uint16_t)p[0] << 8) | p[1]); }

static inline uint32_t net_get32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void net_put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}

static inline void net_put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/** Swap the two bytes of a 16-bit value. */
static inline uint16_t net_swap16(uint16_t v) { return (uint16_t)((v << 8) | (v >> 8)); }

/* ---- Aligned wide access (fast paths only) ----------------------------- */
/* For the few per-frame paths that write a header as whole words: every
 * store goes through the write-through D-cache to memory (about 5 cycles
 * each when they follow each other), so one doubleword store instead of
 * four halfword stores matters there. The caller guarantees the alignment
 * (4 for the 32-bit forms, 8 for net_st64a); values are in host order and
 * land in network byte order. */
typedef uint16_t net_u16a __attribute__((may_alias, aligned(2)));
typedef uint32_t net_u32a __attribute__((may_alias, aligned(4)));
typedef uint64_t net_u64a __attribute__((may_alias, aligned(8)));

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NET_BE32(v) (v)
#define NET_BE16(v) (v)
#else
#define NET_BE32(v) __builtin_bswap32(v)
#define NET_BE16(v) __builtin_bswap16(v)
#endif

/* On SPARC the loads are asm (with the memory as an input, so that GCC
 * still schedules them): GCC otherwise merges an aligned branch with its
 * bytewise twin into the bytewise code (ip_input()). */
static inline uint32_t net_ld32a(const uint8_t *p) {
#if defined(__sparc__)
  uint32_t v;
  __asm__("ld %1, %0" : "=r"(v) : "m"(*(const net_u32a *)(const void *)p));
  return v;
#else
  return NET_BE32(*(const net_u32a *)(const void *)p);
#endif
}

static inline uint16_t net_ld16a(const uint8_t *p) {
#if defined(__sparc__)
  uint32_t v;
  __asm__("lduh %1, %0" : "=r"(v) : "m"(*(const net_u16a *)(const void *)p));
  return (uint16_t)v;
#else
  return (uint16_t)NET_BE16(*(const net_u16a *)(const void *)p);
#endif
}

static inline void net_st16a(uint8_t *p, uint16_t v) { *(net_u16a *)(void *)p = (uint16_t)NET_BE16(v); }

static inline void net_st32a(uint8_t *p, uint32_t v) { *(net_u32a *)(void *)p = NET_BE32(v); }

/** Bytes p[0..3] = hi, p[4..7] = lo (network order); p 8-aligned: one
 *  doubleword store (SPARC std). */
static inline void net_st64a(uint8_t *p, uint32_t hi, uint32_t lo) {
#if defined(__sparc__)
  /* GCC splits a 64-bit store into two st; std wants an even/odd register
   * pair, which a 64-bit operand gets (%0 even, %R0 odd). */
  uint64_t v = ((uint64_t)hi << 32) | lo;
  __asm__ volatile("std %1, [%0]" : : "r"(p), "r"(v) : "memory");
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  *(net_u64a *)(void *)p = ((uint64_t)hi << 32) | lo;
#else
  *(net_u64a *)(void *)p = ((uint64_t)NET_BE32(lo) << 32) | NET_BE32(hi);
#endif
}

/* ---- Argument checks (lwIP style) --------------------------------------- */

/**
 * NET_ERROR(msg, cond, action): if cond is false, report msg through
 * NET_DIAG, count it in net_stats.err_arg and run action (typically
 * "return NET_ERR_ARG"). Compiled out with NET_ARG_CHECK 0.
 */
#if NET_ARG_CHECK
#define NET_ERROR(msg, cond, action) \
  do {                               \
    if (!(cond)) {                   \
      NET_DIAG(msg);                 \
      net_stats.err_arg++;           \
      action;                        \
    }                                \
  } while (0)
#else
#define NET_ERROR(msg, cond, action) ((void)0)
#endif

#endif /* NET_ARCH_H */
