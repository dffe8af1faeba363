// Timed mode: deterministic miss injection (CacheConfig::force_miss_rate,
// README "Forced misses"). A drawn fraction of I-cache fetch hits and D-cache
// read hits becomes a miss with the whole miss path: write-buffer wait, line
// fill, stall bucket, counters, and the line valid again afterwards.
#include <cmath>
#include <stdexcept>

#include "timed_harness.h"

namespace l3vp::leon3::test {
namespace {
using namespace enc;

constexpr uint32_t kCcrIcOn = 0x3, kCcrDcOn = 0xC, kCcrDcFrozen = 0x4;

// Same memory as the cache tests: code and data in separate DMI regions,
// miss overhead 3, one cycle per further burst beat.
class ForceMissTest : public TimedTest {
 protected:
  static constexpr unsigned kOver = 3;
  static constexpr uint64_t kDFill = kOver + 4 + 3;  // 16-byte D-line, read latency 4
  static constexpr uint64_t kIFill = kOver + 2 + 7;  // 32-byte I-line, read latency 2

  // code_overhead = false: fetches cost nothing but the burst beats of a fill.
  void setup(double ic_rate, double dc_rate, uint32_t ccr, bool code_overhead = true, unsigned wlat = 0,
             bool dmi = true) {
    tcfg.icache.force_miss_rate = ic_rate;
    tcfg.dcache.force_miss_rate = dc_rate;
    tcfg.timing.icache_miss_cycles = code_overhead ? kOver : 0;
    tcfg.timing.dcache_miss_cycles = kOver;
    tcfg.timing.burst_beat_cycles = 1;
    make(tcfg);
    if (dmi) {
      core->add_dmi(0, kData - 1, bus.ram.data(), true, true, code_overhead ? 2 : 0, 0, bus.gen.data(),
                    bus.ram.data());
      core->add_dmi(kData, kRamSize - 1, bus.ram.data() + kData, true, true, 4, wlat, bus.gen.data(),
                    bus.ram.data());
    }
    core->set_ccr(ccr);
    core->set_reg(G1, kData);
  }
  // Four loads from one D-line, then the loop control: 7 words + ta, one I-line.
  static std::vector<uint32_t> loads_loop() {
    return {enc_ld(G2, G1, 0),     enc_ld(G2, G1, 4),       enc_ld(G2, G1, 8), enc_ld(G2, G1, 12),
            enc_subcci(G3, G3, 1), enc_bicc(NE, false, -5), enc_nop()};
  }
  void run_loop(uint32_t iterations) {
    core->set_reg(G3, iterations);
    exec(loads_loop(), 1ull << 32);
    expect_exit(7);
  }
  // Per step: did it miss in the D-cache / I-cache (observed loop).
  struct Pattern {
    std::vector<bool> d, i;
  };
  Pattern run_loop_observed(uint32_t iterations) {
    Pattern p;
    const auto id = core->probes().step.listen([&p](const StepRecord& r) {
      p.d.push_back(r.dc_misses != 0);
      p.i.push_back(r.ic_misses != 0);
    });
    run_loop(iterations);
    core->probes().step.unlisten(id);
    return p;
  }
  // Every cache and stall counter of two runs.
  static void expect_same_counters(const CoreTimingCounters& a, const CoreTimingCounters& b) {
    EXPECT_EQ(a.ic_hits, b.ic_hits);
    EXPECT_EQ(a.ic_misses, b.ic_misses);
    EXPECT_EQ(a.ic_forced, b.ic_forced);
    EXPECT_EQ(a.ic_fills, b.ic_fills);
    EXPECT_EQ(a.dc_read_hits, b.dc_read_hits);
    EXPECT_EQ(a.dc_read_misses, b.dc_read_misses);
    EXPECT_EQ(a.dc_forced, b.dc_forced);
    EXPECT_EQ(a.dc_fills, b.dc_fills);
    EXPECT_EQ(a.stall_icache_miss, b.stall_icache_miss);
    EXPECT_EQ(a.stall_dcache_miss, b.stall_dcache_miss);
    EXPECT_EQ(a.ahb_reads, b.ahb_reads);
  }
};

TEST_F(ForceMissTest, RateZeroIsTheCacheWithoutTheKnob) {
  setup(0, 0, kCcrIcOn | kCcrDcOn);
  run_loop(300);
  const CoreTimingCounters with_zero = tc();
  const uint64_t cycles_zero = core->cycles();
  tcfg = CoreConfig();  // the knob never set
  tcfg.timed = true;
  setup(tcfg.icache.force_miss_rate, tcfg.dcache.force_miss_rate, kCcrIcOn | kCcrDcOn);
  run_loop(300);
  EXPECT_EQ(core->cycles(), cycles_zero);
  expect_same_counters(tc(), with_zero);
  EXPECT_EQ(tc().ic_forced, 0u);
  EXPECT_EQ(tc().dc_forced, 0u);
  EXPECT_EQ(tc().ic_misses, 1u);  // the loop fits: one cold miss per cache
  EXPECT_EQ(tc().dc_read_misses, 1u);
  // A rate below 2^-33 rounds to a threshold of 0: off as well.
  setup(1e-12, 1e-12, kCcrIcOn | kCcrDcOn);
  run_loop(300);
  EXPECT_EQ(core->cycles(), cycles_zero);
}

TEST_F(ForceMissTest, RateOneTurnsEveryReadHitIntoAMiss) {
  constexpr uint32_t kIter = 50;
  setup(1, 1, kCcrIcOn | kCcrDcOn);
  run_loop(kIter);
  const uint64_t fetches = 7 * kIter + 1, loads = 4 * kIter;  // + the final ta
  EXPECT_EQ(tc().ic_hits, 0u);
  EXPECT_EQ(tc().ic_misses, fetches);
  EXPECT_EQ(tc().ic_forced, fetches - 1);  // all but the cold miss
  EXPECT_EQ(tc().ic_fills, fetches);
  EXPECT_EQ(tc().dc_read_hits, 0u);
  EXPECT_EQ(tc().dc_read_misses, loads);
  EXPECT_EQ(tc().dc_forced, loads - 1);
  EXPECT_EQ(tc().dc_fills, loads);
  EXPECT_EQ(tc().stall_icache_miss, fetches * kIFill);
  EXPECT_EQ(tc().stall_dcache_miss, loads * kDFill);
  EXPECT_EQ(tc().ahb_reads, fetches + loads);  // one burst each
  // Pipeline: 7 per iteration, the last bne not taken (mispredicted, +2), the trap.
  EXPECT_EQ(core->cycles(), 7 * kIter + 2 + kTa + fetches * kIFill + loads * kDFill);
  EXPECT_TRUE(core->cache_holds(true, kCode));  // re-filled: still valid
  EXPECT_TRUE(core->cache_holds(false, kData));
  expect_cycles_accounted();
}

TEST_F(ForceMissTest, ForcedMissCostsWhatARealMissOfTheLineCosts) {
  setup(0, 1, kCcrDcOn, false);  // I-cache off, free fetches
  std::vector<uint64_t> step_cycles;
  const auto id =
      core->probes().step.listen([&step_cycles](const StepRecord& r) { step_cycles.push_back(r.cycles); });
  // ld: cold miss of the line; ld of the same line: a forced miss.
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 4)}), 2 + kTa + 2 * kDFill);
  core->probes().step.unlisten(id);
  ASSERT_GE(step_cycles.size(), 2u);
  EXPECT_EQ(step_cycles[0], 1 + kDFill);
  EXPECT_EQ(step_cycles[1], step_cycles[0]);
  EXPECT_EQ(tc().dc_read_misses, 2u);
  EXPECT_EQ(tc().dc_forced, 1u);
  EXPECT_EQ(tc().stall_dcache_miss, 2 * kDFill);
  expect_cycles_accounted();

  // On the bus (no DMI): the forced miss is a line-fill burst like the real one.
  setup(0, 1, kCcrDcOn, false, 0, false);
  bus.latency = 5;
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 4)}),
            2 + kTa + 2 * (kOver + 5) + 3 * 5 /* uncached fetches */);
  size_t fills = 0;
  for (const RamBus::Access& a : bus.log)
    if (a.kind == CoreBus::Kind::Read) {
      ++fills;
      EXPECT_EQ(a.len, 16u);
      EXPECT_EQ(a.addr, kData);
    }
  EXPECT_EQ(fills, 2u);
  expect_cycles_accounted();
}

