// Regions against the statistics registry alone (fake counters, no core):
// a counter whose registration says .per_region(key) appears in every
// regions[] record as key, summed over the BEGIN..END pairs; nothing else
// has to change for it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <stdexcept>
#include <systemc>  // sc_main

#include "profiler.h"
#include "stats.h"

using namespace l3vp;

namespace {

// A model with a few counters; `extra_per_region` marks one more of them.
struct FakeModel {
  uint64_t hits = 0, misses = 0, lazy = 0, lazy_source = 0;
  uint64_t per_lane[2] = {0, 0};
  void register_stats(const StatsGroup& g, bool extra_per_region) {
    g.prepare([this] { lazy = lazy_source; });  // brought up to date only when read
    g.counter("hits", &hits, StatUnit::Count, StatInv::Yes, "Hits.").per_region("hits", "Hits here.");
    auto m = g.counter("misses", &misses, StatUnit::Count, StatInv::Yes, "Misses.");
    if (extra_per_region) m.per_region("fake.misses");
    g.counter("lazy", &lazy, StatUnit::Count, StatInv::Yes, "Lazy.").per_region("lazy");
    g.vector("lanes", {"a", "b"}, StatUnit::Count, StatInv::Yes, "Per lane.", [this](unsigned i) {
       return per_lane[i];
     }).per_region("lanes");
  }
};

struct Bench {
  StatsRegistry reg;
  FakeModel m;
  Regions regions;
  explicit Bench(bool extra) {
    m.register_stats(reg.root().sub("model"), extra);
    regions.register_stats(reg.root());
  }
  // Region 7 around 3 hits, 2 misses, 4 lazy, lanes +1/+5; outside it more of each.
  nlohmann::json run() {
    m.hits = 10, m.misses = 20, m.lazy_source = 30;
    regions.mark(true, 7);
    m.hits += 3, m.misses += 2, m.lazy_source += 4, m.per_lane[0] += 1, m.per_lane[1] += 5;
    regions.mark(false, 7);
    m.hits += 100, m.misses += 100, m.lazy_source += 100;
    return reg.to_json()["regions"];
  }
};

}  // namespace

// Profiler::window (the spans' windows): every PC of the window of pc is
// attributed to pc's function, and the window ends where the attribution
// may change. Symbols: FUNCs that nest, overlap, touch and leave gaps,
// labels inside and between them, a FUNC without size (ignored).
TEST(Profiler, WindowsHoldOneFunctionEach) {
  ElfImage img;
  using T = ElfSymbol::Type;
  img.symbols = {
      {"a", 0x100, 0x40, T::Func},    {"inner", 0x110, 0x10, T::Func}, {"b", 0x140, 0x20, T::Func},
      {"over", 0x150, 0x40, T::Func}, {"lab", 0x1a0, 0, T::NoType},    {"lab2", 0x1c8, 0, T::NoType},
      {"c", 0x200, 0x8, T::Func},     {"nosize", 0x1d0, 0, T::Func},   {"in_a", 0x120, 0, T::NoType}};
  Profiler p;
  p.set_symbols(img);
  unsigned windows = 0;
  for (uint32_t pc = 0xc0; pc < 0x240; pc += 4) {
    uint32_t lo = 0, last = 0;
    p.window(pc, lo, last);
    ASSERT_LE(lo, pc);
    ASSERT_GE(last, pc);
    const std::string f = p.function_of(pc);
    for (uint32_t q = std::max(lo, 0xc0u); q <= std::min(last, 0x23cu); q += 4)
      EXPECT_EQ(p.function_of(q), f) << q;
    if (pc == lo) ++windows;
  }
  EXPECT_GE(windows, 10u);
  uint32_t lo = 0, last = 0;
  p.window(0x104, lo, last);  // a, up to inner
  EXPECT_EQ(lo, 0x100u);
  EXPECT_EQ(last, 0x10fu);
  p.window(0x300, lo, last);  // after every symbol
  EXPECT_EQ(lo, 0x208u);
  EXPECT_EQ(last, 0xFFFFFFFFu);
  p.window(0x10, lo, last);  // before every symbol
  EXPECT_EQ(lo, 0u);
  EXPECT_EQ(last, 0xFFu);
}

