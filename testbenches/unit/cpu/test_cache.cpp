// Timed mode, caches and write buffer (hw-reference §7.4/§7.5): the tag-only
// cache model with each replacement policy, I-/D-cache timing through the
// core, CCR states, flushes, snooping, cacheable areas, configuration words.
#include <stdexcept>

#include "cache.h"
#include "timed_harness.h"

namespace l3vp::leon3::test {
namespace {
using namespace enc;

// ---- CacheModel on its own ------------------------------------------------------------------

// 2 ways x 1 KiB, 16-byte lines: 64 sets; A, B, C all map to set 0.
constexpr uint32_t kA = 0x0000, kB = 0x0400, kC = 0x0800;

CacheConfig two_way(CacheRepl r, uint32_t seed = 1) { return CacheConfig{2, 1, 16, r, seed, false}; }
// Accesses `addrs` like the core does (lookup, fill on miss); returns misses.
unsigned run(CacheModel& c, const std::vector<uint32_t>& addrs, std::vector<bool>* hits = nullptr) {
  unsigned misses = 0;
  for (uint32_t a : addrs) {
    bool h = c.lookup(a);
    if (!h) {
      ++misses;
      c.fill(a);
    }
    if (hits) hits->push_back(h);
  }
  return misses;
}

TEST(CacheModel, LruEvictsLeastRecentlyUsed) {
  CacheModel c(two_way(CacheRepl::Lru), "t");
  EXPECT_EQ(run(c, {kA, kB, kA, kC}), 3u);  // C evicts B (A was used last)
  EXPECT_TRUE(c.contains(kA));
  EXPECT_FALSE(c.contains(kB));
  EXPECT_TRUE(c.contains(kC));
  CacheModel d(two_way(CacheRepl::Lru), "t");
  EXPECT_EQ(run(d, {kA, kB, kA, kC, kA, kB}), 4u);
}

TEST(CacheModel, LrrEvictsLeastRecentlyReplaced) {
  CacheModel c(two_way(CacheRepl::Lrr), "t");
  EXPECT_EQ(run(c, {kA, kB, kA, kC}), 3u);  // C replaces A, filled before B, despite the hit
  EXPECT_FALSE(c.contains(kA));
  EXPECT_TRUE(c.contains(kB));
  CacheModel d(two_way(CacheRepl::Lrr), "t");
  EXPECT_EQ(run(d, {kA, kB, kA, kC, kA, kB}), 5u);
}

TEST(CacheModel, FourWayLru) {
  CacheModel c(CacheConfig{4, 1, 16, CacheRepl::Lru, 1, false}, "t");
  const uint32_t D = 0x0C00, E = 0x1000;
  EXPECT_EQ(run(c, {kA, kB, kC, D, kA, kC, E}), 5u);  // E evicts B
  EXPECT_FALSE(c.contains(kB));
  for (uint32_t a : {kA, kC, D, E}) EXPECT_TRUE(c.contains(a));
}

TEST(CacheModel, RandomIsReproducibleForASeed) {
  std::vector<uint32_t> seq;
  uint32_t x = 12345;
  for (int k = 0; k < 2000; ++k) {
    x = x * 1103515245u + 12345u;
    seq.push_back(((x >> 16) % 6) * 0x400);  // 6 lines over one 2-way set... and more sets
  }
  CacheModel a(two_way(CacheRepl::Random, 7), "t"), b(two_way(CacheRepl::Random, 7), "t"),
      c(two_way(CacheRepl::Random, 99), "t");
  std::vector<bool> ha, hb, hc;
  unsigned ma = run(a, seq, &ha), mb = run(b, seq, &hb), mc = run(c, seq, &hc);
  EXPECT_EQ(ma, mb);
  EXPECT_EQ(ha, hb);
  EXPECT_NE(ha, hc);  // another seed picks other victims
  EXPECT_GT(ma, 2000u / 3);
  EXPECT_LT(ma, 2000u);
  (void)mc;
  a.reset();  // reseeds: the same run again gives the same answer
  std::vector<bool> ha2;
  EXPECT_EQ(run(a, seq, &ha2), ma);
  EXPECT_EQ(ha2, ha);
}

TEST(CacheModel, DirectMappedConflict) {
  CacheModel c(CacheConfig{1, 4, 16, CacheRepl::Lru, 1, false}, "t");
  EXPECT_EQ(run(c, {0x8000, 0x8004, 0x9000, 0x8008, 0x800C, 0x8010}), 4u);
}

TEST(CacheModel, InvalidateRange) {
  CacheModel c(CacheConfig{1, 4, 16, CacheRepl::Lru, 1, false}, "t");
  run(c, {0x100, 0x110, 0x120, 0x130});
  EXPECT_EQ(c.invalidate_range(0x114, 0x10), 2u);  // 0x114..0x123 touches 2 lines
  EXPECT_TRUE(c.contains(0x100));
  EXPECT_FALSE(c.contains(0x110));
  EXPECT_FALSE(c.contains(0x120));
  EXPECT_TRUE(c.contains(0x130));
  EXPECT_EQ(c.invalidate_range(0, 0x100000), 2u);  // bigger than the cache
  EXPECT_FALSE(c.contains(0x130));
}

TEST(CacheModel, ConfigurationWords) {
  CoreConfig t;  // template geometry
  EXPECT_EQ(CacheModel(t.icache, "i").config_word(true), 0x11230008u);
  EXPECT_EQ(CacheModel(t.dcache, "d").config_word(true), 0x08220008u);
  EXPECT_EQ(CacheModel(CacheConfig{4, 8, 16, CacheRepl::Random, 1, false}, "i").config_word(true),
            0x33320008u);
  EXPECT_EQ(CacheModel(CacheConfig{2, 2, 32, CacheRepl::Lrr, 1, false}, "d").config_word(false), 0x21130000u);
  EXPECT_EQ(CacheModel(CacheConfig{1, 256, 32, CacheRepl::Random, 1, true}, "d").config_word(false),
            0x08830000u);  // one way: REPL = 0 whatever the policy
}

TEST(CacheModel, RejectsUnsupportedGeometry) {
  EXPECT_THROW(CacheModel(CacheConfig{5, 4, 16}, "t"), std::invalid_argument);
  EXPECT_THROW(CacheModel(CacheConfig{0, 4, 16}, "t"), std::invalid_argument);
  EXPECT_THROW(CacheModel(CacheConfig{1, 3, 16}, "t"), std::invalid_argument);
  EXPECT_THROW(CacheModel(CacheConfig{1, 512, 16}, "t"), std::invalid_argument);
  EXPECT_THROW(CacheModel(CacheConfig{1, 4, 64}, "t"), std::invalid_argument);
  EXPECT_THROW(CacheModel(CacheConfig{4, 4, 16, CacheRepl::Lrr}, "t"), std::invalid_argument);
  RamBus bus;
  CoreConfig cfg;
  cfg.dcache.line_bytes = 8;
  EXPECT_THROW(Core(cfg, bus), std::invalid_argument);
}

// ---- through the core ---------------------------------------------------------------------------

constexpr uint32_t kCcrIcOn = 0x3, kCcrDcOn = 0xC, kCcrIcFrozen = 0x1, kCcrDcFrozen = 0x4;
constexpr uint32_t kCcrDS = 1u << 23;

// Code region [0, kData) and data region [kData, end) as separate DMI
// regions so instruction and data latencies can differ. Miss overhead 3,
// one cycle per further burst beat.
class CacheTest : public TimedTest {
 protected:
  static constexpr unsigned kOver = 3;
  void setup(unsigned code_rlat, unsigned data_rlat, unsigned data_wlat, uint32_t ccr,
             bool code_overhead = true) {
    tcfg.timing.icache_miss_cycles = code_overhead ? kOver : 0;
    tcfg.timing.dcache_miss_cycles = kOver;
    tcfg.timing.burst_beat_cycles = 1;
    make(tcfg);
    core->add_dmi(0, kData - 1, bus.ram.data(), true, true, code_rlat, 0, bus.gen.data(), bus.ram.data());
    core->add_dmi(kData, kRamSize - 1, bus.ram.data() + kData, true, true, data_rlat, data_wlat,
                  bus.gen.data(), bus.ram.data());
    core->set_ccr(ccr);
    core->set_reg(G1, kData);
  }
  // Data-side tests: I-cache off with free fetches (no overhead, latency 0).
  void setup_data(unsigned rlat, unsigned wlat, uint32_t ccr) { setup(0, rlat, wlat, ccr, false); }
  static constexpr unsigned kDFill = kOver + 4 + 3;  // 16-byte line, read latency 4: 10
};

TEST_F(CacheTest, IcacheLineFillsThenHits) {
  setup(2, 0, 0, kCcrIcOn);
  // 16 nops + ta: lines 0x4000, 0x4020, 0x4040; a fill = 3 + 2 + 7 beats = 12
  EXPECT_EQ(cycles_of(std::vector<uint32_t>(16, enc_nop())), 16 + kTa + 3 * 12);
  EXPECT_EQ(tc().ic_misses, 3u);
  EXPECT_EQ(tc().ic_fills, 3u);
  EXPECT_EQ(tc().ic_hits, 14u);
  EXPECT_EQ(tc().stall_icache_miss, 36u);
  EXPECT_TRUE(core->cache_holds(true, kCode + 0x3C));
  expect_cycles_accounted();
}

TEST_F(CacheTest, IcacheLoopHitsAfterTheFirstPass) {
  setup(2, 0, 0, kCcrIcOn);
  core->set_reg(G1, 3);
  // subcc; bne (taken twice, predicted); nop: one line, one miss
  EXPECT_EQ(cycles_of({enc_subcci(G1, G1, 1), enc_bicc(NE, false, -1), enc_nop()}),
            3 * 3 + 2 /* last bne not taken */ + kTa + 12);
  EXPECT_EQ(tc().ic_misses, 1u);
  EXPECT_EQ(tc().ic_hits, 9u);
}

TEST_F(CacheTest, IcacheDisabledEveryFetchGoesToMemory) {
  setup(2, 0, 0, 0);
  EXPECT_EQ(cycles_of(std::vector<uint32_t>(16, enc_nop())), 16 + kTa + 17 * (3 + 2));
  EXPECT_EQ(tc().ic_uncached, 17u);
  EXPECT_EQ(tc().stall_bus, 17u * 5);
  EXPECT_EQ(tc().ic_misses, 0u);
  EXPECT_FALSE(core->cache_holds(true, kCode));
}

TEST_F(CacheTest, UncacheableAreaBypassesTheCaches) {
  tcfg.cacheable = {{0x40000000, 0x7FFFFFFF}};  // the test RAM at 0 is not in it
  setup(2, 4, 0, kCcrIcOn | kCcrDcOn);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 0)}), 2 + kTa + 3 * (3 + 2) + 2 * (3 + 4));
  EXPECT_EQ(tc().ic_uncached, 3u);
  EXPECT_EQ(tc().dc_uncached_reads, 2u);
  EXPECT_FALSE(core->cache_holds(false, kData));
}