TEST_F(ForceMissTest, ForcedMissWaitsForTheWriteBuffer) {
  // I-cache on (one 7-beat fill at the start), write latency 4: ld misses
  // (10); st hits, buffer busy 4 cycles; the ld 2 cycles later is forced:
  // waits 2, then fills, as ReadMissWaitsForTheWriteBuffer's real miss does.
  setup(0, 1, kCcrIcOn | kCcrDcOn, false, 4);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_st(G0, G1, 4), enc_ld(G3, G1, 4)}),
            7 + (kDFill + 1) + 2 + (2 + kDFill + 1) + kTa);
  EXPECT_EQ(tc().stall_write_buffer, 2u);
  EXPECT_EQ(tc().wb_stalls, 1u);
  EXPECT_EQ(tc().dc_write_hits, 1u);  // stores are never forced
  EXPECT_EQ(tc().dc_forced, 1u);
  expect_cycles_accounted();
}

TEST_F(ForceMissTest, IcacheForcedMissesRefillTheLine) {
  setup(1, 0, kCcrIcOn);
  // 16 nops + ta over 3 lines: every fetch is a fill (12 cycles each).
  EXPECT_EQ(cycles_of(std::vector<uint32_t>(16, enc_nop())), 16 + kTa + 17 * kIFill);
  EXPECT_EQ(tc().ic_misses, 17u);
  EXPECT_EQ(tc().ic_forced, 14u);
  EXPECT_EQ(tc().ic_fills, 17u);
  EXPECT_EQ(tc().stall_icache_miss, 17 * kIFill);
  for (uint32_t a : {kCode, kCode + 0x20, kCode + 0x40}) EXPECT_TRUE(core->cache_holds(true, a));
  expect_cycles_accounted();

  // 2 ways x 1 KiB, LRU: lines A (kCode) and B (kCode + 1 KiB) share a set.
  // ba to B; nop (A, forced); nop at B (cold); ta (B, forced). Each re-fill
  // keeps its own way, so A survives B's fill and both stay valid.
  tcfg.icache = CacheConfig{2, 1, 32, CacheRepl::Lru, 1, false};
  setup(1, 0, kCcrIcOn);
  load({enc_bicc(A, false, 0x100), enc_nop()});
  load({enc_nop(), enc_ta(0)}, kCode + 0x400);
  core->run(core->cycles() + 10000);
  expect_exit(0x101);
  EXPECT_EQ(tc().ic_misses, 4u);
  EXPECT_EQ(tc().ic_forced, 2u);
  EXPECT_TRUE(core->cache_holds(true, kCode));
  EXPECT_TRUE(core->cache_holds(true, kCode + 0x400));
}

