// The encoding space against the instruction table (isa/sparcv8.def and the
// extension tables the core under test was built with):
//  * the base table defines exactly the op2/op3 slots SPARC V8 defines, as the
//    hand-written encoder (sparc_enc.h) lists them: a row removed from the
//    table, or one added to it, fails here by name;
//  * every slot that no row defines traps illegal_instruction, whatever its
//    other fields. The list of free slots is generated from the table, so an
//    extension's slot is no longer tested as free;
//  * isa_table_check() refuses a table in which two rows decode the same word
//    and names both rows.
// Compiled into test_leon3_core (the base table) and test_leon3_isa_ext (the
// table with examples/isa-ext/ocadd.def).
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core_harness.h"
#include "cpu_state.h"  // IsaRowKey, isa_table_check

namespace l3vp::leon3::test {
namespace {

struct SlotRow {
  std::string name, file;
  unsigned fmt;  // 0: L3_UNLISTED, 1, 2, 3
  unsigned op;
  int opc;
  bool sel;
  int rs1, rd;
};

std::vector<SlotRow> slot_rows() {
  std::vector<SlotRow> v;
#define L3_UNLISTED(mn, op, cls, tk, flags, h) v.push_back({#mn, __FILE__, 0, op, 0, false, -1, -1});
#define L3_FMT1(mn, cls, tk, flags, h) v.push_back({#mn, __FILE__, 1, 1, 0, false, -1, -1});
#define L3_FMT2(mn, op2, cls, tk, flags, h) v.push_back({#mn, __FILE__, 2, 0, op2, false, -1, -1});
#define L3_FMT3(mn, op, op3, cls, tk, flags, h) v.push_back({#mn, __FILE__, 3, op, op3, false, -1, -1});
#define L3_FMT3_SEL(mn, op, op3, rs1, rd, cls, tk, flags, h) \
  v.push_back({#mn, __FILE__, 3, op, op3, true, rs1, rd});
#include "isa/sparcv8.def"
  return v;
}

bool in_base_table(const SlotRow& r) {
  const std::string t = "isa/sparcv8.def";
  return r.file.size() >= t.size() && r.file.compare(r.file.size() - t.size(), t.size(), t) == 0;
}

using Slot = std::pair<unsigned, int>;  // (op, op2 or op3)

std::set<Slot> v8_slots() {
  std::set<Slot> s;
  for (unsigned op2 : enc::kOp2Defined) s.insert({0, int(op2)});
  for (unsigned op3 : enc::kOp3AluDefined) s.insert({2, int(op3)});
  for (unsigned op3 : enc::kOp3MemDefined) s.insert({3, int(op3)});
  return s;
}

// Slots of format-2/3 rows that decode every word of their slot (not SEL rows).
std::set<Slot> table_slots(bool base_only) {
  std::set<Slot> s;
  for (const SlotRow& r : slot_rows())
    if ((r.fmt == 2 || r.fmt == 3) && !r.sel && (!base_only || in_base_table(r))) s.insert({r.op, r.opc});
  return s;
}

std::string slot_name(const Slot& s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "op=%u %s=0x%02X", s.first, s.first == 0 ? "op2" : "op3", s.second);
  return buf;
}

TEST(IsaSlots, BaseTableDefinesExactlyTheV8Slots) {
  const std::set<Slot> v8 = v8_slots(), table = table_slots(true);
  EXPECT_EQ(v8.size(), 5u + 54u + 39u);
  for (const Slot& s : v8)
    EXPECT_TRUE(table.count(s)) << "V8 slot " << slot_name(s) << " has no row in isa/sparcv8.def";
  for (const Slot& s : table)
    EXPECT_TRUE(v8.count(s)) << "isa/sparcv8.def defines " << slot_name(s) << ", which SPARC V8 leaves free";
  unsigned call = 0, unlisted = 0;
  for (const SlotRow& r : slot_rows()) {
    if (!in_base_table(r)) continue;
    call += r.fmt == 1;
    unlisted += r.fmt == 0;
  }
  EXPECT_EQ(call, 1u);
  EXPECT_EQ(unlisted, 3u) << "one L3_UNLISTED row for each of op 0, 2, 3";
}

// Words of a free slot: the opcode fields, with the other fields at their
// extremes (rd, rs1, i, rs2/simm13/imm22 all 0, all ones, and in between).
std::vector<uint32_t> words_of_slot(unsigned op, unsigned opc) {
  if (op == 0)
    return {opc << 22, (31u << 25) | (opc << 22) | 0x3FFFFFu, (17u << 25) | (opc << 22) | 0x12345u};
  return {enc::f3(op, 0, opc, 0, 0), enc::f3(op, 31, opc, 31, 31, 0xFF), enc::f3i(op, 15, opc, 17, -1),
          enc::f3i(op, 1, opc, 2, 0x0ABC)};
}

bool matches_sel_row(uint32_t w, const std::vector<SlotRow>& rows) {
  const unsigned op = w >> 30, op3 = (w >> 19) & 63;
  const int rs1 = (w >> 14) & 31, rd = (w >> 25) & 31;
  for (const SlotRow& r : rows)
    if (r.sel && r.op == op && unsigned(r.opc) == op3 && (r.rs1 < 0 || r.rs1 == rs1) &&
        (r.rd < 0 || r.rd == rd))
      return true;
  return false;
}

TEST_F(CoreTest, EveryFreeSlotTrapsIllegal) {
  const std::vector<SlotRow> rows = slot_rows();
  const std::set<Slot> defined = table_slots(false);
  unsigned n_free = 0, n_words = 0;
  for (unsigned op : {0u, 2u, 3u}) {
    for (unsigned opc = 0; opc < (op == 0 ? 8u : 64u); ++opc) {
      if (defined.count({op, int(opc)})) continue;
      ++n_free;
      for (uint32_t w : words_of_slot(op, opc)) {
        if (matches_sel_row(w, rows)) continue;  // an extension's SEL row in a free slot
        SCOPED_TRACE(::testing::Message() << slot_name({op, int(opc)}) << " word " << std::hex << w);
        EXPECT_STREQ(Core::mnemonic(w), "ILLEGAL");
        make(CoreConfig{});
        expect_trap({w}, 0x02, 0);
        ++n_words;
      }
    }
  }
  // 8 + 2 * 64 slots in all: the free ones are those of neither the V8 list
  // nor an extension row.
  EXPECT_EQ(n_free, 8u + 128u - defined.size());
  EXPECT_GE(n_words, 3u * n_free);
}

// ---- isa_table_check ----------------------------------------------------------------------------

IsaRowKey key(const char* name, unsigned fmt, unsigned op, int opc, bool sel = false, int rs1 = -1,
              int rd = -1) {
  return IsaRowKey{name, "/abs/ext.def", 7, fmt, op, opc, sel, rs1, rd};
}

TEST(IsaTableCheck, TheBuiltTableIsAccepted) {
  // The decoder checked its own table when it was built (it throws otherwise).
  EXPECT_STREQ(Core::mnemonic(enc::enc_call(1)), "CALL");
}

TEST(IsaTableCheck, AClashNamesBothRowsAndTheEncoding) {
  IsaRowKey base = key("CPOP1", 3, 2, 0x36);
  base.file = "/src/isa/sparcv8.def";
  base.line = 118;
  const std::string m = isa_table_check({key("ADD", 3, 2, 0x00), base, key("MYCP", 3, 2, 0x36)});
  EXPECT_EQ(m,
            "instruction table: rows MYCP (/abs/ext.def:7) and CPOP1 (/src/isa/sparcv8.def:118) "
            "both decode op=2 op3=0x36");
}

TEST(IsaTableCheck, WhichRowsClash) {
  auto clash = [](std::vector<IsaRowKey> rows) { return !isa_table_check(rows).empty(); };
  EXPECT_FALSE(clash({key("A", 3, 2, 0x2D), key("B", 3, 3, 0x2D), key("C", 3, 2, 0x2E)}));
  EXPECT_TRUE(clash({key("A", 2, 0, 5), key("B", 2, 0, 5)}));
  EXPECT_FALSE(clash({key("A", 2, 0, 5), key("B", 3, 2, 5)}));
  EXPECT_TRUE(clash({key("A", 1, 1, 0), key("B", 1, 1, 0)}));
  EXPECT_TRUE(clash({key("A", 0, 2, 0), key("B", 0, 2, 0)}));
  EXPECT_FALSE(clash({key("A", 0, 2, 0), key("B", 0, 3, 0)}));
  // SEL rows refine a plain row; two SEL rows clash when their rs1/rd overlap.
  EXPECT_FALSE(clash({key("A", 3, 2, 0x28), key("S", 3, 2, 0x28, true, 15, 0)}));
  EXPECT_TRUE(clash({key("S", 3, 2, 0x28, true, 15, 0), key("T", 3, 2, 0x28, true, -1, 0)}));
  EXPECT_TRUE(clash({key("S", 3, 2, 0x28, true, 15, -1), key("T", 3, 2, 0x28, true, -1, 3)}));
  EXPECT_FALSE(clash({key("S", 3, 2, 0x28, true, 15, 0), key("T", 3, 2, 0x28, true, 15, 1)}));
  EXPECT_FALSE(clash({key("S", 3, 2, 0x28, true, 15, 0), key("T", 3, 2, 0x28, true, 14, -1)}));
  EXPECT_EQ(isa_table_check({key("S", 3, 2, 0x28, true, 15, 0), key("T", 3, 2, 0x28, true, -1, 0)}),
            "instruction table: rows T (/abs/ext.def:7) and S (/abs/ext.def:7) both decode "
            "op=2 op3=0x28 rs1=any rd=0");
}

TEST(IsaTableCheck, ARowOutsideItsFormatIsRefused) {
  for (const IsaRowKey& k :
       {key("X", 3, 0, 0x10), key("X", 3, 1, 0x10), key("X", 3, 2, 64), key("X", 3, 2, -1), key("X", 2, 0, 8),
        key("X", 2, 0, -1), key("X", 0, 1, 0), key("X", 3, 2, 0x28, true, 32, 0),
        key("X", 3, 2, 0x28, true, 0, -2), key("X", 4, 2, 0)}) {
    SCOPED_TRACE(::testing::Message() << k.fmt << " " << k.op << " " << k.opc);
    EXPECT_EQ(isa_table_check({k}),
              "instruction table: row X (/abs/ext.def:7) is outside the encoding space of its "
              "format");
  }
}

}  // namespace
}  // namespace l3vp::leon3::test