TEST_F(CacheTest, IcacheFrozenHitsButDoesNotAllocate) {
  setup(2, 0, 0, kCcrIcOn);
  core->set_reg(G1, kCcrIcFrozen);
  // line 0x4000 filled while enabled; then frozen: its words hit, the next
  // lines miss (word from memory, 3 + 2) and are not allocated
  std::vector<uint32_t> p{mema(STA, G1, G0, G0, 2)};  // ccr <- frozen
  p.resize(16, enc_nop());
  EXPECT_EQ(cycles_of(p), 2 + 15 + kTa + 12 + 9 * (3 + 2));
  EXPECT_EQ(core->ccr(), kCcrIcFrozen);
  EXPECT_EQ(tc().ic_fills, 1u);
  EXPECT_EQ(tc().ic_hits, 7u);
  EXPECT_EQ(tc().ic_misses, 10u);
  EXPECT_TRUE(core->cache_holds(true, kCode));
  EXPECT_FALSE(core->cache_holds(true, kCode + 0x20));
}

TEST_F(CacheTest, IcacheFillIsOneBurstOnTheBus) {
  tcfg.timing.icache_miss_cycles = 3;
  make(tcfg);  // no DMI at all
  bus.latency = 4;
  core->set_ccr(kCcrIcOn);
  // per line: 3 + 4 (the bus's latency for the 32-byte burst)
  EXPECT_EQ(cycles_of({enc_nop(), enc_nop()}), 2 + kTa + 7);
  size_t bursts = 0;
  for (auto& a : bus.log)
    if (a.kind == CoreBus::Kind::Fetch && a.len == 32) {
      ++bursts;
      EXPECT_EQ(a.addr, kCode);
      EXPECT_EQ(a.asi, 0x9);
    }
  EXPECT_EQ(bursts, 1u);
}

