// Checksum implementations against a reference (RFC 1071): every length
// 0..1600 at every alignment 0..3, random data and random initial sums.
#include "net_harness.h"

#include <random>
#include <string>

namespace {

TEST(Checksum, AllVariantsMatchReferenceEveryLengthAndAlignment) {
  std::mt19937 rng(7);
  std::vector<uint8_t> storage(1600 + 8 + 16);
  for (auto& v : storage) v = (uint8_t)rng();
  // Base address 8-aligned so "alignment" means the address mod 4 (mod 8).
  uint8_t* base = storage.data() + (8 - ((uintptr_t)storage.data() & 7)) % 8;
  for (const auto& var : net_chksum_variants) {
    SCOPED_TRACE(var.name);
    for (unsigned align = 0; align < 4; align++) {
      for (unsigned len = 0; len <= 1600; len++) {
        const uint8_t* p = base + align;
        uint16_t init = (uint16_t)rng();
        uint16_t want = nh::ref_sum(p, len, init);
        uint16_t got = var.fn(init, p, len);
        // Same end-around-carry arithmetic: results must be bit-identical.
        if (got != want) {
          ASSERT_EQ(want, got) << "len " << len << " align " << align;
        }
      }
    }
  }
}

TEST(Checksum, ExtremesAllOnesAndZeros) {
  std::vector<uint8_t> ones(1601, 0xff), zeros(1601, 0);
  for (const auto& var : net_chksum_variants) {
    for (unsigned off = 0; off < 4; off++) {
      for (unsigned len : {0u, 1u, 2u, 3u, 15u, 16u, 17u, 1500u, 1597u}) {
        EXPECT_EQ(nh::ref_sum(ones.data() + off, len, 0xffff), var.fn(0xffff, ones.data() + off, len))
            << var.name << " len " << len;
        EXPECT_EQ(nh::ref_sum(zeros.data() + off, len, 0), var.fn(0, zeros.data() + off, len)) << var.name;
      }
    }
  }
}

TEST(Checksum, KnownVectorRfc1071) {
  // RFC 1071 section 3 example: 00 01 f2 03 f4 f5 f6 f7 -> sum ddf2.
  const uint8_t d[8] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  for (const auto& var : net_chksum_variants) {
    EXPECT_EQ(0xddf2, var.fn(0, d, 8)) << var.name;
    // Chained in even pieces gives the same result.
    EXPECT_EQ(0xddf2, var.fn(var.fn(0, d, 2), d + 2, 6)) << var.name;
  }
}

TEST(Checksum, DispatchUsesSelectedVariant) {
  std::string want = NET_CHECKSUM == NET_CHECKSUM_GENERIC8 ? "generic8"
                     : NET_CHECKSUM == NET_CHECKSUM_WORD32 ? "word32" : "fast";
  EXPECT_EQ(want, net_chksum_selected);
  const uint8_t d[3] = {1, 2, 3};
  EXPECT_EQ(nh::ref_sum(d, 3), net_chksum(0, d, 3));
}

// NET_CHECKSUM_RUNTIME: the per-run parameter `chksum` switches the
// implementation net_chksum() calls (firmware/README.md, fw_params).
TEST(Checksum, RuntimeSelection) {
  Bytes d = nh::pattern(301, 5);
  const unsigned n = (unsigned)d.size();
  const uint16_t want = nh::ref_sum(d.data(), n);
  static const char* const names[] = {"generic8", "word32", "fast"};
  for (unsigned v = NET_CHECKSUM_GENERIC8; v <= NET_CHECKSUM_FAST; v++) {
    ASSERT_EQ(0, net_chksum_select(v));
    EXPECT_STREQ(names[v - 1], net_chksum_active_name());
    EXPECT_EQ(want, net_chksum(0, d.data(), n)) << names[v - 1];
#if NET_CHECKSUM_RUNTIME
    EXPECT_EQ(net_chksum_variants[v - 1].fn, net_chksum_active);
#endif
  }
  EXPECT_EQ(-1, net_chksum_select(4));
  EXPECT_STREQ("fast", net_chksum_active_name()) << "a refused selection changes nothing";
  ASSERT_EQ(0, net_chksum_select(0));  // 0 = the build's NET_CHECKSUM
  EXPECT_STREQ(net_chksum_selected, net_chksum_active_name());
}

TEST(Checksum, PseudoHeaderMatchesReference) {
  Bytes seg = nh::pattern(77, 3);
  uint16_t want = nh::ref_pseudo_sum(nh::kOurIp, nh::kPeerIp, 6, seg);
  EXPECT_EQ(want, net_chksum_pseudo(nh::kOurIp, nh::kPeerIp, 6, seg.data(), (unsigned)seg.size()));
}

}  // namespace
