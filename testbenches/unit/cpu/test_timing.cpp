// Timed mode, pipeline (hw-reference §7.3): per-class costs, load-use,
// multiplier, Y and branch interlocks, traps. Memory costs are zero here (see
// timed_harness.h); each expectation is written as the sum of its parts.
#include <chrono>
#include <cstdio>

#include "timed_harness.h"

namespace l3vp::leon3::test {
namespace {
using namespace enc;

// ---- base costs ----------------------------------------------------------------------

TEST_F(TimedTest, AluIsOneCycleAndTakenTrapFive) {
  EXPECT_EQ(cycles_of({}), kTa);
  make(tcfg);
  EXPECT_EQ(cycles_of({enc_nop(), enc_addi(G1, G1, 1), enc_sethi(G2, 0x1000)}), 3 + kTa);
  EXPECT_EQ(tc().class_cycles[unsigned(InsnClass::Alu)], 3u);
  EXPECT_EQ(tc().trap_cycles, kTa);
  expect_cycles_accounted();
}

TEST_F(TimedTest, TrapCostIsConfigurable) {
  tcfg.timing.trap_cycles = 9;
  remake();
  EXPECT_EQ(cycles_of({enc_nop()}), 1 + 9u);
}

TEST_F(TimedTest, SynchronousTrapAndInterruptCostFive) {
  enable_traps();
  exec({enc_unimp(0)});  // trap 5, then the table entry: rd %tbr 1, ta 0 5
  expect_trapped_to(0x02);
  EXPECT_EQ(core->cycles(), kTa + 1 + kTa);
  make(tcfg);
  enable_traps();
  core->set_irl(15);
  exec({enc_nop()});  // interrupt 5, rd %tbr 1, ta 0 5; the nop never runs
  expect_trapped_to(0x1F);
  EXPECT_EQ(core->cycles(), kTa + 1 + kTa);
  expect_cycles_accounted();
}

TEST_F(TimedTest, FunctionalModeIsUnchanged) {
  make(CoreConfig{});  // default: functional, 1 cycle per instruction, trap entry 1
  core->set_reg(G1, kData);
  exec({enc_ld(G2, G1, 0), alu(ADD, G3, G2, G2), enc_st(G3, G1, 4), alu(UDIV, G4, G3, G1)});
  EXPECT_EQ(core->cycles(), 5u + 1);  // 4 insns + ta, + trap entry
  EXPECT_EQ(core->timing_counters().class_cycles[0], 0u);
}

TEST_F(TimedTest, StoresTwoStdThreeAtomicsThree) {
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_st(G0, G1, 0)}), 2 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({memi(STD, G2, G1, 0)}), 3 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({memi(LDSTUB, G2, G1, 0)}), 3 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({memi(SWAP, G2, G1, 4)}), 3 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({mema(CASA, G2, G1, G3, 0xB)}), 3 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), memi(LDD, G2, G1, 8)}), 1 + 2 + kTa);
}

TEST_F(TimedTest, JmplThreeCallOne) {
  core->set_reg(G4, kCode + 8);
  EXPECT_EQ(cycles_of({enc_jmpl(G0, G4, 0), enc_nop()}, 2), 3 + 1 + kTa);
  make(tcfg);
  EXPECT_EQ(cycles_of({enc_call(2), enc_nop()}, 2), 1 + 1 + kTa);
  EXPECT_EQ(tc().class_cycles[unsigned(InsnClass::CallJmpl)], 1u);
}

TEST_F(TimedTest, AnnulledSlotCostsOne) {
  EXPECT_EQ(cycles_of({enc_bicc(N, true, 5), enc_nop()}), 1 + 1 + kTa);
  EXPECT_EQ(tc().annul_cycles, 1u);
  expect_cycles_accounted();
}

// ---- load-use interlock -----------------------------------------------------------------

TEST_F(TimedTest, LoadUseCostsOneWithLoadDelayOne) {
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_addi(G3, G2, 1)}), 1 + 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_load_use, 1u);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_addi(G3, G4, 1)}), 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_load_use, 0u);
  make(tcfg);  // rs2 is checked too
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), alu(ADD, G3, G4, G2)}), 1 + 1 + 1 + kTa);
  make(tcfg);  // one instruction in between: no stall with LDDEL = 1
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_nop(), enc_addi(G3, G2, 1)}), 3 + kTa);
  make(tcfg);  // loads into %g0 never interlock
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G0, G1, 0), enc_addi(G3, G0, 1)}), 2 + kTa);
}