TEST_F(CacheTest, DcacheReadMissFillsTheLine) {
  setup_data(4, 0, kCcrDcOn);
  bus.w32(kData + 4, 0xCAFE);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 4), enc_ld(G4, G1, 16)}), 3 + kTa + 2 * kDFill);
  EXPECT_EQ(core->reg(G3), 0xCAFEu);
  EXPECT_EQ(tc().dc_read_misses, 2u);
  EXPECT_EQ(tc().dc_read_hits, 1u);
  EXPECT_EQ(tc().dc_fills, 2u);
  EXPECT_EQ(tc().stall_dcache_miss, 2u * kDFill);
  expect_cycles_accounted();
}

TEST_F(CacheTest, DcacheDirectMappedEviction) {
  setup_data(4, 0, kCcrDcOn);
  core->set_reg(G2, kData + 4096);  // same set, other tag
  EXPECT_EQ(cycles_of({enc_ld(G3, G1, 0), enc_ld(G3, G2, 0), enc_ld(G3, G1, 4)}), 3 + kTa + 3 * kDFill);
  EXPECT_FALSE(core->cache_holds(false, kData + 4096));
  EXPECT_TRUE(core->cache_holds(false, kData));
}

TEST_F(CacheTest, DcacheDisabledAndFrozen) {
  setup_data(4, 0, 0);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 0)}), 2 + kTa + 2 * (3 + 4));
  EXPECT_EQ(tc().dc_uncached_reads, 2u);
  setup_data(4, 0, kCcrDcFrozen);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 0)}), 2 + kTa + 2 * (3 + 4));
  EXPECT_EQ(tc().dc_read_misses, 2u);
  EXPECT_EQ(tc().dc_fills, 0u);
  EXPECT_FALSE(core->cache_holds(false, kData));
}

