// The leon3mp platform in timed mode with a further AHB master (a stand-in
// for a DMA master like the GRETH's, hindex 5): snoop wiring from the AHB controller to the CPU's
// D-cache, DMI latencies handed to the core, bus costs of CPU accesses, and
// the region marker feeding Regions at the marker store.
#include <memory>
#include <nlohmann/json.hpp>

#include "dma_bench.h"

using namespace l3vp;
using l3vp::test::DmaBench;

namespace {

std::unique_ptr<DmaBench> tb;
void build() { tb = std::make_unique<DmaBench>(PlatformConfig{}); }  // preset: timed

// sethi %hi(0x40002000), %g2; ld [%g2 + 0x10], %o1;
// sethi %hi(0x80000C00), %g3; mov 5, %g4; st %g4, [%g3]; ld [%g2 + 0x20], %o2;
// st %g4, [%g3 + 4]; ta 0 (ET = 0: error mode, tt 0x80)
const uint32_t kProg[] = {0x05100008, 0xD200A010, 0x07200003, 0x88102005,
                          0xC820C000, 0xD400A020, 0xC820E004, 0x91D02000};

}  // namespace

TEST(TimedPlatform, ZRunSnoopAndRegion) {
  Leon3mp& p = *tb->plat;
  uint8_t bytes[sizeof kProg];
  for (unsigned i = 0; i < 8; ++i) put_be32(bytes + 4 * i, kProg[i]);
  p.sdram.load(0x1000, bytes, sizeof bytes);
  p.boot_at(0x40001000);
  p.cpu.core().set_ccr(0x0081000F);  // caches on, snooping on (as crt0 does)
  p.set_end_time(sc_core::sc_time(1, sc_core::SC_MS));
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  ASSERT_TRUE(p.halt().halted);
  ASSERT_EQ(p.halt().tt, 0x80u);
  leon3::Core& core = p.cpu.core();
  EXPECT_TRUE(core.config().timed);

  // Both loads missed in the D-cache and filled their lines.
  const auto& t = core.timing_counters();
  EXPECT_EQ(t.dc_read_misses, 2u);
  ASSERT_TRUE(core.cache_holds(false, 0x40002010));
  ASSERT_TRUE(core.cache_holds(false, 0x40002020));
  // D-line fill over DMI: 3 miss cycles + (1 AHB + 7 SDRAM) + 3 beats = 14.
  EXPECT_EQ(t.stall_dcache_miss, 2u * 14u);

  // Region 5 = st BEGIN + ld (miss) = 2 instructions, one D-cache miss.
  const auto& regions = p.regions().regions();
  ASSERT_EQ(regions.count(5u), 1u);
  const auto& r = regions.at(5u);
  EXPECT_EQ(r.entries, 1u);
  EXPECT_EQ(p.regions().sum(r, "instructions"), 2u);
  EXPECT_EQ(p.regions().sum(r, "dcache_misses"), 1u);
  EXPECT_EQ(p.regions().sum(r, "stalls.dcache_miss"), 14u);
  // The miss waits for the write buffer first: the marker store to APB drains
  // in 1 (AHB) + 3 (APB bridge) = 4 cycles, 2 of them hidden by the ST's own 2.
  EXPECT_EQ(p.regions().sum(r, "stalls.write_buffer"), 2u);
  EXPECT_EQ(p.regions().sum(r, "cycles"), 2u + 2u + 1u + 14u);  // ST 2, write buffer 2, LD 1, fill 14

  // A write by another master invalidates the CPU's line (snoop), a CPU
  // write does not; only the written line goes.
  uint8_t w[4] = {1, 2, 3, 4};
  tb->dma->access(tlm::TLM_WRITE_COMMAND, 0x40002014, w, 4);
  EXPECT_FALSE(core.cache_holds(false, 0x40002010));
  EXPECT_TRUE(core.cache_holds(false, 0x40002020));
  EXPECT_EQ(core.timing_counters().snoop_invalidations, 1u);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(0x40002020);
  gp.set_data_ptr(w);
  gp.set_data_length(4);
  gp.set_streaming_width(4);
  p.cpu.isock->b_transport(gp, d);
  EXPECT_TRUE(gp.is_response_ok());
  EXPECT_TRUE(core.cache_holds(false, 0x40002020));
  EXPECT_EQ(core.timing_counters().snoop_invalidations, 1u);
  // Bus cost of the CPU's SDRAM write: it starts while the DMA write (same
  // instant, 1 + 4 cycles) still holds the bus, so it waits 5 cycles
  // (arbitration), then takes AHB transfer 1 + write_ws 4.
  EXPECT_EQ(d, sc_core::sc_time(250, sc_core::SC_NS));
  EXPECT_EQ(p.ahb.master_stats()[0].waits, 1u);

  // Snooping off in CCR: no invalidation.
  core.set_ccr(0x0000000F);
  tb->dma->access(tlm::TLM_WRITE_COMMAND, 0x40002020, w, 4);
  EXPECT_TRUE(core.cache_holds(false, 0x40002020));

  const nlohmann::json s = p.stats();
  EXPECT_EQ(s["mode"], "timed");
  EXPECT_EQ(s["timing"]["dcache"]["snoop_invalidations"], 1u);
  EXPECT_EQ(s["timing"]["dcache"]["read_misses"], 2u);
  EXPECT_EQ(s["regions"][0]["id"], 5u);
  EXPECT_EQ(s["bus"]["ahb"]["masters"][1]["name"], "greth");  // idle: no transactions
  EXPECT_EQ(s["bus"]["ahb"]["masters"][1]["reads"], 0u);
  EXPECT_EQ(s["bus"]["ahb"]["masters"][2]["name"], "dma");
  EXPECT_EQ(s["bus"]["ahb"]["masters"][2]["writes"], 2u);
  EXPECT_EQ(s["net"]["greth"]["tx_frames"], 0u);
}

L3VP_SC_GTEST_MAIN(build)