TEST_F(TimedTest, LoadUseAsAddressAndAsStoreData) {
  bus.w32(kData, kData + 16);
  core->set_reg(G1, kData);
  // loaded value used as the store address: stall 1
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_st(G0, G2, 0)}), 1 + 1 + 2 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  // loaded value stored: the data is read in the store's 2nd cycle, no stall
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_st(G2, G1, 8)}), 1 + 2 + kTa);
  EXPECT_EQ(bus.r32(kData + 8), kData + 16);
}

TEST_F(TimedTest, LoadDelayTwo) {
  tcfg.timing.load_delay = 2;
  remake();
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_addi(G3, G2, 1)}), 1 + 2 + 1 + kTa);
  EXPECT_EQ(tc().stall_load_use, 2u);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_nop(), enc_addi(G3, G2, 1)}), 1 + 1 + 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_load_use, 1u);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_nop(), enc_nop(), enc_addi(G3, G2, 1)}), 4 + kTa);
  make(tcfg);  // store data right after the load: 1 (read one cycle late)
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_st(G2, G1, 8)}), 1 + 1 + 2 + kTa);
  make(tcfg);  // a 2-cycle store in between covers the second delay cycle
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({enc_ld(G2, G1, 0), enc_st(G0, G1, 8), enc_addi(G3, G2, 1)}), 1 + 2 + 1 + kTa);
}

TEST_F(TimedTest, LddSecondWordArrivesLater) {
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({memi(LDD, G2, G1, 0), enc_addi(G5, G3, 1)}), 2 + 1 + 1 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({memi(LDD, G2, G1, 0), enc_addi(G5, G2, 1)}), 2 + 1 + kTa);
  tcfg.timing.load_delay = 2;
  remake();
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({memi(LDD, G2, G1, 0), enc_addi(G5, G3, 1)}), 2 + 2 + 1 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({memi(LDD, G2, G1, 0), enc_addi(G5, G2, 1)}), 2 + 1 + 1 + kTa);
}

TEST_F(TimedTest, AtomicResultIsReadyAfterItsThreeCycles) {
  core->set_reg(G1, kData);
  EXPECT_EQ(cycles_of({memi(LDSTUB, G2, G1, 0), enc_addi(G3, G2, 1)}), 3 + 1 + kTa);
  EXPECT_EQ(core->reg(G3), 1u);
}

TEST_F(TimedTest, InterlockFollowsTheWindowAcrossSave) {
  tcfg.timing.load_delay = 2;
  remake();
  core->set_reg(G1, kData);
  core->set_reg(SP, 0x3000);
  // %o0 loaded, SAVE, then the same physical register as %i0: 1 stall left
  EXPECT_EQ(cycles_of({enc_ld(O0, G1, 0), enc_save(SP, SP, -96), enc_addi(G5, I0, 1)}), 1 + 1 + 1 + 1 + kTa);
  make(tcfg);
  core->set_reg(G1, kData);
  core->set_reg(SP, 0x3000);
  // the new window's %o0 is another register: no stall
  EXPECT_EQ(cycles_of({enc_ld(O0, G1, 0), enc_save(SP, SP, -96), enc_addi(G5, O0, 1)}), 1 + 1 + 1 + kTa);
}

// ---- multiply, divide, Y ------------------------------------------------------------------

TEST_F(TimedTest, PipelinedMultiplierResultUsePlusOne) {
  core->set_reg(G1, 7);
  core->set_reg(G2, 6);
  EXPECT_EQ(cycles_of({alu(UMUL, G3, G1, G2), enc_addi(G4, G3, 1)}), 1 + 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_muldiv, 1u);
  EXPECT_EQ(core->reg(G4), 43u);
  make(tcfg);
  EXPECT_EQ(cycles_of({alu(UMUL, G3, G1, G2), enc_addi(G4, G1, 1)}), 1 + 1 + kTa);
  make(tcfg);
  EXPECT_EQ(cycles_of({alu(UMUL, G3, G1, G2), enc_nop(), enc_addi(G4, G3, 1)}), 3 + kTa);
  make(tcfg);  // as store data (read one cycle late): no stall
  core->set_reg(G5, kData);
  EXPECT_EQ(cycles_of({alu(SMUL, G3, G1, G2), enc_st(G3, G5, 0)}), 1 + 2 + kTa);
}