TEST_F(CacheTest, DcacheFrozenStillHits) {
  setup_data(4, 0, kCcrDcOn);
  core->set_reg(G5, kCcrDcFrozen);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), mema(STA, G5, G0, G0, 2), enc_ld(G3, G1, 4), enc_ld(G3, G1, 16)}),
            1 + 2 + 1 + 1 + kTa + kDFill + (3 + 4));
  EXPECT_EQ(tc().dc_read_hits, 1u);
  EXPECT_FALSE(core->cache_holds(false, kData + 16));
}

TEST_F(CacheTest, WriteThroughWithoutAllocation) {
  setup_data(4, 0, kCcrDcOn);
  EXPECT_EQ(cycles_of({enc_st(G0, G1, 0), enc_ld(G2, G1, 0)}), 2 + 1 + kTa + kDFill);
  EXPECT_EQ(tc().dc_write_misses, 1u);
  EXPECT_EQ(tc().dc_read_misses, 1u);
  setup_data(4, 0, kCcrDcOn);
  core->set_reg(G5, 0x1234);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_st(G5, G1, 4), enc_ld(G3, G1, 4)}), 1 + 2 + 1 + kTa + kDFill);
  EXPECT_EQ(tc().dc_write_hits, 1u);
  EXPECT_EQ(tc().dc_read_hits, 1u);
  EXPECT_EQ(core->reg(G3), 0x1234u);  // data always comes from memory
  EXPECT_EQ(bus.r32(kData + 4), 0x1234u);
}

