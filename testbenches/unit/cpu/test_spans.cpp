// Spans (Core::set_span_listener, README "Spans"): runs of consecutive steps
// in one PC window, summed, published by every loop (the code-page loops,
// their single steps, the generic loop without DMI, the observed loop). The
// sequence of spans must be the step records merged window by window,
// exactly: through calls and returns, branches inside and across windows,
// a trap, an interrupt arriving during a device access, in functional and
// timed mode, caches off and on.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core_harness.h"

namespace l3vp::leon3::test {
using namespace enc;
namespace {

constexpr uint32_t kDevice = 0x10000;  // bus only (no DMI)
constexpr uint32_t kWindow = 16;       // the listener's windows: 4 words each

struct Sum {
  uint32_t lo = 0, pc = 0;
  uint64_t cycles = 0, instructions = 0, ic_misses = 0, dc_misses = 0;
  bool operator==(const Sum& o) const {
    return lo == o.lo && pc == o.pc && cycles == o.cycles && instructions == o.instructions &&
           ic_misses == o.ic_misses && dc_misses == o.dc_misses;
  }
};
std::ostream& operator<<(std::ostream& os, const Sum& s) {
  return os << "{window 0x" << std::hex << s.lo << " pc 0x" << s.pc << std::dec << " cycles " << s.cycles
            << " instructions " << s.instructions << " ic " << s.ic_misses << " dc " << s.dc_misses << "}";
}

// Windows of 16 bytes; records the spans.
struct Spans : SpanListener {
  std::vector<Sum> seq;
  std::vector<SpanRecord> raw;
  void window(uint32_t pc, uint32_t& lo, uint32_t& last) override {
    lo = pc & ~(kWindow - 1);
    last = lo + kWindow - 1;
  }
  void span(const SpanRecord& s) override {
    raw.push_back(s);
    seq.push_back(Sum{s.pc & ~(kWindow - 1), s.pc, s.cycles, s.instructions, s.ic_misses, s.dc_misses});
  }
};

// The reference: step records merged while their PCs stay in one window.
struct Steps {
  std::vector<Sum> seq;
  bool last = false;
  void add(const StepRecord& s) {
    const uint32_t lo = s.pc & ~(kWindow - 1);
    if (seq.empty() || seq.back().lo != lo || last) seq.push_back(Sum{lo, s.pc});
    Sum& b = seq.back();
    b.cycles += s.cycles;
    b.instructions += s.retired;
    b.ic_misses += s.ic_misses;
    b.dc_misses += s.dc_misses;
    last = s.last;
  }
};

enum class Mode { Functional, TimedCachesOff, TimedCachesOn };
enum class Variant { Plain, NoDmi, Observed, Breakpoint };

class SpansTest : public CoreTest {
 protected:
  Spans spans;
  Steps steps;