TEST_F(TimedTest, OtherMultiplierOptions) {
  tcfg.timing.mul = MulType::Iter16x16;
  remake();
  EXPECT_EQ(cycles_of({alu(UMUL, G3, G1, G2), enc_addi(G4, G3, 1)}), 4 + 1 + kTa);
  EXPECT_EQ(tc().stall_muldiv, 0u);
  tcfg.timing.mul = MulType::Pipelined16x16;
  remake();
  EXPECT_EQ(cycles_of({alu(SMULCC, G3, G1, G2), enc_addi(G4, G3, 1)}), 5 + 1 + kTa);
}

TEST_F(TimedTest, DivideThirtyFive) {
  core->set_reg(G1, 100);
  core->set_reg(G2, 7);
  EXPECT_EQ(cycles_of({alu(UDIV, G3, G1, G2)}), 35 + kTa);
  EXPECT_EQ(core->reg(G3), 14u);
  EXPECT_EQ(tc().class_cycles[unsigned(InsnClass::Div)], 35u);
  tcfg.timing.div_cycles = 20;
  remake();
  core->set_reg(G2, 7);
  EXPECT_EQ(cycles_of({alu(SDIVCC, G3, G1, G2)}), 20 + kTa);
}

TEST_F(TimedTest, DivideWaitsForY) {
  core->set_reg(G2, 7);
  // WRY then UDIV: Y leaves EX 2 cycles later
  EXPECT_EQ(cycles_of({enc_wry(G0, 0), alu(UDIV, G3, G1, G2)}), 1 + 2 + 35 + kTa);
  EXPECT_EQ(tc().stall_muldiv, 2u);
  make(tcfg);
  core->set_reg(G2, 7);
  EXPECT_EQ(cycles_of({enc_wry(G0, 0), enc_nop(), alu(UDIV, G3, G1, G2)}), 1 + 1 + 1 + 35 + kTa);
  EXPECT_EQ(tc().stall_muldiv, 1u);
  make(tcfg);
  core->set_reg(G2, 7);
  EXPECT_EQ(cycles_of({enc_wry(G0, 0), enc_nop(), enc_nop(), alu(UDIV, G3, G1, G2)}), 1 + 1 + 1 + 35 + kTa);
  EXPECT_EQ(tc().stall_muldiv, 0u);
  make(tcfg);  // UMUL writes Y as well
  core->set_reg(G2, 7);
  EXPECT_EQ(cycles_of({alu(UMUL, G4, G2, G2), alu(UDIV, G3, G1, G2)}), 1 + 2 + 35 + kTa);
  make(tcfg);  // RDY and MULScc read Y without waiting (forwarded)
  EXPECT_EQ(cycles_of({enc_wry(G0, 5), enc_rdy(G2), alu(MULSCC, G3, G1, G2)}), 3 + kTa);
  EXPECT_EQ(core->reg(G2), 5u);
  EXPECT_EQ(tc().stall_muldiv, 0u);
}

// ---- branch interlock with and without prediction -------------------------------------------
//
//   0 subcc %g1, 1, %g1 | [nop]   icc writer, distance 1 or 2 from the branch
//   b  bne  -> the `ta 0`         taken when %g1 != 1 on entry
//   b+1 nop (delay slot)
//   b+2 nop (fall-through only)
//   b+3 ta 0

std::vector<uint32_t> branch_prog(unsigned gap, uint32_t producer = enc_subcci(G1, G1, 1)) {
  std::vector<uint32_t> p{producer};
  for (unsigned k = 0; k < gap; ++k) p.push_back(enc_nop());
  p.push_back(enc_bicc(NE, false, 3));
  p.push_back(enc_nop());
  p.push_back(enc_nop());
  return p;
}

TEST_F(TimedTest, BranchPredictedTakenCostsNothingWhenTaken) {
  core->set_reg(G1, 2);
  EXPECT_EQ(cycles_of(branch_prog(0), 4), 1 + 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_branch, 0u);
}