// Store-buffer tests keep instruction fetches off the bus: the I-cache is on
// and the program fits one line, filled once at the start (0 + 0 + 7 beats).
TEST_F(CacheTest, WriteBufferStallsTheNextStoreUntilDrained) {
  constexpr uint64_t kIFill = 7;
  setup(0, 4, 4, kCcrIcOn | kCcrDcOn, false);
  // st at 7 (buffer busy until 11), 2nd st at 9 waits 2, then 2 + ta
  EXPECT_EQ(cycles_of({enc_st(G0, G1, 0), enc_st(G0, G1, 4)}), kIFill + 2 + 2 + 2 + kTa);
  EXPECT_EQ(tc().stall_write_buffer, 2u);
  EXPECT_EQ(tc().wb_stalls, 1u);
  setup(0, 4, 2, kCcrIcOn | kCcrDcOn, false);  // drains in 2: no stall
  EXPECT_EQ(cycles_of({enc_st(G0, G1, 0), enc_st(G0, G1, 4)}), kIFill + 2 + 2 + kTa);
  EXPECT_EQ(tc().stall_write_buffer, 0u);
  setup(0, 4, 2, kCcrIcOn | kCcrDcOn, false);  // STD: a 2-beat write, drains in 2 + 1
  EXPECT_EQ(cycles_of({memi(STD, G2, G1, 0), enc_st(G0, G1, 8)}), kIFill + 3 + 2 + kTa);
  setup(0, 4, 5, kCcrIcOn | kCcrDcOn, false);  // drains in 6, next store 3 cycles later
  EXPECT_EQ(cycles_of({memi(STD, G2, G1, 0), enc_st(G0, G1, 8)}), kIFill + 3 + (6 - 3) + 2 + kTa);
  setup(0, 4, 4, kCcrIcOn | kCcrDcOn, false);  // two ALU insns cover the drain
  EXPECT_EQ(cycles_of({enc_st(G0, G1, 0), enc_nop(), enc_nop(), enc_st(G0, G1, 4)}),
            kIFill + 2 + 1 + 1 + 2 + kTa);
  EXPECT_EQ(tc().stall_write_buffer, 0u);
  expect_cycles_accounted();
}

TEST_F(CacheTest, ReadMissWaitsForTheWriteBuffer) {
  setup(0, 4, 4, kCcrIcOn | kCcrDcOn, false);
  // st at 7 (busy until 11); ld at 9 misses: waits 2, then fills
  EXPECT_EQ(cycles_of({enc_st(G0, G1, 0), enc_ld(G2, G1, 0)}), 7 + 2 + 1 + 2 + kDFill + kTa);
  EXPECT_EQ(tc().stall_write_buffer, 2u);
}

TEST_F(CacheTest, UncachedFetchWaitsForTheWriteBuffer) {
  setup_data(4, 4, kCcrDcOn);  // I-cache off: every fetch uses the bus
  // st at 0 (busy until 4); fetch of the 2nd st at 2 waits 2; it issues at 4
  // (buffer free), busy until 8; fetch of ta at 6 waits 2
  EXPECT_EQ(cycles_of({enc_st(G0, G1, 0), enc_st(G0, G1, 4)}), 2 + 2 + 2 + 2 + kTa);
  EXPECT_EQ(tc().stall_write_buffer, 4u);
  EXPECT_EQ(tc().wb_stalls, 2u);
}

