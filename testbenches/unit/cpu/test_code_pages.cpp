// Code that changes at run time, in every loop of the core: the page loop
// (fast_loop.cpp, functional and timed, with and without breakpoints), the
// generic loop (DMI off) and the observed loop. A store by the program, a
// write by another master during a device access, and a write between two
// run() calls must each be seen at the next execution of the word, and every
// variant of one mode must give the same counts and cycles.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "core_harness.h"

namespace l3vp::leon3::test {
using namespace enc;
namespace {

constexpr uint32_t kDevice = 0x10000;  // bus only (no DMI): a "device" read

enum class Mode { Functional, TimedCachesOff, TimedCachesOn };
enum class Variant { Plain, Generations, NoDmi, Observed, Breakpoint, Watchpoint };

const char* name(Mode m) {
  return m == Mode::Functional       ? "functional"
         : m == Mode::TimedCachesOff ? "timed, caches off"
                                     : "timed, caches on";
}
const char* name(Variant v) {
  switch (v) {
    case Variant::Plain:
      return "plain";
    case Variant::Generations:
      return "untagged (write generations)";
    case Variant::NoDmi:
      return "no DMI";
    case Variant::Observed:
      return "observed";
    case Variant::Breakpoint:
      return "breakpoint never hit";
    default:
      return "watchpoint never hit";
  }
}

struct Outcome {
  uint32_t g1, g2;
  uint64_t instructions, cycles, decodes;
  bool operator==(const Outcome& o) const {
    return g1 == o.g1 && g2 == o.g2 && instructions == o.instructions && cycles == o.cycles;
  }
};

class CodePagesTest : public CoreTest {
 protected:
  uint64_t steps = 0;

