// The net_tcpsink data check (firmware/apps/net_tcpsink/verify.h): exact,
// although it compares words: every wrong byte of a segment is counted,
// at every stream offset and buffer alignment.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../../firmware/apps/net_tcpsink/verify.h"

namespace {

std::vector<uint8_t> stream_bytes(uint32_t off, unsigned n) {
  std::vector<uint8_t> b(n);
  for (unsigned i = 0; i < n; i++) b[i] = (uint8_t)((off + i) % 251u);
  return b;
}

TEST(SinkVerify, CorrectDataHasNoBadByte) {
  alignas(8) uint8_t buf[1600];
  for (unsigned align = 0; align < 4; align++)
    for (uint32_t off : {0u, 1u, 2u, 3u, 247u, 248u, 250u, 251u, 1000u, 123456u}) {
      auto s = stream_bytes(off, 1460);
      memcpy(buf + align, s.data(), s.size());
      EXPECT_EQ(0u, sink_check(buf + align, 1460, off)) << align << " " << off;
    }
}

TEST(SinkVerify, EveryFlippedBytePositionIsDetected) {
  alignas(8) uint8_t buf[1600];
  for (unsigned align = 0; align < 4; align++)
    for (uint32_t off : {0u, 2u, 249u, 5000u}) {
      auto s = stream_bytes(off, 1460);
      for (unsigned i = 0; i < 1460; i++) {
        memcpy(buf + align, s.data(), s.size());
        buf[align + i] ^= (uint8_t)(1u << (i % 8));
        ASSERT_EQ(1u, sink_check(buf + align, 1460, off))
            << "byte " << i << " align " << align << " off " << off;
      }
    }
}

TEST(SinkVerify, CountsEveryWrongByte) {
  alignas(8) uint8_t buf[1600];
  auto s = stream_bytes(77, 1460);
  memcpy(buf + 2, s.data(), s.size());
  for (unsigned i = 0; i < 1460; i += 3) buf[2 + i] = (uint8_t)(buf[2 + i] + 1);
  EXPECT_EQ((1460u + 2) / 3, sink_check(buf + 2, 1460, 77));
  // Short pieces and a wrong offset.
  EXPECT_EQ(0u, sink_check(buf + 2, 0, 77));
  memcpy(buf, s.data(), 5);
  EXPECT_EQ(0u, sink_check(buf, 5, 77));
  EXPECT_EQ(5u, sink_check(buf, 5, 78));
}

}  // namespace