TEST_F(CacheTest, ForcedMissAsiAlwaysGoesToTheBus) {
  setup_data(4, 0, kCcrDcOn);
  bus.latency = 6;
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), mema(LDA, G3, G1, G0, 0x01)}), 1 + 1 + kTa + kDFill + (3 + 6));
  EXPECT_EQ(tc().stall_bus, 9u);
  ASSERT_EQ(bus.log.size(), 1u);
  EXPECT_EQ(bus.log[0].asi, 0x01);
  EXPECT_EQ(tc().dc_read_hits, 0u);
}

TEST_F(CacheTest, DcacheFillIsOneBurstOnTheBusAndHitsCostNothing) {
  tcfg.timing.icache_miss_cycles = 0;
  tcfg.timing.dcache_miss_cycles = 3;
  make(tcfg);
  core->add_dmi(0, kData - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(),
                bus.ram.data());  // data only on the bus
  core->set_ccr(kCcrDcOn);
  core->set_reg(G1, kData);
  bus.latency = 5;
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 8)}), 2 + kTa + 3 + 5);
  // One bus transaction: the line fill. The miss's data comes from the burst,
  // the hit's from a debug read (no bus cycle on hardware).
  ASSERT_EQ(bus.log.size(), 1u);
  EXPECT_EQ(bus.log[0].len, 16u);
  EXPECT_EQ(bus.log[0].addr, kData);
  EXPECT_EQ(bus.log[0].kind, CoreBus::Kind::Read);
  EXPECT_EQ(bus.peeks, 1u);
  EXPECT_EQ(core->reg(G2), bus.r32(kData));
  EXPECT_EQ(core->reg(G3), bus.r32(kData + 8));
  EXPECT_EQ(tc().ahb_reads, 1u + tc().ic_uncached);  // the fill + the uncached fetches
}

// AHB arbitration side-band (Core::set_bus_arbitration): a DMI-served
// transaction asks the arbiter only when the core's previous one was taken
// by the arbiter (another access was routed since); the wait delays it.
TEST_F(CacheTest, ArbitrationSideBandAsksOnlyAfterAnotherRoutedAccess) {
  tcfg.timing.icache_miss_cycles = 0;
  tcfg.timing.dcache_miss_cycles = kOver;
  tcfg.timing.burst_beat_cycles = 1;
  make(tcfg);
  core->add_dmi(0, kData - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  core->add_dmi(kData, kData + 0xFF, bus.ram.data() + kData, true, true, 4, 2, bus.gen.data(),
                bus.ram.data());  // +0x200: bus only
  core->set_ccr(kCcrIcOn | kCcrDcOn);
  core->set_reg(G1, kData);
  core->set_bus_arbitration(true);
  std::vector<std::pair<uint64_t, uint64_t>> taken;
  bus.on_access = [&](const RamBus::Access&) {  // the arbiter takes the core's interval first
    uint64_t s, e;
    if (core->take_bus_interval(s, e)) taken.emplace_back(s, e);
  };
  bus.arb_waits = {0, 3};
  // I-fill [0, 7) asks (nothing known yet); st1 [7, 9) does not; st2 is
  // routed (takes st1's interval); st3 at 11 asks again, waits 3: [14, 16).
  EXPECT_EQ(cycles_of({enc_st(G0, G1, 0), enc_st(G0, G1, 0x200), enc_st(G0, G1, 4)}), 7 + 2 + 2 + 2 + kTa);
  ASSERT_EQ(bus.arb_calls.size(), 2u);
  EXPECT_EQ(bus.arb_calls[0], std::make_pair(uint64_t(0), uint64_t(7)));
  EXPECT_EQ(bus.arb_calls[1], std::make_pair(uint64_t(11), uint64_t(2)));
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0], std::make_pair(uint64_t(7), uint64_t(9)));
  uint64_t s = 0, e = 0;
  ASSERT_TRUE(core->take_bus_interval(s, e));
  EXPECT_EQ(s, 14u);
  EXPECT_EQ(e, 16u);
  EXPECT_FALSE(core->take_bus_interval(s, e));  // taken once
  EXPECT_EQ(tc().ahb_writes, 3u);
  EXPECT_EQ(tc().ahb_reads, 1u);  // the I-cache fill
}

