// Loads, stores, atomics, alternate spaces, alignment, bus errors, DMI and the
// decoded-instruction cache.
#include "core_harness.h"

namespace l3vp::leon3::test {
namespace {
using namespace enc;

TEST_F(CoreTest, LoadsExtendAndStoresAreBigEndian) {
  bus.w32(kData, 0x80F17F02);
  core->set_reg(G1, kData);
  core->set_reg(G2, 0xA1B2C3D4);
  exec({enc_ld(L0, G1, 0), memi(LDUB, L1, G1, 0), memi(LDSB, L2, G1, 0), memi(LDUH, L3, G1, 2),
        memi(LDSH, L4, G1, 0), memi(LDSB, L5, G1, 2), enc_st(G2, G1, 8), memi(STB, G2, G1, 13),
        memi(STH, G2, G1, 18), mem(LD, L6, G1, G0)});
  expect_exit(10);
  EXPECT_EQ(core->reg(L0), 0x80F17F02u);
  EXPECT_EQ(core->reg(L1), 0x80u);
  EXPECT_EQ(core->reg(L2), 0xFFFFFF80u);
  EXPECT_EQ(core->reg(L3), 0x7F02u);
  EXPECT_EQ(core->reg(L4), 0xFFFF80F1u);
  EXPECT_EQ(core->reg(L5), 0x7Fu);
  EXPECT_EQ(core->reg(L6), 0x80F17F02u);
  EXPECT_EQ(bus.r32(kData + 8), 0xA1B2C3D4u);
  EXPECT_EQ(bus.r32(kData + 12), 0x00D40000u);
  EXPECT_EQ(bus.r32(kData + 16), 0x0000C3D4u);
}

TEST_F(CoreTest, LoadToG0IsDiscarded) {
  bus.w32(kData, 0x1234);
  core->set_reg(G1, kData);
  exec({enc_ld(G0, G1, 0), alu(ADD, G2, G0, G0)});
  EXPECT_EQ(core->reg(G0), 0u);
  EXPECT_EQ(core->reg(G2), 0u);
}

TEST_F(CoreTest, LddStdUseRegisterPairsAndOneAccess) {
  bus.w32(kData, 0x11111111);
  bus.w32(kData + 4, 0x22222222);
  core->set_reg(G1, kData);
  core->set_reg(O4, 0xAAAA0001);
  core->set_reg(O5, 0xBBBB0002);
  exec({memi(LDD, L2, G1, 0), memi(STD, O4, G1, 16), memi(LDD, G0, G1, 0)});
  expect_exit(3);
  EXPECT_EQ(core->reg(L2), 0x11111111u);
  EXPECT_EQ(core->reg(L3), 0x22222222u);
  EXPECT_EQ(bus.r32(kData + 16), 0xAAAA0001u);
  EXPECT_EQ(bus.r32(kData + 20), 0xBBBB0002u);
  EXPECT_EQ(core->reg(G0), 0u);
  EXPECT_EQ(core->reg(G1), 0x22222222u);  // LDD into %g0 writes only %g1
  size_t eight = 0;
  for (auto& a : bus.log) eight += a.kind != CoreBus::Kind::Fetch && a.len == 8;
  EXPECT_EQ(eight, 3u);
}

TEST_F(CoreTest, LddStdOddRegisterIsIllegal) {
  core->set_reg(G1, kData);
  expect_trap({memi(LDD, L3, G1, 0)}, 0x02, 0);
  make(CoreConfig{});
  core->set_reg(G1, kData + 1);  // illegal outranks alignment
  expect_trap({memi(STD, L1, G1, 0)}, 0x02, 0);
}

struct AlignCase {
  const char* name;
  uint32_t insn;  // uses [%g1 + 0]; %g1 = kData + offset
  uint32_t offset;
  bool traps;
};
std::ostream& operator<<(std::ostream& os, const AlignCase& c) { return os << c.name; }
class Alignment : public CoreTest, public ::testing::WithParamInterface<AlignCase> {};

TEST_P(Alignment, Trap) {
  const AlignCase& t = GetParam();
  core->set_reg(G1, kData + t.offset);
  enable_traps();
  exec({t.insn});
  if (t.traps) {
    expect_trapped_to(0x07);
  } else {
    expect_trapped_to(0x80);  // reached the final ta 0
  }
}

INSTANTIATE_TEST_SUITE_P(AllSizes, Alignment,
                         ::testing::Values(AlignCase{"ldub_any", memi(LDUB, L0, G1, 0), 3, false},
                                           AlignCase{"ldsb_any", memi(LDSB, L0, G1, 0), 1, false},
                                           AlignCase{"stb_any", memi(STB, L0, G1, 0), 3, false},
                                           AlignCase{"ldstub_any", memi(LDSTUB, L0, G1, 0), 1, false},
                                           AlignCase{"lduh_odd", memi(LDUH, L0, G1, 0), 1, true},
                                           AlignCase{"ldsh_odd", memi(LDSH, L0, G1, 0), 3, true},
                                           AlignCase{"sth_odd", memi(STH, L0, G1, 0), 1, true},
                                           AlignCase{"lduh_ok", memi(LDUH, L0, G1, 0), 2, false},
                                           AlignCase{"ld_2", memi(LD, L0, G1, 0), 2, true},
                                           AlignCase{"ld_1", memi(LD, L0, G1, 0), 1, true},
                                           AlignCase{"st_2", memi(ST, L0, G1, 0), 2, true},
                                           AlignCase{"swap_2", memi(SWAP, L0, G1, 0), 2, true},
                                           AlignCase{"ldd_4", memi(LDD, L0, G1, 0), 4, true},
                                           AlignCase{"std_4", memi(STD, L0, G1, 0), 4, true},
                                           AlignCase{"ldd_ok", memi(LDD, L0, G1, 0), 8, false},
                                           AlignCase{"lda_2", mema(LDA, L0, G1, G0, 0xB), 2, true},
                                           AlignCase{"lduha_1", mema(LDUHA, L0, G1, G0, 0xB), 1, true},
                                           AlignCase{"stha_1", mema(STHA, L0, G1, G0, 0xB), 1, true},
                                           AlignCase{"sta_2", mema(STA, L0, G1, G0, 0xB), 2, true},
                                           AlignCase{"ldda_4", mema(LDDA, L0, G1, G0, 0xB), 4, true},
                                           AlignCase{"stda_4", mema(STDA, L0, G1, G0, 0xB), 4, true},
                                           AlignCase{"swapa_2", mema(SWAPA, L0, G1, G0, 0xB), 2, true},
                                           AlignCase{"lduba_any", mema(LDUBA, L0, G1, G0, 0xB), 3, false},
                                           AlignCase{"casa_2", mema(CASA, L0, G1, G2, 0xB), 2, true},
                                           AlignCase{"jmpl_2", enc_jmpl(G0, G1, 0), 2, true}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_F(CoreTest, LdstubAndSwapAreAtomicReadWrite) {
  bus.w32(kData, 0x5A000000);
  bus.w32(kData + 4, 0x11223344);
  core->set_reg(G1, kData);
  core->set_reg(L1, 0xAABBCCDD);
  exec({memi(LDSTUB, L0, G1, 0), memi(SWAP, L1, G1, 4), memi(LDSTUB, L2, G1, 0)});
  expect_exit(3);
  EXPECT_EQ(core->reg(L0), 0x5Au);
  EXPECT_EQ(core->reg(L2), 0xFFu);  // already set by the first LDSTUB
  EXPECT_EQ(bus.r32(kData), 0xFF000000u);
  EXPECT_EQ(core->reg(L1), 0x11223344u);
  EXPECT_EQ(bus.r32(kData + 4), 0xAABBCCDDu);
  // each atomic is a read immediately followed by a write of the same address
  std::vector<RamBus::Access> data;
  for (auto& a : bus.log)
    if (a.kind != CoreBus::Kind::Fetch) data.push_back(a);
  ASSERT_EQ(data.size(), 6u);
  EXPECT_EQ(data[0].kind, CoreBus::Kind::Read);
  EXPECT_EQ(data[1].kind, CoreBus::Kind::Write);
  EXPECT_EQ(data[1].len, 1u);
  EXPECT_EQ(data[2].addr, kData + 4);
  EXPECT_EQ(data[3].kind, CoreBus::Kind::Write);
  EXPECT_EQ(data[3].len, 4u);
}

TEST_F(CoreTest, AtomicDoesNotYieldBetweenReadAndWrite) {
  bus.w32(kData, 0x01000000);
  core->set_reg(G1, kData);
  bus.on_access = [&](const RamBus::Access& a) {
    if (a.kind == CoreBus::Kind::Read) core->request_yield();
  };
  exec({memi(LDSTUB, L0, G1, 0), enc_nop()});
  EXPECT_EQ(core->pc(), kCode + 4);  // stopped after the whole LDSTUB
  EXPECT_EQ(bus.r32(kData), 0xFF000000u);
  EXPECT_EQ(core->reg(L0), 1u);
}

TEST_F(CoreTest, Casa) {
  bus.w32(kData, 5);
  core->set_reg(G1, kData);
  core->set_reg(G2, 5);
  core->set_reg(G3, 9);
  core->set_reg(G4, 7);
  core->set_reg(G5, 100);
  exec({mema(CASA, G3, G1, G2, 0xB), mema(CASA, G5, G1, G4, 0xB)});
  expect_exit(2);
  EXPECT_EQ(core->reg(G3), 5u);  // old value, swapped in 9
  EXPECT_EQ(core->reg(G5), 9u);  // compare failed: memory unchanged
  EXPECT_EQ(bus.r32(kData), 9u);
  // user mode: allowed with ASI 0xA, privileged otherwise
  make(CoreConfig{});
  core->set_reg(G1, kData);
  core->set_psr(kPsrET);
  exec({mema(CASA, G3, G1, G2, 0xA), mema(CASA, G3, G1, G2, 0xB)});
  expect_trapped_to(0x03);
  EXPECT_EQ(core->reg(L1), kCode + 4);
}

// ---- alternate spaces ---------------------------------------------------------------

TEST_F(CoreTest, Asi2SystemRegisters) {
  core->set_reg(G1, 0x00E1000F);  // FI, FD, DS, IB, DCS, ICS
  core->set_reg(G2, 8);
  core->set_reg(G3, 0xC);
  exec({mema(LDA, L0, G0, G0, 2), mema(STA, G1, G0, G0, 2), mema(LDA, L1, G0, G0, 2),
        mema(LDA, L2, G2, G0, 2), mema(LDA, L3, G3, G0, 2), mema(LDUBA, L4, G2, G0, 2),
        mema(LDDA, L6, G2, G0, 2)});
  expect_exit(7);
  EXPECT_EQ(core->reg(L0), 0u);           // CCR after reset
  EXPECT_EQ(core->reg(L1), 0x0081000Fu);  // FI/FD read as 0
  EXPECT_EQ(core->ccr(), 0x0081000Fu);
  EXPECT_EQ(core->reg(L2), 0x11230008u);  // I-cache configuration
  EXPECT_EQ(core->reg(L3), 0x08220008u);  // D-cache configuration
  EXPECT_EQ(core->reg(L4), 0x11u);
  EXPECT_EQ(core->reg(L6), 0x11230008u);
  EXPECT_EQ(core->reg(L7), 0x08220008u);
  for (auto& a : bus.log) EXPECT_EQ(a.kind, CoreBus::Kind::Fetch);  // no bus traffic
}

TEST_F(CoreTest, Asi1IsForcedMissBusAccessEvenWithDmi) {
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  bus.w32(kData, 0xCAFEF00D);
  core->set_reg(G1, kData);
  core->set_reg(G2, 0x600DD00D);
  exec({mema(LDA, L0, G1, G0, 1), mema(STA, G2, G1, G0, 1), mema(LDA, L1, G1, G0, 0xB)});
  expect_exit(3);
  EXPECT_EQ(core->reg(L0), 0xCAFEF00Du);
  EXPECT_EQ(core->reg(L1), 0x600DD00Du);
  ASSERT_EQ(bus.log.size(), 2u);  // only the two ASI 1 accesses reach the bus
  EXPECT_EQ(bus.log[0].asi, 1u);
  EXPECT_EQ(bus.log[0].kind, CoreBus::Kind::Read);
  EXPECT_EQ(bus.log[1].asi, 1u);
  EXPECT_EQ(bus.log[1].kind, CoreBus::Kind::Write);
}

TEST_F(CoreTest, NormalAsisPassTheirAsiToTheBus) {
  bus.w32(kData, 0x01020304);
  core->set_reg(G1, kData);
  exec({mema(LDA, L0, G1, G0, 0xA), mema(LDA, L1, G1, G0, 0x8), enc_ld(L2, G1, 0)});
  expect_exit(3);
  EXPECT_EQ(core->reg(L0), 0x01020304u);
  EXPECT_EQ(core->reg(L1), 0x01020304u);
  std::vector<uint8_t> asis;
  for (auto& a : bus.log)
    if (a.kind == CoreBus::Kind::Read) asis.push_back(a.asi);
  EXPECT_EQ(asis, (std::vector<uint8_t>{0xA, 0x8, 0xB}));  // plain LD in supervisor = 0xB
  EXPECT_EQ(bus.log[0].asi, 0x9u);                         // supervisor instruction fetch
}

TEST_F(CoreTest, CacheDiagnosticAndFlushAsis) {
  bus.w32(kData, 0x12345678);
  core->set_reg(G1, kData);
  core->set_reg(L0, 0x55);
  core->set_reg(G2, 0x99);
  exec({mema(LDA, L0, G1, G0, 0xC), mema(STA, G2, G1, G0, 0xE), mema(STA, G2, G1, G0, 0x10),
        mema(STA, G2, G1, G0, 0x11), mema(LDA, L1, G1, G0, 0xF)});
  expect_exit(5);
  EXPECT_EQ(core->reg(L0), 0u);
  EXPECT_EQ(core->reg(L1), 0u);
  EXPECT_EQ(bus.r32(kData), 0x12345678u);
  EXPECT_EQ(bus.count(CoreBus::Kind::Write), 0u);
  EXPECT_EQ(bus.count(CoreBus::Kind::Read), 0u);
}

TEST_F(CoreTest, UnsupportedAsiTrapsDataAccessException) {
  for (unsigned asi : {0x00u, 0x03u, 0x04u, 0x13u, 0x19u, 0x1Cu, 0x20u, 0xFFu}) {
    make(CoreConfig{});
    core->set_reg(G1, kData);
    core->set_reg(L0, 0x77);
    expect_trap({mema(LDA, L0, G1, G0, asi)}, 0x09, 0);
    make(CoreConfig{});
    core->set_reg(G1, kData);
    expect_trap({mema(STA, L0, G1, G0, asi)}, 0x09, 0);
  }
}

TEST_F(CoreTest, AlternateSpaceRules) {
  // user mode -> privileged_instruction
  core->set_psr(kPsrET);
  exec({mema(LDA, L0, G1, G0, 0xA)});
  expect_trapped_to(0x03);
  // i = 1 in supervisor -> illegal_instruction
  make(CoreConfig{});
  expect_trap({f3i(3, L0, LDA, G1, 0)}, 0x02, 0);
  // user mode and i = 1 -> privileged outranks illegal
  make(CoreConfig{});
  core->set_psr(kPsrET);
  exec({f3i(3, L0, STA, G1, 0)});
  expect_trapped_to(0x03);
}

// ---- bus errors ----------------------------------------------------------------------

TEST_F(CoreTest, FetchErrorIsInstructionAccessException) {
  bus.error_ranges.push_back({0x10000, 0x10FFF});
  core->set_reg(G1, 0x10000);
  enable_traps();
  exec({enc_jmpl(G0, G1, 0), enc_nop()});
  expect_trapped_to(0x01);
  EXPECT_EQ(core->reg(L1), 0x10000u);  // PC of the instruction that could not be fetched
  EXPECT_EQ(core->reg(L2), 0x10004u);
  // with ET = 0 the error halts the core
  make(CoreConfig{});
  core->set_reg(G1, 0x10000);
  exec({enc_jmpl(G0, G1, 0), enc_nop()});
  expect_error_mode(0x01, 0x10000);
}

TEST_F(CoreTest, DataErrorsAreDataAccessException) {
  bus.error_ranges.push_back({kData + 0x100, kData + 0x1FF});
  core->set_reg(G1, kData + 0x100);
  core->set_reg(L0, 0x42);
  expect_trap({enc_ld(L0, G1, 0)}, 0x09, 0);
  core->set_psr(core->psr() & ~0x1Fu);
  EXPECT_EQ(core->reg(L0), 0x42u);

  make(CoreConfig{});
  core->set_reg(G1, kData + 0x100);
  expect_trap({enc_nop(), memi(STB, L0, G1, 3)}, 0x09, 1);

  make(CoreConfig{});
  core->set_reg(G1, kData + 0x100);
  core->set_reg(L0, 0x42);
  expect_trap({memi(SWAP, L0, G1, 0)}, 0x09, 0);
  core->set_psr(core->psr() & ~0x1Fu);
  EXPECT_EQ(core->reg(L0), 0x42u);
}

// ---- DMI ------------------------------------------------------------------------------

// A program mixing most instruction kinds; returns its trace.
std::vector<uint32_t> mixed_program() {
  std::vector<uint32_t> p = {enc_sethi(G1, kData), enc_addi(G2, G0, 10), enc_save(SP, SP, -96),
                             // loop: sum, store, load back, mul/div, atomics
                             enc_addi(L0, L0, 7), enc_st(L0, G1, 0), memi(LDUB, L1, G1, 3),
                             alu(UMUL, L2, L0, L1), alui(UDIV, L3, L2, 3), memi(STD, L2, G1, 8),
                             memi(LDD, L4, G1, 8), memi(SWAP, L4, G1, 0), memi(LDSTUB, L5, G1, 1),
                             enc_subcci(G2, G2, 1), enc_bicc(NE, true, -10), enc_addi(L6, L6, 1),
                             enc_restore(G3, L0, 0), enc_call(2), enc_nop(), enc_addi(G4, O7, 0)};
  return p;
}

TEST_F(CoreTest, DmiAndBusPathsGiveIdenticalResults) {
  auto run_once = [&](bool dmi, std::string& trace, std::vector<uint8_t>& ram, CoreCounters& ctr) {
    bus = RamBus();
    make(CoreConfig{});
    core->set_reg(SP, 0x3000);
    if (dmi) core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
    load(mixed_program());
    bus.w32(kCode + 4 * uint32_t(mixed_program().size()), enc_ta(0));
    trace = run_traced();
    ram = bus.ram;
    ctr = core->counters();
    EXPECT_TRUE(core->in_error_mode());
    EXPECT_EQ(core->error_tt(), 0x80u);
  };
  std::string t1, t2;
  std::vector<uint8_t> m1, m2;
  CoreCounters c1, c2;
  run_once(false, t1, m1, c1);
  size_t bus_accesses = bus.log.size();
  run_once(true, t2, m2, c2);
  EXPECT_GT(bus_accesses, 100u);
  EXPECT_EQ(bus.log.size(), 0u);  // everything went through DMI
  EXPECT_EQ(t1, t2);
  EXPECT_TRUE(m1 == m2);
  EXPECT_EQ(c1.instructions, c2.instructions);
  EXPECT_EQ(c1.annulled, c2.annulled);
  EXPECT_GT(c1.instructions, 100u);
}

TEST_F(CoreTest, DmiInvalidateAndDisableFallBackToBus) {
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  exec({enc_nop(), enc_nop()});
  EXPECT_EQ(bus.log.size(), 0u);
  make(CoreConfig{});
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  core->invalidate_dmi(0x4000, 0x4fff);
  exec({enc_nop(), enc_nop()});
  EXPECT_EQ(bus.count(CoreBus::Kind::Fetch), 3u);
  make(CoreConfig{});
  bus.log.clear();
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, false, 0, 0, bus.gen.data(),
                bus.ram.data());  // read-only DMI
  core->set_reg(G1, kData);
  exec({enc_st(G1, G1, 0), enc_ld(G2, G1, 0)});
  EXPECT_EQ(bus.count(CoreBus::Kind::Write), 1u);
  EXPECT_EQ(bus.count(CoreBus::Kind::Read), 0u);
  EXPECT_EQ(core->reg(G2), kData);
  core->set_dmi_enabled(false);
  bus.log.clear();
  core->reset();
  core->set_pc(kCode, kCode + 4);
  core->run(core->cycles() + 100);
  EXPECT_EQ(bus.count(CoreBus::Kind::Fetch), 3u);
}

// ---- decoded-instruction cache ----------------------------------------------------------

TEST_F(CoreTest, SelfModifyingCodeIsSeen) {
  for (bool dmi : {false, true}) {
    make(CoreConfig{});
    if (dmi) core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
    core->set_reg(G2, enc_addi(G1, G1, 10));
    core->set_reg(G3, 2);
    core->set_reg(G4, kCode);
    // 0: X: g1 += 1 | 1: st g2 -> X | 2: g3-- | 3: bne X | 4: nop | 5: ta 0
    exec({enc_addi(G1, G1, 1), enc_st(G2, G4, 0), enc_subcci(G3, G3, 1), enc_bicc(NE, false, -3), enc_nop()});
    expect_exit(5);
    EXPECT_EQ(core->reg(G1), 11u) << "dmi " << dmi;  // 1 + 10: the patched word ran
  }
}

TEST_F(CoreTest, DecodeCacheHitsOnLoops) {
  core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, 0, 0, bus.gen.data(), bus.ram.data());
  core->set_reg(G3, 1000);
  exec({enc_addi(G1, G1, 1), enc_subcci(G3, G3, 1), enc_bicc(NE, false, -2), enc_nop()});
  expect_exit(4);
  EXPECT_EQ(core->reg(G1), 1000u);
  EXPECT_GE(core->counters().instructions, 3000u);
  EXPECT_LE(core->decode_cache_misses(), 8u);  // only the first pass decodes
}

TEST_F(CoreTest, DecodeCacheAliasesAreDistinguished) {
  // Two code addresses mapping to the same cache slot (16K entries apart).
  const uint32_t far = kCode + 0x10000;
  load({enc_addi(G2, G0, 2), enc_jmpl(G0, O7, 8), enc_nop()}, far);
  exec({enc_call(int32_t((far - kCode) / 4)), enc_nop(), enc_addi(G1, G0, 1),
        enc_call(int32_t((far - kCode - 12) / 4)), enc_nop(), enc_addi(G3, G0, 3)});
  expect_exit(6);
  EXPECT_EQ(core->reg(G1), 1u);
  EXPECT_EQ(core->reg(G2), 2u);
  EXPECT_EQ(core->reg(G3), 3u);
}

}  // namespace
}  // namespace l3vp::leon3::test
