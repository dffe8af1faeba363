// Big-endian helpers. leon3vp convention: every TLM payload data array holds
// bytes in target address order (data[0] is the byte at the lowest address),
// i.e. big-endian for words, exactly as they sit on a big-endian AHB.
#pragma once
#include <cstdint>
#include <cstring>

namespace l3vp {

inline uint32_t be32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return __builtin_bswap32(v);
}
inline uint16_t be16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return __builtin_bswap16(v);
}
inline void put_be32(uint8_t* p, uint32_t v) {
  v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}
inline void put_be16(uint8_t* p, uint16_t v) {
  v = __builtin_bswap16(v);
  std::memcpy(p, &v, 2);
}

}  // namespace l3vp
