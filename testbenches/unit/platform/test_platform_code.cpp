// Code rewritten at run time on the whole platform, where the core's code
// pages rely on the memory's write generations (common/write_gen.h) instead
// of checking each word: a DMA master's write on the AHB while the core runs
// the code, and a debugger's write (transport_dbg) between two runs, must
// each be seen at the next execution. Built twice: timed and functional
// (L3VP_TEST_MODE). A program's own stores into code are the ISA self-check's
// FLUSH group (golden tests).
#include <memory>

#include "dma_bench.h"
#include "sparc_enc.h"

using namespace l3vp;
using l3vp::test::DmaBench;
using namespace enc;

namespace {

constexpr uint32_t kCode = 0x40001000;
constexpr uint32_t kLoops = 200000;

std::unique_ptr<DmaBench> tb;
void build() {
  PlatformConfig cfg;
  cfg.set("mode", L3VP_TEST_MODE);
  tb = std::make_unique<DmaBench>(cfg);
}

void put_word(uint8_t* b, uint32_t w) { put_be32(b, w); }

}  // namespace

TEST(PlatformCode, DmaAndDebuggerWritesIntoRunningCodeAreSeen) {
  Leon3mp& p = *tb->plat;
  leon3::Core& core = p.cpu.core();
  // X: g1 += 1 | g3-- | bne X | nop | ta 0 (ET = 0: error mode, tt 0x80)
  const uint32_t prog[] = {enc_addi(G1, G1, 1), enc_subcci(G3, G3, 1), enc_bicc(NE, false, -2), enc_nop(),
                           enc_ta(0)};
  uint8_t bytes[sizeof prog];
  for (unsigned i = 0; i < 5; ++i) put_word(bytes + 4 * i, prog[i]);
  p.sdram.load(kCode - 0x40000000, bytes, sizeof bytes);
  p.boot_at(kCode);
  core.set_ccr(0x0081000F);  // caches on, snooping on (as crt0 does)
  core.set_reg(G3, kLoops);
  p.set_end_time(sc_core::sc_time(1, sc_core::SC_SEC));

  // Part of the loop, then a DMA write turns X into g1 += 100.
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
  ASSERT_FALSE(p.halt().halted);
  const uint32_t g1_a = core.reg(G1), g3_a = core.reg(G3);
  ASSERT_GT(g1_a, 0u);
  ASSERT_GT(g3_a, 1000u);
  uint8_t w[4];
  put_word(w, enc_addi(G1, G1, 100));
  ASSERT_EQ(tb->dma->access(tlm::TLM_WRITE_COMMAND, kCode, w, 4), tlm::TLM_OK_RESPONSE);

  // More of it, then a debugger's write turns X into g2 += 1.
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
  ASSERT_FALSE(p.halt().halted);
  const uint32_t g1_b = core.reg(G1), g3_b = core.reg(G3);
  ASSERT_GT(g3_a - g3_b, 1000u);
  // Every pass since the DMA write added 100 (the pause may fall between X
  // and the decrement: one pass either way).
  const uint32_t d1 = g1_b - g1_a;
  EXPECT_TRUE(d1 == 100 * (g3_a - g3_b) || d1 == 100 * (g3_a - g3_b + 1) || d1 == 100 * (g3_a - g3_b - 1))
      << "g1 grew by " << d1 << " over " << (g3_a - g3_b) << " passes";
  put_word(w, enc_addi(G2, G2, 1));
  ASSERT_EQ(p.cpu.debug_access(true, kCode, w, 4), 4u);

  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
  ASSERT_TRUE(p.halt().halted);
  EXPECT_EQ(p.halt().tt, 0x80u);
  EXPECT_EQ(core.reg(G3), 0u);
  const uint32_t g1_c = core.reg(G1), g2_c = core.reg(G2);
  EXPECT_LE(g1_c - g1_b, 100u);  // at most the pass the pause fell in
  EXPECT_TRUE(g2_c == g3_b || g2_c + 1 == g3_b) << "g2 " << g2_c << " after " << g3_b << " passes";
}

L3VP_SC_GTEST_MAIN(build)
