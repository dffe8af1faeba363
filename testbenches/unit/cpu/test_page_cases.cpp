// The timed page loop's cases (fast_loop.cpp) against the generic loop: a
// loop of loads (load-use, LDD pair), stores (hits and misses, STD), a
// multiply, icc writers and a predicted Bicc must give every counter and
// cycle of the observed (generic) loop, with the caches on and off, with
// and without the bus arbitration side-band (and its beat counts), and with load delay 1 and 2.
// And fast_op() must keep the records a case cannot time out of the cases.
#include <cstring>
#include <string>
#include <vector>

#include "cpu_state.h"  // decode(), fast_op()
#include "timed_harness.h"

namespace l3vp::leon3::test {
using namespace enc;
namespace {

// I-cache variants (caches on): the page loop takes a fetch that follows in
// sequence in the same line as a hit only while the line is MRU in its set.
enum class ICache { Lines32, Lines16, Frozen, ForcedMisses };
const char* name(ICache i) {
  switch (i) {
    case ICache::Lines32:
      return "";
    case ICache::Lines16:
      return ", 16-byte I-cache lines";
    case ICache::Frozen:
      return ", I-cache frozen";
    default:
      return ", I-cache misses forced";
  }
}

struct Config {
  bool caches, arbitration;
  unsigned lddel;
  ICache ic = ICache::Lines32;
  std::string name() const {
    return std::string(caches ? "caches on" : "caches off") + (arbitration ? ", arbitration" : "") +
           ", lddel " + std::to_string(lddel) + test::name(ic);
  }
};

// Every field of both counter structs is a uint64_t: compared word by word.
template <typename T>
void expect_same_words(const T& a, const T& b, const char* what) {
  static_assert(sizeof(T) % sizeof(uint64_t) == 0);
  uint64_t wa[sizeof(T) / 8], wb[sizeof(T) / 8];
  std::memcpy(wa, &a, sizeof a);
  std::memcpy(wb, &b, sizeof b);
  for (size_t i = 0; i < sizeof(T) / 8; ++i) EXPECT_EQ(wa[i], wb[i]) << what << " word " << i;
}

class PageCasesTest : public TimedTest {
 protected:
  struct Result {
    CoreCounters ctr;
    CoreTimingCounters tctr;
    uint64_t cycles;
    uint32_t g2;
  };
  Result result() const {
    return Result{core->counters(), core->timing_counters(), core->cycles(), core->reg(G2)};
  }
  // The page loop's run against the generic loop's: the same g2, cycles
  // and every counter.
  static void expect_same(const Result& page, const Result& generic) {
    EXPECT_EQ(page.g2, generic.g2);
    EXPECT_EQ(page.cycles, generic.cycles);
    expect_same_words(page.ctr, generic.ctr, "CoreCounters");
    expect_same_words(page.tctr, generic.tctr, "CoreTimingCounters");
  }
  // A fresh core with both caches on and I-cache misses of 2 cycles; the
  // generic (observed) loop when `observed`.
  void start_caches_on(bool observed) {
    tcfg.timing.icache_miss_cycles = 2;
    remake();
    core->set_ccr(0xF);
    if (observed) core->probes().step.listen([](const StepRecord&) {});
  }
  Result run(const Config& s, bool observed) {
    tcfg.timing.icache_miss_cycles = 2;
    tcfg.timing.dcache_miss_cycles = 3;
    tcfg.timing.burst_beat_cycles = 1;
    tcfg.timing.load_delay = s.lddel;
    tcfg.icache.line_bytes = s.ic == ICache::Lines16 ? 16 : 32;
    tcfg.icache.force_miss_rate = s.ic == ICache::ForcedMisses ? 0.25 : 0;
    remake(4, 6);  // a store drains longer than it issues: the write buffer stalls
    if (s.caches) core->set_ccr(s.ic == ICache::Frozen ? 0xD : 0xF);
    core->set_bus_arbitration(s.arbitration);
    core->set_bus_counting(s.arbitration, kData, 0x1000);  // the side-band's DMI beats
    uint64_t steps = 0;
    if (observed) core->probes().step.listen([&](const StepRecord&) { ++steps; });
    for (uint32_t k = 0; k < 64; ++k) bus.w32(kData + 4 * k, 0x01020304u * (k + 1));
    core->set_reg(G1, kData);
    core->set_reg(G3, 24);
    // X: ld; use | ldd; use of the second word | umul; use | st (write-through,
    // no allocation) | std into the LDD's line | ldub; addcc | addx (reads C)
    // | subcc; bne X | delay slot: the pointer moves two words (new lines).
    exec({enc_ld(L0, G1, 0), alu(ADD, G2, G2, L0), memi(LDD, L2, G1, 8), alu(ADD, G2, G2, L3),
          alu(UMUL, L4, L0, G3), alu(ADD, G2, G2, L4), enc_st(G2, G1, 128), memi(STD, L2, G1, 16),
          memi(LDUB, L5, G1, 3), alu(ADDCC, G2, G2, L5), alu(ADDX, G2, G2, G0), enc_subcci(G3, G3, 1),
          enc_bicc(NE, false, -12), enc_addi(G1, G1, 8)});
    expect_exit(14);
    if (observed) {
      EXPECT_GT(steps, 0u);
    }
    return result();
  }
};

TEST_F(PageCasesTest, TimedCasesGiveTheGenericLoopsCounters) {
  std::vector<Config> configs;
  for (bool caches : {true, false})
    for (bool arb : {false, true})
      for (unsigned lddel : {1u, 2u}) configs.push_back({caches, arb, lddel});
  for (ICache ic : {ICache::Lines16, ICache::Frozen, ICache::ForcedMisses})
    configs.push_back({true, false, 1, ic});
  for (const Config& s : configs) {
    SCOPED_TRACE(s.name());
    const Result page = run(s, false), generic = run(s, true);
    expect_same(page, generic);
    // The loop exercised what the cases time inline.
    EXPECT_GT(page.tctr.stall_load_use, 0u);
    EXPECT_GT(page.tctr.stall_branch + page.tctr.stall_muldiv, 0u);
    if (s.arbitration) {
      EXPECT_GT(page.tctr.dmi_beats[1][1], 0u) << "stores counted by the side-band";
    }
    if (s.caches) {
      EXPECT_GT(page.tctr.dc_read_hits, 0u);
      EXPECT_GT(page.tctr.dc_write_hits, 0u);
      EXPECT_GT(page.tctr.dc_write_misses, 0u);
      EXPECT_GT(page.tctr.stall_write_buffer, 0u);
      EXPECT_GT(page.tctr.stall_icache_miss, 0u);
      if (s.ic == ICache::Frozen) {
        EXPECT_EQ(page.tctr.ic_hits, 0u) << "a frozen, empty I-cache never hits";
      } else {
        EXPECT_GT(page.tctr.ic_hits, 0u);
      }
      if (s.ic == ICache::ForcedMisses) {
        EXPECT_GT(page.tctr.ic_forced, 0u);
      }
    }
  }
}

// Two lines of one I-cache set (one way of 4 KiB: 0x4000 and 0x5000, in
// two code pages) that take turns: each fetch of either line misses, in the
// page loop too (a line found MRU once must not count as a hit after the
// other line replaced it).
TEST_F(PageCasesTest, LinesOfOneSetTakingTurnsMissEachTime) {
  auto run_turns = [&](bool observed) {
    tcfg.icache.ways = 1;
    start_caches_on(observed);
    constexpr uint32_t kFar = kCode + 0x1000;
    auto words = [](uint32_t to, uint32_t from) { return (int32_t(to) - int32_t(from)) / 4; };
    load({enc_subcci(G3, G3, 1), enc_bicc(NE, false, words(kCode, kFar + 4)), enc_nop(),
          enc_bicc(A, false, words(kCode + 12, kFar + 12)), enc_nop()},
         kFar);
    core->set_reg(G3, 50);
    exec({enc_addi(G2, G2, 1), enc_bicc(A, false, words(kFar, kCode + 4)), enc_nop()});
    expect_exit(3);
    return result();
  };
  const Result page = run_turns(false), generic = run_turns(true);
  EXPECT_EQ(page.g2, 50u);
  expect_same(page, generic);
  EXPECT_GE(page.tctr.ic_misses, 100u) << "two misses a turn";
}

// A line entered in sequence after another line of its set replaced it
// (one way of 4 KiB, 32-byte lines): the line at kCode + 0x20 follows the
// loop's first line, then the loop jumps to kCode + 0x1020 (the same set)
// and back. Every entry into either line misses, also after the records
// were decoded (a decode keeps the record's line mark).
TEST_F(PageCasesTest, LineEnteredInSequenceAfterItsEvictionMisses) {
  auto run_seq = [&](bool observed) {
    tcfg.icache.ways = 1;
    tcfg.icache.line_bytes = 32;
    start_caches_on(observed);
    constexpr uint32_t kFar = kCode + 0x1020;
    auto words = [](uint32_t to, uint32_t from) { return (int32_t(to) - int32_t(from)) / 4; };
    load({enc_bicc(NE, false, words(kCode, kFar)), enc_nop(), enc_bicc(A, false, words(kCode + 44, kFar + 8)),
          enc_nop()},
         kFar);
    core->set_reg(G3, 30);
    // 0: L: g3-- | 1-8: nops (8: the second line) | 9: ba far | 10: nop | 11: ta 0
    std::vector<uint32_t> prog{enc_subcci(G3, G3, 1)};
    for (int k = 1; k <= 8; ++k) prog.push_back(enc_addi(G2, G2, 1));
    prog.push_back(enc_bicc(A, false, words(kFar, kCode + 36)));
    prog.push_back(enc_nop());
    exec(prog);
    expect_exit(11);
    return result();
  };
  const Result page = run_seq(false), generic = run_seq(true);
  EXPECT_EQ(page.g2, 240u);
  expect_same(page, generic);
  EXPECT_GE(page.tctr.ic_misses, 60u) << "two misses a pass";
}

// Traps other than a Ticc, from a memory case's slow path (a misaligned
// load) and from the generic case (an illegal instruction), after some
// work in the page: the same counters as the generic loop (the page loop
// counts a trapping instruction's fetch without retiring it).
TEST_F(PageCasesTest, TrapsInThePageGiveTheGenericLoopsCounters) {
  for (uint32_t bad : {memi(LD, L0, G1, 1), enc_unimp(0)}) {
    SCOPED_TRACE(bad);
    auto run_trap = [&](bool observed) {
      start_caches_on(observed);
      core->set_reg(G1, kData);
      core->set_reg(G3, 20);
      exec({enc_addi(G2, G2, 3), enc_subcci(G3, G3, 1), enc_bicc(NE, false, -2), enc_nop(), bad});
      EXPECT_TRUE(core->in_error_mode());
      return result();
    };
    const Result page = run_trap(false), generic = run_trap(true);
    EXPECT_EQ(page.g2, 60u);
    expect_same(page, generic);
  }
}

// A row may give a case's handler flags the case does not time (an icc or
// Y wait, the Bicc flag; a register source for Bicc): such a record must
// take the generic case, which calls Cpu::issue() with every rule.
TEST(PageCases, FastOpLeavesOtherWaitsToTheGenericCase) {
  auto rec = [](uint32_t w) {
    Decoded d{};
    decode(w, d);
    d.tcost = timing::kTimedCycles[d.tk];  // as Cpu::decode_into
    return d;
  };
  const Decoded add = rec(enc_add(L0, L1, L2)), ld = rec(enc_ld(L0, L1, 4)), st = rec(enc_st(L0, L1, 4)),
                bne = rec(enc_bicc(NE, false, 4));
  EXPECT_NE(fast_op(add), 0u);
  EXPECT_NE(fast_op(ld), 0u);
  EXPECT_NE(fast_op(st), 0u);
  EXPECT_NE(fast_op(bne), 0u);
  for (const Decoded* d : {&add, &ld, &st})
    for (uint16_t f : {timing::kTfIccHold, timing::kTfRY, timing::kTfBicc}) {
      Decoded x = *d;
      x.tflags |= f;
      EXPECT_EQ(fast_op(x), 0u) << "flag " << f;
    }
  for (uint16_t f : {timing::kTfIccHold, timing::kTfRY, timing::kTfLdd, timing::kTfLoad, timing::kTfMul,
                     timing::kTfWIcc, timing::kTfWY}) {  // waits, and results (the case produces none)
    Decoded x = bne;
    x.tflags |= f;
    EXPECT_EQ(fast_op(x), 0u) << "Bicc, flag " << f;
  }
  Decoded x = bne;
  x.hs1 = L1;
  EXPECT_EQ(fast_op(x), 0u) << "Bicc with a register source";
  // A case fixes what its record produces (the timed cases test no produce
  // flag at run time): a record that produces anything else goes generic.
  x = add;
  x.tflags |= timing::kTfWIcc;
  EXPECT_EQ(fast_op(x), 0u) << "ADD writing icc";
  const Decoded addcc = rec(alu(ADDCC, L0, L1, L2));
  EXPECT_NE(fast_op(addcc), 0u);
  for (uint16_t f : {timing::kTfNoBp, timing::kTfWY, timing::kTfMul, timing::kTfLoad}) {
    x = addcc;
    x.tflags |= f;
    EXPECT_EQ(fast_op(x), 0u) << "ADDcc, flag " << f;
  }
  x = ld;
  x.tflags |= timing::kTfLdd;
  EXPECT_EQ(fast_op(x), 0u) << "LD as a pair";
  x = st;
  x.tflags |= timing::kTfLoad;
  EXPECT_EQ(fast_op(x), 0u) << "ST producing a register";
  // And its timed cost, where the configuration cannot change it.
  x = add;
  x.tcost = 2;
  EXPECT_EQ(fast_op(x), 0u) << "ADD of 2 cycles";
}

// Every plain ALU op, load and store of the base instruction table, in both
// operand forms, has its case: the flags a case fixes are the table's.
TEST(PageCases, EveryPlainOpOfTheTableHasItsCase) {
  auto op_of = [](uint32_t w) {
    Decoded d{};
    decode(w, d);
    d.tcost = timing::kTimedCycles[d.tk];  // as Cpu::decode_into
    return unsigned(fast_op(d));
  };
  for (unsigned op3 :
       {ADD,   ADDX,   SUB,  SUBX,  AND,   ANDN,   OR,  ORN, XOR, XNOR, ADDCC, ADDXCC, SUBCC,  SUBXCC,
        ANDCC, ANDNCC, ORCC, ORNCC, XORCC, XNORCC, SLL, SRL, SRA, UMUL, SMUL,  UMULCC, SMULCC, MULSCC}) {
    EXPECT_GT(op_of(alu(op3, L0, L1, L2)), 3u) << "op3 " << op3;
    EXPECT_GT(op_of(alui(op3, L0, L1, 5)), 3u) << "op3 " << op3 << ", immediate";
  }
  for (unsigned op3 : {LD, LDUB, LDUH, LDSB, LDSH, LDD, ST, STB, STH, STD}) {
    EXPECT_GT(op_of(mem(op3, L2, L1, L3)), 3u) << "op3 " << op3;
    EXPECT_GT(op_of(memi(op3, L2, L1, 8)), 3u) << "op3 " << op3 << ", immediate";
  }
  EXPECT_GT(op_of(enc_sethi(L0, 0x12345400)), 3u);
}

}  // namespace
}  // namespace l3vp::leon3::test
