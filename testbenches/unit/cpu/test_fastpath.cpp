// Timed mode: the inline D-cache fast path (Cpu::read<N>/write<N> on the line
// of the last D-cache hit, README "Speed structure") must give exactly the
// cycles and counters of the out-of-line read_timed/write_timed rules.
#include "timed_harness.h"

namespace l3vp::leon3::test {
using namespace enc;
namespace {

class FastPathTest : public TimedTest {
 protected:
  // I-cache and D-cache on; code free except the 8-word I-line fill (7 beats);
  // data: read latency 4 (a 16-byte fill costs 3 + 4 + 3 = 10), write latency `wlat`.
  void setup(unsigned wlat) {
    tcfg.timing.icache_miss_cycles = 0;
    tcfg.timing.dcache_miss_cycles = 3;
    tcfg.timing.burst_beat_cycles = 1;
    make(tcfg);
    core->add_dmi(0, kData - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
    core->add_dmi(kData, kRamSize - 1, bus.ram.data() + kData, true, true, 4, wlat, bus.gen.data(),
                  bus.ram.data());
    core->set_ccr(0xF);
    core->set_reg(G1, kData);
  }
};

TEST_F(FastPathTest, HitsOnTheLastLineCostWhatTheRulesSay) {
  setup(4);
  core->set_reg(G5, 0xCAFE);
  // ld misses (fill 10); st hits the line: buffer busy 4 cycles; the next st
  // comes 2 cycles later and waits 2; the final ld hits and reads the data.
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_st(G5, G1, 4), enc_st(G5, G1, 8), enc_ld(G3, G1, 8)}),
            7 + 10 + 1 + 2 + 2 + 2 + 1 + kTa);
  EXPECT_EQ(core->reg(G3), 0xCAFEu);
  EXPECT_EQ(bus.r32(kData + 4), 0xCAFEu);
  EXPECT_EQ(tc().dc_read_misses, 1u);
  EXPECT_EQ(tc().dc_read_hits, 1u);
  EXPECT_EQ(tc().dc_write_hits, 2u);
  EXPECT_EQ(tc().dc_write_misses, 0u);
  EXPECT_EQ(tc().stall_write_buffer, 2u);
  EXPECT_EQ(tc().wb_stalls, 1u);
  expect_cycles_accounted();
}

TEST_F(FastPathTest, DoublewordStoreOnTheLastLineAddsABeat) {
  setup(2);
  // ld misses (10); STD hits: drains in 2 + 1 beat = 3, costs 3; st right
  // after waits 0 (3 cycles passed); then st 2.
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), memi(STD, G4, G1, 8), enc_st(G0, G1, 4)}),
            7 + 10 + 1 + 3 + 2 + kTa);
  EXPECT_EQ(tc().dc_write_hits, 2u);
  EXPECT_EQ(tc().stall_write_buffer, 0u);
  setup(5);
  // STD drains in 5 + 1 = 6, the next store 3 cycles later waits 3.
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), memi(STD, G4, G1, 8), enc_st(G0, G1, 4)}),
            7 + 10 + 1 + 3 + 3 + 2 + kTa);
  EXPECT_EQ(tc().stall_write_buffer, 3u);
  expect_cycles_accounted();
}

TEST_F(FastPathTest, AnotherLineLeavesTheFastPath) {
  setup(0);
  // ld line 0 (miss), ld line 1 (miss), ld line 0 again (hit via the tags), st line 2 (write miss).
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 16), enc_ld(G4, G1, 4), enc_st(G0, G1, 32)}),
            7 + 10 + 1 + 10 + 1 + 1 + 2 + kTa);
  EXPECT_EQ(tc().dc_read_misses, 2u);
  EXPECT_EQ(tc().dc_read_hits, 1u);
  EXPECT_EQ(tc().dc_write_misses, 1u);
  expect_cycles_accounted();
}

}  // namespace
}  // namespace l3vp::leon3::test
