// The energy model with hand-computed totals: counters set by hand, AHB
// transactions and step records fed to the listeners directly.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ahb_ctrl.h"
#include "energy_model.h"
#include "profiler.h"
#include "stats.h"

using l3vp::AhbTransaction;
using l3vp::energy::EnergyModel;
using l3vp::energy::Profile;
using l3vp::energy::ProfileError;
using nlohmann::json;

namespace {

// A profile with whole-pJ coefficients that are easy to add by hand.
json simple_profile() {
  return json::parse(R"({
    "format": 1, "name": "t",
    "instruction_pj": {"alu": 10, "load": 20, "store": 30, "branch": 5, "call_jmpl": 7,
                       "mul": 40, "div": 100, "save_restore": 11, "trap": 13, "other": 3},
    "icache_miss_pj": 50, "dcache_miss_pj": 60,
    "stall_cycle_pj": 2, "idle_cycle_pj": 1,
    "static_mw": 1,
    "ahb_transfer_pj": {"default": 4, "greth": 6},
    "apb_access_pj": 9,
    "sdram_read_word_pj": 8, "sdram_write_word_pj": 12
  })");
}

json scaled(json j, unsigned k) {
  for (const char* key : {"icache_miss_pj", "dcache_miss_pj", "stall_cycle_pj", "idle_cycle_pj", "static_mw",
                          "apb_access_pj", "sdram_read_word_pj", "sdram_write_word_pj"})
    j[key] = j[key].get<double>() * k;
  for (auto& [c, v] : j["instruction_pj"].items()) v = v.get<double>() * k;
  for (auto& [m, v] : j["ahb_transfer_pj"].items()) v = v.get<double>() * k;
  if (j.contains("pair_pj"))
    for (auto& [a, row] : j["pair_pj"].items())
      for (auto& [b, v] : row.items()) v = v.get<double>() * k;
  return j;
}

// A board: counters the test sets, an energy model over them.
struct Board {
  l3vp::leon3::CoreCounters ctr;
  l3vp::leon3::CoreTimingCounters tctr;
  uint64_t cycles = 0;
  std::unique_ptr<EnergyModel> model;

  explicit Board(const json& profile) {
    EnergyModel::CoreView cv;
    cv.ctr = [this]() -> const l3vp::leon3::CoreCounters& { return ctr; };
    cv.tctr = [this]() -> const l3vp::leon3::CoreTimingCounters& { return tctr; };
    cv.cycles = [this] { return cycles; };
    cv.clock_hz = 40000000;
    EnergyModel::BusView bv;
    bv.cpu_master = 0;
    bv.masters = {{0, "leon3"}, {4, "greth"}};
    bv.read = [this](std::vector<EnergyModel::MasterCounts>& out) {
      for (size_t i = 0; i < out.size(); ++i) {
        out[i].beats = counts[i].beats;
        out[i].sdram_read_words = counts[i].sdram_read_words;
        out[i].sdram_write_words = counts[i].sdram_write_words;
        out[i].apb_accesses = counts[i].apb_accesses;
      }
    };
    model = std::make_unique<EnergyModel>(l3vp::energy::parse_profile(profile, "test"), cv, bv);
  }
  // The platform's counts of one transaction (what Leon3mp's reader sums):
  // every beat on the AHB; SDRAM words for the RAM bar; one APB access.
  enum class To { Sdram, Prom, Apb };
  EnergyModel::MasterCounts counts[2];
  void bus(unsigned master, To to, AhbTransaction::Kind k, unsigned bytes) {
    EnergyModel::MasterCounts& c = counts[master == 0 ? 0 : 1];
    const unsigned beats = (bytes + 3) / 4;
    c.beats += beats;
    if (to == To::Sdram)
      (k == AhbTransaction::Kind::Write ? c.sdram_write_words : c.sdram_read_words) += beats;
    if (to == To::Apb) ++c.apb_accesses;
  }
  void step(l3vp::leon3::InsnClass c) {
    l3vp::leon3::StepRecord s;
    s.cls = c;
    s.retired = 1;
    model->on_step(s);
  }
  // A fixed run: 10 ALU, 5 loads, 3 stores; 2 I-misses, 1 D-read miss;
  // stalls: 1 annulled slot, 2 trap-entry cycles, 4 bus stall cycles;
  // 100 idle cycles of 200; bus: a 4-word fill from SDRAM, a 1-word store
  // to SDRAM, an APB read, a PROM read; GRETH writes 16 bytes to SDRAM.
  void fixed_run() {
    using C = l3vp::leon3::InsnClass;
    ctr.by_class[unsigned(C::Alu)] = 10;
    ctr.by_class[unsigned(C::Load)] = 5;
    ctr.by_class[unsigned(C::Store)] = 3;
    tctr.ic_misses = 2;
    tctr.dc_read_misses = 1;
    tctr.dc_write_misses = 7;  // write misses cost nothing extra (no allocation)
    tctr.annul_cycles = 1;
    tctr.trap_cycles = 2;
    tctr.stall_bus = 4;
    ctr.idle_cycles = 100;
    cycles = 200;
    using K = AhbTransaction::Kind;
    bus(0, To::Sdram, K::Fetch, 16);
    bus(0, To::Sdram, K::Write, 4);
    bus(0, To::Apb, K::Read, 4);
    bus(0, To::Prom, K::Read, 4);  // PROM: AHB beat, no SDRAM word
    bus(4, To::Sdram, K::Write, 16);
  }
};

