/*
 * arch/cc.h - lwIP's compiler and platform definitions for the LEON3 board
 * (SPARC V8, big-endian, GCC, freestanding: no C library but the BSP's).
 */
#ifndef LWIP_ARCH_CC_H
#define LWIP_ARCH_CC_H

#include "fwlibc.h"

#define BYTE_ORDER BIG_ENDIAN

/* No hosted headers: lwIP's own ctype macros, our printf formats, and the
 * limits lwIP needs (GCC's limits.h wants the C library's). */
#define LWIP_NO_CTYPE_H 1
#define LWIP_NO_INTTYPES_H 1
#define LWIP_NO_LIMITS_H 1
#define LWIP_NO_UNISTD_H 1
#define INT_MAX 0x7fffffff
#define X8_F "02x"
#define U16_F "u"
#define S16_F "d"
#define X16_F "x"
#define U32_F "u"
#define S32_F "d"
#define X32_F "x"
#define SZT_F "u"

/* A failed assertion is a firmware fault: report it as a result line and
 * end the run with the BSP's exit status for faults. */
void lwip_port_assert(const char *msg, int line, const char *file) __attribute__((noreturn));
#define LWIP_PLATFORM_ASSERT(x) lwip_port_assert((x), __LINE__, __FILE__)
#define LWIP_PLATFORM_DIAG(x) \
  do {                        \
    printf x;                 \
  } while (0)

/* Random numbers (TCP ISNs, ports): xorshift seeded from fw_params.seed,
 * the MAC and the timer, like our stack's boot secret. */
unsigned lwip_port_rand(void);
#define LWIP_RAND() lwip_port_rand()

#endif /* LWIP_ARCH_CC_H */