  void setup(Mode m, Variant v) {
    CoreConfig cfg;
    cfg.timed = m != Mode::Functional;
    // The harness's bus charges nothing per access; so does DMI without the
    // per-beat cost of a burst: the same cycles with DMI on and off.
    cfg.timing.burst_beat_cycles = 0;
    make(cfg);
    if (v == Variant::Generations)
      core->add_dmi(0, kDevice - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
    else if (v != Variant::NoDmi)
      core->add_dmi(0, kDevice - 1, bus.ram.data(), true, true);
    if (m == Mode::TimedCachesOn) core->set_ccr(0xF);
    if (v == Variant::Observed) core->probes().step.listen([this](const StepRecord&) { ++steps; });
    if (v == Variant::Breakpoint) core->set_break_pcs({kCode + 0x800});  // same page, never reached
    if (v == Variant::Watchpoint) core->set_watches({{kData + 0x400, 4, true, true}});
    core->set_reg(G5, kDevice);
  }
  Outcome outcome() const {
    return Outcome{core->reg(G1), core->reg(G2), core->counters().instructions, core->cycles(),
                   core->decode_cache_misses()};
  }
  template <typename F>
  void each(F f) {
    for (Mode m : {Mode::Functional, Mode::TimedCachesOff, Mode::TimedCachesOn}) {
      std::optional<Outcome> first;
      for (Variant v : {Variant::Plain, Variant::Generations, Variant::NoDmi, Variant::Observed,
                        Variant::Breakpoint, Variant::Watchpoint}) {
        SCOPED_TRACE(std::string(name(m)) + ", " + name(v));
        bus.on_access = nullptr;
        steps = 0;
        setup(m, v);
        const Outcome o = f();
        if (v == Variant::Observed) {
          EXPECT_GT(steps, 0u);
        }
        if (!first) {
          first = o;
          continue;
        }
        EXPECT_TRUE(o == *first) << "g1 " << o.g1 << " g2 " << o.g2 << " instructions " << o.instructions
                                 << " cycles " << o.cycles << " (plain: " << first->g1 << " " << first->g2
                                 << " " << first->instructions << " " << first->cycles << ")";
      }
    }
  }
};

// The program patches the word it is about to run two instructions later, in
// the same straight line, and a word it already ran (a loop body).
TEST_F(CodePagesTest, StoreByTheProgramIsSeen) {
  each([&] {
    core->set_reg(G2, enc_addi(G1, G1, 100));
    core->set_reg(G3, 2);
    core->set_reg(G4, kCode);
    // 0: X: g1 += 1 | 1: st g2 -> [g4 + 0] (X) | 2: st g2 -> [g4 + 16] | 3: nop
    // 4: g1 += 1000 (replaced by g1 += 100 just before) | 5: g3-- | 6: bne X | 7: nop | 8: ta 0
    exec({enc_addi(G1, G1, 1), enc_st(G2, G4, 0), enc_st(G2, G4, 16), enc_nop(), enc_addi(G1, G1, 1000),
          enc_subcci(G3, G3, 1), enc_bicc(NE, false, -6), enc_nop()});
    expect_exit(8);
    EXPECT_EQ(core->reg(G1), 1u + 100 + 100 + 100);  // X ran once as +1, word 4 never as +1000
    return outcome();
  });
}

// Stores of each width patch words the loop has already run: a byte, a
// halfword, and a doubleword that replaces two words at once.
TEST_F(CodePagesTest, StoresOfEachWidthAreSeen) {
  each([&] {
    core->set_reg(G3, 2);
    core->set_reg(G4, kCode);
    core->set_reg(L0, enc_addi(G1, G1, 100) & 0xFF);    // stb: word 1's low byte
    core->set_reg(L1, enc_addi(G2, G2, 200) & 0xFFFF);  // sth: word 2's low half
    core->set_reg(L2, enc_addi(O1, O1, 1000));          // std: words 4 and 5
    core->set_reg(L3, enc_addi(O2, O2, 1000));
    // 0: X: nop | 1: g1 += 1 | 2: g2 += 1 | 3: nop | 4: o1 += 1 | 5: o2 += 1
    // 6: stb l0 | 7: sth l1 | 8: std l2 | 9: g3-- | 10: bne X | 11: nop | 12: ta 0
    exec({enc_nop(), enc_addi(G1, G1, 1), enc_addi(G2, G2, 1), enc_nop(), enc_addi(O1, O1, 1),
          enc_addi(O2, O2, 1), memi(STB, L0, G4, 7), memi(STH, L1, G4, 10), memi(STD, L2, G4, 16),
          enc_subcci(G3, G3, 1), enc_bicc(NE, false, -10), enc_nop()});
    expect_exit(12);
    EXPECT_EQ(core->reg(G1), 101u);  // the first pass ran the old words, the second the new ones
    EXPECT_EQ(core->reg(G2), 201u);
    EXPECT_EQ(core->reg(O1), 1001u);
    EXPECT_EQ(core->reg(O2), 1001u);
    return outcome();
  });
}

// A loop at the end of a page, in each position against the page boundary:
// a branch in the page's last word with its delay slot in the next page, a
// delay slot in the last word, a branch in the next page back into this one.
TEST_F(CodePagesTest, LoopsAcrossThePageEnd) {
  for (uint32_t at : {1019u, 1020u, 1021u, 1022u, 1023u}) {
    SCOPED_TRACE("loop at word " + std::to_string(at));
    each([&] {
      core->set_reg(G3, 5);
      // 0: ba,a X | X: g1 += 1 | g3-- | bne X | (slot) g2 += 1 | g4 += 1 | ta 0
      load({enc_bicc(A, true, int32_t(at))});
      load({enc_addi(G1, G1, 1), enc_subcci(G3, G3, 1), enc_bicc(NE, false, -2), enc_addi(G2, G2, 1),
            enc_addi(G4, G4, 1), enc_ta(0)},
           kCode + 4 * at);
      core->run(core->cycles() + 100000);
      expect_exit(at + 5);
      EXPECT_EQ(core->reg(G1), 5u);
      EXPECT_EQ(core->reg(G2), 5u);
      EXPECT_EQ(core->reg(G4), 1u);
      return outcome();
    });
  }
}

// Another bus master rewrites a loop body while the core waits for a device
// read (the harness's bus writes RAM from inside the access, as a DMA
// completing during a bus transaction would).
TEST_F(CodePagesTest, WriteDuringADeviceAccessIsSeen) {
  each([&] {
    bool patched = false;
    bus.on_access = [&](const RamBus::Access& a) {
      if (a.addr == kDevice && !patched) {
        bus.w32(kCode + 4, enc_addi(G1, G1, 100));
        patched = true;
      }
    };
    core->set_reg(G3, 2);
    // 0: g3 = 2 | 1: X: g1 += 1 | 2: ld [g5] (device) | 3: g3-- | 4: bne X | 5: nop | 6: ta 0
    exec({enc_addi(G3, G0, 2), enc_addi(G1, G1, 1), enc_ld(G6, G5, 0), enc_subcci(G3, G3, 1),
          enc_bicc(NE, false, -3), enc_nop()});
    expect_exit(6);
    EXPECT_TRUE(patched);
    EXPECT_EQ(core->reg(G1), 101u);  // the first pass ran the old word, the second the new one
    return outcome();
  });
}

// A write between two run() calls (a loader, a debugger, DMA while the core
// was not running) into a loop the core has been running from its pages.
TEST_F(CodePagesTest, WriteBetweenRunsIsSeen) {
  each([&] {
    core->set_reg(G3, 1000);
    // 0: X: g1 += 1 (later g2 += 1) | 1: g3-- | 2: bne X | 3: nop | 4: ta 0
    load({enc_addi(G1, G1, 1), enc_subcci(G3, G3, 1), enc_bicc(NE, false, -2), enc_nop(), enc_ta(0)});
    EXPECT_EQ(core->run(core->cycles() + 600), StopReason::CycleLimit);
    bus.w32(kCode, enc_addi(G2, G2, 1));
    core->run(core->cycles() + 100000);
    expect_exit(4);
    EXPECT_GT(core->reg(G1), 0u);
    EXPECT_GT(core->reg(G2), 0u);
    EXPECT_EQ(core->reg(G1) + core->reg(G2), 1000u);
    return outcome();
  });
}

}  // namespace
}  // namespace l3vp::leon3::test