TEST_F(CacheTest, ArbitrationWaitDelaysALineFill) {
  tcfg.timing.icache_miss_cycles = 0;
  tcfg.timing.dcache_miss_cycles = kOver;
  tcfg.timing.burst_beat_cycles = 1;
  make(tcfg);  // code fetched over the bus (routed, latency 0), data from DMI
  core->add_dmi(kData, kRamSize - 1, bus.ram.data() + kData, true, true, 4, 0, bus.gen.data(),
                bus.ram.data());
  core->set_ccr(kCcrDcOn);
  core->set_reg(G1, kData);
  core->set_bus_arbitration(true);
  bus.on_access = [&](const RamBus::Access&) {
    uint64_t s, e;
    core->take_bus_interval(s, e);
  };
  bus.arb_waits = {5};
  // The D-cache fill (DMI, 4 + 3 beats) asks at cycle 0 and waits 5.
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0)}), 1 + kTa + kDFill + 5);
  ASSERT_EQ(bus.arb_calls.size(), 1u);
  EXPECT_EQ(bus.arb_calls[0], std::make_pair(uint64_t(0), uint64_t(7)));
  EXPECT_EQ(tc().stall_dcache_miss, kDFill + 5);
}

TEST_F(CacheTest, HitWithoutDebugReadFallsBackToAnUnchargedBusRead) {
  tcfg.timing.icache_miss_cycles = 0;
  tcfg.timing.dcache_miss_cycles = 3;
  make(tcfg);
  core->add_dmi(0, kData - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  core->set_ccr(kCcrDcOn);
  core->set_reg(G1, kData);
  bus.w32(kData + 8, 0x12345678);
  bus.latency = 5;
  bus.peek_enabled = false;
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_ld(G3, G1, 8)}), 2 + kTa + 3 + 5);
  ASSERT_EQ(bus.log.size(), 2u);  // burst, then the hit's word (latency not charged)
  EXPECT_EQ(bus.log[1].len, 4u);
  EXPECT_EQ(core->reg(G3), 0x12345678u);
  EXPECT_EQ(tc().ahb_reads, 1u + tc().ic_uncached);  // the fill + fetches, not the hit
}

TEST_F(CacheTest, FlushInstructionFlushesBothCaches) {
  setup_data(4, 0, kCcrIcOn | kCcrDcOn);
  exec({enc_ld(G2, G1, 0), enc_flush(G0, 0), enc_ld(G3, G1, 0)});
  EXPECT_EQ(tc().dc_read_misses, 2u);
  EXPECT_EQ(tc().ic_flushes, 1u);
  EXPECT_EQ(tc().dc_flushes, 1u);
  EXPECT_EQ(tc().ic_misses, 2u);  // line 0x4000 again after the flush
}

TEST_F(CacheTest, CcrFlushBits) {
  setup_data(4, 0, kCcrIcOn | kCcrDcOn);
  core->set_reg(G5, kCcrIcOn | kCcrDcOn | (1 << 22));  // FD
  exec({enc_ld(G2, G1, 0), mema(STA, G5, G0, G0, 2)});
  EXPECT_FALSE(core->cache_holds(false, kData));
  EXPECT_TRUE(core->cache_holds(true, kCode));
  EXPECT_EQ(core->ccr(), kCcrIcOn | kCcrDcOn);  // FD reads 0
  core->set_ccr(kCcrIcOn | (1 << 21));          // FI
  EXPECT_FALSE(core->cache_holds(true, kCode));
}

TEST_F(CacheTest, FlushAsis) {
  setup_data(4, 0, kCcrIcOn | kCcrDcOn);
  exec({enc_ld(G2, G1, 0), mema(STA, G0, G0, G0, 0x10)});  // I-cache only
  EXPECT_TRUE(core->cache_holds(false, kData));
  EXPECT_EQ(tc().ic_flushes, 1u);
  EXPECT_EQ(tc().dc_flushes, 0u);
  setup_data(4, 0, kCcrIcOn | kCcrDcOn);
  exec({enc_ld(G2, G1, 0), mema(STA, G0, G0, G0, 0x11)});  // D-cache only
  EXPECT_FALSE(core->cache_holds(false, kData));
  EXPECT_TRUE(core->cache_holds(true, kCode));
}

