// Control transfer: Bicc conditions and annul rules, DCTI couples, CALL/JMPL,
// register windows, Ticc, RETT, error mode.
#include "core_harness.h"

namespace l3vp::leon3::test {
namespace {
using namespace enc;

constexpr uint32_t kNf = 8, kZf = 4, kVf = 2, kCf = 1;

// ---- conditions -------------------------------------------------------------

struct CondCase {
  unsigned cond;
  uint32_t icc;
  bool taken;
};

// Hand-written truth table (V8 manual Table F-? / §B.21 condition definitions).
const CondCase kCondCases[] = {
    {N, 0xF, false},  {A, 0, true},          {E, kZf, true},        {E, 0, false},          {NE, 0, true},
    {NE, kZf, false}, {LE, kZf, true},       {LE, kNf, true},       {LE, kNf | kVf, false}, {LE, 0, false},
    {G, 0, true},     {G, kNf | kVf, true},  {G, kZf, false},       {G, kVf, false},        {L, kNf, true},
    {L, kVf, true},   {L, kNf | kVf, false}, {GE, kNf | kVf, true}, {GE, kNf, false},       {LEU, kCf, true},
    {LEU, kZf, true}, {LEU, 0, false},       {GU, 0, true},         {GU, kCf, false},       {GU, kZf, false},
    {CS, kCf, true},  {CS, 0, false},        {CC, 0, true},         {CC, kCf, false},       {NEG, kNf, true},
    {NEG, 0, false},  {POS, 0, true},        {POS, kNf, false},     {VS, kVf, true},        {VS, 0, false},
    {VC, 0, true},    {VC, kVf, false},
};

TEST_F(CoreTest, BiccConditionsAndTiccConditions) {
  for (const CondCase& t : kCondCases) {
    // Bicc: index 0 branch to 3, 1 delay slot, 2 fall-through, 3 target
    make(CoreConfig{});
    set_icc(t.icc);
    exec({enc_bicc(t.cond, false, 3), enc_nop(), enc_addi(G2, G2, 1), enc_addi(G3, G3, 1)});
    expect_exit(4);
    EXPECT_EQ(core->reg(G2), t.taken ? 0u : 1u) << "cond " << t.cond << " icc " << t.icc;
    // Ticc with the same condition
    make(CoreConfig{});
    set_icc(t.icc);
    enable_traps();
    set_icc(t.icc);
    exec({enc_ticc(t.cond, G0, 0x10), enc_addi(G2, G2, 1), enc_ta(0x11)});
    expect_trapped_to(t.taken ? 0x90 : 0x91);
  }
}

// ---- annul bit ----------------------------------------------------------------

struct AnnulCase {
  const char* name;
  unsigned cond;
  bool annul;
  uint32_t icc;
  bool slot_runs, fallthrough_runs;
};
std::ostream& operator<<(std::ostream& os, const AnnulCase& c) { return os << c.name; }

class Annul : public CoreTest, public ::testing::WithParamInterface<AnnulCase> {};

TEST_P(Annul, DelaySlot) {
  const AnnulCase& t = GetParam();
  set_icc(t.icc);
  // 0: branch to 3 | 1: slot g1++ | 2: fall-through g2++ | 3: target g3++ | 4: ta 0
  load({enc_bicc(t.cond, t.annul, 3), enc_addi(G1, G1, 1), enc_addi(G2, G2, 1), enc_addi(G3, G3, 1),
        enc_ta(0)});
  std::string trace = run_traced();
  expect_exit(4);
  EXPECT_EQ(core->reg(G1), t.slot_runs ? 1u : 0u);
  EXPECT_EQ(core->reg(G2), t.fallthrough_runs ? 1u : 0u);
  EXPECT_EQ(core->reg(G3), 1u);
  bool annulled = !t.slot_runs;
  EXPECT_EQ(core->counters().annulled, annulled ? 1u : 0u);
  // the annulled slot is neither traced nor counted
  std::vector<uint32_t> pcs = trace_pcs(trace);
  std::vector<uint32_t> want = {kCode};
  if (t.slot_runs) want.push_back(kCode + 4);
  if (t.fallthrough_runs) want.push_back(kCode + 8);
  want.push_back(kCode + 12);
  want.push_back(kCode + 16);
  EXPECT_EQ(pcs, want);
  EXPECT_EQ(core->counters().instructions, want.size());  // the final ta counts
}

INSTANTIATE_TEST_SUITE_P(Bicc, Annul,
                         ::testing::Values(AnnulCase{"cond_taken_a0", E, false, kZf, true, false},
                                           AnnulCase{"cond_taken_a1", E, true, kZf, true, false},
                                           AnnulCase{"cond_untaken_a0", E, false, 0, true, true},
                                           AnnulCase{"cond_untaken_a1", E, true, 0, false, true},
                                           AnnulCase{"ba_a0", A, false, 0, true, false},
                                           AnnulCase{"ba_a1", A, true, 0, false, false},
                                           AnnulCase{"bn_a0", N, false, 0xF, true, true},
                                           AnnulCase{"bn_a1", N, true, 0xF, false, true}),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- DCTI couples (V8 manual Table 5-12) -------------------------------------------

// Layout: 0 first CTI -> 10, 1 second CTI -> 20, 10/11 first target, 20 second target.
std::vector<uint32_t> dcti_prog(uint32_t first, uint32_t second) {
  std::vector<uint32_t> p(24, enc_nop());
  p[0] = first;
  p[1] = second;
  p[10] = enc_addi(G1, G1, 1);
  p[11] = enc_addi(G2, G2, 1);
  p[12] = enc_ta(0);
  p[20] = enc_addi(G3, G3, 1);
  p[21] = enc_ta(0);
  return p;
}

TEST_F(CoreTest, DctiCoupleUnconditionalThenTaken) {
  load(dcti_prog(enc_bicc(A, false, 10), enc_bicc(A, false, 19)));
  auto pcs = trace_pcs(run_traced());
  // executes 0, 1, 10 (delay slot of the second CTI), then 20
  EXPECT_EQ(pcs, (std::vector<uint32_t>{kCode, kCode + 4, kCode + 40, kCode + 80, kCode + 84}));
}

TEST_F(CoreTest, DctiCoupleUnconditionalThenUntakenA0) {
  load(dcti_prog(enc_bicc(A, false, 10), enc_bicc(E, false, 19)));
  auto pcs = trace_pcs(run_traced());
  EXPECT_EQ(pcs, (std::vector<uint32_t>{kCode, kCode + 4, kCode + 40, kCode + 44, kCode + 48}));
}

TEST_F(CoreTest, DctiCoupleUnconditionalThenUntakenA1) {
  load(dcti_prog(enc_bicc(A, false, 10), enc_bicc(E, true, 19)));
  auto pcs = trace_pcs(run_traced());
  // 10 annulled
  EXPECT_EQ(pcs, (std::vector<uint32_t>{kCode, kCode + 4, kCode + 44, kCode + 48}));
  EXPECT_EQ(core->counters().annulled, 1u);
}

TEST_F(CoreTest, DctiCoupleUnconditionalThenBaA1) {
  load(dcti_prog(enc_bicc(A, false, 10), enc_bicc(A, true, 19)));
  auto pcs = trace_pcs(run_traced());
  EXPECT_EQ(pcs, (std::vector<uint32_t>{kCode, kCode + 4, kCode + 80, kCode + 84}));
  EXPECT_EQ(core->reg(G1), 0u);
}

TEST_F(CoreTest, BaA1AnnulsCtiInSlot) {
  load(dcti_prog(enc_bicc(A, true, 10), enc_bicc(A, false, 19)));
  auto pcs = trace_pcs(run_traced());
  EXPECT_EQ(pcs, (std::vector<uint32_t>{kCode, kCode + 40, kCode + 44, kCode + 48}));
  EXPECT_EQ(core->reg(G3), 0u);
}

TEST_F(CoreTest, JmplRettCoupleInTrapHandlerReturns) {
  // `ta 1` with ET=1 -> entry 0x81 handler: jmpl %l2, %g0; rett %l2 + 4
  bus.w32(0x810, enc_jmpl(G0, L2, 0));
  bus.w32(0x814, enc_rett(L2, 4));
  enable_traps();
  core->set_psr(core->psr() | kPsrPS);
  exec({enc_addi(G1, G0, 1), enc_ta(1), enc_addi(G2, G0, 2), enc_addi(G3, G0, 3)});
  expect_trapped_to(0x80);  // the final ta 0 with ET=1 again
  EXPECT_EQ(core->reg(G1), 1u);
  EXPECT_EQ(core->reg(G2), 2u);  // execution resumed after the Ticc
  EXPECT_EQ(core->reg(G3), 3u);
  EXPECT_EQ(core->counters().traps, 2u);
}

// ---- CALL / JMPL ----------------------------------------------------------------------

TEST_F(CoreTest, CallAndReturn) {
  // 0 call 5 | 1 slot g1=1 | 2 g2=2 | 3 ta 0 ... 5: g3=3 | 6 retl | 7 nop
  std::vector<uint32_t> p(8, enc_nop());
  p[0] = enc_call(5);
  p[1] = enc_addi(G1, G0, 1);
  p[2] = enc_addi(G2, G0, 2);
  p[3] = enc_ta(0);
  p[5] = enc_addi(G3, G0, 3);
  p[6] = enc_jmpl(G0, O7, 8);
  load(p);
  core->run(1000);
  expect_exit(3);
  EXPECT_EQ(core->reg(O7), kCode);  // CALL writes its own address
  EXPECT_EQ(core->reg(G1) + core->reg(G2) + core->reg(G3), 6u);
}

TEST_F(CoreTest, CallNegativeDisplacement) {
  load({enc_call(-int32_t(kCode / 4) + 0x40), enc_nop()});  // -> 0x100 (tt 0x10 entry)
  core->run(1000);
  EXPECT_EQ(core->error_pc(), 0x104u);
}

TEST_F(CoreTest, JmplWritesPcAndChecksAlignment) {
  core->set_reg(G1, kCode + 16);
  exec({enc_jmpl(L0, G1, 0), enc_nop(), enc_ta(1), enc_ta(2), enc_nop()});
  expect_exit(5);
  EXPECT_EQ(core->reg(L0), kCode);

  make(CoreConfig{});
  core->set_reg(G1, kCode + 16);
  core->set_reg(L0, 0x77);
  expect_trap({enc_jmpl(L0, G1, 2)}, 0x07, 0);
  core->set_psr(core->psr() & ~0x1Fu);
  EXPECT_EQ(core->reg(L0), 0x77u);  // rd not written
}

// ---- register windows ----------------------------------------------------------------

TEST_F(CoreTest, SaveRestoreOverlapAndOperandsFromOldWindow) {
  core->set_reg(SP, 0x1000);
  core->set_reg(O0, 11);
  core->set_reg(L0, 0x50);
  exec({enc_save(SP, SP, -96),   // new %sp = old %sp - 96
        enc_addi(L0, I0, 1),     // window 7: l0 = 12
        enc_addi(I1, G0, 99),    // becomes %o1 of window 0
        enc_restore(O2, L0, 5),  // computed in window 7, written to window 0's o2
        enc_nop()});
  expect_exit(5);
  EXPECT_EQ(core->psr() & 0x1F, 0u);
  EXPECT_EQ(core->reg(O1), 99u);
  EXPECT_EQ(core->reg(O2), 17u);
  EXPECT_EQ(core->reg(L0), 0x50u);  // locals are private to the window
  EXPECT_EQ(core->reg(SP), 0x1000u);
  core->set_psr((core->psr() & ~0x1Fu) | 7);
  EXPECT_EQ(core->reg(SP), 0x1000u - 96);
  EXPECT_EQ(core->reg(FP), 0x1000u);
  EXPECT_EQ(core->reg(L0), 12u);
}

TEST_F(CoreTest, WindowOverflowTrap) {
  core->set_wim(1u << 7);  // window 7 invalid; CWP = 0
  core->set_reg(O0, 5);
  expect_trap({enc_nop(), enc_save(O0, O0, 1)}, 0x05, 1);
  EXPECT_EQ(core->psr() & 0x1F, 7u);  // the trap itself decremented CWP unchecked
  EXPECT_EQ(core->reg(L2), kCode + 8);
  EXPECT_EQ(core->reg(I0), 5u);  // %i0 of window 7 = %o0 of window 0
  EXPECT_EQ(core->reg(O0), 0u);  // the SAVE's rd (window 7's %o0) was not written
}

TEST_F(CoreTest, WindowUnderflowTrap) {
  core->set_wim(1u << 1);
  expect_trap({enc_restore(G0, G0, 0)}, 0x06, 0);
}

TEST_F(CoreTest, WindowsWrapAroundWithAllWindows) {
  for (unsigned nwin : {2u, 3u, 8u, 32u}) {
    CoreConfig cfg;
    cfg.nwin = nwin;
    make(cfg);
    // Save nwin-1 times (WIM = 0: no traps), writing a marker into each %l0,
    // then restore back and sum the markers of every window via %i0 chaining.
    std::vector<uint32_t> p;
    for (unsigned i = 0; i < nwin - 1; ++i) {
      p.push_back(enc_save(G0, G0, 0));
      p.push_back(enc_addi(L0, G0, int32_t(i + 1)));
    }
    for (unsigned i = 0; i < nwin - 1; ++i) {
      p.push_back(alu(ADD, G1, G1, L0));
      p.push_back(enc_restore(G0, G0, 0));
    }
    exec(p);
    expect_exit(p.size());
    EXPECT_EQ(core->psr() & 0x1F, 0u) << nwin;
    EXPECT_EQ(core->reg(G1), (nwin - 1) * nwin / 2) << nwin;
    // in window 1 the ins are window 0's outs... and window nwin-1's ins are window 0's outs
    core->set_reg(O3, 0xAB);
    core->set_psr((core->psr() & ~0x1Fu) | (nwin - 1));
    EXPECT_EQ(core->reg(I3), 0xABu) << nwin;
  }
}

// ---- Ticc ---------------------------------------------------------------------------------

TEST_F(CoreTest, TiccNumbering) {
  struct T {
    uint32_t rs1;
    int32_t imm;
    unsigned tt;
  };
  for (T t : {T{0, 0, 0x80}, T{0, 5, 0x85}, T{0, 0x7F, 0xFF}, T{1, 0x7F, 0x80}, T{0x12345603, 0x10, 0x93},
              T{0xFFFFFFFF, 2, 0x81}}) {
    make(CoreConfig{});
    core->set_reg(G1, t.rs1);
    expect_trap({enc_nop(), enc_ticc(A, G1, t.imm)}, t.tt, 1);
    EXPECT_EQ(core->reg(L2), kCode + 8);  // nPC of the Ticc
  }
  // register form: rs1 + rs2
  make(CoreConfig{});
  core->set_reg(G1, 0x7F);
  core->set_reg(G2, 2);
  expect_trap({enc_ticcr(A, G1, G2)}, 0x81, 0);
}

TEST_F(CoreTest, SingleVectorTrapping) {
  core->set_reg(G1, 1 << 13);
  exec({enc_wrasr(17, G1, 0), enc_rdasr(G2, 17)});
  EXPECT_EQ(core->reg(G2) & (1u << 13), 1u << 13);
  EXPECT_EQ(core->asr17() & (1u << 13), 1u << 13);
  make(CoreConfig{});
  core->set_reg(G1, 1 << 13);
  enable_traps();
  exec({enc_wrasr(17, G1, 0), enc_ta(5)});
  // every trap goes to TBA + 0, TBR.tt still tells which
  EXPECT_EQ(core->error_pc(), 4u);
  EXPECT_EQ(core->reg(G7), 0x850u);
}

// ---- RETT and error mode --------------------------------------------------------------

TEST_F(CoreTest, RettWithTrapsEnabledSupervisorIsIllegal) { expect_trap({enc_rett(G0, 0)}, 0x02, 0); }

TEST_F(CoreTest, RettWithTrapsEnabledUserIsPrivileged) {
  core->set_psr(kPsrET);  // user mode, ET = 1
  exec({enc_rett(G0, 0)});
  expect_trapped_to(0x03);
}

TEST_F(CoreTest, RettUserEtZeroEntersErrorMode) {
  core->set_psr(0);
  exec({enc_nop(), enc_rett(G0, 0)});
  expect_error_mode(0x03, kCode + 4);
}

TEST_F(CoreTest, RettUnderflowEntersErrorMode) {
  core->set_psr(kPsrS | 3);
  core->set_wim(1u << 4);
  exec({enc_rett(G0, 0)});
  expect_error_mode(0x06, kCode);
  EXPECT_EQ(core->psr() & 0x1F, 3u);
}

TEST_F(CoreTest, RettMisalignedEntersErrorMode) {
  core->set_reg(G1, kCode + 0x101);
  exec({enc_rett(G1, 0)});
  expect_error_mode(0x07, kCode);
}

TEST_F(CoreTest, RettRestoresStateAndJumps) {
  // S = 1, PS = 0, ET = 0, CWP = 6 -> after RETT: CWP 7, S = 0, ET = 1
  core->set_psr(kPsrS | 6);
  core->set_reg(G1, kCode + 0x40);
  std::vector<uint32_t> p(0x48 / 4, enc_nop());
  p[0] = enc_jmpl(G0, G1, 0);
  p[1] = enc_rett(G1, 4);
  p[0x40 / 4] = enc_addi(G2, G0, 1);  // delay slot of the couple
  p[0x44 / 4] = enc_ta(0);
  load(p);
  core->run(1000);
  // user mode ta 0 with ET=1 -> trap 0x80
  expect_trapped_to(0x80);
  EXPECT_EQ(core->reg(G2), 1u);
  uint32_t psr = core->psr();
  EXPECT_EQ(psr & kPsrPS, 0u);  // trap entry copied S (0) into PS
  EXPECT_EQ(psr & 0x1F, 6u);    // RETT went to 7, the trap back to 6
}

TEST_F(CoreTest, TrapWithTrapsDisabledHaltsForGood) {
  exec({enc_nop(), enc_unimp(0x123), enc_nop()});
  expect_error_mode(0x02, kCode + 4);
  EXPECT_EQ(core->error_npc(), kCode + 8);
  uint64_t c = core->cycles();
  EXPECT_EQ(core->run(c + 1000), StopReason::ErrorMode);
  EXPECT_EQ(core->cycles(), c);
  EXPECT_EQ(core->counters().traps, 0u);
  EXPECT_EQ((core->tbr() >> 4) & 0xFF, 0x02u);
}

TEST_F(CoreTest, ExitConventionReportsO0) {
  StopReason r = exec({enc_addi(O0, G0, 42)});
  EXPECT_EQ(r, StopReason::ErrorMode);
  expect_exit(1);
  EXPECT_EQ(core->reg(O0), 42u);  // error mode leaves the window alone
}

}  // namespace
}  // namespace l3vp::leon3::test
