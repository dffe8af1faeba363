// TEMPORARY (issue 9, "the instruction table as the whole truth"): the
// decoder as it was before the table carried the timing kind, the flags and
// the CTI property (isa.cpp and isa/sparcv8.def at ab62830, copied verbatim
// but for names), compared with today's decode() over every op/op2/op3/rs1/rd/
// i/cond combination and random words. Removed once the comparison passed.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "cpu_state.h"
#include "isa/semantics.h"

namespace l3vp::leon3::old_isa {
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
#include "old_sparcv8_tmp.def"
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

// Timed-mode fields of a decoded entry (hw-reference §7.3): timing kind,
// register and icc/Y usage. Derived from the opcode fields only.
void decode_timing(uint32_t raw, Decoded& d) {
  using namespace timing;
  unsigned op = raw >> 30, op3 = (raw >> 19) & 63, rd = d.rd, cond = (raw >> 25) & 15;
  bool i = (raw >> 13) & 1;
  uint8_t tk = kTkAlu;
  uint16_t f = 0;
  uint8_t s1 = 0, s2 = 0, sl = 0;
  if (op == 1) {
    tk = kTkCall;
  } else if (op == 0) {
    if (((raw >> 22) & 7) == 2) {  // Bicc
      tk = kTkBranch;
      if (cond & 7) f |= kTfBicc;  // BA/BN do not look at icc
    }
  } else if (op == 2) {
    s1 = d.rs1;
    s2 = i ? 0 : d.rs2;
    if (op3 >= 0x10 && op3 <= 0x24) f |= kTfWIcc;  // cc forms, tagged, MULScc
    switch (op3) {
      case 0x0A: case 0x0B: case 0x1A: case 0x1B:  // UMUL SMUL UMULcc SMULcc
        tk = kTkMul;
        f |= kTfMul | kTfWY | (op3 & 0x10 ? kTfNoBp : 0);
        break;
      case 0x0E: case 0x0F: case 0x1E: case 0x1F:  // UDIV SDIV UDIVcc SDIVcc
        tk = kTkDiv;
        f |= kTfRY | (op3 & 0x10 ? kTfNoBp : 0);
        break;
      case 0x24: f |= kTfWY; break;  // MULScc
      case 0x28: case 0x2A: case 0x2B: s1 = s2 = 0; break;  // RDY/RDASR/STBAR, RDWIM, RDTBR
      case 0x29: s1 = s2 = 0; f |= kTfIccHold; break;        // RDPSR reads icc
      case 0x30: if (rd == 0) f |= kTfWY; break;             // WRY
      case 0x31: f |= kTfWIcc | kTfCwp; break;               // WRPSR
      case 0x38: tk = kTkJmpl; break;
      case 0x39: tk = kTkJmpl; f |= kTfCwp; break;           // RETT
      case 0x3A: if (cond & 7) f |= kTfIccHold; break;       // Ticc (not TA/TN)
      case 0x3C: case 0x3D: f |= kTfCwp; break;              // SAVE RESTORE
      default: break;
    }
  } else {  // op == 3: loads and stores
    s1 = d.rs1;
    s2 = i ? 0 : d.rs2;
    if (op3 < 0x20) {
      switch (op3 & 0xF) {
        case 0x0: case 0x1: case 0x2: case 0x9: case 0xA: tk = kTkLoad; f |= kTfLoad; break;
        case 0x3: tk = kTkLdd; f |= kTfLoad | kTfLdd; break;
        case 0x4: case 0x5: case 0x6: tk = kTkStore; sl = uint8_t(rd); break;
        case 0x7: tk = kTkStd; f |= kTfLdd; sl = uint8_t(rd); break;  // rd and rd+1 stored
        case 0xD: tk = kTkAtomic; f |= kTfLoad; break;                  // LDSTUB
        case 0xF: tk = kTkAtomic; f |= kTfLoad; sl = uint8_t(rd); break;  // SWAP
        default: break;
      }
    } else if (op3 == 0x3C) {  // CASA: rs2 compared, rd stored and loaded
      tk = kTkAtomic;
      f |= kTfLoad;
      s2 = d.rs2;
      sl = uint8_t(rd);
    }
  }
  d.tk = tk;
  d.tflags = f;
  d.hs1 = s1;
  d.hs2 = s2;
  d.hsl = sl;
  d.tcost = kTimedCycles[tk];  // Cpu overrides with its configured table
}


void old_decode(uint32_t raw, Decoded& d) {
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
  d.cti = d.fn == &sem::h_bicc<false> || d.fn == &sem::h_bicc<true> || d.fn == &sem::h_call<false> ||
          d.fn == &sem::h_call<true> || d.fn == &sem::h_jmpl<false> || d.fn == &sem::h_jmpl<true> ||
          d.fn == &sem::h_rett<false> || d.fn == &sem::h_rett<true>;
  d.cls = e.cls;
  d.cost = timing::kClassCycles[e.cls];
  decode_timing(raw, d);
}

const char* old_mnemonic(uint32_t raw) { return tables().lookup(raw).name; }
}  // namespace
}  // namespace l3vp::leon3::old_isa

