/*
 * net_chksum.h - Internet checksum (RFC 1071), three implementations.
 *
 * Every function returns the 16-bit one's complement sum of `sum` and the
 * data read as big-endian 16-bit words (an odd last byte is padded with a
 * zero low byte), folded to 16 bits, NOT complemented. Sums of pieces can be
 * chained by passing the previous result as `sum`, as long as every piece
 * but the last has an even length. The data may start at any address.
 */
#ifndef NET_CHKSUM_H
#define NET_CHKSUM_H

#include "net_arch.h"

/** Portable byte-pair loop with a carry check on every addition. */
uint16_t net_chksum_generic8(uint16_t sum, const void *data, unsigned len);

/** 16-bit additions into a 32-bit accumulator, one final fold. */
uint16_t net_chksum_word32(uint16_t sum, const void *data, unsigned len);

/** 32-bit loads summed with an add-with-carry chain, unrolled 16 bytes per
 *  step. SPARC: inline addcc/addxcc; elsewhere: C with the same semantics. */
uint16_t net_chksum_fast(uint16_t sum, const void *data, unsigned len);

typedef uint16_t (*net_chksum_fn)(uint16_t sum, const void *data, unsigned len);

/** One entry per implementation, for comparisons and benchmarks. */
struct net_chksum_variant {
  const char *name;
  net_chksum_fn fn;
};
extern const struct net_chksum_variant net_chksum_variants[3];

/* The build-time choice (NET_CHECKSUM in netopts.h). */
#if NET_CHECKSUM == NET_CHECKSUM_GENERIC8
#define net_chksum net_chksum_generic8
#elif NET_CHECKSUM == NET_CHECKSUM_WORD32
#define net_chksum net_chksum_word32
#elif NET_CHECKSUM == NET_CHECKSUM_FAST
#define net_chksum net_chksum_fast
#else
#error "NET_CHECKSUM must be NET_CHECKSUM_GENERIC8, _WORD32 or _FAST"
#endif

/** Name of the build-time choice ("generic8", "word32" or "fast"). */
extern const char *const net_chksum_selected;

/**
 * Sum of the IPv4 pseudo header (RFC 793 3.1, RFC 768) followed by `len`
 * bytes of `data` (the TCP or UDP segment, checksum field included).
 * Addresses are in host order. Returns the folded sum, not complemented:
 * a received segment is valid when the result is 0xffff.
 */
uint16_t net_chksum_pseudo(uint32_t src, uint32_t dst, uint8_t proto,
                           const uint8_t *data, unsigned len);

#endif /* NET_CHKSUM_H */