TEST_F(TimedTest, BranchMispredictedWhenNotTaken) {
  core->set_reg(G1, 1);  // result 0: bne not taken
  EXPECT_EQ(cycles_of(branch_prog(0), 4), 1 + (1 + 2) + 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_branch, 2u);
  make(tcfg);
  core->set_reg(G1, 1);
  EXPECT_EQ(cycles_of(branch_prog(1), 5), 1 + 1 + (1 + 1) + 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_branch, 1u);
  make(tcfg);
  core->set_reg(G1, 1);
  EXPECT_EQ(cycles_of(branch_prog(2), 6), 1 + 2 + 1 + 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_branch, 0u);
}

TEST_F(TimedTest, WithoutPredictionTheBranchAlwaysWaits) {
  tcfg.timing.branch_prediction = false;
  remake();
  core->set_reg(G1, 2);  // taken
  EXPECT_EQ(cycles_of(branch_prog(0), 4), 1 + (1 + 2) + 1 + kTa);
  make(tcfg);
  core->set_reg(G1, 2);
  EXPECT_EQ(cycles_of(branch_prog(1), 5), 1 + 1 + (1 + 1) + 1 + kTa);
  make(tcfg);
  core->set_reg(G1, 1);  // not taken
  EXPECT_EQ(cycles_of(branch_prog(0), 4), 1 + (1 + 2) + 1 + 1 + kTa);
}

TEST_F(TimedTest, UnconditionalBranchesIgnoreIcc) {
  core->set_reg(G1, 1);
  EXPECT_EQ(cycles_of({enc_subcci(G1, G1, 1), enc_bicc(A, false, 3), enc_nop(), enc_nop()}, 4),
            1 + 1 + 1 + kTa);
  EXPECT_EQ(tc().stall_branch, 0u);
}

TEST_F(TimedTest, TiccAndRdpsrWaitForIcc) {
  core->set_reg(G1, 2);  // Z = 0: te not taken
  EXPECT_EQ(cycles_of({enc_subcci(G1, G1, 1), enc_ticc(E, G0, 5)}), 1 + (1 + 2) + kTa);
  make(tcfg);
  EXPECT_EQ(cycles_of({enc_subcci(G1, G1, 1), enc_rdpsr(G2)}), 1 + (1 + 2) + kTa);
  EXPECT_EQ(tc().stall_branch, 2u);
}

TEST_F(TimedTest, NoPredictionAfterMulccOrDivcc) {
  core->set_reg(G1, 3);
  core->set_reg(G2, 5);
  // UMULcc: icc one cycle later than an ALU writer, and never predicted
  EXPECT_EQ(cycles_of(branch_prog(0, alu(UMULCC, G3, G1, G2)), 4), 1 + (1 + 3) + 1 + kTa);
  EXPECT_EQ(tc().stall_branch, 3u);
  make(tcfg);
  core->set_reg(G1, 30);
  core->set_reg(G2, 5);
  EXPECT_EQ(cycles_of(branch_prog(0, alu(UDIVCC, G3, G1, G2)), 4), 35 + (1 + 2) + 1 + kTa);
  EXPECT_EQ(tc().stall_branch, 2u);
}

TEST_F(TimedTest, MixedProgramCyclesAreFullyAccounted) {
  core->set_reg(G1, kData);
  core->set_reg(G2, 4);
  exec({enc_ld(G3, G1, 0), enc_addi(G3, G3, 1), alu(UMUL, G4, G2, G2), alu(ADD, G5, G4, G4),
        enc_subcci(G2, G2, 1), enc_bicc(NE, false, -4), enc_st(G5, G1, 4), alu(UDIV, G6, G5, G2)});
  EXPECT_TRUE(core->in_error_mode());
  EXPECT_GT(tc().stall_load_use + tc().stall_muldiv + tc().stall_branch, 0u);
  expect_cycles_accounted();
}

// ---- timed and functional modes agree on everything but time ----------------------------------

struct ArchState {
  std::vector<uint32_t> regs;
  std::vector<uint8_t> mem;
  uint32_t pc, psr, y;
  uint64_t insns;
  bool operator==(const ArchState& o) const {
    return regs == o.regs && mem == o.mem && pc == o.pc && psr == o.psr && y == o.y && insns == o.insns;
  }
};