TEST_F(ForceMissTest, FrozenCacheForcedMissReadsTheWordAndKeepsTheLine) {
  setup(0, 1, kCcrDcOn, false);
  core->set_reg(G5, kCcrDcFrozen);
  // ld fills; CCR <- frozen; ld of the same line: forced, a frozen miss
  // (the word from memory, 3 + 4, no allocation); ld of another line: a
  // real frozen miss.
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), mema(STA, G5, G0, G0, 2), enc_ld(G3, G1, 4), enc_ld(G3, G1, 16)}),
            1 + 2 + 1 + 1 + kTa + kDFill + 2 * (kOver + 4));
  EXPECT_EQ(tc().dc_read_hits, 0u);
  EXPECT_EQ(tc().dc_forced, 1u);
  EXPECT_EQ(tc().dc_read_misses, 3u);
  EXPECT_EQ(tc().dc_fills, 1u);
  EXPECT_TRUE(core->cache_holds(false, kData));  // the line is still valid
  EXPECT_FALSE(core->cache_holds(false, kData + 16));
  expect_cycles_accounted();
}

TEST_F(ForceMissTest, ForcedMissUpdatesTheReplacementStateLikeAFill) {
  // 2 ways x 1 KiB with LRR; A, B, C share a set. Without injection the hit
  // on A leaves A the least recently replaced, so C evicts A. A forced miss
  // re-fills A, so C evicts B.
  const uint32_t kB = 0x400, kC = 0x800;
  for (double rate : {0.0, 1.0}) {
    tcfg.dcache = CacheConfig{2, 1, 16, CacheRepl::Lrr, 1, false};
    setup(0, rate, kCcrDcOn, false);
    cycles_of({enc_ld(G2, G1, 0), enc_ld(G2, G1, kB), enc_ld(G2, G1, 0), enc_ld(G2, G1, kC)});
    EXPECT_EQ(core->cache_holds(false, kData), rate == 1.0) << "rate " << rate;
    EXPECT_EQ(core->cache_holds(false, kData + kB), rate == 0.0) << "rate " << rate;
    EXPECT_TRUE(core->cache_holds(false, kData + kC));
    EXPECT_EQ(tc().dc_fills, rate == 1.0 ? 4u : 3u);
  }
  // LRU: the re-fill stays in A's way (it does not evict B, the LRU way, to
  // hold A twice), so B is still there for its own forced miss.
  tcfg.dcache = CacheConfig{2, 1, 16, CacheRepl::Lru, 1, false};
  setup(0, 1, kCcrDcOn, false);
  cycles_of({enc_ld(G2, G1, 0), enc_ld(G2, G1, kB), enc_ld(G2, G1, 0), enc_ld(G2, G1, kB)});
  EXPECT_EQ(tc().dc_read_misses, 4u);
  EXPECT_EQ(tc().dc_forced, 2u);
  EXPECT_TRUE(core->cache_holds(false, kData));
  EXPECT_TRUE(core->cache_holds(false, kData + kB));
}

