// The core's probes (README "Probes"): the step record of every loop step
// (pc, word, class, cycles, retired, cache outcome, trap, annulled), the
// execute probe, the power-down probe; idle cycles excluded; both modes;
// the sums equal the core's own counters.
#include <algorithm>
#include <map>
#include <optional>

#include "timed_harness.h"

namespace l3vp::leon3::test {
namespace {
using namespace enc;

// Accumulates step records per PC (what the platform's profiler does) and
// keeps them all.
struct Recorder {
  struct Acc {
    uint64_t steps = 0, cycles = 0, retired = 0, ic = 0, dc = 0;
  };
  std::map<uint32_t, Acc> by_pc;
  Acc total;
  std::vector<StepRecord> steps;
  Core* core = nullptr;
  Probe<StepRecord>::Id id = 0;
  explicit Recorder(Core& c) : core(&c) {
    id = c.probes().step.listen([this](const StepRecord& s) { add(s); });
  }
  ~Recorder() { stop(); }
  void stop() {
    if (core) core->probes().step.unlisten(id);
    core = nullptr;
  }
  void add(const StepRecord& s) {
    steps.push_back(s);
    for (Acc* a : {&by_pc[s.pc], &total}) {
      ++a->steps;
      a->cycles += s.cycles;
      a->retired += s.retired;
      a->ic += s.ic_misses;
      a->dc += s.dc_misses;
    }
  }
  // The records of the steps at `pc`, in order (a copy: callers keep elements by value).
  std::vector<StepRecord> at(uint32_t pc) const {
    std::vector<StepRecord> v;
    for (const StepRecord& s : steps)
      if (s.pc == pc) v.push_back(s);
    return v;
  }
};

// g1 = 3; loop: subcc g1, 1, g1; bne loop; nop; ld [g2], g3; ta 0
std::vector<uint32_t> loop_prog() {
  return {enc_ori(G1, G0, 3), enc_sethi(G2, kData), enc_subcci(G1, G1, 1), enc_bicc(9, false, -1),
          enc_nop(),          enc_ld(G3, G2, 0)};
}

TEST_F(CoreTest, StepProbeFunctionalModeCountsEveryInstruction) {
  Recorder r(*core);
  exec(loop_prog());
  expect_exit(6);
  EXPECT_EQ(r.total.retired, core->counters().instructions);
  EXPECT_EQ(r.total.cycles, core->cycles());
  EXPECT_EQ(r.by_pc[kCode + 8].retired, 3u);   // subcc runs 3 times
  EXPECT_EQ(r.by_pc[kCode + 12].retired, 3u);  // bne
  EXPECT_EQ(r.by_pc[kCode + 24].retired, 1u);  // ta 0: retired, then error mode
  EXPECT_EQ(r.by_pc[kCode + 24].cycles, 2u);   // 1 + trap entry 1
  EXPECT_EQ(r.total.ic + r.total.dc, 0u);
  // Every step is published when run() returns: none is pending.
  const uint64_t steps = r.total.steps;
  EXPECT_EQ(steps, r.steps.size());
  // The records carry the instruction and its class.
  const StepRecord ld = r.at(kCode + 20).at(0);
  EXPECT_EQ(ld.word, enc_ld(G3, G2, 0));
  EXPECT_EQ(ld.cls, InsnClass::Load);
  EXPECT_FALSE(ld.trapped);
  const StepRecord ta = r.at(kCode + 24).at(0);
  EXPECT_EQ(ta.cls, InsnClass::Trap);
  EXPECT_TRUE(ta.trapped);
  EXPECT_EQ(ta.tt, 0x80u);  // ta 0 with ET = 0: error mode, tt 0x80
  // Steps are contiguous: each starts where the previous one ended.
  for (size_t k = 1; k < r.steps.size(); ++k)
    EXPECT_EQ(r.steps[k].start_cycle, r.steps[k - 1].start_cycle + r.steps[k - 1].cycles) << k;
}

// next_pc names where the next step begins (what the profiler uses to see a
// change of function coming); `last` marks the final step of each run(),
// after which the core may be stopped, powered down or moved.
TEST_F(CoreTest, StepProbeNextPcAndLastStepOfARun) {
  Recorder r(*core);
  load(loop_prog());
  bus.w32(kCode + 4 * uint32_t(loop_prog().size()), enc_ta(0));
  std::vector<size_t> run_ends;  // steps published when each run() returned
  for (int k = 0; k < 100 && !core->in_error_mode(); ++k) {
    core->run(core->cycles() + 3);  // a few steps per run()
    run_ends.push_back(r.steps.size());
  }
  expect_exit(6);
  ASSERT_GT(run_ends.size(), 3u);
  for (size_t k = 0; k + 1 < r.steps.size(); ++k) EXPECT_EQ(r.steps[k].next_pc, r.steps[k + 1].pc) << k;
  size_t lasts = 0;
  for (size_t k = 0; k < r.steps.size(); ++k) {
    const bool ends_run = std::find(run_ends.begin(), run_ends.end(), k + 1) != run_ends.end();
    EXPECT_EQ(r.steps[k].last, ends_run) << k;
    lasts += r.steps[k].last;
  }
  EXPECT_EQ(lasts, run_ends.size());
  // The final `ta 0`: retired (a taken Ticc counts), trapped, error mode.
  EXPECT_EQ(r.steps.back().retired, 1u);
  EXPECT_TRUE(r.steps.back().trapped);
}

TEST_F(TimedTest, StepProbeTimedModeAttributesMissesAndStalls) {
  tcfg.timing.dcache_miss_cycles = 3;
  tcfg.timing.icache_miss_cycles = 3;
  remake(2, 2);
  core->set_ccr(0x0F);  // caches on
  Recorder r(*core);
  core->add_idle_cycles(50);  // idle is never attributed
  exec(loop_prog());
  expect_exit(6);
  EXPECT_EQ(r.total.cycles, core->cycles() - 50);
  EXPECT_EQ(r.total.cycles, core->cycles() - core->counters().idle_cycles);
  EXPECT_EQ(r.total.retired, core->counters().instructions);
  EXPECT_EQ(r.total.ic, tc().ic_misses);
  EXPECT_EQ(r.by_pc[kCode + 20].dc, 1u);  // the ld missed
  EXPECT_EQ(r.by_pc[kCode + 20].cycles,
            1u + 3u + 2u);  // LD 1 + miss 3 + DMI latency 2 (4-word line, 0 beats)
  const StepRecord ld = r.at(kCode + 20).at(0);
  EXPECT_EQ(ld.dc_misses, 1u);
  EXPECT_EQ(ld.dc_hits, 0u);
  EXPECT_EQ(ld.ic_hits + ld.ic_misses, 1u);  // one fetch
  // not-taken bne right after subcc: +2 stall in that step
  EXPECT_EQ(r.by_pc[kCode + 12].cycles, 3u + 2u);
  // The first subcc fetch missed the I-cache (a 32-byte line at kCode + 0),
  // the second one hit the line the first filled.
  const auto subcc = r.at(kCode + 8);
  ASSERT_EQ(subcc.size(), 3u);
  EXPECT_EQ(subcc[1].ic_hits, 1u);
  EXPECT_EQ(subcc[1].ic_misses, 0u);
  expect_cycles_accounted();
}

// The delay slot of `ba,a` is annulled: no step of its own, its cycle is in
// the branch's step, which says so.
TEST_F(CoreTest, StepProbeAnnulledSlot) {
  Recorder r(*core);
  // ba,a +2 (skips the slot); or g1, 1, g1 (annulled); or g2, 2, g2; ta 0
  exec({enc_bicc(8, true, 2), enc_ori(G1, G1, 1), enc_ori(G2, G2, 2)});
  EXPECT_EQ(core->reg(G1), 0u);
  EXPECT_EQ(core->reg(G2), 2u);
  ASSERT_EQ(r.at(kCode).size(), 1u);
  EXPECT_TRUE(r.at(kCode)[0].annulled);
  EXPECT_EQ(r.at(kCode)[0].cls, InsnClass::Branch);
  EXPECT_EQ(r.at(kCode)[0].cycles, 2u);  // branch 1 + annulled slot 1
  EXPECT_TRUE(r.at(kCode + 4).empty());  // the annulled slot is no step
  EXPECT_FALSE(r.at(kCode + 8).at(0).annulled);
  EXPECT_EQ(r.total.cycles, core->cycles());
}

// A trapping instruction (unaligned load, ET = 1) and an interrupt entry.
TEST_F(CoreTest, StepProbeTrapAndInterrupt) {
  Recorder r(*core);
  enable_traps();
  // ld [g0 + 2] traps (mem_address_not_aligned, tt 7)
  exec({enc_ld(G3, G0, 2)});
  const StepRecord s = r.at(kCode).at(0);
  EXPECT_TRUE(s.trapped);
  EXPECT_FALSE(s.interrupt);
  EXPECT_EQ(s.tt, 0x07u);
  EXPECT_EQ(s.retired, 0u);
  EXPECT_EQ(s.word, enc_ld(G3, G0, 2));

  // Interrupt: level 5 pending with ET = 1, PIL 0.
  r.steps.clear();
  core->reset();
  core->set_pc(kCode, kCode + 4);
  enable_traps();
  core->set_irl(5);
  core->run(core->cycles() + 1000);
  ASSERT_FALSE(r.steps.empty());
  const StepRecord& irq = r.steps.front();
  EXPECT_EQ(irq.pc, kCode);  // the interrupted PC
  EXPECT_TRUE(irq.trapped);
  EXPECT_TRUE(irq.interrupt);
  EXPECT_EQ(irq.tt, 0x15u);
  EXPECT_EQ(irq.word, 0u);
  EXPECT_EQ(irq.cls, InsnClass::Count);
  EXPECT_EQ(irq.retired, 0u);
}

TEST_F(TimedTest, StepsSumToBusyCyclesWithInterruptsAndIdle) {
  Recorder r(*core);
  core->add_idle_cycles(7);
  exec(loop_prog());
  core->add_idle_cycles(11);
  EXPECT_EQ(r.total.cycles, core->cycles() - core->counters().idle_cycles);
}

TEST_F(CoreTest, ExecuteProbeSeesStateBeforeEachInstruction) {
  std::vector<std::pair<uint32_t, uint32_t>> seen;  // pc, g1 before the instruction
  Core& c = *core;
  c.probes().execute.listen([&](const ExecuteEvent& e) {
    EXPECT_EQ(e.pc, c.pc());
    seen.emplace_back(e.pc, c.reg(G1));
  });
  exec({enc_ori(G1, G0, 5), enc_ori(G1, G1, 2)});
  ASSERT_GE(seen.size(), 3u);
  EXPECT_EQ(seen[0], std::make_pair(kCode, 0u));
  EXPECT_EQ(seen[1], std::make_pair(kCode + 4, 5u));
  EXPECT_EQ(seen[2], std::make_pair(kCode + 8, 7u));
}

// Core::request_break (debugger seam): an execute listener stops the core
// before the instruction it was told about; nothing of it happens, and the
// resumed run gives exactly the counts of an uninterrupted one.
// The program is loop_prog() + ta 0, loaded; the break is at the load.
void break_and_resume(Core& c) {
  Recorder r(c);
  const uint32_t at = kCode + 20;  // ld [g2], g3 (after the loop)
  bool armed = true;
  c.probes().execute.listen([&](const ExecuteEvent& e) {
    if (armed && e.pc == at) {
      c.request_break();
      armed = false;  // the debugger resumes past it
    }
  });
  ASSERT_EQ(c.run(c.cycles() + 100000), StopReason::Break);
  EXPECT_EQ(c.pc(), at);
  EXPECT_EQ(c.npc(), at + 4);
  EXPECT_EQ(c.reg(G3), 0u);               // the load has not run
  EXPECT_EQ(r.total.cycles, c.cycles());  // no half record for the stopped instruction
  EXPECT_EQ(r.at(at).size(), 0u);
  EXPECT_EQ(c.run(c.cycles() + 100000), StopReason::ErrorMode);
  EXPECT_EQ(r.at(at).size(), 1u);
  EXPECT_EQ(r.total.cycles, c.cycles());
}

TEST_F(CoreTest, RequestBreakStopsBeforeTheInstruction) {
  std::vector<uint32_t> prog = loop_prog();
  prog.push_back(enc_ta(0));
  load(prog);
  break_and_resume(*core);
  expect_exit(6);
  const uint64_t cycles = core->cycles(), insns = core->counters().instructions;
  // The same program without the break: identical counts.
  make(CoreConfig{});
  exec(loop_prog());
  expect_exit(6);
  EXPECT_EQ(core->cycles(), cycles);
  EXPECT_EQ(core->counters().instructions, insns);
}

TEST_F(TimedTest, RequestBreakStopsBeforeTheInstructionTimed) {
  std::vector<uint32_t> prog = loop_prog();
  prog.push_back(enc_ta(0));
  load(prog);
  break_and_resume(*core);
  const uint64_t cycles = core->cycles();
  make(tcfg);
  exec(loop_prog());
  EXPECT_EQ(core->cycles(), cycles);
}

// Core::set_break_pcs (breakpoints in the plain loop): the run stops before
// each visit of a breakpoint's instruction, nothing of it executed; the
// resumed instruction runs once (skip_first); the counts equal a run
// without breakpoints. `observed`: a step listener too (the observed loop).
void breakpoints_in_loop(Core& c, bool observed, uint64_t& cycles, uint64_t& insns) {
  std::optional<Recorder> r;
  if (observed) r.emplace(c);
  const uint32_t sub = kCode + 8, ld = kCode + 20;  // subcc (3 visits), ld (1)
  c.set_break_pcs({ld, sub, sub});
  std::vector<uint32_t> stops;
  for (StopReason why; (why = c.run(c.cycles() + 100000)) == StopReason::Break;) {
    stops.push_back(c.pc());
    if (c.pc() == ld) {
      EXPECT_EQ(c.reg(G3), 0u);  // the load has not run
    }
    c.set_break_pcs({ld, sub}, c.pc());  // resume from it, as the gdb stub does
  }
  EXPECT_EQ(stops, (std::vector<uint32_t>{sub, sub, sub, ld}));
  if (r) {
    EXPECT_EQ(r->total.cycles, c.cycles());  // no half record of a stopped instruction
  }
  c.set_break_pcs({});
  cycles = c.cycles();
  insns = c.counters().instructions;
}

TEST_F(CoreTest, BreakPcsStopBeforeEachVisit) {
  for (bool observed : {false, true}) {
    std::vector<uint32_t> prog = loop_prog();
    prog.push_back(enc_ta(0));
    make(CoreConfig{});
    load(prog);
    uint64_t cycles = 0, insns = 0;
    breakpoints_in_loop(*core, observed, cycles, insns);
    expect_exit(6);
    make(CoreConfig{});
    exec(loop_prog());
    EXPECT_EQ(core->cycles(), cycles) << observed;
    EXPECT_EQ(core->counters().instructions, insns) << observed;
  }
}

TEST_F(TimedTest, BreakPcsStopBeforeEachVisitTimed) {
  for (bool observed : {false, true}) {
    std::vector<uint32_t> prog = loop_prog();
    prog.push_back(enc_ta(0));
    make(tcfg);
    load(prog);
    uint64_t cycles = 0, insns = 0;
    breakpoints_in_loop(*core, observed, cycles, insns);
    make(tcfg);
    exec(loop_prog());
    EXPECT_EQ(core->cycles(), cycles) << observed;
    EXPECT_EQ(core->counters().instructions, insns) << observed;
  }
}

// A breakpoint whose filter bit another address shares (4096 words apart)
// stops only at its own address.
TEST_F(CoreTest, BreakPcsFilterAliasDoesNotStop) {
  load([] {
    std::vector<uint32_t> p = loop_prog();
    p.push_back(enc_ta(0));
    return p;
  }());
  core->set_break_pcs({kCode + 8 + 4 * 4096});
  EXPECT_EQ(core->run(core->cycles() + 100000), StopReason::ErrorMode);
  expect_exit(6);
}

// Core::set_watches: the run stops right after the store to the watched
// word (not after the store to another page, nor after a load for a write
// watchpoint), the instruction done; the counts equal a run without it.
// Timed mode with a DMI region over the RAM: the other page stays on DMI.
std::vector<uint32_t> watch_prog() {  // st to kData, ld and st on the next page (g3), nop
  return {enc_sethi(G1, kData), enc_sethi(G3, kData + 0x1000),
          enc_st(G1, G1, 0),    enc_ld(G2, G3, 0),
          enc_st(G1, G3, 0),    enc_nop()};
}

TEST_F(TimedTest, WatchStopsAfterTheWatchedStoreOnly) {
  bus.latency = 3;  // the bus as slow as the DMI region: the watched page's accesses cost the same
  remake(3, 3);
  load([] {
    std::vector<uint32_t> p = watch_prog();
    p.push_back(enc_ta(0));
    return p;
  }());
  core->set_watches({{kData + 0x1000, 4, false, true}});
  ASSERT_EQ(core->run(core->cycles() + 100000), StopReason::Break);
  EXPECT_EQ(core->watch_hit(), 0);
  EXPECT_EQ(core->pc(), kCode + 20);  // after the second store
  EXPECT_EQ(bus.r32(kData + 0x1000), kData);
  core->set_watches({});
  EXPECT_EQ(core->run(core->cycles() + 100000), StopReason::ErrorMode);
  expect_exit(6);
  const uint64_t cycles = core->cycles(), insns = core->counters().instructions;
  remake(3, 3);
  exec(watch_prog());
  EXPECT_EQ(core->cycles(), cycles);
  EXPECT_EQ(core->counters().instructions, insns);
}

// Functional mode over memory with write generations (the sequential page
// loop's holed windows): loads below the watched page and stores above it
// and into it, outside the watched range, run on; the store into the range
// stops the run right after it.
TEST_F(CoreTest, WatchStopsAmongAccessesOnBothSidesOfItsPage) {
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  core->set_watches({{kData + 0x1008, 4, false, true}});
  // 0-2: g1, g3, g4 = kData, +0x2000, +0x1000 | 3: g5 = 10 | 4: L: ld [g1] |
  // 5: st [g3] | 6: st [g4] (the watched page, not the range) | 7: g5-- |
  // 8: bne L | 9: nop | 10: st [g4 + 8] (watched) | 11: nop
  exec({enc_sethi(G1, kData), enc_sethi(G3, kData + 0x2000), enc_sethi(G4, kData + 0x1000),
        enc_ori(G5, G0, 10), enc_ld(G2, G1, 0), enc_st(G2, G3, 0), enc_st(G5, G4, 0), enc_subcci(G5, G5, 1),
        enc_bicc(NE, false, -4), enc_nop(), enc_st(G1, G4, 8), enc_nop()});
  EXPECT_EQ(core->watch_hit(), 0);
  EXPECT_EQ(core->pc(), kCode + 44);  // after the watched store
  EXPECT_EQ(core->reg(G5), 0u);
  EXPECT_EQ(bus.r32(kData + 0x1000), 1u);
  EXPECT_EQ(bus.r32(kData + 0x1008), kData);
}

TEST_F(CoreTest, WatchOnReadsIgnoresStores) {
  core->set_watches({{kData, 4, true, false}});
  exec({enc_sethi(G1, kData), enc_st(G1, G1, 0), enc_ld(G2, G1, 0), enc_nop()});
  EXPECT_EQ(core->watch_hit(), 0);
  EXPECT_EQ(core->pc(), kCode + 12);  // after the load, not the store
}

TEST_F(CoreTest, WindowRegAccessReachesCallerWindows) {
  // save: the caller's outs become the callee's ins.
  core->set_reg(O6, 0x1000);
  exec({enc_save(SP, SP, -96), enc_ori(L0, G0, 9)});
  const unsigned cwp = core->psr() & 31;
  const unsigned caller = (cwp + 1) % core->config().nwin;
  EXPECT_EQ(core->window_reg(caller, O6), 0x1000u);
  EXPECT_EQ(core->window_reg(cwp, L0), 9u);
  core->set_window_reg(caller, L3, 0xabc);
  core->set_psr((core->psr() & ~31u) | caller);
  EXPECT_EQ(core->reg(L3), 0xabcu);
}

TEST_F(TimedTest, NoListenerMeansNoSteps) {
  Recorder r(*core);
  r.stop();
  exec(loop_prog());
  EXPECT_EQ(r.total.steps, 0u);
}

}  // namespace
}  // namespace l3vp::leon3::test
