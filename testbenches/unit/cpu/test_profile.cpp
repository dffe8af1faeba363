// Core::set_profile_hook: every step reported once with its PC, cycles,
// retired count and cache misses; idle cycles excluded; both modes; the
// sums equal the core's own counters.
#include <map>

#include "timed_harness.h"

namespace l3vp::leon3::test {
namespace {
using namespace enc;

struct Recorder : ProfileHook {
  struct Acc {
    uint64_t steps = 0, cycles = 0, retired = 0, ic = 0, dc = 0;
  };
  std::map<uint32_t, Acc> by_pc;
  Acc total;
  void step(uint32_t pc, uint64_t cycles, unsigned retired, unsigned ic, unsigned dc) override {
    for (Acc* a : {&by_pc[pc], &total}) {
      ++a->steps;
      a->cycles += cycles;
      a->retired += retired;
      a->ic += ic;
      a->dc += dc;
    }
  }
};

// g1 = 3; loop: subcc g1, 1, g1; bne loop; nop; ld [g2], g3; ta 0
std::vector<uint32_t> loop_prog() {
  return {enc_ori(G1, G0, 3), enc_sethi(G2, kData), enc_subcci(G1, G1, 1), enc_bicc(9, false, -1),
          enc_nop(), enc_ld(G3, G2, 0)};
}

TEST_F(CoreTest, ProfileHookFunctionalModeCountsEveryInstruction) {
  Recorder r;
  core->set_profile_hook(&r);
  exec(loop_prog());
  expect_exit(6);
  core->profile_flush();
  EXPECT_EQ(r.total.retired, core->counters().instructions);
  EXPECT_EQ(r.total.cycles, core->cycles());
  EXPECT_EQ(r.by_pc[kCode + 8].retired, 3u);   // subcc runs 3 times
  EXPECT_EQ(r.by_pc[kCode + 12].retired, 3u);  // bne
  EXPECT_EQ(r.by_pc[kCode + 24].retired, 1u);  // ta 0: retired, then error mode
  EXPECT_EQ(r.by_pc[kCode + 24].cycles, 2u);   // 1 + trap entry 1
  EXPECT_EQ(r.total.ic + r.total.dc, 0u);
  // a second flush reports nothing new
  const uint64_t steps = r.total.steps;
  core->profile_flush();
  EXPECT_EQ(r.total.steps, steps);
}

TEST_F(TimedTest, ProfileHookTimedModeAttributesMissesAndStalls) {
  tcfg.timing.dcache_miss_cycles = 3;
  tcfg.timing.icache_miss_cycles = 3;
  remake(2, 2);
  core->set_ccr(0x0F);  // caches on
  Recorder r;
  core->set_profile_hook(&r);
  core->add_idle_cycles(50);  // idle is never attributed
  exec(loop_prog());
  expect_exit(6);
  core->profile_flush();
  EXPECT_EQ(r.total.cycles, core->cycles() - 50);
  EXPECT_EQ(r.total.retired, core->counters().instructions);
  EXPECT_EQ(r.total.ic, tc().ic_misses);
  EXPECT_EQ(r.by_pc[kCode + 20].dc, 1u);  // the ld missed
  EXPECT_EQ(r.by_pc[kCode + 20].cycles, 1u + 3u + 2u);  // LD 1 + miss 3 + DMI latency 2 (4-word line, 0 beats)
  // not-taken bne right after subcc: +2 stall in that step
  EXPECT_EQ(r.by_pc[kCode + 12].cycles, 3u + 2u);
  expect_cycles_accounted();
}

TEST_F(TimedTest, NoHookMeansNoSteps) {
  Recorder r;
  core->set_profile_hook(&r);
  core->set_profile_hook(nullptr);
  exec(loop_prog());
  core->profile_flush();
  EXPECT_EQ(r.total.steps, 0u);
}

}  // namespace
}  // namespace l3vp::leon3::test
