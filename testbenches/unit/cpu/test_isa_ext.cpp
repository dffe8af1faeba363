// The core built with the example extension (examples/isa-ext/ocadd.def,
// semantics in ocadd.h): OCADD, op = 2, op3 = 0x2D, a slot SPARC V8 leaves
// free, decodes and executes like a base instruction. The encodings are
// written here from the example's description, not taken from its row.
#include <string>

#include "core_harness.h"
#include "cpu_state.h"  // decode()

namespace l3vp::leon3::test {
namespace {
using namespace enc;

constexpr unsigned kOcadd = 0x2D;

TEST_F(CoreTest, OcaddAddsWithEndAroundCarry) {
  core->set_reg(G1, 0xFFFF0000);
  core->set_reg(G2, 0x00020001);
  core->set_reg(G4, 1);
  core->set_reg(G5, 2);
  set_icc(0b1010);
  exec({alu(kOcadd, L0, G1, G2), alui(kOcadd, L1, G1, -1), alu(kOcadd, L2, G4, G5), alu(kOcadd, G0, G1, G2)});
  expect_exit(4);
  EXPECT_EQ(core->reg(L0), 0x00010002u);  // 0x1'00010001: the carry comes back in
  EXPECT_EQ(core->reg(L1), 0xFFFF0000u);  // + 0xFFFFFFFF (simm13 -1) is + 0 in ones' complement
  EXPECT_EQ(core->reg(L2), 3u);
  EXPECT_EQ(core->reg(G0), 0u);
  EXPECT_EQ(icc(), 0b1010u) << "icc unchanged";
  EXPECT_EQ(core->counters().instructions, 5u);
}

// The Internet checksum (RFC 1071) of 12 bytes: three loads, three OCADDs for
// the 32-bit ones'-complement sum (two of them carry out), then the fold to 16
// bits with base instructions: the upper half of sum + (sum rotated by 16).
TEST_F(CoreTest, OcaddComputesAnInternetChecksum) {
  const uint32_t data[3] = {0xFFFF8000, 0x9000FFFF, 0x7011B861};
  for (unsigned k = 0; k < 3; ++k) bus.w32(kData + 4 * k, data[k]);
  core->set_reg(G1, kData);
  exec({enc_ld(L0, G1, 0), enc_ld(L1, G1, 4), enc_ld(L2, G1, 8), alu(kOcadd, G2, G0, L0),
        alu(kOcadd, G2, G2, L1), alu(kOcadd, G2, G2, L2), alui(SLL, G3, G2, 16), alui(SRL, G4, G2, 16),
        alu(OR, G3, G3, G4), alu(ADD, G3, G3, G2), alui(SRL, G3, G3, 16)});
  expect_exit(11);
  uint64_t sum = 0;
  for (uint32_t w : data) sum += (w >> 16) + (w & 0xFFFF);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  EXPECT_EQ(core->reg(G3), uint32_t(sum));
  EXPECT_EQ(sum, 0x3874u);
}

TEST(IsaExtension, OcaddIsDecodedFromTheExtensionRow) {
  const uint32_t w = alu(kOcadd, L0, G1, G2);
  EXPECT_STREQ(Core::mnemonic(w), "OCADD");
  EXPECT_STREQ(Core::mnemonic(alui(kOcadd, L0, G1, 5)), "OCADD");
  Decoded d{};
  decode(w, d);
  EXPECT_EQ(d.cls, uint8_t(InsnClass::Alu));
  EXPECT_EQ(d.tk, timing::kTkAlu);
  EXPECT_EQ(d.hs1, unsigned(G1));
  EXPECT_EQ(d.hs2, unsigned(G2));
  EXPECT_EQ(d.cti, 0u);
  // The neighbouring free slots stay illegal.
  EXPECT_STREQ(Core::mnemonic(alu(0x2C, L0, G1, G2)), "ILLEGAL");
  EXPECT_STREQ(Core::mnemonic(alu(0x2E, L0, G1, G2)), "ILLEGAL");
}

}  // namespace
}  // namespace l3vp::leon3::test
