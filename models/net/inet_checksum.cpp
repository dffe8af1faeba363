#include "inet_checksum.h"

#include "endian.h"

namespace l3vp {

uint32_t csum_add(uint32_t sum, const uint8_t* p, size_t n) {
  // 32-bit accumulator; folding carries each time keeps it from overflowing.
  for (size_t i = 0; i + 1 < n; i += 2) {
    sum += be16(p + i);
    sum = (sum & 0xFFFF) + (sum >> 16);
  }
  if (n & 1) {
    sum += uint32_t(p[n - 1]) << 8;
    sum = (sum & 0xFFFF) + (sum >> 16);
  }
  return sum;
}

uint16_t csum_fold(uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum & 0xFFFF);
}

uint16_t l4_checksum(uint32_t src, uint32_t dst, uint8_t proto, const uint8_t* seg, size_t n) {
  uint8_t ph[12];
  put_be32(ph, src);
  put_be32(ph + 4, dst);
  ph[8] = 0;
  ph[9] = proto;
  put_be16(ph + 10, static_cast<uint16_t>(n));
  return csum_fold(csum_add(csum_add(0, ph, sizeof ph), seg, n));
}

}  // namespace l3vp