namespace l3vp::leon3 {
namespace {

// Returns "" when equal, else the first differing field.
std::string diff(uint32_t w) {
  Decoded a, b;
  std::memset(&a, 0xAB, sizeof a);
  std::memset(&b, 0xAB, sizeof b);
  old_isa::old_decode(w, a);
  decode(w, b);
#define CMP(f) if (a.f != b.f) return #f;
  CMP(fn) CMP(tag) CMP(imm) CMP(rd) CMP(rs1) CMP(rs2) CMP(asi) CMP(cls) CMP(cost)
  CMP(tk) CMP(tcost) CMP(tflags) CMP(hs1) CMP(hs2) CMP(hsl) CMP(cti)
#undef CMP
  if (std::strcmp(old_isa::old_mnemonic(w), mnemonic(w)) != 0) return "mnemonic";
  return "";
}

// The one intended difference: unlisted op = 2 words with op3 0x19 / 0x1D
// used to get kTfWIcc from the old "op3 in 0x10..0x24" range test. They
// always trap (h_illegal), and tflags of a trapping instruction are never read
// after it (produce() runs only after a retired instruction; interlock() does
// not look at kTfWIcc), so the flag was unobservable.
bool known_difference(uint32_t w, const std::string& field) {
  unsigned op = w >> 30, op3 = (w >> 19) & 63;
  if (field != "tflags" || op != 2 || (op3 != 0x19 && op3 != 0x1D)) return false;
  Decoded a, b;
  old_isa::old_decode(w, a);
  decode(w, b);
  return a.tflags == (b.tflags | timing::kTfWIcc) && b.tflags == 0;
}

TEST(IsaTableEquivTmp, AllOpcodeFieldCombinations) {
  const uint32_t lows[] = {0, 1, 0x1F, 0x20, 0x1FE0, 0x1FFF, 0x0AB5, 0x1555};
  uint64_t n = 0, known = 0;
  for (uint32_t hi = 0; hi < (1u << 19); ++hi) {  // bits 31:13: op rd op3 rs1 i
    for (uint32_t lo : lows) {
      uint32_t w = (hi << 13) | lo;
      std::string f = diff(w);
      ++n;
      if (f.empty()) continue;
      if (known_difference(w, f)) { ++known; continue; }
      FAIL() << std::hex << "word " << w << " differs in " << f;
    }
  }
  std::printf("[ info ] %llu words, %llu known (unobservable) differences\n",
              (unsigned long long)n, (unsigned long long)known);
  EXPECT_EQ(known, 2u * 32 * 32 * 2 * 8);  // op3 0x19/0x1D x rd x rs1 x i x lows
}

TEST(IsaTableEquivTmp, RandomWords) {
  std::mt19937 rng(12345);
  for (int k = 0; k < 5000000; ++k) {
    uint32_t w = rng();
    std::string f = diff(w);
    if (!f.empty() && !known_difference(w, f))
      FAIL() << std::hex << "word " << w << " differs in " << f;
  }
}

}  // namespace
}  // namespace l3vp::leon3
