/*
 * net_chksum.h - Internet checksum (RFC 1071), three implementations in
 * software and a fourth (hw) that hands long buffers to the checksum engine.
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

/** Copies `len` bytes from src to dst and returns their sum (as the other
 *  functions, chained from `sum`) in the same pass: 32-bit loads summed
 *  like net_chksum_fast. When dst and src differ in alignment mod 4 (or dst
 *  is odd) it copies first and sums dst with net_chksum_fast. The buffers
 *  must not overlap. */
uint16_t net_chksum_copy(uint16_t sum, void *dst, const void *src, unsigned len);

/** The checksum engine (rtl/chksum): a buffer of at least
 *  NET_CHECKSUM_HW_MIN bytes goes to the engine the port installed with
 *  net_chksum_set_engine(); a shorter one, any buffer while no engine is
 *  installed, and one the engine failed on (AHB error) are summed by
 *  net_chksum_fast. Same result as the others in every case. */
uint16_t net_chksum_hw(uint16_t sum, const void *data, unsigned len);

/** The port's engine call: sums `len` bytes at `data` starting from `sum`
 *  into *out; returns 0, or nonzero when the engine failed (the caller
 *  falls back to software). */
typedef int (*net_chksum_engine_fn)(uint16_t sum, const void *data, unsigned len, uint16_t *out);
/** Installs the engine (NULL: none, every hw call falls back) and the
 *  shortest length it gets (0: NET_CHECKSUM_HW_MIN). */
void net_chksum_set_engine(net_chksum_engine_fn fn, unsigned min_len);

/** What net_chksum_hw did (counts since the start). */
struct net_chksum_hw_counts {
  uint32_t engine;    /* calls the engine summed */
  uint32_t short_len; /* calls below the length threshold (software) */
  uint32_t absent;    /* calls with no engine installed (software) */
  uint32_t failed;    /* calls the engine failed on (software) */
};
extern struct net_chksum_hw_counts net_chksum_hw_counts;

typedef uint16_t (*net_chksum_fn)(uint16_t sum, const void *data, unsigned len);

/** One entry per implementation, for comparisons and benchmarks. */
struct net_chksum_variant {
  const char *name;
  net_chksum_fn fn;
};
#define NET_CHKSUM_NVARIANTS 4
extern const struct net_chksum_variant net_chksum_variants[NET_CHKSUM_NVARIANTS];

/* The implementation the stack uses: NET_CHECKSUM (netopts.h) at start;
 * with NET_CHECKSUM_RUNTIME it can be changed by net_chksum_select(). */
#if !defined(NET_CHECKSUM) ||                                                        \
    (NET_CHECKSUM != NET_CHECKSUM_GENERIC8 && NET_CHECKSUM != NET_CHECKSUM_WORD32 && \
     NET_CHECKSUM != NET_CHECKSUM_FAST && NET_CHECKSUM != NET_CHECKSUM_HW)
#error "NET_CHECKSUM must be NET_CHECKSUM_GENERIC8, _WORD32, _FAST or _HW"
#endif

/** Selects the implementation by NET_CHECKSUM_* value (0 = NET_CHECKSUM).
 *  Returns 0, or -1 (unknown value, or NET_CHECKSUM_RUNTIME is 0 and the
 *  value is not the build's choice; nothing changes). */
int net_chksum_select(unsigned which);
/** Is the implementation in use net_chksum_fast (the one net_chksum_copy
 *  matches, so the bulk send path may fuse its copy and sum)? */
int net_chksum_active_is_fast(void);
/** Name of the implementation in use ("generic8", "word32", "fast" or "hw"). */
const char *net_chksum_active_name(void);

#if NET_CHECKSUM_RUNTIME
extern net_chksum_fn net_chksum_active;
static inline uint16_t net_chksum(uint16_t sum, const void *data, unsigned len) {
  return net_chksum_active(sum, data, len);
}
#elif NET_CHECKSUM == NET_CHECKSUM_GENERIC8
#define net_chksum net_chksum_generic8
#elif NET_CHECKSUM == NET_CHECKSUM_WORD32
#define net_chksum net_chksum_word32
#elif NET_CHECKSUM == NET_CHECKSUM_FAST
#define net_chksum net_chksum_fast
#else
#define net_chksum net_chksum_hw
#endif

/** Name of the build-time choice ("generic8", "word32", "fast" or "hw"). */
extern const char *const net_chksum_selected;

/**
 * Sum of the IPv4 pseudo header (RFC 793 3.1, RFC 768) followed by `len`
 * bytes of `data` (the TCP or UDP segment, checksum field included).
 * Addresses are in host order. Returns the folded sum, not complemented:
 * a received segment is valid when the result is 0xffff.
 */
uint16_t net_chksum_pseudo(uint32_t src, uint32_t dst, uint8_t proto, const uint8_t *data, unsigned len);

#endif /* NET_CHKSUM_H */
