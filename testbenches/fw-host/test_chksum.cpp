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

TEST(Checksum, CopyAndSumMatchesCopyThenSum) {
  // net_chksum_copy against memcpy + net_chksum: every source and
  // destination alignment mod 8 (the same one mod 4 takes the fused path), random
  // lengths and sums; nothing outside [dst, dst + len) is written.
  std::mt19937 rng(15);
  std::vector<uint8_t> src(1600 + 16), dst(1600 + 32);
  for (auto& v : src) v = (uint8_t)rng();
  uint8_t* sbase = src.data() + (8 - ((uintptr_t)src.data() & 7)) % 8;
  uint8_t* dbase = dst.data() + 8 + (8 - ((uintptr_t)dst.data() & 7)) % 8;
  for (unsigned sa = 0; sa < 8; sa++) {  // mod 8: the doubleword-store path
    for (unsigned da = 0; da < 8; da++) {
      for (int n = 0; n < 200; n++) {
        unsigned len = n < 40 ? (unsigned)n : (unsigned)(rng() % 1501);
        std::fill(dst.begin(), dst.end(), 0x5a);
        uint16_t init = (uint16_t)rng();
        uint16_t got = net_chksum_copy(init, dbase + da, sbase + sa, len);
        SCOPED_TRACE("src align " + std::to_string(sa) + " dst align " + std::to_string(da) + " len " +
                     std::to_string(len));
        ASSERT_EQ(net_chksum(init, sbase + sa, len), got);
        ASSERT_EQ(0, memcmp(dbase + da, sbase + sa, len));
        for (size_t i = 0; i < dst.size(); i++) {
          if (dst.data() + i < dbase + da || dst.data() + i >= dbase + da + len) {
            ASSERT_EQ(0x5a, dst[i]) << "byte " << i;
          }
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
                     : NET_CHECKSUM == NET_CHECKSUM_WORD32 ? "word32"
                     : NET_CHECKSUM == NET_CHECKSUM_FAST   ? "fast"
                                                           : "hw";
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
  static const char* const names[] = {"generic8", "word32", "fast", "hw"};
  for (unsigned v = NET_CHECKSUM_GENERIC8; v <= NET_CHECKSUM_HW; v++) {
    ASSERT_EQ(0, net_chksum_select(v));
    EXPECT_STREQ(names[v - 1], net_chksum_active_name());
    EXPECT_EQ(want, net_chksum(0, d.data(), n)) << names[v - 1];
#if NET_CHECKSUM_RUNTIME
    EXPECT_EQ(net_chksum_variants[v - 1].fn, net_chksum_active);
#endif
  }
  EXPECT_EQ(-1, net_chksum_select(5));
  EXPECT_STREQ("hw", net_chksum_active_name()) << "a refused selection changes nothing";
  ASSERT_EQ(0, net_chksum_select(0));  // 0 = the build's NET_CHECKSUM
  EXPECT_STREQ(net_chksum_selected, net_chksum_active_name());
}

// The hw variant's software side (the engine itself is tested on the board,
// testbenches/board-net chksum-hw, and in models/periph/chksum): a fake
// engine that sums with the reference and records its calls.
struct FakeEngine {
  static inline unsigned calls = 0, last_len = 0;
  static inline int fail = 0;
  static int fn(uint16_t sum, const void* data, unsigned len, uint16_t* out) {
    ++calls;
    last_len = len;
    if (fail) return -1;
    *out = nh::ref_sum(static_cast<const uint8_t*>(data), len, sum);
    return 0;
  }
};

class ChecksumHw : public ::testing::Test {
 protected:
  void SetUp() override {
    FakeEngine::calls = FakeEngine::last_len = 0;
    FakeEngine::fail = 0;
    c0 = net_chksum_hw_counts;
  }
  void TearDown() override { net_chksum_set_engine(nullptr, 0); }
  struct net_chksum_hw_counts c0;
};

TEST_F(ChecksumHw, NoEngineFallsBackToSoftwareEveryLengthAndAlignment) {
  net_chksum_set_engine(nullptr, 0);
  Bytes d = nh::pattern(1600 + 4, 11);
  unsigned n = 0;
  for (unsigned a = 0; a < 4; a++)
    for (unsigned len = 0; len <= 1600; len += 7, ++n)
      ASSERT_EQ(nh::ref_sum(d.data() + a, len, 0x1234), net_chksum_hw(0x1234, d.data() + a, len))
          << "len " << len << " align " << a;
  EXPECT_EQ(net_chksum_hw_counts.absent - c0.absent, n);
  EXPECT_EQ(net_chksum_hw_counts.engine, c0.engine);
}

TEST_F(ChecksumHw, ThresholdSendsOnlyLongBuffersToTheEngine) {
  net_chksum_set_engine(FakeEngine::fn, 0);  // 0: NET_CHECKSUM_HW_MIN
  Bytes d = nh::pattern(NET_CHECKSUM_HW_MIN + 3, 2);
  EXPECT_EQ(nh::ref_sum(d.data() + 1, NET_CHECKSUM_HW_MIN - 1, 7),
            net_chksum_hw(7, d.data() + 1, NET_CHECKSUM_HW_MIN - 1));
  EXPECT_EQ(0u, FakeEngine::calls);
  EXPECT_EQ(net_chksum_hw_counts.short_len - c0.short_len, 1u);
  EXPECT_EQ(nh::ref_sum(d.data() + 1, NET_CHECKSUM_HW_MIN, 7),
            net_chksum_hw(7, d.data() + 1, NET_CHECKSUM_HW_MIN));
  EXPECT_EQ(1u, FakeEngine::calls);
  EXPECT_EQ(unsigned(NET_CHECKSUM_HW_MIN), FakeEngine::last_len);
  EXPECT_EQ(net_chksum_hw_counts.engine - c0.engine, 1u);
  // A threshold set by the port.
  net_chksum_set_engine(FakeEngine::fn, 16);
  EXPECT_EQ(nh::ref_sum(d.data(), 16, 0), net_chksum_hw(0, d.data(), 16));
  EXPECT_EQ(2u, FakeEngine::calls);
}

TEST_F(ChecksumHw, EngineFailureFallsBack) {
  net_chksum_set_engine(FakeEngine::fn, 0);
  FakeEngine::fail = 1;
  Bytes d = nh::pattern(1000, 4);
  EXPECT_EQ(nh::ref_sum(d.data(), 1000, 0), net_chksum_hw(0, d.data(), 1000));
  EXPECT_EQ(1u, FakeEngine::calls);
  EXPECT_EQ(net_chksum_hw_counts.failed - c0.failed, 1u);
}

TEST_F(ChecksumHw, LengthsBeyondTheEngineLenFieldAreSplit) {
  net_chksum_set_engine(FakeEngine::fn, 0);
  Bytes d = nh::pattern(70001, 9);
  EXPECT_EQ(nh::ref_sum(d.data() + 1, 70000, 3), net_chksum_hw(3, d.data() + 1, 70000));
  EXPECT_EQ(2u, FakeEngine::calls);
  EXPECT_EQ(70000u - 0xfffeu, FakeEngine::last_len);
}

// The stack's checksum calls reach the engine through net_chksum() once hw
// is selected (net_chksum_pseudo: the UDP/TCP path).
TEST_F(ChecksumHw, StackPathUsesTheEngineWhenSelected) {
  ASSERT_EQ(0, net_chksum_select(NET_CHECKSUM_HW));
  net_chksum_set_engine(FakeEngine::fn, 0);
  Bytes seg = nh::pattern(1480, 6);
  EXPECT_EQ(nh::ref_pseudo_sum(nh::kOurIp, nh::kPeerIp, 17, seg),
            net_chksum_pseudo(nh::kOurIp, nh::kPeerIp, 17, seg.data(), (unsigned)seg.size()));
  EXPECT_EQ(1u, FakeEngine::calls);  // the segment; the pseudo-header is summed in registers
  EXPECT_EQ(1480u, FakeEngine::last_len);
  ASSERT_EQ(0, net_chksum_select(0));
}

TEST(Checksum, PseudoHeaderMatchesReference) {
  Bytes seg = nh::pattern(77, 3);
  uint16_t want = nh::ref_pseudo_sum(nh::kOurIp, nh::kPeerIp, 6, seg);
  EXPECT_EQ(want, net_chksum_pseudo(nh::kOurIp, nh::kPeerIp, 6, seg.data(), (unsigned)seg.size()));
}

// net_chksum_pseudo() sums the pseudo-header in a register and folds it
// before the data: addresses whose halfwords carry (all ones), every
// variant, odd and even lengths.
TEST(Checksum, PseudoHeaderCarriesEveryVariant) {
  const uint32_t addrs[][2] = {
      {0xffffffffu, 0xffffffffu}, {0xffff0001u, 0xfffeffffu}, {nh::kOurIp, nh::kPeerIp}, {0, 0}};
  for (const auto& var : net_chksum_variants) {
    if (var.fn == net_chksum_hw) continue;  // no engine here: it is the fast variant
    SCOPED_TRACE(var.name);
    ASSERT_EQ(0, net_chksum_select((unsigned)(&var - net_chksum_variants) + NET_CHECKSUM_GENERIC8));
    for (const auto& a : addrs) {
      for (unsigned len : {0u, 1u, 8u, 33u, 1472u}) {
        Bytes seg = nh::pattern(len, len + 1);
        for (uint8_t proto : {(uint8_t)6, (uint8_t)17, (uint8_t)0xff}) {
          EXPECT_EQ(nh::ref_pseudo_sum(a[0], a[1], proto, seg),
                    net_chksum_pseudo(a[0], a[1], proto, seg.data(), len))
              << std::hex << a[0] << " " << a[1] << std::dec << " len " << len;
        }
      }
    }
  }
  ASSERT_EQ(0, net_chksum_select(0));
}

}  // namespace
