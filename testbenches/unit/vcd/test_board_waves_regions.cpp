// board.regions.NAME (vcd::BoardWaves) against the platform's region
// accounting when a marker store's bus access is held up: a span of the wire
// must last exactly regions[].cycles clocks (docs/waveforms.md "regions").
//
// The marker stores of a firmware go through the write buffer: the CPU goes
// on while the AHB carries them, so the time a store reaches the marker
// (transfer, APB bridge, and an arbitration wait when another master such as
// the GRETH holds the bus) is not the CPU's time of the store. The AHB delay
// hook stands in for that wait here (3 clocks on chosen marker stores), so
// the case is deterministic and needs no network traffic.
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "board_waves.h"
#include "config.h"
#include "leon3mp.h"
#include "tb_util.h"

using namespace l3vp;

namespace {

std::unique_ptr<Leon3mp> plat;
std::unique_ptr<vcd::BoardWaves> waves;
unsigned marker_writes = 0;

void build() {
  PlatformConfig cfg;  // preset: timed
  cfg.set("uart.out", "");
  plat = std::make_unique<Leon3mp>("leon3mp", cfg);
  vcd::Selection sel;
  sel.regions = true;
  waves =
      std::make_unique<vcd::BoardWaves>(*plat, sel, std::map<uint32_t, std::string>{{5, "r5"}, {6, "r6"}});
}

// sethi %hi(0x80000C00), %g3; mov 5, %g4; st %g4, [%g3] (BEGIN 5); nop;
// st %g4, [%g3 + 4] (END 5); mov 6, %g4; st %g4, [%g3] (BEGIN 6); nop;
// st %g4, [%g3 + 4] (END 6); ta 0 (ET = 0: error mode, tt 0x80)
const uint32_t kProg[] = {0x07200003, 0x88102005, 0xC820C000, 0x01000000, 0xC820E004,
                          0x88102006, 0xC820C000, 0x01000000, 0xC820E004, 0x91D02000};

// The spans [rise, fall) in ps of the wire named `name` in a VCD written by
// vcd::Writer (one change per line: "#t", "1<code>", "0<code>").
std::vector<std::pair<uint64_t, uint64_t>> spans(const std::string& path, const std::string& name) {
  std::ifstream f(path);
  std::string line, code;
  uint64_t t = 0, rise = 0;
  bool high = false;
  std::vector<std::pair<uint64_t, uint64_t>> out;
  while (std::getline(f, line)) {
    std::istringstream w(line);
    std::string a, b, c, d, e;
    if (w >> a >> b >> c >> d >> e && a == "$var" && e == name) code = d;
    if (!line.empty() && line[0] == '#') t = std::stoull(line.substr(1));
    if (code.empty() || line.size() != code.size() + 1 || line.compare(1, std::string::npos, code) != 0)
      continue;
    if (line[0] == '1' && !high) rise = t, high = true;
    if (line[0] == '0' && high) out.emplace_back(rise, t), high = false;
  }
  return out;
}

}  // namespace

TEST(BoardWavesRegions, SpansEqualRegionCyclesWhenTheMarkerStoreWaitsForTheBus) {
  Leon3mp& p = *plat;
  // The BEGIN of region 5 and the END of region 6 wait 3 clocks for the bus.
  const sc_core::sc_time clk = p.cpu.time_of(1);
  p.ahb.set_delay_fn([clk](unsigned mst, unsigned, const tlm::tlm_generic_payload& gp) {
    if (mst != 0 || (gp.get_address() & ~0x4ull) != 0x80000C00u) return sc_core::SC_ZERO_TIME;
    ++marker_writes;
    return marker_writes == 1 || marker_writes == 4 ? 3 * clk : sc_core::SC_ZERO_TIME;
  });
  uint8_t bytes[sizeof kProg];
  for (unsigned i = 0; i < sizeof kProg / 4; ++i) put_be32(bytes + 4 * i, kProg[i]);
  p.sdram.load(0x1000, bytes, sizeof bytes);
  p.boot_at(0x40001000);
  const std::string path = testing::TempDir() + "board_waves_regions.vcd";
  waves->open(path, {"test_board_waves_regions"});
  p.set_end_time(sc_core::sc_time(1, sc_core::SC_MS));
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(p.halt().halted);
  ASSERT_EQ(p.halt().tt, 0x80u);
  ASSERT_EQ(waves->close(), "");
  EXPECT_EQ(waves->late(), 0u);
  ASSERT_EQ(marker_writes, 4u);

  const uint64_t clk_ps = uint64_t(clk.to_seconds() * 1e12 + 0.5);
  for (uint32_t id : {5u, 6u}) {
    SCOPED_TRACE("region " + std::to_string(id));
    const auto& r = p.regions().regions().at(id);
    ASSERT_EQ(r.entries, 1u);
    const uint64_t cycles = p.regions().sum(r, "cycles");
    EXPECT_GT(cycles, 0u);
    const auto sp = spans(path, "r" + std::to_string(id));
    ASSERT_EQ(sp.size(), 1u);
    EXPECT_EQ(sp[0].second - sp[0].first, cycles * clk_ps);
  }
  std::remove(path.c_str());
}

L3VP_SC_GTEST_MAIN(build)
