// The instruction table (isa/sparcv8.def) is the whole truth about an
// instruction: class, timing kind, interlock/usage flags and CTI. These tests
// check that every row's columns agree with each other (a new row with a
// wrong or missing flag fails here, not as a silent cycle-count drift), that
// the decoder turns the rows and the operand rules into the Decoded fields,
// and that CTI is exactly CALL, Bicc, JMPL and RETT. Encodings come from the
// hand-written encoder (sparc_enc.h), never from the table itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core.h"
#include "cpu_state.h"  // Decoded, decode()
#include "sparc_enc.h"
#include "timing.h"

namespace l3vp::leon3::test {
namespace {

using timing::TKind;

struct Row {
  std::string name;
  unsigned op;    // 0, 1, 2, 3
  unsigned opc;   // op2 (op = 0) or op3 (op = 2/3)
  int rs1, rd;    // SEL rows: the matched values (-1 any); otherwise -2
  bool unlisted;  // an L3_UNLISTED row (default of a whole format)
  InsnClass cls;
  uint8_t tk;
  uint32_t flags;
  std::string handler;
};

std::vector<Row> table_rows() {
  using namespace timing::row;
  std::vector<Row> v;
#define L3_UNLISTED(mn, op, cls, tk, flags, h) \
  v.push_back({#mn, op, 0, -2, -2, true, InsnClass::cls, timing::kTk##tk, uint32_t(flags), #h});
#define L3_FMT1(mn, cls, tk, flags, h) \
  v.push_back({#mn, 1, 0, -2, -2, false, InsnClass::cls, timing::kTk##tk, uint32_t(flags), #h});
#define L3_FMT2(mn, op2, cls, tk, flags, h) \
  v.push_back({#mn, 0, op2, -2, -2, false, InsnClass::cls, timing::kTk##tk, uint32_t(flags), #h});
#define L3_FMT3(mn, op, op3, cls, tk, flags, h) \
  v.push_back({#mn, op, op3, -2, -2, false, InsnClass::cls, timing::kTk##tk, uint32_t(flags), #h});
#define L3_FMT3_SEL(mn, op, op3, rs1, rd, cls, tk, flags, h) \
  v.push_back({#mn, op, op3, rs1, rd, false, InsnClass::cls, timing::kTk##tk, uint32_t(flags), #h});
#include "isa/sparcv8.def"
  return v;
}

bool ends_with(const std::string& s, const char* t) {
  std::string x(t);
  return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

// A representative word for a row: register fields 1, 2, 3 unless the row
// selects on them, i = 0.
uint32_t word_of(const Row& r) {
  if (r.op == 1) return enc::enc_call(1);
  if (r.op == 0) return (3u << 25) | (r.opc << 22) | 5u;
  unsigned rs1 = r.rs1 >= 0 ? unsigned(r.rs1) : 2, rd = r.rd >= 0 ? unsigned(r.rd) : 1;
  return enc::f3(r.op, rd, r.opc, rs1, 3);
}

TEST(IsaTable, EveryRowsKindAndFlagsAgree) {
  using namespace timing::row;
  using namespace timing;
  const std::vector<Row> rows = table_rows();
  ASSERT_GT(rows.size(), 90u);
  const uint32_t known = kTFlagMask | Rs1 | Rs2 | Rs2Always | StRd | CondIcc | Cti;
  const uint32_t all_tf = Load | Ldd | Mul | WIcc | Bicc | IccHold | NoBp | WY | RY | Cwp;
  for (const Row& r : rows) {
    SCOPED_TRACE(r.name + " (op " + std::to_string(r.op) + ", opc " + std::to_string(r.opc) + ")");
    const uint32_t f = r.flags;
    auto has = [&](uint32_t b) { return (f & b) == b; };
    const InsnClass c = r.cls;
    EXPECT_EQ(f & ~known, 0u) << "unknown flag bits";
    EXPECT_EQ(f & kTFlagMask & ~all_tf, 0u) << "unknown TFlag bits";

    // Memory: loads, stores and atomics.
    const bool load_kind = r.tk == kTkLoad || r.tk == kTkLdd || r.tk == kTkAtomic;
    const bool store_kind = r.tk == kTkStore || r.tk == kTkStd || r.tk == kTkAtomic;
    EXPECT_EQ(has(Load), load_kind) << "kTfLoad iff kind Load/Ldd/Atomic";
    EXPECT_EQ(has(Ldd), r.tk == kTkLdd || r.tk == kTkStd) << "Ldd iff kind Ldd/Std (rd pair)";
    if (c == InsnClass::Load) {
      EXPECT_TRUE(r.tk == kTkLoad || r.tk == kTkLdd);
    }
    if (r.tk == kTkLoad || r.tk == kTkLdd) {
      EXPECT_EQ(c, InsnClass::Load);
    }
    if (c == InsnClass::Store) {
      EXPECT_TRUE(store_kind);
    }
    if (store_kind) {
      EXPECT_EQ(c, InsnClass::Store);
    }
    if (r.tk == kTkStore || r.tk == kTkStd) {
      EXPECT_TRUE(has(StRd)) << "a store stores rd";
    }
    if (has(StRd)) {
      EXPECT_TRUE(store_kind) << "only stores and atomics read store data";
    }
    if (load_kind || store_kind) {
      EXPECT_EQ(r.op, 3u);
      EXPECT_TRUE(has(Rs1) && (has(Rs2) || has(Rs2Always))) << "address is rs1 + op2";
    }
    EXPECT_EQ(has(Rs2Always), r.name == "CASA") << "only CASA reads rs2 with i = 1";

    // Control transfer.
    const bool cti_class = c == InsnClass::Branch || c == InsnClass::CallJmpl;
    EXPECT_EQ(has(Cti), cti_class) << "CTI rows are exactly the Branch/CallJmpl classes";
    EXPECT_EQ(r.tk == kTkBranch, c == InsnClass::Branch);
    EXPECT_EQ(r.tk == kTkCall, r.op == 1);
    EXPECT_EQ(r.tk == kTkJmpl, c == InsnClass::CallJmpl && r.op == 2);
    EXPECT_EQ(has(Bicc), c == InsnClass::Branch) << "Bicc reads icc (predictable)";
    EXPECT_EQ(has(CondIcc), c == InsnClass::Branch || c == InsnClass::Trap);
    EXPECT_EQ(has(IccHold), c == InsnClass::Trap || r.name == "RDPSR") << "Ticc, RDPSR hold";

    // icc, Y, multiplier, divider.
    const bool cc_alu = (c == InsnClass::Alu || c == InsnClass::Mul || c == InsnClass::Div) &&
                        (ends_with(r.name, "CC") || ends_with(r.name, "CCTV"));
    EXPECT_EQ(has(WIcc), cc_alu || r.name == "WRPSR") << "cc forms, tagged, MULScc, WRPSR";
    EXPECT_EQ(c == InsnClass::Mul, r.tk == kTkMul);
    EXPECT_EQ(has(Mul), c == InsnClass::Mul);
    if (c == InsnClass::Mul) {
      EXPECT_TRUE(has(Mul | WY)) << "UMUL/SMUL write Y";
    }
    EXPECT_EQ(c == InsnClass::Div, r.tk == kTkDiv);
    EXPECT_EQ(has(RY), c == InsnClass::Div) << "divides (and only they) wait for Y";
    const bool wry = r.name == "WRASR" && r.rd == 0;
    EXPECT_EQ(has(WY), c == InsnClass::Mul || r.name == "MULSCC" || wry)
        << "Y writers: UMUL/SMUL(cc), MULScc, WRY (LEON3 divides leave Y alone)";
    EXPECT_EQ(has(NoBp), has(WIcc) && (c == InsnClass::Mul || c == InsnClass::Div));

    // Windows.
    const bool cwp = r.name == "SAVE" || r.name == "RESTORE" || r.name == "RETT" || r.name == "WRPSR";
    EXPECT_EQ(has(Cwp), cwp);
    EXPECT_EQ(c == InsnClass::SaveRestore, r.name == "SAVE" || r.name == "RESTORE");

    // No FPU/CP, barriers, cache flush, UNIMP, unlisted: class Other, no timing.
    const bool fp_cp = r.handler == "fp_disabled" || r.handler == "cp_disabled" || r.handler == "stdfq" ||
                       r.handler == "stdcq";
    if (fp_cp || r.unlisted) {
      EXPECT_EQ(c, InsnClass::Other);
    }
    if (c == InsnClass::Other) {
      EXPECT_EQ(r.tk, kTkAlu);
      EXPECT_EQ(f & kTFlagMask, 0u) << "Other rows have no timing flags";
      EXPECT_FALSE(has(StRd) || has(Cti));
    }
    if (c == InsnClass::Trap) {
      EXPECT_EQ(r.tk, kTkAlu) << "Ticc not taken costs an ALU slot";
    }

    // Register usage by format: formats 1/2 read no registers; format 3
    // reads rs1 and operand 2 together, except the state-register reads.
    if (r.op < 2) {
      EXPECT_EQ(f & (Rs1 | Rs2 | Rs2Always | StRd), 0u);
    }
    if (r.op >= 2) {
      EXPECT_EQ(has(Rs1), has(Rs2) || has(Rs2Always));
      EXPECT_FALSE(has(Rs2) && has(Rs2Always));
      const bool reads_state = (r.op == 2 && r.name.rfind("RD", 0) == 0) || r.name == "STBAR";
      EXPECT_EQ(has(Rs1), !reads_state);
    }
    if (r.unlisted) {
      EXPECT_EQ(r.name, "ILLEGAL");
      EXPECT_EQ(r.handler, "illegal");
    }
  }
}

// Each listed row is what its own encoding decodes to (SEL rows take
// precedence), and decode() copies its class, kind, flags and CTI.
TEST(IsaTable, DecoderFollowsEveryRow) {
  using namespace timing::row;
  for (const Row& r : table_rows()) {
    if (r.unlisted) continue;
    SCOPED_TRACE(r.name);
    const uint32_t w = word_of(r);
    EXPECT_STREQ(Core::mnemonic(w), r.name.c_str());
    Decoded d{};
    decode(w, d);
    EXPECT_EQ(d.cls, uint8_t(r.cls));
    EXPECT_EQ(d.cost, timing::kClassCycles[d.cls]);
    EXPECT_EQ(d.tk, r.tk);
    EXPECT_EQ(d.tcost, timing::kTimedCycles[r.tk]);
    // word_of uses cond = 3 (not A/N) for format 2: CondIcc keeps its icc flags.
    EXPECT_EQ(d.tflags, r.flags & kTFlagMask);
    EXPECT_EQ(d.cti, (r.flags & Cti) ? 1 : 0);
    EXPECT_EQ(d.hs1, (r.flags & Rs1) ? d.rs1 : 0);
    EXPECT_EQ(d.hs2, (r.flags & (Rs2 | Rs2Always)) ? d.rs2 : 0);
    EXPECT_EQ(d.hsl, (r.flags & StRd) ? d.rd : 0);
  }
}

Decoded dec(uint32_t w) {
  Decoded d{};
  decode(w, d);
  return d;
}

// What depends on the word rather than the opcode: the operand rules of
// decode_timing(), one by one.
TEST(IsaTable, OperandRules) {
  using namespace enc;
  using namespace timing;
  // Register numbers from the fields; i = 1 reads no rs2.
  Decoded d = dec(alu(ADD, O1, L2, I3));
  EXPECT_EQ(d.hs1, unsigned(L2));
  EXPECT_EQ(d.hs2, unsigned(I3));
  EXPECT_EQ(d.hsl, 0u);
  d = dec(alui(ADD, O1, L2, 0x13));  // simm13 low bits look like rs2 = 19
  EXPECT_EQ(d.hs1, unsigned(L2));
  EXPECT_EQ(d.hs2, 0u);
  // Store data is rd, with either operand-2 form.
  d = dec(mem(ST, O5, L2, I3));
  EXPECT_EQ(d.hsl, unsigned(O5));
  EXPECT_EQ(d.hs2, unsigned(I3));
  d = dec(memi(STD, L4, L2, 8));
  EXPECT_EQ(d.hsl, unsigned(L4));
  EXPECT_EQ(d.hs2, 0u);
  EXPECT_EQ(d.tflags & (kTfLdd | kTfLoad), kTfLdd);  // STD: rd+1 read as well
  // A load writes rd; it does not read it.
  d = dec(memi(LD, O5, L2, 4));
  EXPECT_EQ(d.hsl, 0u);
  EXPECT_TRUE(d.tflags & kTfLoad);
  // CASA compares r[rs2] whatever i (i = 1 traps later, the interlock comes first).
  d = dec(f3i(3, O5, CASA, L2, 3));
  EXPECT_EQ(d.hs2, 3u);
  EXPECT_EQ(d.hsl, unsigned(O5));
  // Bicc/Ticc: A and N do not look at icc, every other condition does.
  for (unsigned cond = 0; cond < 16; ++cond) {
    SCOPED_TRACE(cond);
    const bool reads = (cond & 7) != 0;
    EXPECT_EQ((dec(enc_bicc(cond, false, 4)).tflags & kTfBicc) != 0, reads);
    EXPECT_EQ((dec(enc_bicc(cond, true, 4)).tflags & kTfBicc) != 0, reads);
    EXPECT_EQ((dec(enc_ticc(cond, G0, 3)).tflags & kTfIccHold) != 0, reads);
    EXPECT_EQ((dec(enc_ticcr(cond, G1, G2)).tflags & kTfIccHold) != 0, reads);
    // The same bits are rd of RDPSR: it always reads icc.
    EXPECT_TRUE(dec(enc_rdpsr(cond)).tflags & kTfIccHold);
  }
  // WRASR with rd = 0 is WRY: it writes Y; other ASRs do not. Same mnemonic, class.
  EXPECT_TRUE(dec(enc_wry(G1, 0)).tflags & kTfWY);
  EXPECT_FALSE(dec(enc_wrasr(17, G1, 0)).tflags & kTfWY);
  EXPECT_FALSE(dec(enc_wrasr(19, G1, 0)).tflags & kTfWY);
  EXPECT_STREQ(Core::mnemonic(enc_wry(G1, 0)), "WRASR");
  EXPECT_EQ(dec(enc_wry(G1, 0)).cls, dec(enc_wrasr(17, G1, 0)).cls);
  // RDASR rs1 = 15, rd = 0 is STBAR (class Other); rd != 0 stays RDASR.
  EXPECT_STREQ(Core::mnemonic(enc_stbar()), "STBAR");
  EXPECT_EQ(dec(enc_stbar()).cls, uint8_t(InsnClass::Other));
  EXPECT_STREQ(Core::mnemonic(alu(RDY, O1, 15, 0)), "RDASR");
  // Unlisted words: format 3 reads rs1/rs2 before its trap, format 2 nothing.
  d = dec(alu(0x09, O1, L2, I3));
  EXPECT_STREQ(Core::mnemonic(alu(0x09, O1, L2, I3)), "ILLEGAL");
  EXPECT_EQ(d.cls, uint8_t(InsnClass::Other));
  EXPECT_EQ(d.hs1, unsigned(L2));
  EXPECT_EQ(d.hs2, unsigned(I3));
  EXPECT_EQ(d.tflags, 0u);
  d = dec(mem(0x08, O1, L2, I3));
  EXPECT_EQ(d.hs1, unsigned(L2));
  EXPECT_EQ(d.hsl, 0u);
  d = dec((O1 << 25) | (1u << 22) | 0x3FFFFF);  // op = 0, op2 = 1
  EXPECT_STREQ(Core::mnemonic((O1 << 25) | (1u << 22)), "ILLEGAL");
  EXPECT_EQ(d.hs1 | d.hs2 | d.hsl, 0u);
  // SETHI's bit 13 is part of imm22, not an i bit.
  d = dec(enc_sethi(O1, 0x2000u << 10));
  EXPECT_EQ(d.hs1 | d.hs2 | d.hsl, 0u);
}

// Decoded::cti (the loop reloads pc/npc from the handler) is set for exactly
// CALL, Bicc, JMPL and RETT, over every op/op2/op3/rs1/rd/i combination.
TEST(IsaTable, CtiExactlyCallBiccJmplRett) {
  uint64_t n_cti = 0;
  for (uint32_t hi = 0; hi < (1u << 19); ++hi) {  // bits 31:13
    for (uint32_t lo : {0u, 0x1FFFu, 0x0ABCu}) {
      const uint32_t w = (hi << 13) | lo;
      const unsigned op = w >> 30, op2 = (w >> 22) & 7, op3 = (w >> 19) & 63;
      const bool expect =
          op == 1 || (op == 0 && op2 == 2) || (op == 2 && (op3 == enc::JMPL || op3 == enc::RETT));
      Decoded d{};
      decode(w, d);
      if (d.cti != (expect ? 1 : 0)) FAIL() << std::hex << "word " << w << " cti " << int(d.cti);
      n_cti += d.cti;
    }
  }
  // CALL: 2^17 hi values; Bicc: 2^14; JMPL, RETT: 2^11 each; times 3 low patterns.
  EXPECT_EQ(n_cti, 3u * ((1u << 17) + (1u << 14) + 2 * (1u << 11)));
}

}  // namespace
}  // namespace l3vp::leon3::test