  void setup(Mode m, std::optional<Variant> v) {
    CoreConfig cfg;
    cfg.timed = m != Mode::Functional;
    cfg.timing.burst_beat_cycles = 0;  // the same cycles with DMI on and off (test_code_pages.cpp)
    make(cfg);
    spans = Spans();
    steps = Steps();
    if (v != Variant::NoDmi)
      core->add_dmi(0, kDevice - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
    if (m == Mode::TimedCachesOn) core->set_ccr(0xF);
    // No variant: the reference run (steps only, the observed loop).
    if (!v || v == Variant::Observed)
      core->probes().step.listen([this](const StepRecord& s) { steps.add(s); });
    if (v) core->set_span_listener(&spans);
    if (v == Variant::Breakpoint) core->set_break_pcs({kCode + 0x800});  // same page, never reached
    core->set_reg(G5, kDevice);
  }

  // Runs `prog` (the harness's exec) in every mode: the reference first, then
  // each variant's spans must equal the reference's merged steps.
  template <typename F>
  void each(size_t min_spans, F run) {
    for (Mode m : {Mode::Functional, Mode::TimedCachesOff, Mode::TimedCachesOn}) {
      SCOPED_TRACE(m == Mode::Functional       ? "functional"
                   : m == Mode::TimedCachesOff ? "timed"
                                               : "timed, caches on");
      setup(m, std::nullopt);
      run();
      const std::vector<Sum> want = steps.seq;
      const uint64_t cycles = core->cycles();
      ASSERT_GE(want.size(), min_spans);
      for (Variant v : {Variant::Plain, Variant::NoDmi, Variant::Observed, Variant::Breakpoint}) {
        SCOPED_TRACE("variant " + std::to_string(int(v)));
        setup(m, v);
        run();
        EXPECT_EQ(core->cycles(), cycles);
        EXPECT_EQ(spans.seq, want);
        if (v == Variant::Observed) {
          EXPECT_EQ(steps.seq, want);  // steps and spans together
        }
        ASSERT_FALSE(spans.raw.empty());
        EXPECT_TRUE(spans.raw.back().last);
        uint64_t sum = 0;
        for (size_t i = 0; i < spans.raw.size(); ++i) {
          sum += spans.raw[i].cycles;
          if (i + 1 < spans.raw.size()) {
            EXPECT_EQ(spans.raw[i].next_pc, spans.raw[i + 1].pc) << "span " << i;
          }
        }
        EXPECT_EQ(sum, core->cycles() - core->counters().idle_cycles);
      }
    }
  }
};

// A loop that calls a function (loads, a store, a device read, a return) and
// branches back across windows; the interrupt arrives during the third
// device read and its handler halts the core.
TEST_F(SpansTest, EqualTheStepsMergedByWindowThroughCallsAndAnInterrupt) {
  each(12, [&] {
    unsigned reads = 0;
    bus.on_access = [&](const RamBus::Access& a) {
      if (a.addr == kDevice && ++reads == 3) core->set_irl(5);
    };
    enable_traps();
    core->set_reg(G2, kData);
    // 0: g3 = 6 | 1: L: call F | 2: nop | 3: g3-- | 4: bne L | 5: nop | 6: ta 0 (not reached)
    // 7..9: nop | 10: F: ld [g2] | 11: add | 12: st [g2] | 13: ld [g5] (device) | 14: retl | 15: nop
    exec({enc_addi(G3, G0, 6), enc_call(9), enc_nop(), enc_subcci(G3, G3, 1), enc_bicc(NE, false, -3),
          enc_nop(), enc_ta(0), enc_nop(), enc_nop(), enc_nop(), enc_ld(G4, G2, 0), enc_addi(G4, G4, 1),
          enc_st(G4, G2, 0), enc_ld(G6, G5, 0), enc_jmpl(G0, O7, 8), enc_nop()});
    expect_trapped_to(0x15);
    EXPECT_EQ(reads, 3u);
  });
}

// An unaligned load traps from inside a window; the handler halts.
TEST_F(SpansTest, EqualTheStepsMergedByWindowThroughATrap) {
  each(3, [&] {
    enable_traps();
    core->set_reg(G3, 20);
    // 0: L: g3-- | 1: bne L | 2: nop | 3: nop | 4: nop | 5: ld [g0 + 2] (traps): 3 spans
    exec(
        {enc_subcci(G3, G3, 1), enc_bicc(NE, false, -1), enc_nop(), enc_nop(), enc_nop(), enc_ld(G4, G0, 2)});
    expect_trapped_to(0x07);
  });
}

// Branches at the windows' edges: a taken Bicc in the last word of a
// window with its delay slot in the next, a branch always from there into a
// third window of the same page, and a branch back.
TEST_F(SpansTest, EqualTheStepsMergedByWindowAcrossBranchesAtTheEdges) {
  each(8, [&] {
    core->set_reg(G3, 5);
    // 0: nop | 1: L: g3-- | 2: nop | 3: bne L | 4: g2++ (delay slot, next
    // window) | 5: ba M | 6: nop | 7: nop | 8: M: ta 0
    exec({enc_nop(), enc_subcci(G3, G3, 1), enc_nop(), enc_bicc(NE, false, -2), enc_addi(G2, G2, 1),
          enc_bicc(A, false, 3), enc_nop(), enc_nop()});
    expect_exit(8);
    EXPECT_EQ(core->reg(G2), 5u);
  });
}

// A listener whose windows do not hold the PC (empty, inverted, elsewhere)
// gets one span per step, and the program runs as without it.
struct BadWindows : Spans {
  unsigned calls = 0;
  void window(uint32_t pc, uint32_t& lo, uint32_t& last) override {
    switch (calls++ % 3) {
      case 0:  // inverted
        lo = pc + 8;
        last = pc - 8;
        break;
      case 1:  // after pc
        lo = pc + 4;
        last = pc + 64;
        break;
      default:  // before pc
        lo = 0;
        last = pc - 4;
    }
  }
};

TEST_F(SpansTest, WindowsWithoutThePcGiveOneStepEach) {
  BadWindows bad;
  core->set_span_listener(&bad);
  core->set_reg(G3, 20);
  exec({enc_subcci(G3, G3, 1), enc_bicc(NE, false, -1), enc_nop()});
  expect_exit(3);
  EXPECT_EQ(core->reg(G3), 0u);
  uint64_t instructions = 0, cycles = 0;
  for (const SpanRecord& s : bad.raw) {
    EXPECT_LE(s.instructions, 1u);
    instructions += s.instructions;
    cycles += s.cycles;
  }
  EXPECT_GE(bad.raw.size(), 60u);  // 20 x (subcc, bne, nop), one span each
  EXPECT_EQ(instructions, core->counters().instructions);
  EXPECT_EQ(cycles, core->cycles());
}

// Without a listener the page loop's window is its page: nothing is published
// and removing the listener between runs stops the spans.
TEST_F(SpansTest, RemovedListenerGetsNothing) {
  core->set_span_listener(&spans);
  core->set_span_listener(nullptr);
  core->set_reg(G3, 20);
  exec({enc_subcci(G3, G3, 1), enc_bicc(NE, false, -1), enc_nop()});
  expect_exit(3);
  EXPECT_TRUE(spans.raw.empty());
}

}  // namespace
}  // namespace l3vp::leon3::test
