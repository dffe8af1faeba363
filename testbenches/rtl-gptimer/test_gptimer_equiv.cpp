// RTL GPTIMER (verilated rtl/gptimer/gptimer.vhd behind rtl/adapters'
// GptimerRtl) against the TLM Gptimer, side by side in one SystemC bench:
// the same random register accesses at the same random cycles (prescaler,
// reload, restart, LD, chaining, IP write-1-clear, CONFIG enables, several
// accesses in one cycle, accesses with an annotated delay as a CPU running
// ahead makes them, debug reads) must give the same value for every read
// and the same IRQ pulses at the same times. The pattern is
// testbenches/unit/periph/test_gptimer_ref.cpp (the TLM model against a
// clock-by-clock reference).
#include <algorithm>
#include <random>

#include "gptimer.h"
#include "gptimer_rtl.h"
#include "tb_util.h"

namespace l3vp::test {
namespace {

const sc_core::sc_time kClk(25, sc_core::SC_NS);

// Records each pulse with its exact time (the devices pulse with the edge
// time even when they learn of it inside a later access).
struct TimedRecorder : TimedIrqLineSink {
  std::vector<std::pair<sc_core::sc_time, unsigned>> pulses;
  void irq_pulse(unsigned line) override { pulses.emplace_back(sc_core::sc_time_stamp(), line); }
  void irq_pulse_at(unsigned line, const sc_core::sc_time& t) override { pulses.emplace_back(t, line); }
};

struct Bench : sc_core::sc_module {
  Gptimer tlm;
  GptimerRtl rtl;
  TestInitiator i_tlm, i_rtl;
  TimedRecorder r_tlm, r_rtl;
  explicit Bench(sc_core::sc_module_name n)
      : sc_module(n), tlm("tlm"), rtl("rtl"), i_tlm("i_tlm"), i_rtl("i_rtl") {
    i_tlm.isock.bind(tlm.tsock);
    i_rtl.isock.bind(rtl.tsock);
    tlm.connect_irq(&r_tlm);
    rtl.connect_irq(&r_rtl);
    Log::enable(LogCat::GuestError, false);
  }
};

Bench* bench = nullptr;
void build() { bench = new Bench("bench"); }

uint32_t dbg(TestInitiator& i, uint32_t off) {
  uint8_t b[4] = {};
  EXPECT_EQ(i.debug_read(off, b, 4), 4u);
  return be32(b);
}

sc_core::sc_time cyc(uint64_t c) { return sc_core::sc_time::from_value(c * kClk.value()); }

void run_seed(unsigned seed, unsigned steps) {
  Bench& b = *bench;
  std::mt19937 rng(seed);
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  // Start at a clock edge after everything so far, both devices reset.
  uint64_t cycle = sc_core::sc_time_stamp().value() / kClk.value() + 2;
  sc_core::sc_start(cyc(cycle) - sc_core::sc_time_stamp());
  b.tlm.reset();
  b.rtl.reset();
  b.r_tlm.pulses.clear();
  b.r_rtl.pulses.clear();
  unsigned mismatches = 0;
  for (unsigned step = 0; step < steps && mismatches < 5; ++step) {
    cycle += pick(8) == 0 ? 50 + pick(400) : pick(40);  // 0: several accesses in one cycle
    // The kernel is at most `ahead` cycles behind the access (a CPU in its quantum).
    const uint64_t ahead = pick(3) == 0 ? pick(60) : 0;
    const sc_core::sc_time stamp = std::max(sc_core::sc_time_stamp(), cyc(cycle > ahead ? cycle - ahead : 0));
    if (stamp > sc_core::sc_time_stamp()) sc_core::sc_start(stamp - sc_core::sc_time_stamp());
    const sc_core::sc_time d = cyc(cycle) - sc_core::sc_time_stamp();
    const unsigned timer = 1 + pick(2);
    const uint32_t regs[] = {0x00, 0x04, 0x08, 0x10 * timer, 0x10 * timer + 4, 0x10 * timer + 8};
    const uint32_t off = regs[pick(6)];
    const unsigned what = pick(10);
    if (what < 4) {
      const uint32_t t = b.i_tlm.rd32_at(off, d), r = b.i_rtl.rd32_at(off, d);
      EXPECT_EQ(r, t) << "seed " << seed << " cycle " << cycle << " read 0x" << std::hex << off;
      if (r != t) ++mismatches;
    } else if (what == 4 && ahead == 0) {
      // A debug read shows the state at sc_time_stamp() (here the access
      // cycle, no access is later): with an access ahead of the kernel both
      // models would show their own latest snapshot instead.
      const uint32_t t = dbg(b.i_tlm, off), r = dbg(b.i_rtl, off);
      EXPECT_EQ(r, t) << "seed " << seed << " cycle " << cycle << " debug read 0x" << std::hex << off;
      if (r != t) ++mismatches;
    } else {
      uint32_t v;
      switch (off) {
        case 0x00:
          v = pick(14);
          break;
        case 0x04:
          v = pick(14);
          break;  // SRELOAD < ntimers too: lost ticks
        case 0x08:
          v = (1u << (15 + timer)) | (pick(2) << 9);
          break;  // enable, DF
        default:
          switch (off & 0xF) {
            case 0x4:
              v = pick(25);
              break;
            case 0x8:
              v = pick(64);
              break;  // EN RS LD IE IP CH
            default:
              v = pick(30);
              break;
          }
      }
      b.i_tlm.wr32_at(off, v, d);
      b.i_rtl.wr32_at(off, v, d);
    }
  }
  // Let every pending interrupt of the last configuration come.
  sc_core::sc_start(cyc(2000));
  auto t = b.r_tlm.pulses, r = b.r_rtl.pulses;
  std::sort(t.begin(), t.end());
  std::sort(r.begin(), r.end());
  EXPECT_EQ(r, t) << "seed " << seed << ": IRQ pulses differ";
  EXPECT_GT(t.size() + mismatches, 0u) << "seed " << seed << ": no interrupt at all (weak test)";
  // Leave both stopped.
  for (uint32_t o : {0x18u, 0x28u}) {
    b.i_tlm.wr32_at(o, 0x10, sc_core::SC_ZERO_TIME);
    b.i_rtl.wr32_at(o, 0x10, sc_core::SC_ZERO_TIME);
  }
}

TEST(GptimerRtlEquivalence, RandomAccesses) {
  for (unsigned seed = 1; seed <= 40; ++seed) run_seed(seed, 400);
}

// A periodic interrupt far apart (the scout's look-ahead goes beyond its
// first chunk) and the free-running timer the boot loader leaves.
TEST(GptimerRtlEquivalence, LongPeriods) {
  Bench& b = *bench;
  uint64_t cycle = sc_core::sc_time_stamp().value() / kClk.value() + 1;
  sc_core::sc_start(cyc(cycle) - sc_core::sc_time_stamp());
  b.tlm.reset();
  b.rtl.reset();
  b.r_tlm.pulses.clear();
  b.r_rtl.pulses.clear();
  const uint64_t p0 = b.rtl.irq_pulses(2);
  for (TestInitiator* i : {&b.i_tlm, &b.i_rtl}) {
    i->wr32_at(0x04, 39, sc_core::SC_ZERO_TIME);          // 1 MHz tick
    i->wr32_at(0x14, 0xFFFFFFFF, sc_core::SC_ZERO_TIME);  // timer 1 free-running
    i->wr32_at(0x18, 0x7, sc_core::SC_ZERO_TIME);
    i->wr32_at(0x24, 99999, sc_core::SC_ZERO_TIME);  // timer 2: 100 ms
    i->wr32_at(0x28, 0xF, sc_core::SC_ZERO_TIME);
  }
  for (int k = 0; k < 5; ++k) {
    sc_core::sc_start(sc_core::sc_time(37, sc_core::SC_MS));
    EXPECT_EQ(b.i_rtl.rd32_at(0x10, sc_core::SC_ZERO_TIME), b.i_tlm.rd32_at(0x10, sc_core::SC_ZERO_TIME));
    EXPECT_EQ(b.i_rtl.rd32_at(0x20, sc_core::SC_ZERO_TIME), b.i_tlm.rd32_at(0x20, sc_core::SC_ZERO_TIME));
  }
  EXPECT_EQ(b.r_tlm.pulses.size(), 1u);
  EXPECT_EQ(b.r_rtl.pulses, b.r_tlm.pulses);
  EXPECT_EQ(b.rtl.irq_pulses(2) - p0, 1u);
}

}  // namespace
}  // namespace l3vp::test

L3VP_SC_GTEST_MAIN(l3vp::test::build)