TEST_F(ForceMissTest, FractionIsTheRateAndReproducibleForASeed) {
  constexpr uint32_t kIter = 10000;
  constexpr double kRate = 0.25;
  setup(kRate, kRate, kCcrIcOn | kCcrDcOn);
  const Pattern p1 = run_loop_observed(kIter);
  const CoreTimingCounters t1 = tc();
  const uint64_t c1 = core->cycles();
  // A hit is drawn once: forced / (hits + forced) is binomial(n, rate).
  auto expect_fraction = [&](uint64_t forced, uint64_t hits, const char* what) {
    const double n = double(forced + hits);
    const double bound = 5 * std::sqrt(kRate * (1 - kRate) / n);  // 5 standard deviations
    EXPECT_NEAR(double(forced) / n, kRate, bound) << what;
  };
  expect_fraction(t1.dc_forced, t1.dc_read_hits, "D-cache");
  expect_fraction(t1.ic_forced, t1.ic_hits, "I-cache");
  EXPECT_GT(t1.dc_read_hits + t1.dc_forced, 4u * kIter - 2);  // every load but the cold miss
  EXPECT_EQ(t1.dc_read_misses, t1.dc_forced + 1);
  expect_cycles_accounted();

  // The same seed, unobserved (plain loop): the same misses, bit for bit.
  setup(kRate, kRate, kCcrIcOn | kCcrDcOn);
  run_loop(kIter);
  EXPECT_EQ(core->cycles(), c1);
  expect_same_counters(tc(), t1);
  // ... and observed again: the same steps miss.
  setup(kRate, kRate, kCcrIcOn | kCcrDcOn);
  const Pattern p2 = run_loop_observed(kIter);
  EXPECT_EQ(p2.d, p1.d);
  EXPECT_EQ(p2.i, p1.i);

  // Another seed draws other hits.
  tcfg.icache.seed = tcfg.dcache.seed = 2;
  setup(kRate, kRate, kCcrIcOn | kCcrDcOn);
  const Pattern p3 = run_loop_observed(kIter);
  EXPECT_NE(p3.d, p1.d);
  EXPECT_NE(p3.i, p1.i);
  EXPECT_NE(tc().dc_forced, t1.dc_forced);
}

TEST_F(ForceMissTest, IndependentOfDmiAndOfResets) {
  constexpr uint32_t kIter = 500;
  setup(0.3, 0.3, kCcrIcOn | kCcrDcOn);
  run_loop(kIter);
  const CoreTimingCounters with_dmi = tc();
  EXPECT_GT(with_dmi.dc_forced, 0u);
  EXPECT_GT(with_dmi.ic_forced, 0u);
  // Every access on the bus instead: other latencies, the same draws.
  setup(0.3, 0.3, kCcrIcOn | kCcrDcOn, true, 0, false);
  run_loop(kIter);
  EXPECT_EQ(tc().dc_forced, with_dmi.dc_forced);
  EXPECT_EQ(tc().ic_forced, with_dmi.ic_forced);
  EXPECT_EQ(tc().dc_read_hits, with_dmi.dc_read_hits);
  EXPECT_EQ(tc().ic_hits, with_dmi.ic_hits);
  // Core::reset() reseeds the generators: a second run draws the same misses.
  core->reset();
  core->set_pc(kCode, kCode + 4);
  core->set_ccr(kCcrIcOn | kCcrDcOn);
  core->set_reg(G1, kData);
  const uint64_t d0 = tc().dc_forced, i0 = tc().ic_forced;
  run_loop(kIter);
  EXPECT_EQ(tc().dc_forced - d0, with_dmi.dc_forced);
  EXPECT_EQ(tc().ic_forced - i0, with_dmi.ic_forced);
}

TEST_F(ForceMissTest, FunctionalModeIgnoresTheRate) {
  tcfg.timed = false;
  setup(1, 1, kCcrIcOn | kCcrDcOn);
  run_loop(20);
  EXPECT_EQ(tc().ic_misses + tc().dc_read_misses + tc().ic_forced + tc().dc_forced, 0u);
}

TEST_F(ForceMissTest, RejectsARateOutsideZeroToOne) {
  for (double bad : {-0.1, 1.5, std::nan("")}) {
    CoreConfig c;
    c.timed = true;
    c.dcache.force_miss_rate = bad;
    EXPECT_THROW(Core(c, bus), std::invalid_argument) << bad;
    c.dcache.force_miss_rate = 0;
    c.icache.force_miss_rate = bad;
    EXPECT_THROW(Core(c, bus), std::invalid_argument) << bad;
  }
}

}  // namespace
}  // namespace l3vp::leon3::test