// The fixed run's energy by hand, in fJ.
constexpr uint64_t kInsn = (10 * 10 + 5 * 20 + 3 * 30) * 1000;  // 290 pJ
constexpr uint64_t kStall = 7 * 2 * 1000;                       // 14 pJ
constexpr uint64_t kIcache = 2 * 50 * 1000, kDcache = 1 * 60 * 1000;
constexpr uint64_t kAhb = (4 + 1 + 1 + 1) * 4 * 1000;  // CPU beats x 4 pJ
constexpr uint64_t kApbE = 9 * 1000;
constexpr uint64_t kSdram = (4 * 8 + 1 * 12) * 1000;
constexpr uint64_t kStatic = 5000000;  // 1 mW x 200 x 25 ns = 5 nJ
constexpr uint64_t kIdle = 100 * 1 * 1000;
constexpr uint64_t kDma = (4 * 6 + 4 * 12) * 1000;  // GRETH: 4 beats x 6 pJ + 4 words x 12 pJ

}  // namespace

TEST(EnergyModel, HandComputedTotalsCoarse) {
  Board b(simple_profile());
  b.fixed_run();
  const EnergyModel& m = *b.model;
  EXPECT_FALSE(m.profile().fine());
  EXPECT_EQ(m.stall_cycles(), 7u);
  EXPECT_EQ(m.component(EnergyModel::Core), kInsn + kStall);
  EXPECT_EQ(m.component(EnergyModel::ICache), kIcache);
  EXPECT_EQ(m.component(EnergyModel::DCache), kDcache);
  EXPECT_EQ(m.component(EnergyModel::Ahb), kAhb);
  EXPECT_EQ(m.component(EnergyModel::Apb), kApbE);
  EXPECT_EQ(m.component(EnergyModel::Sdram), kSdram);
  EXPECT_EQ(m.component(EnergyModel::Static), kStatic);
  EXPECT_EQ(m.component(EnergyModel::Idle), kIdle);
  EXPECT_EQ(m.component(EnergyModel::GrethDma), kDma);
  const uint64_t cpu = kInsn + kStall + kIcache + kDcache + kAhb + kApbE + kSdram + kStatic + kIdle;
  EXPECT_EQ(m.cpu_total(), cpu);
  EXPECT_EQ(m.total(), cpu + kDma);
  using C = l3vp::leon3::InsnClass;
  EXPECT_EQ(m.class_energy(unsigned(C::Load)), 5u * 20000u);
  EXPECT_EQ(m.class_energy(unsigned(C::Div)), 0u);
  ASSERT_EQ(m.masters().size(), 2u);
  EXPECT_EQ(m.masters()[0].beats, 7u);
  EXPECT_EQ(m.masters()[0].sdram_read_words, 4u);
  EXPECT_EQ(m.masters()[0].sdram_write_words, 1u);
  EXPECT_EQ(m.masters()[0].apb_accesses, 1u);
  EXPECT_EQ(m.masters()[1].sdram_write_words, 4u);
}