TEST(Regions, FiguresComeFromTheRegistry) {
  Bench b(false);
  const nlohmann::json r = b.run();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["id"], 7);
  EXPECT_EQ(r[0]["entries"], 1);
  EXPECT_EQ(r[0]["hits"], 3);
  EXPECT_EQ(r[0]["lazy"], 4);  // the prepare function ran at both marks
  EXPECT_EQ(r[0]["lanes"], (nlohmann::json{{"a", 1}, {"b", 5}}));
  EXPECT_FALSE(r[0].contains("misses"));  // not marked per region
  EXPECT_FALSE(r[0].contains("fake"));
  EXPECT_FALSE(r[0].contains("cpi"));  // no cycles/instructions figures to derive it from
  EXPECT_EQ(b.regions.sum(b.regions.regions().at(7), "lanes.b"), 5u);
  EXPECT_THROW(b.regions.sum(b.regions.regions().at(7), "misses"), std::out_of_range);
}

TEST(Regions, MarkingAFurtherCounterAddsItsField) {
  Bench plain(false), extra(true);
  nlohmann::json p = plain.run(), e = extra.run();
  ASSERT_TRUE(e[0].contains("fake"));
  EXPECT_EQ(e[0]["fake"]["misses"], 2);  // dotted key nests like the others
  e[0].erase("fake");
  EXPECT_EQ(e, p);  // nothing else moved
  // ... and its schema row, with the default description.
  bool found = false;
  for (const StatInfo& i : extra.reg.schema())
    if (i.path == "regions[].fake.misses") {
      found = true;
      EXPECT_EQ(i.desc, "As `model.misses`.");
      EXPECT_EQ(i.inv, StatInv::Yes);
    }
  EXPECT_TRUE(found);
}

TEST(Regions, CpiIsDerivedFromTheFigures) {
  StatsRegistry reg;
  uint64_t cycles = 0, idle = 0, instrs = 0;
  const StatsGroup g = reg.root();
  g.counter(
       "cycles", [&] { return cycles; }, StatUnit::Cycles, StatInv::Yes, "C.")
      .per_region("cycles");
  g.counter("idle", &idle, StatUnit::Cycles, StatInv::Yes, "I.").per_region("idle_cycles");
  g.counter("instrs", &instrs, StatUnit::Count, StatInv::Yes, "N.").per_region("instructions");
  Regions regions;
  regions.register_stats(g);
  regions.mark(true, 1);
  cycles += 50, idle += 10, instrs += 20;
  regions.mark(false, 1);
  regions.mark(true, 2);  // never closed: zeros, open
  const nlohmann::json r = reg.to_json()["regions"];
  ASSERT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r[0]["cpi"].get<double>(), 2.0);  // (50 - 10) / 20
  EXPECT_EQ(r[1]["cycles"], 0);
  EXPECT_EQ(r[1]["open"], true);
  EXPECT_DOUBLE_EQ(r[1]["cpi"].get<double>(), 0.0);
}

TEST(Regions, PerRegionNamesMustNotCollide) {
  StatsRegistry reg;
  uint64_t a = 0, b = 0;
  reg.root().counter("a", &a, StatUnit::Count, StatInv::Yes, "A.").per_region("x.y");
  EXPECT_THROW(reg.root().counter("b", &b, StatUnit::Count, StatInv::Yes, "B.").per_region("x"),
               std::logic_error);
  StatsRegistry reg2;
  reg2.root().counter("a", &a, StatUnit::Count, StatInv::Yes, "A.").per_region("entries");
  Regions regions;
  EXPECT_THROW(regions.register_stats(reg2.root()), std::logic_error);  // a fixed field of regions[]
}

// l3vp_platform brings SystemC, whose library calls sc_main: this program's
// main is SystemC's.
int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
