// The probe registry (models/common/probe_registry.h) and the text of one
// event (probe_text.h): names, globs, counting and text listeners, detach.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "probe_registry.h"

using namespace l3vp;

namespace demo {

struct Tick {
  sc_core::sc_time t;
  unsigned n = 0;
  bool odd = false;
};
void probe_text(ProbeText& o, const Tick& e) {
  o.at(e.t);
  o.num("n", e.n).flag("odd", e.odd);
}

struct Step {
  uint64_t cycle = 0;
  uint32_t pc = 0;
};
void probe_text(ProbeText& o, const Step& e) {
  o.at_cycle(e.cycle);
  o.hex("pc", e.pc).hex("b", 0xab, 2).word("kind", "alu").time("later", sc_core::sc_time(3, sc_core::SC_NS));
}

struct Model {
  Probe<Tick> tick;
  Probe<Tick> tock;
  Probe<Step> step;
  void register_probes(ProbeRegistry& r, const std::string& prefix) {
    r.add(prefix, "tick", tick, "n odd");
    r.add(prefix, "tock", tock, "n odd");
    r.add(prefix, "step", step, "pc b kind later", sc_core::sc_time(25, sc_core::SC_NS));
  }
};

}  // namespace demo

namespace {

std::vector<std::string> names(const std::vector<const ProbeRegistry::Entry*>& v) {
  std::vector<std::string> out;
  for (const auto* e : v) out.push_back(e->name);
  return out;
}

TEST(ProbeRegistry, NamesArePrefixedInRegistrationOrder) {
  ProbeRegistry r;
  demo::Model a, b;
  a.register_probes(r, "alpha");
  b.register_probes(r, "beta");
  ASSERT_EQ(r.entries().size(), 6u);
  EXPECT_EQ(r.entries()[0].name, "alpha.tick");
  EXPECT_EQ(r.entries()[5].name, "beta.step");
  ASSERT_NE(r.find("beta.tock"), nullptr);
  EXPECT_EQ(r.find("beta.tock")->fields, "n odd");
  EXPECT_EQ(r.find("gamma.tick"), nullptr);
  EXPECT_EQ(r.prefixes(), "alpha, beta");
  EXPECT_EQ(r.listing().substr(0, 36), "alpha.tick: n odd\nalpha.tock: n odd\n");
  ProbeRegistry bare;
  demo::Model c;
  bare.add("c", "tick", c.tick, "");
  EXPECT_EQ(bare.listing(), "c.tick:\n");
}

TEST(ProbeRegistry, ANameTakenTwiceThrows) {
  ProbeRegistry r;
  demo::Model a;
  a.register_probes(r, "m");
  EXPECT_THROW(r.add("m", "tick", a.tock, "n odd"), std::logic_error);
}

TEST(ProbeRegistry, MatchTakesFullNamesAndOneTrailingStar) {
  ProbeRegistry r;
  demo::Model a, b;
  a.register_probes(r, "alpha");
  b.register_probes(r, "beta");
  EXPECT_EQ(names(r.match("alpha.tock")), std::vector<std::string>{"alpha.tock"});
  EXPECT_EQ(names(r.match("beta.*")), (std::vector<std::string>{"beta.tick", "beta.tock", "beta.step"}));
  EXPECT_EQ(names(r.match("alpha.t*")), (std::vector<std::string>{"alpha.tick", "alpha.tock"}));
  EXPECT_EQ(r.match("*").size(), 6u);
  EXPECT_TRUE(r.match("alpha").empty());  // a prefix alone is no name
  EXPECT_TRUE(r.match("alpha.ti").empty());
  EXPECT_TRUE(r.match("*.tick").empty());  // only a trailing star
  EXPECT_TRUE(r.match("al*ha.tick").empty());
  EXPECT_TRUE(r.match("").empty());
}

TEST(ProbeRegistry, CountingListenerCountsItsProbeOnlyUntilDetached) {
  ProbeRegistry r;
  demo::Model a;
  a.register_probes(r, "m");
  uint64_t n = 0;
  auto detach = r.find("m.tick")->count(n);
  EXPECT_TRUE(a.tick.has_listeners());
  EXPECT_FALSE(a.tock.has_listeners());
  a.tick.notify({});
  a.tock.notify({});
  a.tick.notify({});
  EXPECT_EQ(n, 2u);
  detach();
  EXPECT_FALSE(a.tick.has_listeners());
  a.tick.notify({});
  EXPECT_EQ(n, 2u);
}

TEST(ProbeRegistry, TextListenerGetsOneLinePerEvent) {
  ProbeRegistry r;
  demo::Model a;
  a.register_probes(r, "m");
  std::vector<std::string> lines;
  auto d1 = r.find("m.tick")->text([&](const std::string& l) { lines.push_back(l); });
  auto d2 = r.find("m.step")->text([&](const std::string& l) { lines.push_back(l); });
  a.tick.notify({sc_core::sc_time(12345, sc_core::SC_NS), 98, true});
  a.step.notify({4, 0x40000010});  // cycle 4 at 25 ns: 100 ns
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "12345000 ps m.tick n=98 odd=1");
  EXPECT_EQ(lines[1], "100000 ps m.step pc=0x40000010 b=0xab kind=alu later=3000");
  d1();
  d2();
  a.tick.notify({});
  EXPECT_EQ(lines.size(), 2u);
}

TEST(ProbeText, EventWithoutFieldsIsTimeAndName) {
  ProbeText o;
  o.at(sc_core::sc_time(7, sc_core::SC_PS));
  EXPECT_EQ(o.line("x.irq"), "7 ps x.irq");
  EXPECT_EQ(o.ps(), 7u);
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
