// Table-driven SPARC V8 decoder, built from isa/sparcv8.def.
//
// The .def table is expanded once into lookup tables keyed by the opcode
// fields (op2 for format 2, op/op3 for format 3) plus a short list of
// refinements on rs1/rd (STBAR, WRY). Every property of an instruction (class,
// timing kind, interlock/usage flags, CTI) comes from its row; decode_timing()
// only applies the rules that need the rest of the instruction word. decode()
// runs only on a decoded-instruction cache miss, so it favours clarity over
// speed. The table includes the rows of the extension tables named at build
// time (LEON3VP_ISA_EXTENSIONS); building the lookup tables first checks that
// no two rows decode the same word (isa_table_check), once per process.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu_state.h"
#include "isa/semantics.h"

namespace l3vp::leon3 {
namespace {

struct Entry {
  const char* name;
  Handler h[2];    // [i bit]
  uint8_t cls;     // InsnClass
  uint8_t tk;      // timing::TKind
  uint32_t flags;  // timing::row
};
struct SelEntry {
  unsigned op, op3;
  int rs1, rd;  // -1: any value
  Entry e;
};

// Where each row of the table sits (isa/sparcv8.def and the extension tables
// it includes): the input of isa_table_check().
std::vector<IsaRowKey> table_keys() {
  std::vector<IsaRowKey> keys;
#define L3_KEY(mn, fmt, op, opc, is_sel, rs1, rd) \
  keys.push_back(IsaRowKey{#mn, __FILE__, __LINE__, fmt, op, opc, is_sel, rs1, rd});
#define L3_UNLISTED(mn, op, cls, tk, flags, h) L3_KEY(mn, 0, op, 0, false, -1, -1)
#define L3_FMT1(mn, cls, tk, flags, h) L3_KEY(mn, 1, 1, 0, false, -1, -1)
#define L3_FMT2(mn, op2, cls, tk, flags, h) L3_KEY(mn, 2, 0, op2, false, -1, -1)
#define L3_FMT3(mn, op, op3, cls, tk, flags, h) L3_KEY(mn, 3, op, op3, false, -1, -1)
#define L3_FMT3_SEL(mn, op, op3, rs1, rd, cls, tk, flags, h) L3_KEY(mn, 3, op, op3, true, rs1, rd)
#include "isa/sparcv8.def"
#undef L3_KEY
  return keys;
}

struct Tables {
  Entry fmt1;
  Entry fmt2[8];
  Entry fmt3[128];  // index (op - 2) * 64 + op3
  std::vector<SelEntry> sel;

  // Throws std::logic_error when a row is outside the encoding space or two
  // rows decode the same word (an extension row in a taken slot).
  Tables() {
    const std::string err = isa_table_check(table_keys());
    if (!err.empty()) throw std::logic_error(err);
    using namespace timing::row;
#define L3_ENTRY(mn, cls, tk, flags, h)                                                          \
  Entry {                                                                                        \
#mn, {&sem::h_##h < false>, &sem::h_##h < true> }, uint8_t(InsnClass::cls), timing::kTk##tk, \
          uint32_t(flags)                                                                        \
  }
#define L3_UNLISTED(mn, op, cls, tk, flags, h) fill(op, L3_ENTRY(mn, cls, tk, flags, h));
#define L3_FMT1(mn, cls, tk, flags, h) fmt1 = L3_ENTRY(mn, cls, tk, flags, h);
#define L3_FMT2(mn, op2, cls, tk, flags, h) fmt2[op2] = L3_ENTRY(mn, cls, tk, flags, h);
#define L3_FMT3(mn, op, op3, cls, tk, flags, h) fmt3[((op)-2) * 64 + (op3)] = L3_ENTRY(mn, cls, tk, flags, h);
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
      if (s.op == op && s.op3 == op3 && (s.rs1 < 0 || s.rs1 == rs1) && (s.rd < 0 || s.rd == rd)) return s.e;
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

bool fields_overlap(int a, int b) { return a < 0 || b < 0 || a == b; }

bool rows_clash(const IsaRowKey& a, const IsaRowKey& b) {
  if (a.fmt != b.fmt || a.op != b.op || a.opc != b.opc || a.sel != b.sel) return false;
  return !a.sel || (fields_overlap(a.rs1, b.rs1) && fields_overlap(a.rd, b.rd));
}

// The row's fields fit its format: op2 0..7; op 2 or 3 with op3 0..63, a SEL
// row's rs1/rd 0..31 or any; an unlisted row for op 0, 2 or 3.
bool row_in_range(const IsaRowKey& k) {
  auto reg = [](int v) { return v >= -1 && v <= 31; };
  switch (k.fmt) {
    case 0:
      return k.op == 0 || k.op == 2 || k.op == 3;
    case 1:
      return true;
    case 2:
      return k.opc >= 0 && k.opc <= 7;
    case 3:
      return (k.op == 2 || k.op == 3) && k.opc >= 0 && k.opc <= 63 && (!k.sel || (reg(k.rs1) && reg(k.rd)));
    default:
      return false;
  }
}

std::string describe_slot(const IsaRowKey& k) {
  char buf[64];
  if (k.fmt == 0)
    std::snprintf(buf, sizeof buf, "the unlisted words of op=%u", k.op);
  else if (k.fmt == 1)
    std::snprintf(buf, sizeof buf, "op=1");
  else
    std::snprintf(buf, sizeof buf, "op=%u %s=0x%02X", k.op, k.fmt == 2 ? "op2" : "op3", k.opc);
  std::string s = buf;
  auto field = [](int v) { return v < 0 ? std::string("any") : std::to_string(v); };
  if (k.sel) s += " rs1=" + field(k.rs1) + " rd=" + field(k.rd);
  return s;
}

std::string row_at(const IsaRowKey& k) {
  return std::string(k.name) + " (" + k.file + ":" + std::to_string(k.line) + ")";
}

}  // namespace

std::string isa_table_check(const std::vector<IsaRowKey>& rows) {
  for (const IsaRowKey& k : rows)
    if (!row_in_range(k))
      return "instruction table: row " + row_at(k) + " is outside the encoding space of its format";
  for (size_t j = 1; j < rows.size(); ++j)
    for (size_t i = 0; i < j; ++i)
      if (rows_clash(rows[i], rows[j]))
        return "instruction table: rows " + row_at(rows[j]) + " and " + row_at(rows[i]) + " both decode " +
               describe_slot(rows[j]);
  return "";
}

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