TEST(EnergyModel, FineModePairOverheads) {
  json p = simple_profile();
  p["pair_pj"] = json::parse(R"({"alu": {"load": 3.5}, "load": {"alu": 1.25, "load": 100}})");
  Board b(p);
  ASSERT_TRUE(b.model->profile().fine());
  using C = l3vp::leon3::InsnClass;
  // alu load alu load alu: pairs alu->load x2, load->alu x2; a trap step
  // without a retired instruction leaves the previous class alone.
  for (C c : {C::Alu, C::Load, C::Alu, C::Load}) b.step(c);
  l3vp::leon3::StepRecord irq;
  irq.trapped = irq.interrupt = true;
  b.model->on_step(irq);
  b.step(C::Alu);
  b.ctr.by_class[unsigned(C::Alu)] = 3;
  b.ctr.by_class[unsigned(C::Load)] = 2;
  EXPECT_EQ(b.model->pairs_energy(), 2 * 3500u + 2 * 1250u);
  EXPECT_EQ(b.model->class_energy(unsigned(C::Load)), 2 * 20000u + 2 * 3500u);
  EXPECT_EQ(b.model->class_energy(unsigned(C::Alu)), 3 * 10000u + 2 * 1250u);
  EXPECT_EQ(b.model->component(EnergyModel::Core), 3 * 10000u + 2 * 20000u + 2 * 3500u + 2 * 1250u);
}

TEST(EnergyModel, DoublingEveryCoefficientDoublesEveryEnergy) {
  for (bool fine : {false, true}) {
    json p = simple_profile();
    if (fine) p["pair_pj"] = json::parse(R"({"alu": {"alu": 0.125, "load": 7}})");
    Board a(p), b(scaled(p, 2));
    for (Board* x : {&a, &b}) {
      x->fixed_run();
      using C = l3vp::leon3::InsnClass;
      for (C c : {C::Alu, C::Alu, C::Load}) x->step(c);
    }
    for (unsigned c = 0; c < EnergyModel::kComps; ++c)
      EXPECT_EQ(b.model->component(c), 2 * a.model->component(c)) << EnergyModel::kCompNames[c];
    for (unsigned c = 0; c < l3vp::energy::kClasses; ++c)
      EXPECT_EQ(b.model->class_energy(c), 2 * a.model->class_energy(c));
    EXPECT_EQ(b.model->total(), 2 * a.model->total());
    EXPECT_GT(a.model->total(), 0u);
  }
}

TEST(EnergyModel, FlatProfileIsInstructionsTimesCoefficient) {
  const Profile flat = l3vp::energy::load_profile("flat");
  Board b(flat.json);
  b.fixed_run();
  EXPECT_EQ(b.model->total(), (10u + 5u + 3u) * 39500u);
  EXPECT_EQ(b.model->cpu_total(), b.model->total());
}

TEST(EnergyModel, StaticEnergyIsExactOverLongRuns) {
  Board b(simple_profile());
  // 1 mW for 10^12 cycles at 40 MHz = 25000 s = 25 J = 2.5e16 fJ (no overflow, no drift).
  EXPECT_EQ(b.model->static_energy(1000000000000ull), 25000000000000000ull);
  EXPECT_EQ(b.model->static_energy(1), 25000u);  // 1 mW x 25 ns = 25 pJ
}

TEST(EnergyModel, RegionsAddUpToTheTotal) {
  Board b(simple_profile());
  l3vp::StatsRegistry reg;
  b.model->register_stats(reg.root().sub("energy"));
  l3vp::Regions regions;
  regions.register_stats(reg.root());
  using C = l3vp::leon3::InsnClass;
  // Three regions that partition the run, one of them entered twice.
  regions.mark(true, 1);
  b.ctr.by_class[unsigned(C::Alu)] += 4;
  b.cycles += 10;
  regions.mark(false, 1);
  regions.mark(true, 2);
  b.tctr.ic_misses += 1;
  b.bus(0, Board::To::Sdram, AhbTransaction::Kind::Fetch, 32);
  b.cycles += 30;
  regions.mark(false, 2);
  regions.mark(true, 1);
  b.ctr.by_class[unsigned(C::Store)] += 2;
  b.bus(0, Board::To::Apb, AhbTransaction::Kind::Write, 4);
  b.cycles += 7;
  regions.mark(false, 1);
  uint64_t sum = 0;
  for (const auto& [id, r] : regions.regions()) {
    sum += regions.sum(r, "energy_fj");
    uint64_t parts = 0;
    for (unsigned c = 0; c < EnergyModel::kCpuComps; ++c)
      parts += regions.sum(r, std::string("energy.") + EnergyModel::kCompNames[c]);
    EXPECT_EQ(parts, regions.sum(r, "energy_fj")) << id;
  }
  EXPECT_EQ(sum, b.model->cpu_total());
  // Region 1 by hand: 4 ALU + 2 stores, an APB access, 17 cycles of static.
  const auto& r1 = regions.regions().at(1);
  EXPECT_EQ(regions.sum(r1, "energy_fj"), 4 * 10000u + 2 * 30000u + 4000u + 9000u + 17 * 25000u);
  // --stats carries the same.
  const json st = reg.to_json();
  EXPECT_EQ(st["energy"]["cpu_fj"].get<uint64_t>(), b.model->cpu_total());
  EXPECT_EQ(st["regions"][0]["energy_fj"].get<uint64_t>(), regions.sum(r1, "energy_fj"));
}