// A loop with loads, stores, atomics, MUL/DIV/Y, SAVE/RESTORE, CALL, FLUSH,
// annulling branches and LDD/STD.
std::vector<uint32_t> mixed_program() {
  return {enc_sethi(G1, kData),
          enc_sethi(G3, kData),
          enc_movi(G2, 16),
          enc_movi(G7, 0),
          enc_save(SP, SP, -96),  // 4
          enc_ld(L0, G1, 0),      // 5: loop
          enc_movi(L1, 3),
          alu(SMUL, L2, L0, L1),
          enc_wry(G0, 0),
          enc_movi(L3, 2),
          alu(UDIV, L4, L0, L3),
          alu(ADD, L2, L2, L4),
          alu(ADD, G7, G7, L2),
          enc_st(G7, G1, 0x100),
          memi(LDSTUB, L5, G1, 0x200),
          memi(LDD, L6, G3, 8),
          enc_addi(G1, G1, 4),
          enc_subcci(G2, G2, 1),
          enc_bicc(NE, true, -13),  // 18 -> 5
          alu(ADD, G6, L5, G7),     // 19: delay slot
          enc_restore(G0, G0, 0),
          enc_call(2),
          enc_nop(),
          enc_flush(G0, 0),
          memi(STD, G6, G1, 0x300),
          enc_rdy(G5)};
}

ArchState run_mixed(CoreTest& t, RamBus& bus, std::unique_ptr<Core>& core) {
  (void)t;
  for (uint32_t k = 0; k < 24; ++k) bus.w32(kData + 4 * k, 0x1000 + 77 * k * k);
  core->set_reg(SP, 0x3000);
  std::vector<uint32_t> p = mixed_program();
  p.push_back(enc_ta(0));
  for (size_t i = 0; i < p.size(); ++i) bus.w32(kCode + 4 * uint32_t(i), p[i]);
  core->run(1000000);
  EXPECT_TRUE(core->in_error_mode());
  ArchState s;
  for (unsigned r = 0; r < 32; ++r) s.regs.push_back(core->reg(r));
  s.mem.assign(bus.ram.begin() + kData, bus.ram.begin() + kData + 0x400);
  s.pc = core->error_pc();
  s.psr = core->psr();
  s.y = core->y();
  s.insns = core->counters().instructions;
  return s;
}

TEST_F(TimedTest, SameArchitecturalResultsAsFunctionalMode) {
  make(CoreConfig{});
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  ArchState ref = run_mixed(*this, bus, core);
  EXPECT_EQ(core->error_tt(), 0x80u);
  uint64_t ref_cycles = core->cycles();
  EXPECT_EQ(ref.pc, kCode + 4 * uint32_t(mixed_program().size()));
  EXPECT_EQ(ref.insns, 5u + 15 * 15 + 14 + 6 + 1);  // last bne,a annuls its slot

  struct Variant {
    bool dmi;
    uint32_t ccr;
    unsigned lat;
  } variants[] = {{true, 0x0081000F, 0}, {false, 0x0081000F, 3}, {true, 0, 2}, {false, 0x5, 1}};
  for (const Variant& v : variants) {
    SCOPED_TRACE(::testing::Message() << "dmi " << v.dmi << " ccr " << std::hex << v.ccr);
    bus = RamBus();
    bus.latency = v.lat;
    CoreConfig cfg;
    cfg.timed = true;
    make(cfg);
    if (v.dmi)
      core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, v.lat, v.lat, bus.gen.data(),
                    bus.ram.data());
    core->set_ccr(v.ccr);
    ArchState st = run_mixed(*this, bus, core);
    EXPECT_TRUE(st == ref);
    EXPECT_NE(core->cycles(), ref_cycles);
    expect_cycles_accounted();
  }
}

// Not a speed assertion: prints the MIPS of timed mode (caches on, DMI) on the
// functional ThroughputSmoke loop, and checks the caches serve it.
TEST_F(TimedTest, ThroughputSmoke) {
  CoreConfig cfg;
  cfg.timed = true;
  make(cfg);
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 2, 2, bus.gen.data(), bus.ram.data());
  core->set_ccr(0x0081000F);
  const double s = run_throughput_loop();
  EXPECT_EQ(tc().ic_misses, 1u);
  EXPECT_EQ(tc().dc_read_misses, 1u);
  std::printf("[ info ] %.1f MIPS (timed, caches on, DMI), CPI %.2f\n",
              double(core->counters().instructions) / s / 1e6,
              double(core->cycles()) / double(core->counters().instructions));
  expect_cycles_accounted();
}

}  // namespace
}  // namespace l3vp::leon3::test