TEST_F(CacheTest, SnoopInvalidatesOnlyWhenEnabled) {
  setup_data(4, 0, kCcrDcOn | kCcrDS);
  exec({enc_ld(G2, G1, 0), enc_ld(G2, G1, 32)});
  core->snoop_write(kData + 0x100, 4);  // unrelated line
  EXPECT_EQ(tc().snoop_invalidations, 0u);
  core->snoop_write(kData + 8, 4);
  EXPECT_FALSE(core->cache_holds(false, kData));
  EXPECT_TRUE(core->cache_holds(false, kData + 32));
  EXPECT_EQ(tc().snoop_invalidations, 1u);

  setup_data(4, 0, kCcrDcOn);  // DS = 0
  exec({enc_ld(G2, G1, 0)});
  core->snoop_write(kData, 16);
  EXPECT_TRUE(core->cache_holds(false, kData));

  tcfg.dcache.snoop = false;  // not implemented: DS has no effect
  setup_data(4, 0, kCcrDcOn | kCcrDS);
  exec({enc_ld(G2, G1, 0)});
  core->snoop_write(kData, 16);
  EXPECT_TRUE(core->cache_holds(false, kData));
}

TEST_F(CacheTest, SnoopedLineMissesAgain) {
  setup_data(4, 0, kCcrDcOn | kCcrDS);
  bus.on_access = nullptr;
  load({enc_ld(G2, G1, 0), enc_ld(G3, G1, 4), enc_ta(0)});
  // run the first load only, snoop, then the rest
  core->run(2);
  EXPECT_EQ(core->pc(), kCode + 4);
  core->snoop_write(kData, 4);
  core->run(1000);
  EXPECT_EQ(tc().dc_read_misses, 2u);
}

TEST_F(CacheTest, ConfigRegistersFromGeometry) {
  for (bool timed : {false, true}) {
    CoreConfig cfg;
    cfg.timed = timed;
    make(cfg);
    exec({enc_movi(G4, 8), mema(LDA, G2, G4, G0, 2), enc_movi(G4, 12), mema(LDA, G3, G4, G0, 2)});
    EXPECT_EQ(core->reg(G2), 0x11230008u);
    EXPECT_EQ(core->reg(G3), 0x08220008u);
  }
  tcfg.icache = CacheConfig{4, 8, 16, CacheRepl::Random, 1, false};
  tcfg.dcache = CacheConfig{2, 2, 32, CacheRepl::Lrr, 1, false};
  tcfg.mmu_present = false;
  remake();
  exec({enc_movi(G4, 8), mema(LDA, G2, G4, G0, 2), enc_movi(G4, 12), mema(LDA, G3, G4, G0, 2)});
  EXPECT_EQ(core->reg(G2), 0x33320000u);
  EXPECT_EQ(core->reg(G3), 0x21130000u);
}

TEST_F(CacheTest, InterruptFreezesCachesWhenIfDfSet) {
  setup_data(0, 0, kCcrIcOn | kCcrDcOn | 0x30);  // IF, DF
  enable_traps();
  core->set_irl(15);
  exec({enc_nop()});
  EXPECT_EQ(core->ccr(), kCcrIcFrozen | kCcrDcFrozen | 0x30);
}

TEST_F(CacheTest, ResetInvalidatesTheCaches) {
  setup_data(4, 0, kCcrDcOn);
  exec({enc_ld(G2, G1, 0)});
  EXPECT_TRUE(core->cache_holds(false, kData));
  core->reset();
  EXPECT_EQ(core->ccr(), 0u);
  EXPECT_FALSE(core->cache_holds(false, kData));
}

}  // namespace
}  // namespace l3vp::leon3::test