TEST(EnergyProfile, ShippedProfilesLoad) {
  const auto names = l3vp::energy::shipped_profiles();
  ASSERT_EQ(names, (std::vector<std::string>{"flat", "leon3-90nm-estimate"}));
  for (const std::string& n : names) {
    const Profile p = l3vp::energy::load_profile(n);
    EXPECT_EQ(p.name, n);
    EXPECT_EQ(p.origin, "shipped:" + n);
  }
  const Profile e = l3vp::energy::load_profile("leon3-90nm-estimate");
  EXPECT_EQ(e.stall_cycle_fj, 5497u);
  EXPECT_EQ(e.static_nw, 898700u);
  EXPECT_EQ(e.insn_fj[0], 36000u);
}

// Each bad profile gives a ProfileError whose text names the key.
TEST(EnergyProfile, BadProfilesNameTheKey) {
  struct Case {
    const char* what;
    std::function<void(json&)> edit;
    const char* key;
  };
  const std::vector<Case> cases = {
      {"unknown key", [](json& j) { j["icache_mis_pj"] = 1; }, "icache_mis_pj: unknown key"},
      {"missing key", [](json& j) { j.erase("dcache_miss_pj"); }, "dcache_miss_pj: missing"},
      {"negative", [](json& j) { j["stall_cycle_pj"] = -1; }, "stall_cycle_pj: negative"},
      {"too fine", [](json& j) { j["instruction_pj"]["alu"] = 1.0005; },
       "instruction_pj.alu: 1.0005 pJ has more than 3 decimals"},
      {"string", [](json& j) { j["apb_access_pj"] = "5"; }, "apb_access_pj: expected a number"},
      {"missing class", [](json& j) { j["instruction_pj"].erase("div"); }, "instruction_pj.div: missing"},
      {"unknown class", [](json& j) { j["instruction_pj"]["fpu"] = 1; }, "instruction_pj.fpu: unknown class"},
      {"pair class",
       [](json& j) {
         j["pair_pj"] = {{"alu", {{"jump", 1}}}};
       },
       "pair_pj.alu.jump: unknown class"},
      {"format", [](json& j) { j["format"] = 2; }, "format: unsupported format 2"},
      {"static too fine", [](json& j) { j["static_mw"] = 0.0000001; },
       "static_mw: 1e-07 mW has more than 6 decimals"},
      {"huge", [](json& j) { j["sdram_read_word_pj"] = 1e12; }, "sdram_read_word_pj: "},
      {"no default",
       [](json& j) {
         j["ahb_transfer_pj"] = {{"leon3", 1}};
       },
       "ahb_transfer_pj.default: missing"},
      {"sources",
       [](json& j) {
         j["sources"] = {{"nothing", "x"}};
       },
       "sources.nothing: names no key"},
  };
  for (const Case& c : cases) {
    json j = simple_profile();
    c.edit(j);
    try {
      l3vp::energy::parse_profile(j, "p.json");
      ADD_FAILURE() << c.what << ": accepted";
    } catch (const ProfileError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("p.json: ") + c.key), std::string::npos)
          << c.what << ": " << e.what();
    }
  }
  // A master name the bus does not have.
  json j = simple_profile();
  j["ahb_transfer_pj"]["ethmac"] = 3;
  EXPECT_THROW(Board b(j), ProfileError);
  // Not a shipped name and no such file.
  EXPECT_THROW(l3vp::energy::load_profile("no-such-profile"), ProfileError);
}

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
