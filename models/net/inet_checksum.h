// The Internet checksum (RFC 1071) and the TCP/UDP checksum over the IPv4
// pseudo header: one implementation for every model that sums packets
// (the simulated host, models/net/host/wire.h, and the GRETH's checksum
// offload, models/periph/greth).
#pragma once
#include <cstddef>
#include <cstdint>

namespace l3vp {

// One's-complement sum of 16-bit big-endian words (an odd last byte is
// padded with zero) added to `sum`, carries folded back.
uint32_t csum_add(uint32_t sum, const uint8_t* p, size_t n);
// The checksum: complement of the folded sum.
uint16_t csum_fold(uint32_t sum);
inline uint16_t inet_checksum(const uint8_t* p, size_t n) { return csum_fold(csum_add(0, p, n)); }
// TCP/UDP checksum over the IPv4 pseudo header (src, dst, zero, proto, n)
// and the segment `seg` of n bytes (whose checksum field must be zero when
// computing, or included when verifying: a correct segment then yields 0).
uint16_t l4_checksum(uint32_t src, uint32_t dst, uint8_t proto, const uint8_t* seg, size_t n);

}  // namespace l3vp
