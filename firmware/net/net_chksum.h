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

/** 32-bit loads summed with an add-with-carry chain, unrolled 32 bytes per
 *  step. SPARC: inline addcc/addxcc; elsewhere: C with the same semantics. */
uint16_t net_chksum_fast(uint16_t sum, const void *data, unsigned len);

typedef uint16_t (*net_chksum_fn)(uint16_t sum, const void *data, unsigned len);

/** One entry per implementation, for comparisons and benchmarks. */
struct net_chksum_variant {
  const char *name;
  net_chksum_fn fn;
};
extern const struct net_chksum_variant net_chksum_variants[3];

/* The implementation the stack uses: NET_CHECKSUM (netopts.h) at start;
 * with NET_CHECKSUM_RUNTIME it can be changed by net_chksum_select(). */
#if !defined(NET_CHECKSUM) || (NET_CHECKSUM != NET_CHECKSUM_GENERIC8 && \
    NET_CHECKSUM != NET_CHECKSUM_WORD32 && NET_CHECKSUM != NET_CHECKSUM_FAST)
#error "NET_CHECKSUM must be NET_CHECKSUM_GENERIC8, _WORD32 or _FAST"
#endif

/** Selects the implementation by NET_CHECKSUM_* value (0 = NET_CHECKSUM).
 *  Returns 0, or -1 (unknown value, or NET_CHECKSUM_RUNTIME is 0 and the
 *  value is not the build's choice; nothing changes). */
int net_chksum_select(unsigned which);
/** Name of the implementation in use ("generic8", "word32" or "fast"). */
const char *net_chksum_active_name(void);

#if NET_CHECKSUM_RUNTIME
extern net_chksum_fn net_chksum_active;
static inline uint16_t net_chksum(uint16_t sum, const void *data, unsigned len)
{
  return net_chksum_active(sum, data, len);
}
#elif NET_CHECKSUM == NET_CHECKSUM_GENERIC8
#define net_chksum net_chksum_generic8
#elif NET_CHECKSUM == NET_CHECKSUM_WORD32
#define net_chksum net_chksum_word32
#else
#define net_chksum net_chksum_fast
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
