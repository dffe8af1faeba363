// System-level behaviour: privilege, illegal/FP/CP traps, state registers,
// interrupts, power-down, run control, counters, trace format, reset.
#include <chrono>
#include <cstdio>
#include <regex>
#include <stdexcept>

#include "core_harness.h"

namespace l3vp::leon3::test {
namespace {
using namespace enc;

// ---- privilege and illegal encodings ----------------------------------------------

TEST_F(CoreTest, PrivilegedInstructionsTrapInUserMode) {
  const uint32_t insns[] = {enc_rdpsr(G1),
                            enc_wrpsr(G0, 0),
                            enc_rdwim(G1),
                            enc_wrwim(G0, 0),
                            enc_rdtbr(G1),
                            enc_wrtbr(G0, 0),
                            enc_wrasr(19, G0, 0),
                            enc_wrasr(17, G0, 0),
                            mema(LDA, G1, G0, G0, 0xB),
                            mema(STA, G1, G0, G0, 0xB),
                            mema(LDDA, G2, G0, G0, 0xB),
                            mema(LDSTUBA, G1, G0, G0, 0xB),
                            mema(SWAPA, G1, G0, G0, 0xB),
                            memi(STDFQ, G2, G0, 0),
                            memi(STDCQ, G2, G0, 0)};
  for (uint32_t insn : insns) {
    make(CoreConfig{});
    core->set_psr(kPsrET);  // user mode, traps enabled
    exec({insn});
    expect_trapped_to(0x03);
    EXPECT_EQ(core->reg(L1), kCode) << Core::mnemonic(insn);
    EXPECT_EQ(core->psr() & kPsrPS, 0u);  // came from user mode
  }
}

TEST_F(CoreTest, UserModeMayUseUnprivilegedStateRegisters) {
  core->set_psr(kPsrET);
  core->set_reg(G1, 0x1234);
  exec({enc_wry(G1, 0xF), enc_rdy(G2), enc_rdasr(G3, 17), enc_stbar()});
  expect_trapped_to(0x80);
  EXPECT_EQ(core->reg(G2), 0x123Bu);
  EXPECT_EQ(core->reg(G3), 0x06000187u);
}

// Words of defined slots that are illegal for their other fields. The free
// slots (no row in the table) are test_isa_slots.cpp's, generated from the table.
TEST_F(CoreTest, IllegalEncodingsTrap) {
  const uint32_t insns[] = {enc_unimp(0), enc_unimp(0x3FFFFF), f3i(3, G3, CASA, G1, 0), memi(LDD, G1, G0, 0),
                            memi(STD, G3, G0, 0)};
  for (uint32_t insn : insns) {
    SCOPED_TRACE(::testing::Message() << std::hex << insn << " " << Core::mnemonic(insn));
    make(CoreConfig{});
    expect_trap({insn}, 0x02, 0);
  }
}

// %asr1..15 (SPARC V8: reserved) as the LEON3 integer unit decodes them
// (README "Choices where the reference is uncertain"): RDASR rs1 = 1..15 (15 with
// rd != 0; rd = 0 is STBAR) reads Y like RDY, WRASR rd = 1..15 changes
// nothing; neither traps, in user mode neither. Y, the PSR, WIM, TBR and
// %asr17 stay as they were, and no WRASR powers the core down.
TEST_F(CoreTest, ReservedAsrsReadYAndIgnoreWritesWithoutTrapping) {
  for (bool user : {false, true}) {
    SCOPED_TRACE(user ? "user mode" : "supervisor mode");
    make(CoreConfig{});
    core->set_psr(user ? kPsrET : kPsrS | kPsrET);  // traps on: an illegal_instruction would show
    core->set_reg(G1, 0xA5A5A5A5);
    core->set_reg(G2, 0x12345678);
    std::vector<uint32_t> prog = {enc_wry(G2, 0)};                                      // Y = 0x12345678
    for (unsigned r = 1; r <= 15; ++r) prog.push_back(enc_wrasr(r, G1, 0x0F0));         // writes: no effect
    for (unsigned r = 1; r <= 15; ++r) prog.push_back(enc_rdasr(O0 + (r - 1) % 6, r));  // %o0..%o5
    prog.push_back(enc_stbar());
    prog.push_back(enc_rdasr(G3, 17));
    const uint32_t wim0 = core->wim();
    exec(prog);
    expect_trapped_to(0x80);  // the first trap is the final ta 0 (illegal_instruction: 0x02)
    EXPECT_EQ(core->y(), 0x12345678u);
    // The trap window's %i are the program's %o.
    for (unsigned r = 0; r < 6; ++r) EXPECT_EQ(core->reg(I0 + r), 0x12345678u) << "%o" << r;
    EXPECT_EQ(core->reg(G3), 0x06000187u);                                // %asr17 untouched by the WRASRs
    EXPECT_EQ(core->counters().by_class[unsigned(InsnClass::Trap)], 2u);  // the ta 0 and the handler's
    EXPECT_EQ(core->wim(), wim0);
  }
}

TEST_F(CoreTest, FpAndCoprocessorInstructionsAreDisabled) {
  const uint32_t fp[] = {alu(FPOP1, 0, 0, 0),   alu(FPOP2, 0, 0, 0),  memi(LDF, 0, G0, 0),
                         memi(LDFSR, 0, G0, 0), memi(LDDF, 0, G0, 0), memi(STF, 0, G0, 0),
                         memi(STFSR, 0, G0, 0), memi(STDF, 0, G0, 0), memi(STDFQ, 0, G0, 0),
                         enc_fbfcc(8, 4)};
  for (uint32_t insn : fp) {
    make(CoreConfig{});
    expect_trap({insn}, 0x04, 0);
  }
  const uint32_t cp[] = {alu(CPOP1, 0, 0, 0),   alu(CPOP2, 0, 0, 0),  memi(LDC, 0, G0, 0),
                         memi(LDCSR, 0, G0, 0), memi(LDDC, 0, G0, 0), memi(STC, 0, G0, 0),
                         memi(STCSR, 0, G0, 0), memi(STDC, 0, G0, 0), memi(STDCQ, 0, G0, 0),
                         enc_cbccc(8, 4)};
  for (uint32_t insn : cp) {
    make(CoreConfig{});
    expect_trap({insn}, 0x24, 0);
  }
}

// ---- state registers ------------------------------------------------------------------

TEST_F(CoreTest, Asr17Value) {
  exec({enc_rdasr(G1, 17)});
  EXPECT_EQ(core->reg(G1), 0x06000187u);
  EXPECT_EQ(core->asr17(), 0x06000187u);
  CoreConfig cfg;
  cfg.nwin = 2;
  cfg.cpu_index = 3;
  cfg.nwatchpoints = 2;
  cfg.tagged_ops = false;
  make(cfg);
  EXPECT_EQ(core->asr17(), 0x32000141u);
}

TEST_F(CoreTest, UnmodelledAsrsReadZeroAndIgnoreWrites) {
  core->set_reg(G1, 0xFFFFFFFF);
  for (unsigned r : {L0, L2, L4, L6}) core->set_reg(r, 0x55);
  exec({enc_wrasr(16, G1, 0), enc_wrasr(18, G1, 0), enc_wrasr(24, G1, 0), enc_rdasr(L0, 16),
        enc_rdasr(L2, 18), enc_rdasr(L4, 20), enc_rdasr(L6, 31)});
  expect_exit(7);
  for (unsigned r : {L0, L2, L4, L6}) EXPECT_EQ(core->reg(r), 0u);
}

TEST_F(CoreTest, StateRegisterWritesXorAndMask) {
  core->set_reg(G1, 0xFFFFFFFF);
  core->set_reg(G2, 0x12345FFF);
  exec({enc_wrwim(G1, 0), enc_rdwim(L0), enc_wrtbr(G2, 0), enc_rdtbr(L1), enc_wry(G2, 0xFF), enc_rdy(L2),
        enc_rdpsr(L3)});
  expect_exit(7);
  EXPECT_EQ(core->reg(L0), 0xFFu);  // 8 windows
  EXPECT_EQ(core->reg(L1), 0x12345000u);
  EXPECT_EQ(core->reg(L2), 0x12345F00u);
  EXPECT_EQ(core->reg(L3), 0xF30000C0u);  // impl 0xF, ver 3, S, PS
  EXPECT_EQ(core->tbr(), 0x12345800u);    // the final ta 0 recorded tt 0x80 in error mode
}

TEST_F(CoreTest, WrpsrAppliesImmediately) {
  // new PSR: icc Z, CWP 1, S, ET = 0
  core->set_reg(G1, 0x00400000 | kPsrS | 1);
  exec({enc_wrpsr(G1, 0), enc_bicc(E, false, 3), enc_addi(L0, G0, 7), enc_addi(G2, G0, 1)});
  expect_exit(4);
  EXPECT_EQ(core->reg(G2), 0u);  // branch saw the new icc
  EXPECT_EQ(core->psr() & 0x1F, 1u);
  EXPECT_EQ(core->reg(L0), 7u);  // written in window 1
  core->set_psr(core->psr() & ~0x1Fu);
  EXPECT_EQ(core->reg(L0), 0u);
}

TEST_F(CoreTest, WrpsrCwpOutOfRangeIsIllegal) {
  core->set_reg(G1, kPsrS | 8);  // NWIN = 8
  uint32_t before = core->psr();
  exec({enc_wrpsr(G1, 0)});
  expect_error_mode(0x02, kCode);
  EXPECT_EQ(core->psr(), before);
  // 7 is fine
  make(CoreConfig{});
  core->set_reg(G1, kPsrS | 7);
  exec({enc_wrpsr(G1, 0)});
  expect_exit(1);
  EXPECT_EQ(core->psr() & 0x1F, 7u);
}

// ---- interrupts -----------------------------------------------------------------------------

TEST_F(CoreTest, InterruptTakenWhenAbovePil) {
  core->set_psr(kPsrS | kPsrET | (4 << 8));
  core->set_irl(5);
  exec({enc_nop()});
  expect_trapped_to(0x15);
  EXPECT_EQ(core->reg(L1), kCode);  // taken before the first instruction
  EXPECT_EQ(core->reg(L2), kCode + 4);
  EXPECT_EQ(bus.intacks, (std::vector<unsigned>{5}));
  EXPECT_EQ(core->counters().interrupts, 1u);
  EXPECT_EQ(core->counters().traps, 1u);  // the handler's ta 0 (ET=0) enters error mode
}

TEST_F(CoreTest, InterruptMaskedAtOrBelowPil) {
  core->set_psr(kPsrS | kPsrET | (5 << 8));
  core->set_irl(5);
  exec({enc_nop(), enc_nop()});
  expect_trapped_to(0x80);
  EXPECT_TRUE(bus.intacks.empty());
  EXPECT_EQ(core->counters().interrupts, 0u);
}

TEST_F(CoreTest, Level15IsNonMaskable) {
  core->set_psr(kPsrS | kPsrET | (15 << 8));
  core->set_irl(15);
  exec({enc_nop()});
  expect_trapped_to(0x1F);
  EXPECT_EQ(bus.intacks, (std::vector<unsigned>{15}));
}

TEST_F(CoreTest, InterruptsIgnoredWithTrapsDisabled) {
  core->set_psr(kPsrS);
  core->set_irl(15);
  exec({enc_nop(), enc_nop()});
  expect_exit(2);
  EXPECT_TRUE(bus.intacks.empty());
}

TEST_F(CoreTest, InterruptRaisedDuringRunIsTakenBeforeNextInstruction) {
  enable_traps();
  bus.on_access = [&](const RamBus::Access& a) {
    if (a.kind == CoreBus::Kind::Fetch && a.addr == kCode + 8) core->set_irl(3);
  };
  bus.on_intack = [&](unsigned) { core->set_irl(0); };
  exec({enc_addi(G1, G0, 1), enc_addi(G1, G1, 1), enc_addi(G1, G1, 1), enc_addi(G1, G1, 1)});
  expect_trapped_to(0x13);
  EXPECT_EQ(core->reg(G1), 3u);
  EXPECT_EQ(core->reg(L1), kCode + 12);
}

TEST_F(CoreTest, AnnulledSlotIsNotInterrupted) {
  enable_traps();
  // the interrupt arrives while the untaken bne,a is fetched; its slot is
  // annulled, so the interrupt attaches to the instruction after the slot
  bus.on_access = [&](const RamBus::Access& a) {
    if (a.kind == CoreBus::Kind::Fetch && a.addr == kCode) core->set_irl(7);
  };
  set_icc(4);
  exec({enc_bicc(NE, true, 5), enc_addi(G1, G0, 1), enc_addi(G2, G0, 2)});
  expect_trapped_to(0x17);
  EXPECT_EQ(core->reg(L1), kCode + 8);
  EXPECT_EQ(core->reg(G1), 0u);
}

TEST_F(CoreTest, WrpsrBlocksInterruptsForOneInstruction) {
  // ET=0 -> WRPSR sets ET=1 with irl 6 pending: the next instruction still
  // executes, the interrupt is taken before the one after it.
  core->set_psr(kPsrS);
  core->set_irl(6);
  core->set_reg(G1, kPsrS | kPsrET);
  exec({enc_wrpsr(G1, 0), enc_addi(G2, G0, 1), enc_addi(G3, G0, 1)});
  expect_trapped_to(0x16);
  EXPECT_EQ(core->reg(G2), 1u);
  EXPECT_EQ(core->reg(G3), 0u);
  EXPECT_EQ(core->reg(L1), kCode + 8);
}

// ---- power-down ----------------------------------------------------------------------------

TEST_F(CoreTest, PowerDownAndWakeWithTrapsDisabled) {
  core->set_psr(kPsrS | (5 << 8));
  load({enc_wrasr(19, G0, 0), enc_addi(G1, G0, 1), enc_ta(0)});
  EXPECT_EQ(core->run(1000), StopReason::PowerDown);
  EXPECT_EQ(core->pc(), kCode + 4);  // the WRASR retired
  EXPECT_TRUE(core->powered_down());
  uint64_t c = core->cycles();
  EXPECT_EQ(core->run(c + 1000), StopReason::PowerDown);
  EXPECT_EQ(core->cycles(), c);  // nothing executed
  core->add_idle_cycles(100);
  EXPECT_EQ(core->cycles(), c + 100);
  EXPECT_EQ(core->counters().idle_cycles, 100u);
  core->set_irl(5);  // not above PIL: stays asleep
  EXPECT_TRUE(core->powered_down());
  EXPECT_EQ(core->run(c + 1000), StopReason::PowerDown);
  core->set_irl(6);  // wakes; ET = 0 so no trap, execution just continues
  EXPECT_FALSE(core->powered_down());
  EXPECT_EQ(core->run(c + 1000), StopReason::ErrorMode);
  expect_exit(2);
  EXPECT_EQ(core->reg(G1), 1u);
  EXPECT_EQ(core->counters().interrupts, 0u);
}

TEST_F(CoreTest, PowerDownWakeTakesInterruptWhenEnabled) {
  enable_traps();
  load({enc_wrasr(19, G0, 0), enc_addi(G1, G0, 1), enc_ta(0)});
  EXPECT_EQ(core->run(1000), StopReason::PowerDown);
  core->set_irl(2);
  EXPECT_EQ(core->run(1000), StopReason::ErrorMode);
  expect_trapped_to(0x12);
  EXPECT_EQ(core->reg(L1), kCode + 4);
  EXPECT_EQ(core->reg(G1), 0u);
}

TEST_F(CoreTest, PowerDownWakesOnLevel15AtPil15) {
  core->set_psr(kPsrS | (15 << 8));
  load({enc_wrasr(19, G0, 0), enc_ta(0)});
  EXPECT_EQ(core->run(1000), StopReason::PowerDown);
  core->set_irl(14);
  EXPECT_TRUE(core->powered_down());
  core->set_irl(15);
  EXPECT_FALSE(core->powered_down());
  EXPECT_EQ(core->run(1000), StopReason::ErrorMode);
}

// ---- run control, timing ------------------------------------------------------------------------

TEST_F(CoreTest, CycleLimitStopsOnInstructionBoundary) {
  load(std::vector<uint32_t>(64, enc_nop()));
  EXPECT_EQ(core->run(5), StopReason::CycleLimit);
  EXPECT_EQ(core->cycles(), 5u);
  EXPECT_EQ(core->pc(), kCode + 20);
  EXPECT_EQ(core->npc(), kCode + 24);
  bus.latency = 2;  // each fetch now costs 1 + 2 cycles
  EXPECT_EQ(core->run(12), StopReason::CycleLimit);
  EXPECT_EQ(core->cycles(), 14u);  // 5 + 3 * 3
  EXPECT_EQ(core->counters().instructions, 8u);
}

TEST_F(CoreTest, BusLatencyIsAddedForDataAccesses) {
  bus.latency = 4;
  core->set_reg(G1, kData);
  exec({enc_ld(G2, G1, 0), memi(LDSTUB, G3, G1, 4), enc_nop()});
  // 4 fetches (+ ta) x (1 + 4), +4 load, +8 ldstub, +1 trap entry of ta 0
  EXPECT_EQ(core->cycles(), 4u * 5 + 4 + 8 + 1);
}

TEST_F(CoreTest, YieldAndLimitChangeFromBusCallback) {
  core->set_reg(G1, kData);
  bus.on_access = [&](const RamBus::Access& a) {
    if (a.kind == CoreBus::Kind::Read) core->request_yield();
  };
  load({enc_nop(), enc_ld(G2, G1, 0), enc_nop(), enc_nop(), enc_ta(0)});
  EXPECT_EQ(core->run(1000), StopReason::Yield);
  EXPECT_EQ(core->pc(), kCode + 8);
  bus.on_access = [&](const RamBus::Access& a) {
    if (a.kind == CoreBus::Kind::Fetch && a.addr == kCode + 8) core->set_cycle_limit(0);
  };
  EXPECT_EQ(core->run(1000), StopReason::CycleLimit);
  EXPECT_EQ(core->pc(), kCode + 12);
  bus.on_access = nullptr;
  EXPECT_EQ(core->run(1000), StopReason::ErrorMode);
}

// ---- counters and trace ---------------------------------------------------------------------------

TEST_F(CoreTest, CountersByClass) {
  core->set_reg(G1, kData);
  core->set_reg(G2, 3);
  core->set_reg(SP, 0x3000);
  std::vector<uint32_t> q = {
      enc_addi(G3, G0, 1),      // alu
      enc_ld(G4, G1, 0),        // load
      enc_st(G4, G1, 4),        // store
      memi(LDSTUB, G5, G1, 8),  // store
      memi(SWAP, G5, G1, 12),   // store
      alu(UMUL, G6, G2, G2),    // mul
      alu(UDIV, G6, G6, G2),    // div
      enc_save(SP, SP, -96),    // save_restore
      enc_restore(G0, G0, 0),   // save_restore
      enc_ticc(N, G0, 1),       // trap (untaken)
      enc_call(2),              // call_jmpl
      enc_flush(G0, 0),         // other
      enc_bicc(N, true, 5),     // branch, annuls the next
      enc_addi(G7, G0, 1),      // annulled
      enc_bicc(A, false, 2),    // branch
      enc_stbar(),              // other
      enc_nop(),                // 16: branch target (alu)
  };
  exec(q);
  expect_exit(q.size());
  const CoreCounters& c = core->counters();
  auto n = [&](InsnClass k) { return c.by_class[static_cast<unsigned>(k)]; };
  EXPECT_EQ(n(InsnClass::Alu), 2u);  // addi, nop at 16
  EXPECT_EQ(n(InsnClass::Load), 1u);
  EXPECT_EQ(n(InsnClass::Store), 3u);
  EXPECT_EQ(n(InsnClass::Mul), 1u);
  EXPECT_EQ(n(InsnClass::Div), 1u);
  EXPECT_EQ(n(InsnClass::SaveRestore), 2u);
  EXPECT_EQ(n(InsnClass::Trap), 2u);  // untaken ticc + final ta 0
  EXPECT_EQ(n(InsnClass::CallJmpl), 1u);
  EXPECT_EQ(n(InsnClass::Other), 2u);  // flush, stbar
  EXPECT_EQ(n(InsnClass::Branch), 2u);
  EXPECT_EQ(c.annulled, 1u);
  EXPECT_EQ(c.instructions, 17u);
  uint64_t sum = 0;
  for (unsigned k = 0; k < unsigned(InsnClass::Count); ++k) sum += c.by_class[k];
  EXPECT_EQ(sum, c.instructions);
  EXPECT_EQ(core->reg(G7), 0u);
  EXPECT_STREQ(insn_class_name(InsnClass::SaveRestore), "save_restore");
  EXPECT_STREQ(insn_class_name(InsnClass::Alu), "alu");
  EXPECT_STREQ(insn_class_name(InsnClass::Other), "other");
}

TEST_F(CoreTest, TraceLineFormat) {
  core->set_reg(G1, 0xDEADBEEF);
  core->set_reg(I7, 0x00C0FFEE);
  core->set_y(0xA5);
  core->set_wim(0x2);
  load({enc_addi(O0, G0, 0x10), enc_bicc(N, true, 0), enc_nop(), enc_ta(0)});
  std::string text = run_traced();
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t e = text.find('\n', pos);
    ASSERT_NE(e, std::string::npos) << "every line ends with a newline";
    lines.push_back(text.substr(pos, e - pos));
    pos = e + 1;
  }
  ASSERT_EQ(lines.size(), 3u);  // the annulled nop is not traced
  std::regex line_re("^[0-9a-f]{8}( [0-9a-f]{8}){35}$");
  for (auto& l : lines) EXPECT_TRUE(std::regex_match(l, line_re)) << l;
  EXPECT_EQ(lines[0].substr(0, 62), "00004000 00004004 f30000c0 00000002 000000a5 deadbeef 00000000");
  EXPECT_EQ(lines[0].substr(lines[0].size() - 8), "00c0ffee");  // I7 is the last field
  // second line: %o0 (field 13) was written by the first instruction
  EXPECT_EQ(lines[1].substr(0, 17), "00004004 00004008");
  EXPECT_EQ(lines[1].substr(12 * 9, 8), "00000010");
  EXPECT_EQ(lines[2].substr(0, 17), "0000400c 00004010");
}

// ---- reset and misc ------------------------------------------------------------------------------

TEST_F(CoreTest, ResetState) {
  CoreConfig cfg;
  cfg.reset_pc = 0x40001000;
  make(cfg);
  core->reset();
  EXPECT_EQ(core->pc(), 0x40001000u);
  EXPECT_EQ(core->npc(), 0x40001004u);
  EXPECT_EQ(core->psr() & 0xE0, kPsrS | kPsrPS);  // S = PS = 1, ET = 0
  EXPECT_EQ(core->psr() >> 24, 0xF3u);
  EXPECT_EQ(core->tbr(), 0x40001000u);
  EXPECT_EQ(core->ccr(), 0u);
  EXPECT_EQ(core->asr17() & (3u << 13), 0u);  // SVT = DWT = 0
  EXPECT_FALSE(core->in_error_mode());
  EXPECT_FALSE(core->powered_down());
  EXPECT_EQ(core->config().reset_pc, 0x40001000u);
}

TEST_F(CoreTest, ResetLeavesErrorMode) {
  exec({enc_unimp(0)});
  EXPECT_TRUE(core->in_error_mode());
  core->reset();
  EXPECT_FALSE(core->in_error_mode());
  EXPECT_EQ(core->pc(), 0u);
}

TEST_F(CoreTest, InvalidWindowCountIsRejected) {
  CoreConfig cfg;
  cfg.nwin = 1;
  EXPECT_THROW(Core(cfg, bus), std::invalid_argument);
  cfg.nwin = 33;
  EXPECT_THROW(Core(cfg, bus), std::invalid_argument);
}

TEST(Decoder, TableNamesEncodings) {
  EXPECT_STREQ(Core::mnemonic(0x01000000), "SETHI");
  EXPECT_STREQ(Core::mnemonic(0x91d02000), "TICC");
  EXPECT_STREQ(Core::mnemonic(enc_stbar()), "STBAR");
  EXPECT_STREQ(Core::mnemonic(enc_rdy(G1)), "RDASR");
  EXPECT_STREQ(Core::mnemonic(enc_call(1)), "CALL");
  EXPECT_STREQ(Core::mnemonic(mema(CASA, 1, 2, 3, 0xB)), "CASA");
  EXPECT_STREQ(Core::mnemonic(alu(0x09, 1, 1, 1)), "ILLEGAL");
  EXPECT_STREQ(Core::mnemonic(0), "UNIMP");
  EXPECT_STREQ(Core::mnemonic(memi(LDSTUBA, 1, 1, 1)), "LDSTUBA");
}

// Not a speed assertion (machines differ): prints MIPS of the functional DMI
// path and checks the loop computed the right thing.
TEST_F(CoreTest, ThroughputSmoke) {
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  const double s = run_throughput_loop();
  std::printf("[ info ] %.1f MIPS (functional, DMI, no trace)\n",
              double(core->counters().instructions) / s / 1e6);
}

}  // namespace
}  // namespace l3vp::leon3::test
