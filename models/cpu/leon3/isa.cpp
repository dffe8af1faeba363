// Table-driven SPARC V8 decoder, built from isa/sparcv8.def.
//
// The .def table is expanded once into lookup tables keyed by the opcode
// fields (op2 for format 2, op/op3 for format 3) plus a short list of
// refinements on rs1/rd (STBAR, WRY). Every property of an instruction (class,
// timing kind, interlock/usage flags, CTI) comes from its row; decode_timing()
// only applies the rules that need the rest of the instruction word. decode()
// runs only on a decoded-instruction cache miss, so it favours clarity over
// speed.
#include <vector>

#include "cpu_state.h"
#include "isa/semantics.h"

namespace l3vp::leon3 {
namespace {

struct Entry {
  const char* name;
  Handler h[2];  // [i bit]
  uint8_t cls;     // InsnClass
  uint8_t tk;      // timing::TKind
  uint32_t flags;  // timing::row
};
struct SelEntry {
  unsigned op, op3;
  int rs1, rd;  // -1: any value
  Entry e;
};

struct Tables {
  Entry fmt1;
  Entry fmt2[8];
  Entry fmt3[128];  // index (op - 2) * 64 + op3
  std::vector<SelEntry> sel;

  Tables() {
    using namespace timing::row;
#define L3_ENTRY(mn, cls, tk, flags, h)                                         \
  Entry{#mn, {&sem::h_##h<false>, &sem::h_##h<true>}, uint8_t(InsnClass::cls), \
        timing::kTk##tk, uint32_t(flags)}
#define L3_UNLISTED(mn, op, cls, tk, flags, h) fill(op, L3_ENTRY(mn, cls, tk, flags, h));
#define L3_FMT1(mn, cls, tk, flags, h) fmt1 = L3_ENTRY(mn, cls, tk, flags, h);
#define L3_FMT2(mn, op2, cls, tk, flags, h) fmt2[op2] = L3_ENTRY(mn, cls, tk, flags, h);
#define L3_FMT3(mn, op, op3, cls, tk, flags, h) \
  fmt3[((op)-2) * 64 + (op3)] = L3_ENTRY(mn, cls, tk, flags, h);
#define L3_FMT3_SEL(mn, op, op3, rs1, rd, cls, tk, flags, h) \
  sel.push_back(SelEntry{op, op3, rs1, rd, L3_ENTRY(mn, cls, tk, flags, h)});
#include "isa/sparcv8.def"
#undef L3_ENTRY
  }

  // An unlisted row: every slot of format op (0, 2 or 3), before the listed rows.
  void fill(unsigned op, const Entry& e) {
    if (op == 0) {
      for (Entry& x : fmt2) x = e;
    } else {
      for (unsigned k = 0; k < 64; ++k) fmt3[(op - 2) * 64 + k] = e;
    }
  }

  const Entry& lookup(uint32_t raw) const {
    unsigned op = raw >> 30;
    if (op == 1) return fmt1;
    if (op == 0) return fmt2[(raw >> 22) & 7];
    unsigned op3 = (raw >> 19) & 63;
    int rs1 = (raw >> 14) & 31, rd = (raw >> 25) & 31;
    for (const SelEntry& s : sel)
      if (s.op == op && s.op3 == op3 && (s.rs1 < 0 || s.rs1 == rs1) && (s.rd < 0 || s.rd == rd))
        return s.e;
    return fmt3[(op - 2) * 64 + op3];
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// Timed-mode fields and the CTI property of a decoded entry (hw-reference
// §7.3), from its row's kind and flags. Everything that depends on the opcode
// alone is in the table; the rules here are the ones that need the rest of the
// instruction word, and nothing else belongs here:
//  * the register numbers come from the rs1/rs2/rd fields;
//  * i = 1: operand 2 is simm13, so rs2 is not read (except Rs2Always: CASA);
//  * CondIcc rows (Bicc, Ticc) with cond A or N (cond & 7 == 0) do not look at icc.
// (`i` is false for formats 1 and 2, whose bit 13 is displacement/immediate.)
void decode_timing(const Entry& e, uint32_t raw, bool i, Decoded& d) {
  using namespace timing::row;
  const uint32_t f = e.flags;
  uint16_t tf = uint16_t(f & kTFlagMask);
  if ((f & CondIcc) && (((raw >> 25) & 7) == 0)) tf &= uint16_t(~(Bicc | IccHold));
  d.tk = e.tk;
  d.tflags = tf;
  d.hs1 = (f & Rs1) ? d.rs1 : 0;
  d.hs2 = ((f & Rs2Always) || ((f & Rs2) && !i)) ? d.rs2 : 0;
  d.hsl = (f & StRd) ? d.rd : 0;
  d.cti = (f & Cti) ? 1 : 0;
  d.tcost = timing::kTimedCycles[e.tk];  // Cpu overrides with its configured table
}

}  // namespace

void decode(uint32_t raw, Decoded& d) {
  const Entry& e = tables().lookup(raw);
  unsigned op = raw >> 30;
  bool i = false;
  d.tag = __builtin_bswap32(raw);
  d.rd = (raw >> 25) & 31;
  d.rs1 = (raw >> 14) & 31;
  d.rs2 = raw & 31;
  d.asi = (raw >> 5) & 0xFF;
  if (op == 1) {
    d.imm = int32_t(raw << 2);  // disp30 * 4, modulo 2^32
  } else if (op == 0) {
    if (((raw >> 22) & 7) == 4)
      d.imm = int32_t(raw << 10);  // SETHI: imm22 << 10
    else
      d.imm = int32_t(raw << 10) >> 8;  // sign_ext(disp22) * 4
  } else {
    i = (raw >> 13) & 1;
    d.imm = i ? int32_t(raw << 19) >> 19 : 0;  // simm13
  }
  d.fn = e.h[i];
  d.cls = e.cls;
  d.cost = timing::kClassCycles[e.cls];
  decode_timing(e, raw, i, d);
}

const char* mnemonic(uint32_t raw) { return tables().lookup(raw).name; }

}  // namespace l3vp::leon3
