// Table-driven SPARC V8 decoder, built from isa/sparcv8.def.
//
// The .def table is expanded once into lookup tables keyed by the opcode
// fields (op2 for format 2, op/op3 for format 3) plus a short list of
// refinements on rs1/rd (STBAR). decode() runs only on a decoded-instruction
// cache miss, so it favours clarity over speed.
#include <vector>

#include "cpu_state.h"
#include "isa/semantics.h"

namespace l3vp::leon3 {
namespace {

struct Entry {
  const char* name;
  Handler h[2];  // [i bit]
  uint8_t cls;
};
struct SelEntry {
  unsigned op, op3, rs1, rd;
  Entry e;
};

struct Tables {
  Entry illegal;
  Entry fmt1;
  Entry fmt2[8];
  Entry fmt3[128];  // index (op - 2) * 64 + op3
  std::vector<SelEntry> sel;

  Tables() {
    illegal = {"ILLEGAL", {&sem::h_illegal<false>, &sem::h_illegal<true>},
               uint8_t(InsnClass::Other)};
    fmt1 = illegal;
    for (auto& e : fmt2) e = illegal;
    for (auto& e : fmt3) e = illegal;
#define L3_ENTRY(mn, cls, h) \
  Entry { #mn, {&sem::h_##h<false>, &sem::h_##h<true>}, uint8_t(InsnClass::cls) }
#define L3_FMT1(mn, cls, h) fmt1 = L3_ENTRY(mn, cls, h);
#define L3_FMT2(mn, op2, cls, h) fmt2[op2] = L3_ENTRY(mn, cls, h);
#define L3_FMT3(mn, op, op3, cls, h) fmt3[((op)-2) * 64 + (op3)] = L3_ENTRY(mn, cls, h);
#define L3_FMT3_SEL(mn, op, op3, rs1, rd, cls, h) \
  sel.push_back(SelEntry{op, op3, rs1, rd, L3_ENTRY(mn, cls, h)});
#include "isa/sparcv8.def"
#undef L3_ENTRY
  }

  const Entry& lookup(uint32_t raw) const {
    unsigned op = raw >> 30;
    if (op == 1) return fmt1;
    if (op == 0) return fmt2[(raw >> 22) & 7];
    unsigned op3 = (raw >> 19) & 63, rs1 = (raw >> 14) & 31, rd = (raw >> 25) & 31;
    for (const SelEntry& s : sel)
      if (s.op == op && s.op3 == op3 && s.rs1 == rs1 && s.rd == rd) return s.e;
    return fmt3[(op - 2) * 64 + op3];
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
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
}

const char* mnemonic(uint32_t raw) { return tables().lookup(raw).name; }

}  // namespace l3vp::leon3
