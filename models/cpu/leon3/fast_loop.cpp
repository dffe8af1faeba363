// LEON3 integer unit: the plain loops (functional and timed) over code pages.
//
// Code in a readable DMI region runs from per-page arrays of decoded records
// (CodePage), dispatched direct-threaded (computed goto) to cases that
// inline the common handlers (ALU, loads/stores, Bicc); every other
// instruction calls its handler as the generic loop does.
// - run_page_seq / run_page_tseq: a whole page of a memory with write
//   generations (no per-instruction check of the word), the PC implicit in
//   the record pointer.
// - run_page / run_page_timed: walked by PC offset, for a page with a
//   breakpoint, a tagged page (each record checked against its word) or the
//   part of a page in a span window (and, timed, a page whose fetches all go
//   to the bus).
// Results, counts and cycles are those of the generic loop (core.cpp)
// instruction for instruction; README "Speed structure".
#include <algorithm>

#include "cpu_state.h"
#include "isa/semantics.h"

namespace l3vp::leon3 {

#define L3_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define L3_LIKELY(x) __builtin_expect(!!(x), 1)

namespace {

// Handlers inlined by the page loop: ALU ops without traps, and the loads
// and stores whose only traps are alignment and bus errors.
// clang-format off
// The third column is what the case's record may produce (timing::TFlag):
// a fixed set (fast_op gives the case only to records with exactly those
// flags, so the timed cases test none of them at run time), or kDyn (the
// case reads the record's flags). The fourth is the case's fixed timed
// cost in the same way, or 0 (the record's: the multiplier's is configured).
#define L3_FAST_ALU(X)                                                                                  \
  X(add, Alu, kNone, 1) X(addx, Alu, kNone, 1) X(sub, Alu, kNone, 1) X(subx, Alu, kNone, 1)           \
  X(and_op, Alu, kNone, 1) X(andn, Alu, kNone, 1) X(or_op, Alu, kNone, 1) X(orn, Alu, kNone, 1)       \
  X(xor_op, Alu, kNone, 1) X(xnor, Alu, kNone, 1) X(addcc, Alu, kIcc, 1) X(addxcc, Alu, kIcc, 1)      \
  X(subcc, Alu, kIcc, 1) X(subxcc, Alu, kIcc, 1) X(andcc, Alu, kIcc, 1) X(andncc, Alu, kIcc, 1)       \
  X(orcc, Alu, kIcc, 1) X(orncc, Alu, kIcc, 1) X(xorcc, Alu, kIcc, 1) X(xnorcc, Alu, kIcc, 1)         \
  X(sll, Alu, kNone, 1) X(srl, Alu, kNone, 1) X(sra, Alu, kNone, 1) X(sethi, Alu, kNone, 1)           \
  X(umul, Mul, kDyn, 0) X(smul, Mul, kDyn, 0) X(umulcc, Mul, kDyn, 0) X(smulcc, Mul, kDyn, 0)         \
  X(mulscc, Alu, kDyn, 1)
#define L3_FAST_MEM(X)                                                                                  \
  X(ld, Load, kLoad, 1) X(ldub, Load, kLoad, 1) X(lduh, Load, kLoad, 1) X(ldsb, Load, kLoad, 1)       \
  X(ldsh, Load, kLoad, 1) X(ldd, Load, kLoadPair, 2) X(st, Store, kNone, 2) X(stb, Store, kNone, 2)   \
  X(sth, Store, kNone, 2) X(std, Store, kStorePair, 3)
// clang-format on

// The produce flags a case may fix (L3_FAST_ALU's third column).
namespace cf {
constexpr uint16_t kDyn = 0xFFFF, kNone = 0, kIcc = timing::kTfWIcc, kLoad = timing::kTfLoad,
                   kLoadPair = timing::kTfLoad | timing::kTfLdd, kStorePair = timing::kTfLdd;
// What fast_op compares with the fixed set: everything a case may produce.
constexpr uint16_t kMask =
    timing::kTfLoad | timing::kTfLdd | timing::kTfMul | timing::kTfWIcc | timing::kTfWY | timing::kTfNoBp;
}  // namespace cf
// The record's flags in a case with produce flags kS.
template <uint16_t kS>
[[gnu::always_inline]] inline uint16_t case_tf(const Decoded& d) {
  return kS == cf::kDyn ? d.tflags : kS;
}
// The record's timed cost in a case with fixed cost kC (0: none).
template <unsigned kC>
[[gnu::always_inline]] inline unsigned case_tc(const Decoded& d) {
  return kC ? kC : d.tcost;
}

enum : uint8_t {
  kOpCall = 0,  // call Decoded::fn
  kOpDecode,    // a stale record: decode the word first (kOpStale)
  kOpBicc,      // Bicc with the annul bit
  kOpBcc,       // Bicc without it
#define L3_OP_ENUM(h, cls, kf, kc) kOp_##h##_r, kOp_##h##_i,
  L3_FAST_ALU(L3_OP_ENUM) L3_FAST_MEM(L3_OP_ENUM)
#undef L3_OP_ENUM
      kOpBccIn,  // a kOpBcc whose target lies in its own page (decode_at)
  kOpEnd,        // the record after a page's last (CodePage::recs): only the sequential loop reaches it
  kOpExit,       // run_page_seq's record for a branch target outside the page
  kOpCount
};

// A handler gets its case only with the class the case counts (a row of an
// extension table may give a base handler another class).
struct FastOp {
  Handler h;
  uint8_t op;
  InsnClass cls;
  uint16_t tf;  // cf::kDyn, or the produce flags the case fixes
  uint8_t tc;   // 0, or the timed cost the case fixes
};
constexpr FastOp kFastOps[] = {{&sem::h_bicc<false>, kOpBicc, InsnClass::Branch, cf::kDyn, 0},
                               {&sem::h_bicc<true>, kOpBicc, InsnClass::Branch, cf::kDyn, 0},
#define L3_OP_ROW(h, cls, kf, kc)                                \
  {&sem::h_##h<false>, kOp_##h##_r, InsnClass::cls, cf::kf, kc}, \
      {&sem::h_##h<true>, kOp_##h##_i, InsnClass::cls, cf::kf, kc},
                               L3_FAST_ALU(L3_OP_ROW) L3_FAST_MEM(L3_OP_ROW)
#undef L3_OP_ROW
};

// The timed cases of ALU and memory ops check only the register pre-test
// and the LDD pair flag (issue_case below): a row that gives their handler
// an icc or Y wait, or the Bicc flag, takes the generic case.
constexpr uint16_t kCaseNoFlags = timing::kTfIccHold | timing::kTfRY | timing::kTfBicc;
// The timed Bicc case checks only the icc wait and produces nothing: a row
// that gives Bicc a register source, another wait or a result takes the
// generic case.
constexpr uint16_t kBranchNoFlags = timing::kTfIccHold | timing::kTfRY | timing::kTfLdd | timing::kTfLoad |
                                    timing::kTfMul | timing::kTfWIcc | timing::kTfWY;
static_assert(kOpDecode == kOpStale);
static_assert(kOpCount <= kOpLine, "the line bit is outside the op");

}  // namespace

uint8_t fast_op(const Decoded& d) {
  for (const FastOp& f : kFastOps) {
    if (f.h != d.fn || unsigned(f.cls) != d.cls || d.cost != timing::kClassCycles[d.cls]) continue;
    if (f.op == kOpBicc) {  // the timed branch case waits for icc only
      if (d.hs1 | d.hs2 | d.hsl | (d.tflags & kBranchNoFlags) ||
          d.tcost != timing::kTimedCycles[timing::kTkBranch])
        return kOpCall;
      return (d.rd & 16) ? kOpBicc : kOpBcc;
    }
    if ((d.tflags & kCaseNoFlags) || (f.tf != cf::kDyn && (d.tflags & cf::kMask) != f.tf) ||
        (f.tc && d.tcost != f.tc))
      return kOpCall;
    return f.op;
  }
  return kOpCall;
}

// ---------------------------------------------------------------------------
// Code pages
// ---------------------------------------------------------------------------

CodePage* Cpu::code_page_slow(uint32_t a) {
  const uint32_t num = a / kCodePageBytes;
  if (num == code_nopage) return nullptr;
  auto it = code_pages.find(num);
  if (it != code_pages.end()) return code_last = it->second.get();
  const uint32_t base = num * kCodePageBytes;
  const DmiRegion* r = find_dmi(base, kCodePageBytes, false);
  if (!r) {
    code_nopage = num;
    return nullptr;
  }
  if (code_pages.size() >= kMaxCodePages) drop_code_pages();
  auto pg = std::make_unique<CodePage>();
  pg->base = base;
  pg->host = r->ptr + (base - r->start);
  Decoded stale = decoded_zero;
  stale.op = kOpStale;
  std::fill(pg->recs, pg->recs + kCodePageWords, stale);
  for (uint32_t i = 0; i < kCodePageWords; ++i) pg->recs[i].op |= line_bit(base + 4 * i);
  pg->recs[kCodePageWords] = decoded_zero;
  pg->recs[kCodePageWords].op = kOpEnd;
  pg->has_bp = page_has_break(base);
  // Untagged when the memory keeps write generations and the page is one of
  // its pages (a region that starts mid-page keeps the page tagged).
  if (r->gen && pg->host >= r->gen_base && ((pg->host - r->gen_base) & (kCodePageBytes - 1)) == 0) {
    pg->gen = r->gen + ((pg->host - r->gen_base) >> 12);
    pg->gen_seen = *pg->gen;
  }
  code_map[num] = 1;
  code_last = pg.get();
  code_pages.emplace(num, std::move(pg));
  return code_last;
}

void Cpu::drop_code_pages() {
  for (auto& [num, pg] : code_pages) {
    code_map[num] = 0;
    dead_pages.push_back(std::move(pg));
  }
  code_pages.clear();
  code_last = nullptr;
  code_nopage = 0xFFFFFFFFu;
  ++code_epoch;
}

void Cpu::code_store_slow(uint32_t a, unsigned n) {
  auto it = code_pages.find(a / kCodePageBytes);
  if (it == code_pages.end()) return;
  CodePage* pg = it->second.get();
  // Only the switch index: a handler may still be reading its own record.
  for (uint32_t w = (a - pg->base) / 4, e = (a + n - 1 - pg->base) / 4; w <= e; ++w)
    pg->recs[w].op = kOpStale | (pg->recs[w].op & kOpLine);
}

void Cpu::restart_ic_epoch() {
  for (auto& [num, pg] : code_pages)
    if (pg->gen)
      for (uint32_t i = 0; i < kCodePageWords; ++i) pg->recs[i].tag = 0;
  ic_epoch = 1;
}

void Cpu::check_page_gen(CodePage& pg) {
  if (!pg.gen || *pg.gen == pg.gen_seen) return;
  pg.gen_seen = *pg.gen;
  for (uint32_t i = 0; i < kCodePageWords; ++i) pg.recs[i].op = kOpStale | (pg.recs[i].op & kOpLine);
}

bool Cpu::page_has_break(uint32_t base) const {
  auto lo = std::lower_bound(bp_pcs.begin(), bp_pcs.end(), base);
  return lo != bp_pcs.end() && *lo - base < kCodePageBytes;
}

void Cpu::mark_break_pages() {
  for (auto& [num, pg] : code_pages) pg->has_bp = page_has_break(pg->base);
}

// ---------------------------------------------------------------------------
// The loop
// ---------------------------------------------------------------------------

namespace {

// Cpu::decode_into for the record of the word at pc: it keeps the record's
// kOpLine bit, and tells a Bicc whose target lies in the same page
// (kOpBccIn: the sequential loops take the target's record without a
// bounds test). A record of a page with
// write generations (kTag false) is never checked against its word: its tag
// is 0, and in timed mode run_page_tseq's I-cache stamp (Cpu::ic_epoch at
// which its line was last found MRU in its set; never 0).
template <bool kTag>
void decode_at(Cpu& c, uint32_t w, Decoded& d, uint32_t pc) {
  const uint8_t line = d.op & kOpLine;
  c.decode_into(w, d);
  d.op |= line;
  if (!kTag) d.tag = 0;
  if ((d.op & (kOpLine - 1)) == kOpBcc && ((pc + uint32_t(d.imm)) ^ pc) < kCodePageBytes)
    d.op = uint8_t(kOpBccIn | (d.op & kOpLine));
}

// What a page loop runs: the words [lo, lo + len) of a page (the page, or
// its part in the open span's window).
struct PageRun {
  const uint8_t* host;  // the word at lo
  char* recs;           // its record
  uint32_t lo, len;
  const uint32_t* gen;  // the page's write generation (untagged runs)
  uint32_t gen_seen;
  PageRun(CodePage& pg, uint32_t lo_, uint32_t len_)
      : host(pg.host + (lo_ - pg.base)),
        recs(reinterpret_cast<char*>(pg.recs) + size_t(lo_ - pg.base) * 8),
        lo(lo_),
        len(len_),
        gen(pg.gen),
        gen_seen(pg.gen_seen) {}
  // Another master wrote the page (checked where the core may have yielded).
  bool written() const { return *gen != gen_seen; }
};

// The dispatch table of a page loop, in the order of the op enum: the label
// names are those of the function that expands it.
#define L3_ALU_LABELS(h, cls, kf, kc) &&alu_##h##_r, &&alu_##h##_i,
#define L3_MEM_LABELS(h, cls, kf, kc) &&mem_##h##_r, &&mem_##h##_i,
// (These loops test the PC against the run's bounds before they dispatch:
// they never reach the end record.)
#define L3_LABEL_TABLE                                                                    \
  {                                                                                       \
    &&generic, &&decode, &&branch, &&branch,                                              \
        L3_FAST_ALU(L3_ALU_LABELS) L3_FAST_MEM(L3_MEM_LABELS) && branch, &&leave, &&leave \
  }

// Runs the code of one page run from pc/npc until the PC leaves it, a trap is
// taken, the cycle limit is reached or something needs the outer loop
// (an interrupt, dropped pages). kBp: the page holds a breakpoint address.
// kTag: the records are checked against memory at each execution (a page
// without write generations), else a stale record decodes when it runs.
// Direct-threaded: every case ends with its own dispatch (L3_NEXT). The
// cycle count lives in a local and is written back around anything that may
// read it (memory accesses, handlers, traps).
template <bool kBp, bool kTag>
void run_page(Cpu& c, const PageRun& run, uint32_t& pc_io, uint32_t& npc_io) {
  static const void* const kTable[kOpCount] = L3_LABEL_TABLE;
  const uint32_t base = run.lo, len = run.len;
  const uint8_t* const host = run.host;
  char* const recs = run.recs;
  const uint64_t epoch = c.code_epoch;
  uint32_t lpc = pc_io, lnpc = npc_io;
  uint64_t cyc = c.cycles, lim = c.eff_limit;
  uint32_t off;
  Decoded* d;
  static_assert(sizeof(Decoded) == 32, "record address = recs + 8 * byte offset");
#define L3_NEXT()                                                \
  do {                                                           \
    off = lpc - base;                                            \
    if (L3_UNLIKELY(off >= len)) goto leave;                     \
    if constexpr (kBp)                                           \
      if (c.bp_filter_hit(lpc) && c.at_break(lpc)) goto stop;    \
    d = reinterpret_cast<Decoded*>(recs + size_t(off) * 8);      \
    if constexpr (kTag) {                                        \
      uint32_t w_;                                               \
      std::memcpy(&w_, host + off, 4);                           \
      if (L3_UNLIKELY(w_ != d->tag)) { /* first run, new code */ \
        ++c.decode_misses;                                       \
        decode_at<true>(c, w_, *d, lpc);                         \
      }                                                          \
    }                                                            \
    goto* kTable[d->op];                                         \
  } while (0)
// After an instruction of class `cls` that retired without a trap and fell
// through (its cost is the class's: fast_op checked it).
#define L3_RETIRE_SEQ(cls)                               \
  cyc += timing::kClassCycles[unsigned(InsnClass::cls)]; \
  ++c.ctr.by_class[unsigned(InsnClass::cls)];            \
  lpc = lnpc;                                            \
  lnpc += 4
// Before and after anything that may read or change the core's state.
#define L3_SYNC_OUT() \
  c.pc = lpc;         \
  c.npc = lnpc;       \
  c.cycles = cyc
#define L3_SYNC_IN() \
  lim = c.eff_limit; \
  if (cyc >= lim || c.irl > c.irq_thresh || c.code_epoch != epoch || (!kTag && run.written())) goto leave

  L3_NEXT();

#define L3_ALU(h, I, cls, lbl) \
  lbl:                         \
  sem::h_##h<I>(c, *d);        \
  L3_RETIRE_SEQ(cls);          \
  if (cyc >= lim) goto leave;  \
  L3_NEXT();
#define L3_ALU2(h, cls, kf, kc) L3_ALU(h, false, cls, alu_##h##_r) L3_ALU(h, true, cls, alu_##h##_i)
  L3_FAST_ALU(L3_ALU2)
#undef L3_ALU2
#undef L3_ALU

#define L3_MEM(h, I, cls, lbl)                   \
  lbl:                                           \
  if (L3_LIKELY(sem::fast_##h<I>(c, *d))) {      \
    L3_RETIRE_SEQ(cls);                          \
    if (cyc >= lim) goto leave;                  \
    L3_NEXT();                                   \
  }                                              \
  L3_SYNC_OUT();                                 \
  sem::h_##h<I>(c, *d);                          \
  cyc = c.cycles;                                \
  if (L3_UNLIKELY(c.pending_tt != 0)) goto trap; \
  L3_RETIRE_SEQ(cls);                            \
  L3_SYNC_IN();                                  \
  L3_NEXT();
#define L3_MEM2(h, cls, kf, kc) L3_MEM(h, false, cls, mem_##h##_r) L3_MEM(h, true, cls, mem_##h##_i)
  L3_FAST_MEM(L3_MEM2)
#undef L3_MEM2
#undef L3_MEM

branch : {  // Bicc with pc/npc in registers
  uint32_t np = lnpc, nn = lnpc + 4;
  if (sem::bicc_next(*d, c.icc, lpc, lnpc, np, nn)) {  // = Cpu::annul_next()
    ++c.ctr.annulled;
    cyc += timing::kAnnulledCycles;
  }
  lpc = np;
  lnpc = nn;
  cyc += timing::kClassCycles[unsigned(InsnClass::Branch)];
  ++c.ctr.by_class[unsigned(InsnClass::Branch)];
  if (cyc >= lim) goto leave;
  L3_NEXT();
}

decode : {  // a stale record (first run, or code written since)
  uint32_t w;
  std::memcpy(&w, host + off, 4);
  ++c.decode_misses;
  decode_at<kTag>(c, w, *d, lpc);
  goto* kTable[d->op];
}

generic:
  L3_SYNC_OUT();
  c.next_pc = lnpc;
  c.next_npc = lnpc + 4;
  d->fn(c, *d);
  cyc = c.cycles;
  if (L3_UNLIKELY(c.pending_tt != 0)) goto trap;
  if (d->cti) {
    lpc = c.next_pc;
    lnpc = c.next_npc;
  } else {
    lpc = lnpc;
    lnpc += 4;
  }
  cyc += d->cost;
  ++c.ctr.by_class[d->cls];
  L3_SYNC_IN();
  L3_NEXT();

trap : {
  const unsigned t = c.pending_tt;
  c.pending_tt = 0;
  c.cycles = cyc + d->cost + timing::kTrapEntryCycles;
  c.enter_trap(t);
  pc_io = c.pc;
  npc_io = c.npc;
  return;
}
stop:
  __attribute__((unused));
  c.broke = true;
leave:
  c.cycles = cyc;
  c.pc = pc_io = lpc;
  c.npc = npc_io = lnpc;
#undef L3_NEXT
#undef L3_RETIRE_SEQ
#undef L3_SYNC_OUT
#undef L3_SYNC_IN
}

// ---- What the two sequential loops (run_page_seq, run_page_tseq) share ----
// Their dispatch tables (kSeq: in sequence, kSlot: in a delay slot; the
// labels are each function's own), their walk state and their exits. The
// tables' addresses stay in registers (else GCC recomputes one at every
// dispatch).
#define L3_SEQ_LABELS(h, cls, kf, kc) &&alu_##h##_r_s, &&alu_##h##_i_s,
#define L3_SLOT_LABELS(h, cls, kf, kc) &&alu_##h##_r_t, &&alu_##h##_i_t,
#define L3_MSEQ_LABELS(h, cls, kf, kc) &&mem_##h##_r_s, &&mem_##h##_i_s,
#define L3_MSLOT_LABELS(h, cls, kf, kc) &&mem_##h##_r_t, &&mem_##h##_i_t,
#define L3_SEQ_START()                                                                  \
  static const void* const kSeq[kOpCount] = {                                           \
      &&generic_s,                                                                      \
      &&decode_s,                                                                       \
      &&branch_s,                                                                       \
      &&bcc_s,                                                                          \
      L3_FAST_ALU(L3_SEQ_LABELS) L3_FAST_MEM(L3_MSEQ_LABELS) && bcc_in_s,               \
      &&leave_d,                                                                        \
      &&leave_exit};                                                                    \
  static const void* const kSlot[kOpCount] = {                                          \
      &&generic_t,                                                                      \
      &&decode_t,                                                                       \
      &&generic_t,                                                                      \
      &&generic_t,                                                                      \
      L3_FAST_ALU(L3_SLOT_LABELS) L3_FAST_MEM(L3_MSLOT_LABELS) && generic_t,            \
      &&end_t,                                                                          \
      &&leave_exit};                                                                    \
  const void* const* seq = kSeq;                                                        \
  const void* const* slot = kSlot;                                                      \
  asm("" : "+r"(seq), "+r"(slot));                                                      \
  const uint32_t base = run.lo;                                                         \
  const uint8_t* const host = run.host;                                                 \
  char* const recs = run.recs;                                                          \
  const uint64_t epoch = c.code_epoch;                                                  \
  uint32_t lpc = pc_io, lnpc = npc_io, tgt = 0, off;                                    \
  Decoded* d;                                                                           \
  /* in a delay slot: the target's record, or exit_rec (target tgt outside the page) */ \
  Decoded* td = nullptr;                                                                \
  Decoded exit_rec{};                                                                   \
  exit_rec.op = kOpExit
#define L3_PC_OF(p) (base + uint32_t((reinterpret_cast<char*>(p) - recs) >> 3))
#define L3_TGT_OF(p) ((p) == &exit_rec ? tgt : L3_PC_OF(p))
// A taken Bicc (d: the record after it): its target's record, or exit_rec
// outside the run (run_bytes from its first record).
#define L3_TAKEN_TARGET()                                                                                   \
  const uint64_t toff = uint64_t(reinterpret_cast<char*>(d - 1) - recs) + uint64_t(int64_t(d[-1].imm) * 8); \
  if (L3_LIKELY(toff < uint64_t(run_bytes) * 8)) {                                                          \
    td = reinterpret_cast<Decoded*>(recs + toff);                                                           \
  } else {                                                                                                  \
    tgt = L3_PC_OF(d) - 4 + uint32_t(d[-1].imm);                                                            \
    td = &exit_rec;                                                                                         \
  }
// The same for a kOpBccIn record: the target is in the page.
#define L3_TAKEN_IN() td = reinterpret_cast<Decoded*>(reinterpret_cast<char*>(d - 1) + int64_t(d[-1].imm) * 8)
// A stale record (first run, or code written since), in sequence or in a slot.
#define L3_SEQ_DECODE()                              \
  decode_s : {                                       \
    uint32_t w;                                      \
    std::memcpy(&w, host + (L3_PC_OF(d) - base), 4); \
    ++c.decode_misses;                               \
    decode_at<false>(c, w, *d, L3_PC_OF(d));         \
    goto* kSeq[d->op & (kOpLine - 1)];               \
  }                                                  \
  decode_t : {                                       \
    uint32_t w;                                      \
    std::memcpy(&w, host + (L3_PC_OF(d) - base), 4); \
    ++c.decode_misses;                               \
    decode_at<false>(c, w, *d, L3_PC_OF(d));         \
    goto* kSlot[d->op & (kOpLine - 1)];              \
  }
// The instruction of d to the function's `generic` label, pc/npc set.
#define L3_SEQ_TO_GENERIC() \
  generic_s:                \
  lpc = L3_PC_OF(d);        \
  lnpc = lpc + 4;           \
  goto generic;             \
  generic_t:                \
  lpc = L3_PC_OF(d);        \
  lnpc = L3_TGT_OF(td);     \
  goto generic
// The exits to the function's `leave` label, pc/npc set: before d in
// sequence (leave_d), a delay slot past the page's end (end_t), after a
// delay slot (leave_td), a delay slot's target outside the page (leave_exit).
#define L3_SEQ_LEAVE()  \
  leave_d:              \
  lpc = L3_PC_OF(d);    \
  lnpc = lpc + 4;       \
  goto leave;           \
  end_t:                \
  lpc = L3_PC_OF(d);    \
  lnpc = L3_TGT_OF(td); \
  goto leave;           \
  leave_td:             \
  lpc = L3_TGT_OF(td);  \
  lnpc = lpc + 4;       \
  goto leave;           \
  leave_exit:           \
  lpc = tgt;            \
  lnpc = tgt + 4;       \
  goto leave

// The functional loop over a whole untagged page without breakpoints: the
// same cases as run_page, with the PC implicit in the record pointer.
// - A case of an instruction that runs in sequence (npc = pc + 4) ends with
//   the next record (d + 1) and its dispatch: no PC arithmetic, no bounds
//   test (the page's end record leaves).
// - The instruction in the delay slot of a taken branch runs its case from
//   the second table (kSlot), which goes to the branch's target `tgt` after it.
// - The cycle limit is a count-down `rem` of the cycles left before it
//   (cycles = end - rem).
// Anything else (a handler call, a slow memory access, a trap) goes through
// `generic` with pc/npc and cycles written out, as in run_page.
// kWatch: watchpoints are set; loads and stores go through the holed
// windows (Cpu::read_hw/write_hw), which hold both sides of a watched page.
template <bool kWatch>
void run_page_seq(Cpu& c, const PageRun& run, uint32_t& pc_io, uint32_t& npc_io) {
  constexpr uint32_t run_bytes = kCodePageBytes;
  L3_SEQ_START();
  uint64_t end;
  int64_t rem;
  bool taken;  // of the last Bicc
// The cycles left before the limit, from cycles `cy` (capped: cycles =
// end - rem stays exact).
#define L3_BUDGET(cy)                                                                            \
  do {                                                                                           \
    const uint64_t lim_ = c.eff_limit;                                                           \
    const uint64_t room_ = std::min<uint64_t>(lim_ > (cy) ? lim_ - (cy) : 0, uint64_t(1) << 62); \
    end = (cy) + room_;                                                                          \
    rem = int64_t(room_);                                                                        \
  } while (0)
// (The count-down comes last: its flags are the test's.)
#define L3_RETIRE(cls)                        \
  ++c.ctr.by_class[unsigned(InsnClass::cls)]; \
  rem -= timing::kClassCycles[unsigned(InsnClass::cls)]
// rem -= n; leave at `lbl` when rem <= 0. On x86-64 with GCC, one sub and
// its jump (GCC alone would schedule other flag-setting work in between and
// test again); outputs of asm goto are valid on both edges in GCC.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define L3_COUNT_DOWN(n, lbl) asm goto("sub %1, %0\n\tjle %l[" #lbl "]" : "+r"(rem) : "i"(n) : "cc" : lbl)
#else
#define L3_COUNT_DOWN(n, lbl) \
  if (L3_UNLIKELY((rem -= (n)) <= 0)) goto lbl
#endif
#define L3_SEQ_RETIRE(cls)                                                \
  ++c.ctr.by_class[unsigned(InsnClass::cls)];                             \
  ++d;                                                                    \
  L3_COUNT_DOWN(timing::kClassCycles[unsigned(InsnClass::cls)], leave_d); \
  goto* seq[d->op]
#define L3_SLOT_RETIRE(cls)                                                \
  ++c.ctr.by_class[unsigned(InsnClass::cls)];                              \
  L3_COUNT_DOWN(timing::kClassCycles[unsigned(InsnClass::cls)], leave_td); \
  d = td;                                                                  \
  goto* seq[d->op]
  L3_BUDGET(c.cycles);

enter:  // the instruction at lpc, with npc lnpc
  off = lpc - base;
  if (L3_UNLIKELY(off >= kCodePageBytes)) goto leave;
  d = reinterpret_cast<Decoded*>(recs + size_t(off) * 8);
  if (L3_LIKELY(lnpc == lpc + 4)) goto* seq[d->op];
  off = lnpc - base;
  if (off < kCodePageBytes) {
    td = reinterpret_cast<Decoded*>(recs + size_t(off) * 8);
  } else {
    tgt = lnpc;
    td = &exit_rec;
  }
  goto* slot[d->op];

#define L3_ALU(h, I, cls, lbl)    \
  lbl##_s : sem::h_##h<I>(c, *d); \
  L3_SEQ_RETIRE(cls);             \
  lbl##_t : sem::h_##h<I>(c, *d); \
  L3_SLOT_RETIRE(cls);
#define L3_ALU2(h, cls, kf, kc) L3_ALU(h, false, cls, alu_##h##_r) L3_ALU(h, true, cls, alu_##h##_i)
  L3_FAST_ALU(L3_ALU2)
#undef L3_ALU2
#undef L3_ALU
// The slow path of a memory case is its handler, the record's `fn`
// (fast_op gave the case only to that handler, class and cost): generic.
#define L3_MEM(h, I, cls, lbl)                                                                               \
  lbl##_s : if (L3_UNLIKELY(!(kWatch ? sem::wfast_##h<I>(c, *d) : sem::fast_##h<I>(c, *d)))) goto generic_s; \
  L3_SEQ_RETIRE(cls);                                                                                        \
  lbl##_t : if (L3_UNLIKELY(!(kWatch ? sem::wfast_##h<I>(c, *d) : sem::fast_##h<I>(c, *d)))) goto generic_t; \
  L3_SLOT_RETIRE(cls);
#define L3_MEM2(h, cls, kf, kc) L3_MEM(h, false, cls, mem_##h##_r) L3_MEM(h, true, cls, mem_##h##_i)
  L3_FAST_MEM(L3_MEM2)
#undef L3_MEM2
#undef L3_MEM

// Bicc without annul, in sequence: the next record runs in either case
#define L3_BCC(target)                                                         \
  taken = sem::cond_true(d->rd & 15, c.icc);                                   \
  ++c.ctr.by_class[unsigned(InsnClass::Branch)];                               \
  ++d;                                                                         \
  L3_COUNT_DOWN(timing::kClassCycles[unsigned(InsnClass::Branch)], bcc_limit); \
  if (taken) {                                                                 \
    target();                                                                  \
    goto* slot[d->op];                                                         \
  }                                                                            \
  goto* seq[d->op];
bcc_s:
  L3_BCC(L3_TAKEN_TARGET)
bcc_in_s:
  L3_BCC(L3_TAKEN_IN)
#undef L3_BCC
bcc_limit:  // the limit, after the branch
  lpc = L3_PC_OF(d);
  lnpc = taken ? lpc - 4 + uint32_t(d[-1].imm) : lpc + 4;
  goto leave;
branch_s : {  // Bicc with annul, in sequence (in a delay slot, a Bicc goes generic)
  const uint32_t pc = L3_PC_OF(d);
  lpc = pc + 4;
  lnpc = pc + 8;
  if (sem::bicc_next(*d, c.icc, pc, pc + 4, lpc, lnpc)) {  // = Cpu::annul_next()
    ++c.ctr.annulled;
    rem -= timing::kAnnulledCycles;
  }
  L3_RETIRE(Branch);
  if (L3_UNLIKELY(rem <= 0)) goto leave;
  goto enter;
}

  L3_SEQ_DECODE();

  L3_SEQ_TO_GENERIC();
generic : {
  c.pc = lpc;
  c.npc = lnpc;
  c.cycles = end - rem;
  c.next_pc = lnpc;
  c.next_npc = lnpc + 4;
  d->fn(c, *d);
  if (L3_UNLIKELY(c.pending_tt != 0)) goto trap;
  if (d->cti) {
    lpc = c.next_pc;
    lnpc = c.next_npc;
  } else {
    lpc = lnpc;
    lnpc += 4;
  }
  const uint64_t cy = c.cycles + d->cost;
  ++c.ctr.by_class[d->cls];
  L3_BUDGET(cy);
  if (rem <= 0 || c.irl > c.irq_thresh || c.code_epoch != epoch || run.written()) goto leave;
  goto enter;
}

trap : {
  const unsigned t = c.pending_tt;
  c.pending_tt = 0;
  c.cycles += d->cost + timing::kTrapEntryCycles;
  c.enter_trap(t);
  pc_io = c.pc;
  npc_io = c.npc;
  return;
}
  L3_SEQ_LEAVE();
leave:
  c.cycles = end - rem;
  c.pc = pc_io = lpc;
  c.npc = npc_io = lnpc;
#undef L3_BUDGET
#undef L3_RETIRE
#undef L3_SEQ_RETIRE
#undef L3_SLOT_RETIRE
#undef L3_COUNT_DOWN
}

// Cpu::issue() for an ALU or memory case: fast_op gave the case only to a
// record without the icc, Y and Bicc flags, so the register pre-test and
// the LDD/STD pair flag are all that can call interlock().
// kCyc: the caller keeps the cycle count in c.cycles (else it keeps only
// the issue slot t, and cycles = t + hold: run_page_tseq).
template <bool kCyc = true>
[[gnu::always_inline]] inline void issue_case(Cpu& c, const Decoded& d, uint16_t tf, uint64_t& t) {
  if (L3_UNLIKELY((c.rdy_hi > t && (c.rdy[d.hs1] > t || c.rdy[d.hs2] > t || c.rdy[d.hsl] > t + 1)) ||
                  (tf & timing::kTfLdd))) {
    const uint64_t st = c.interlock(d, t);
    if constexpr (kCyc) c.cycles += st;
    t += st;
  }
}
// Cpu::issue() for a Bicc case: fast_op gives the case only a Bicc without
// register sources or waits but icc, so this is interlock()'s icc rule,
// inline. The branch's condition on the current icc (nothing writes icc
// during the stall) is `taken` when the caller has it (kKnown), else it is
// computed only when prediction may hide the wait.
template <bool kKnown, bool kCyc = true>
[[gnu::always_inline]] inline void branch_wait(Cpu& c, const Decoded& d, uint64_t& t, bool taken = false) {
  if ((d.tflags & timing::kTfBicc) && c.icc_rdy > t) {
    uint64_t st = c.icc_rdy - t;
    if (c.bpred && !c.icc_nobp && (kKnown ? taken : sem::cond_true(d.rd & 15, c.icc)))
      st = 0;  // predicted taken
    c.tctr.stall_branch += st;
    if constexpr (kCyc) c.cycles += st;
    t += st;
  }
}
// Cpu::retire_timed() for a case of class kCls (fast_op checked the class),
// with the record's cost tc and flags tf.
// run_page_tseq's deferred share of class_cycles: per instruction of each
// class, its base cost (TseqCounts); a case adds only what its cost has
// above that.
constexpr unsigned kClassBase[unsigned(InsnClass::Count)] = {1, 1, 2, 1, 0, 0, 0, 0, 0, 0};
static_assert(unsigned(InsnClass::Store) == 2 && unsigned(InsnClass::Branch) == 3);
template <InsnClass kCls, bool kCyc = true>
[[gnu::always_inline]] inline void retire_case(Cpu& c, const Decoded& d, unsigned tc, uint16_t tf,
                                               uint64_t t) {
  using namespace timing;
  if constexpr (kCyc) {
    c.cycles += tc;
    c.tctr.class_cycles[unsigned(kCls)] += tc;
  } else if (tc != kClassBase[unsigned(kCls)]) {
    c.tctr.class_cycles[unsigned(kCls)] += tc - kClassBase[unsigned(kCls)];
  }
  ++c.ctr.by_class[unsigned(kCls)];
  constexpr uint16_t kProduce = kTfLoad | kTfLdd | kTfMul | kTfWIcc | kTfWY;
  if (!(tf & kProduce)) return;
  // Cpu::produce() inline for its two common cases, a single load and an
  // icc write without multiplier or Y.
  if (kCls == InsnClass::Load && (tf & kProduce) == kTfLoad)
    c.set_rdy(d.rd, t + 1 + c.lddel);
  else if (kCls != InsnClass::Load && (tf & kProduce) == kTfWIcc) {
    c.icc_rdy = t + tc + 2;
    c.icc_nobp = (tf & kTfNoBp) != 0;
  } else {
    c.produce(d, t);
  }
}

// Timed mode: the same walk with the generic timed loop's per-instruction
// work (I-cache fast check, interlocks, timed costs, ready times) around
// the inlined handlers; cycles stay in the member (the timed memory paths
// read and write it), and pc/npc are written before anything may read them.
template <bool kBp, bool kWhole, bool kTag>
void run_page_timed(Cpu& c, const PageRun& run, uint32_t& pc_io, uint32_t& npc_io) {
  using namespace timing;
  static const void* const kTable[kOpCount] = L3_LABEL_TABLE;
  const uint32_t base = run.lo, len = kWhole ? kCodePageBytes : run.len;
  const uint8_t* const host = run.host;
  char* const recs = run.recs;
  const uint64_t epoch = c.code_epoch;
  uint32_t lpc = pc_io, lnpc = npc_io;
  uint32_t off;
  uint64_t t;  // issue slot of the instruction (cycles - hold after its fetch)
  Decoded* d;
  uint16_t tf;  // the record's timed flags and cost (ALU and memory cases)
  unsigned tc;
next:
  off = lpc - base;
  if (L3_UNLIKELY(off >= len)) goto leave;
  if constexpr (kBp)
    if (c.bp_filter_hit(lpc) && c.at_break(lpc)) goto stop;
  if (L3_LIKELY(c.ic_fast(lpc >> c.ic_shift))) {
    ++c.tctr.ic_hits;  // = fetch_t's fast path
  } else {
    c.pc = lpc;
    c.npc = lnpc;
    uint32_t w_;
    if (L3_UNLIKELY(!c.fetch_t_slow(lpc, w_))) goto fetch_error;
    // The fill dropped the pages, or another master wrote this one.
    if (L3_UNLIKELY(c.code_epoch != epoch || (!kTag && run.written()))) goto leave;
  }
  d = reinterpret_cast<Decoded*>(recs + size_t(off) * 8);
  if constexpr (kTag) {
    uint32_t w_;
    std::memcpy(&w_, host + off, 4);
    if (L3_UNLIKELY(w_ != d->tag)) {  // first run, or new code
      ++c.decode_misses;
      decode_at<true>(c, w_, *d, lpc);
    }
  }
  t = c.cycles - c.hold;
  goto* kTable[d->op & (kOpLine - 1)];
decode : {  // a stale record (first run, or code written since)
  uint32_t w;
  std::memcpy(&w, host + off, 4);
  ++c.decode_misses;
  decode_at<kTag>(c, w, *d, lpc);
  goto* kTable[d->op & (kOpLine - 1)];
}

// The cases read the record's timed cost and flags once (a write through
// a byte-typed field could otherwise make the compiler read them again).
#define L3_ALU(h, I, cls, kf, kc, lbl)           \
  lbl:                                           \
  tf = case_tf<cf::kf>(*d);                      \
  tc = case_tc<kc>(*d);                          \
  issue_case(c, *d, tf, t);                      \
  sem::h_##h<I>(c, *d);                          \
  lpc = lnpc;                                    \
  lnpc += 4;                                     \
  retire_case<InsnClass::cls>(c, *d, tc, tf, t); \
  if (c.cycles >= c.eff_limit) goto leave;       \
  goto next;
#define L3_ALU2(h, cls, kf, kc) \
  L3_ALU(h, false, cls, kf, kc, alu_##h##_r) L3_ALU(h, true, cls, kf, kc, alu_##h##_i)
  L3_FAST_ALU(L3_ALU2)
#undef L3_ALU2
#undef L3_ALU
// After a memory access: a device access may yield, interrupt or drop the pages.
#define L3_MEM(h, I, cls, kf, kc, lbl)                                                                      \
  lbl:                                                                                                      \
  tf = case_tf<cf::kf>(*d);                                                                                 \
  tc = case_tc<kc>(*d);                                                                                     \
  issue_case(c, *d, tf, t);                                                                                 \
  if (L3_LIKELY(sem::tfast_##h<I>(c, *d))) { /* no bus access: nothing else to check */                     \
    lpc = lnpc;                                                                                             \
    lnpc += 4;                                                                                              \
    retire_case<InsnClass::cls>(c, *d, tc, tf, t);                                                          \
    if (c.cycles >= c.eff_limit) goto leave;                                                                \
    goto next;                                                                                              \
  }                                                                                                         \
  c.pc = lpc;                                                                                               \
  c.npc = lnpc;                                                                                             \
  sem::h_##h<I>(c, *d);                                                                                     \
  if (L3_UNLIKELY(c.pending_tt != 0)) goto trap;                                                            \
  lpc = lnpc;                                                                                               \
  lnpc += 4;                                                                                                \
  retire_case<InsnClass::cls>(c, *d, tc, tf, t);                                                            \
  if (c.cycles >= c.eff_limit || c.irl > c.irq_thresh || c.code_epoch != epoch || (!kTag && run.written())) \
    goto leave;                                                                                             \
  goto next;
#define L3_MEM2(h, cls, kf, kc) \
  L3_MEM(h, false, cls, kf, kc, mem_##h##_r) L3_MEM(h, true, cls, kf, kc, mem_##h##_i)
  L3_FAST_MEM(L3_MEM2)
#undef L3_MEM2
#undef L3_MEM

branch : {  // Bicc with pc/npc in registers
  branch_wait<false>(c, *d, t);
  uint32_t np = lnpc, nn = lnpc + 4;
  if (sem::bicc_next(*d, c.icc, lpc, lnpc, np, nn)) c.annul_next();
  lpc = np;
  lnpc = nn;
  c.retire_timed(*d, t);
  if (c.cycles >= c.eff_limit) goto leave;
  goto next;
}
generic : {
  c.issue(*d, t);
  c.pc = lpc;
  c.npc = lnpc;
  c.next_pc = lnpc;
  c.next_npc = lnpc + 4;
  const unsigned cwp0 = c.cwp;
  d->fn(c, *d);
  if (L3_UNLIKELY(c.pending_tt != 0)) goto trap;
  if (d->cti) {
    lpc = c.next_pc;
    lnpc = c.next_npc;
  } else {
    lpc = lnpc;
    lnpc += 4;
  }
  c.retire_timed(*d, t);
  if (L3_UNLIKELY((d->tflags & kTfCwp) && c.cwp != cwp0)) c.remap_ready(cwp0);
  if (c.cycles >= c.eff_limit || c.irl > c.irq_thresh || c.code_epoch != epoch || (!kTag && run.written()))
    goto leave;
  goto next;
}

trap : {
  const unsigned tt = c.pending_tt;
  c.pending_tt = 0;
  c.trap_timed(tt);
  pc_io = c.pc;
  npc_io = c.npc;
  return;
}
fetch_error:
  c.trap_timed(kTtInstrAccess);
  pc_io = c.pc;
  npc_io = c.npc;
  return;
stop:
  __attribute__((unused));
  c.broke = true;
leave:
  c.pc = pc_io = lpc;
  c.npc = npc_io = lnpc;
}

// run_page_tseq's counts of what happens once per instruction, settled when
// it returns, from the instructions each class retired during the run
// (ctr.by_class): the base part of class_cycles (kClassBase; the slow
// paths take it back from what Cpu::retire_timed adds) and the I-cache hits
// of the fetches (a fetch that is not a hit takes its one back; a trap
// adds the one of the instruction it did not retire, unless that is a
// Ticc, which counts itself as retired).
struct TseqCounts {
  uint64_t by_class0[unsigned(InsnClass::Count)];
  explicit TseqCounts(const Cpu& c) { std::memcpy(by_class0, c.ctr.by_class, sizeof by_class0); }
  void settle(Cpu& c, uint64_t unretired) const {
    uint64_t n = unretired;
    for (unsigned k = 0; k < unsigned(InsnClass::Count); ++k) {
      const uint64_t dk = c.ctr.by_class[k] - by_class0[k];
      n += dk;
      c.tctr.class_cycles[k] += kClassBase[k] * dk;
    }
    c.tctr.ic_hits += n;
  }
};

// run_page_tseq's dispatch tables, indexed by the whole op byte: they send
// a record with kOpLine to the full I-cache check (fs/ft) and any other to
// its case (the function's kSeq/kSlot).
// case_s/case_t send every record to its case (after the full check).
struct LineTables {
  const void* seq[256];
  const void* slot[256];
  const void* case_s[256];
  const void* case_t[256];
};
LineTables line_tables(const void* const* seq, const void* const* slot, const void* fs, const void* ft) {
  LineTables lt{};
  for (unsigned i = 0; i < 256; ++i) {
    // (The end record starts a line too; no record has an op past kOpCount.)
    const bool line = (i & kOpLine) || i == kOpEnd || i >= kOpCount;
    lt.seq[i] = line ? fs : seq[i];
    lt.slot[i] = line ? ft : slot[i];
    const unsigned op = i & (kOpLine - 1);
    lt.case_s[i] = op < kOpCount ? seq[op] : fs;
    lt.case_t[i] = op < kOpCount ? slot[op] : ft;
  }
  return lt;
}

// Timed mode over a whole untagged page without breakpoints: run_page_timed's
// per-instruction work (interlocks, timed costs, ready times) with
// run_page_seq's walk (PC implicit in the record pointer, delay slots from
// kSlot, branch targets as records).
// - Time is kept as the issue slot t of the next instruction and the limit
//   as the slot tlim = eff_limit - hold, both in locals: cycles = t + hold,
//   and hold changes only in what runs with c.cycles written out (a fetch
//   that is not an inline hit, a store, a handler). A case adds its cost to
//   t and leaves when t reaches tlim.
// - The I-cache check is made in full (Cpu::ic_fast, else fetch_t_slow) for
//   the first instruction of a line and after any jump; an instruction that
//   follows in sequence in the same line is a hit that changes nothing when
//   the previous fetch left the line MRU in its set (the invariant of
//   ic_mru), since nothing on the way (the fast cases) touches the I-cache.
//   A record that starts a line carries kOpLine, and its entry in the
//   dispatch tables is the full check (fetch_line_s/_t): a case needs no test
//   of its own. When a full check leaves its line not MRU (a part of the page
//   outside the cacheable areas), the run leaves after that instruction
//   (tlim = 0), and the next one starts with a full check.
template <bool kWin>
void run_page_tseq(Cpu& c, const PageRun& run, uint32_t& pc_io, uint32_t& npc_io) {
  using namespace timing;
  const uint32_t run_bytes = kWin ? run.len : kCodePageBytes;
  L3_SEQ_START();
  uint64_t t;     // issue slot of the instruction (cycles - hold after its fetch)
  uint64_t tlim;  // the slot of the cycle limit
  uint16_t tf;    // the record's timed flags and cost (ALU and memory cases)
  unsigned tc;
  static const LineTables lt = line_tables(kSeq, kSlot, &&fetch_line_s, &&fetch_line_t);
  const Decoded* const rec_end = reinterpret_cast<const Decoded*>(recs + size_t(run_bytes) * 8);
  // The records of an I-cache line, as an address mask (they are aligned to it).
  static_assert(alignof(CodePage) >= 256, "a line's records are aligned to the line");
  const uintptr_t line_mask = (uintptr_t(sizeof(Decoded)) << (c.ic_shift - 2)) - 1;
// c.cycles from t (before anything that reads it), t and tlim from c.cycles
// (after anything that may change it, hold or the limit).
#define L3_T_OUT() c.cycles = t + c.hold
#define L3_T_IN()        \
  t = c.cycles - c.hold; \
  tlim = c.eff_limit - std::min(c.eff_limit, c.hold)
// Stamps the records of d's line: the line is MRU in its set.
#define L3_STAMP_LINE()                                                                              \
  {                                                                                                  \
    Decoded* const first_ = reinterpret_cast<Decoded*>(reinterpret_cast<uintptr_t>(d) & ~line_mask); \
    for (uintptr_t k_ = 0; k_ <= line_mask / sizeof(Decoded); ++k_) first_[k_].tag = c.ic_epoch;     \
  }
// The I-cache check of the instruction of d, in full (its stamp, else
// Cpu::ic_fast, else fetch_t_slow); then its case.
// (Written with the stamp test twice: GCC lays this form out better.)
#define L3_FETCH(nx, cases)                                                                   \
  if (L3_UNLIKELY(d->tag != c.ic_epoch) && L3_LIKELY(c.ic_fast(L3_PC_OF(d) >> c.ic_shift))) { \
    L3_STAMP_LINE();                                                                          \
  } else if (L3_UNLIKELY(d->tag != c.ic_epoch)) {                                             \
    c.pc = lpc = L3_PC_OF(d);                                                                 \
    c.npc = lnpc = (nx);                                                                      \
    L3_T_OUT();                                                                               \
    uint32_t w_;                                                                              \
    if (L3_UNLIKELY(!c.fetch_t_slow(lpc, w_))) goto fetch_error;                              \
    L3_T_IN();                                                                                \
    if (L3_UNLIKELY(c.code_epoch != epoch || run.written())) goto leave;                      \
    --c.tctr.ic_hits; /* fetch_t_slow counted it */                                           \
    if (c.ic_fast(lpc >> c.ic_shift))                                                         \
      L3_STAMP_LINE()                                                                         \
    else                                                                                      \
      tlim = 0;                                                                               \
  }                                                                                           \
  goto* cases[d->op]
// The next record d, in sequence (tab: seq, or slot for a delay slot): a
// hit in the line of the previous fetch, unless the table sends it to the
// full check.
#define L3_STEP(tab) goto* tab[d->op]
#define L3_TSEQ_NEXT()                                 \
  ++d;                                                 \
  if (L3_UNLIKELY(t >= tlim)) goto leave_d;            \
  if (kWin && L3_UNLIKELY(d == rec_end)) goto leave_d; \
  L3_STEP(seq)
#define L3_TSLOT_NEXT()                              \
  if (L3_UNLIKELY(t >= tlim)) goto leave_td;         \
  if (L3_UNLIKELY(td == &exit_rec)) goto leave_exit; \
  d = td;                                            \
  goto fetch_s

  L3_T_IN();
  const TseqCounts counts(c);
  uint64_t ticc0 = 0;  // by_class[Trap] before a handler (a Ticc counts itself)
  seq = lt.seq;
  slot = lt.slot;
  // (no register hint here: GCC rematerializes the table addresses)
enter:  // the instruction at lpc, with npc lnpc
  off = lpc - base;
  if (L3_UNLIKELY(off >= run_bytes)) goto leave;
  d = reinterpret_cast<Decoded*>(recs + size_t(off) * 8);
  if (L3_LIKELY(lnpc == lpc + 4)) goto fetch_s;
  off = lnpc - base;
  if (off < run_bytes) {
    td = reinterpret_cast<Decoded*>(recs + size_t(off) * 8);
  } else {
    tgt = lnpc;
    td = &exit_rec;
  }
  goto fetch_t;

fetch_s:  // d in sequence, after a jump
fetch_line_s:
  if (L3_UNLIKELY(uintptr_t(reinterpret_cast<char*>(d) - recs) >= uintptr_t(run_bytes) * 8)) goto leave_d;
  L3_FETCH(L3_PC_OF(d) + 4, lt.case_s);
fetch_t:  // d in a delay slot, after a jump
fetch_line_t:
  if (L3_UNLIKELY(uintptr_t(reinterpret_cast<char*>(d) - recs) >= uintptr_t(run_bytes) * 8)) goto end_t;
  L3_FETCH(L3_TGT_OF(td), lt.case_t);

// A case: issue, the handler (a memory case leaves for mem_slow when its
// fast form cannot serve it; a store's reads c.cycles), then retire.
#define L3_ALU_BODY(h, I, cls, nx) sem::h_##h<I>(c, *d);
#define L3_MEM_BODY(h, I, cls, nx)                                                \
  if constexpr (InsnClass::cls == InsnClass::Store) L3_T_OUT();                   \
  if (L3_UNLIKELY(!sem::tfast_##h<I>(c, *d))) {                                   \
    lpc = L3_PC_OF(d);                                                            \
    lnpc = (nx);                                                                  \
    goto mem_slow;                                                                \
  }                                                                               \
  if constexpr (InsnClass::cls == InsnClass::Store) /* the write buffer's wait */ \
    tlim = c.eff_limit - std::min(c.eff_limit, c.hold);
#define L3_CASE(h, I, cls, kf, kc, nx, next, body)                          \
  tf = case_tf<cf::kf>(*d);                                                 \
  tc = case_tc<kc>(*d);                                                     \
  issue_case<false>(c, *d, tf, t);                                          \
  body(h, I, cls, nx) retire_case<InsnClass::cls, false>(c, *d, tc, tf, t); \
  t += tc;                                                                  \
  next();
#define L3_CASE2(h, I, cls, kf, kc, lbl, body)                              \
  lbl##_s : L3_CASE(h, I, cls, kf, kc, lpc + 4, L3_TSEQ_NEXT, body) lbl##_t \
      : L3_CASE(h, I, cls, kf, kc, L3_TGT_OF(td), L3_TSLOT_NEXT, body)
#define L3_ALU2(h, cls, kf, kc)                             \
  L3_CASE2(h, false, cls, kf, kc, alu_##h##_r, L3_ALU_BODY) \
  L3_CASE2(h, true, cls, kf, kc, alu_##h##_i, L3_ALU_BODY)
#define L3_MEM2(h, cls, kf, kc)                             \
  L3_CASE2(h, false, cls, kf, kc, mem_##h##_r, L3_MEM_BODY) \
  L3_CASE2(h, true, cls, kf, kc, mem_##h##_i, L3_MEM_BODY)
  L3_FAST_ALU(L3_ALU2)
  L3_FAST_MEM(L3_MEM2)
#undef L3_ALU2
#undef L3_MEM2
#undef L3_CASE2
#undef L3_CASE
#undef L3_ALU_BODY
#undef L3_MEM_BODY

// Bicc without annul, in sequence; then Cpu::retire_timed() of a Bicc,
// which produces nothing (fast_op).
#define L3_TBCC(target)                                                                \
  {                                                                                    \
    const bool taken = sem::cond_true(d->rd & 15, c.icc);                              \
    branch_wait<true, false>(c, *d, t, taken);                                         \
    t += kTimedCycles[kTkBranch]; /* (fast_op checked it; class_cycles: TseqCounts) */ \
    ++c.ctr.by_class[unsigned(InsnClass::Branch)];                                     \
    ++d;                                                                               \
    if (L3_UNLIKELY(t >= tlim)) {                                                      \
      lpc = L3_PC_OF(d);                                                               \
      lnpc = taken ? lpc - 4 + uint32_t(d[-1].imm) : lpc + 4;                          \
      goto leave;                                                                      \
    }                                                                                  \
    if (taken) {                                                                       \
      target();                                                                        \
      if (kWin && L3_UNLIKELY(d == rec_end)) goto end_t;                               \
      L3_STEP(slot);                                                                   \
    }                                                                                  \
    if (kWin && L3_UNLIKELY(d == rec_end)) goto leave_d;                               \
    L3_STEP(seq);                                                                      \
  }
bcc_s:
  L3_TBCC(L3_TAKEN_TARGET)
bcc_in_s:  // (a target outside a window leaves at fetch_s's bounds test)
  L3_TBCC(L3_TAKEN_IN)
#undef L3_TBCC
branch_s : {  // Bicc with annul, in sequence (in a delay slot, a Bicc goes generic)
  branch_wait<false, false>(c, *d, t);
  const uint32_t pc = L3_PC_OF(d);
  lpc = pc + 4;
  lnpc = pc + 8;
  L3_T_OUT();
  if (sem::bicc_next(*d, c.icc, pc, pc + 4, lpc, lnpc)) c.annul_next();
  c.retire_timed(*d, t);
  c.tctr.class_cycles[d->cls] -= kClassBase[d->cls];  // TseqCounts adds it
  L3_T_IN();
  if (L3_UNLIKELY(t >= tlim)) goto leave;
  goto enter;
}

  L3_SEQ_DECODE();

mem_slow:  // after its issue: the handler, then back through enter
  c.pc = lpc;
  c.npc = lnpc;
  L3_T_OUT();
  ticc0 = c.ctr.by_class[unsigned(InsnClass::Trap)];
  d->fn(c, *d);
  if (L3_UNLIKELY(c.pending_tt != 0)) goto trap;
  lpc = lnpc;
  lnpc += 4;
  c.retire_timed(*d, t);
  c.tctr.class_cycles[d->cls] -= kClassBase[d->cls];  // TseqCounts adds it
  L3_T_IN();
  if (t >= tlim || c.irl > c.irq_thresh || c.code_epoch != epoch || run.written()) goto leave;
  goto enter;

  L3_SEQ_TO_GENERIC();
generic : {
  L3_T_OUT();
  c.issue(*d, t);
  c.pc = lpc;
  c.npc = lnpc;
  c.next_pc = lnpc;
  c.next_npc = lnpc + 4;
  const unsigned cwp0 = c.cwp;
  ticc0 = c.ctr.by_class[unsigned(InsnClass::Trap)];
  d->fn(c, *d);
  if (L3_UNLIKELY(c.pending_tt != 0)) goto trap;
  if (d->cti) {
    lpc = c.next_pc;
    lnpc = c.next_npc;
  } else {
    lpc = lnpc;
    lnpc += 4;
  }
  c.retire_timed(*d, t);
  c.tctr.class_cycles[d->cls] -= kClassBase[d->cls];  // TseqCounts adds it
  if (L3_UNLIKELY((d->tflags & kTfCwp) && c.cwp != cwp0)) c.remap_ready(cwp0);
  L3_T_IN();
  if (t >= tlim || c.irl > c.irq_thresh || c.code_epoch != epoch || run.written()) goto leave;
  goto enter;
}

trap : {  // c.cycles is current (written out before the handler)
  counts.settle(c, c.ctr.by_class[unsigned(InsnClass::Trap)] == ticc0 ? 1 : 0);
  const unsigned tt = c.pending_tt;
  c.pending_tt = 0;
  c.trap_timed(tt);
  pc_io = c.pc;
  npc_io = c.npc;
  return;
}
fetch_error:
  counts.settle(c, 0);
  c.trap_timed(kTtInstrAccess);
  pc_io = c.pc;
  npc_io = c.npc;
  return;
  L3_SEQ_LEAVE();
leave:
  counts.settle(c, 0);
  L3_T_OUT();
  c.pc = pc_io = lpc;
  c.npc = npc_io = lnpc;
#undef L3_T_OUT
#undef L3_T_IN
#undef L3_STAMP_LINE
#undef L3_FETCH
#undef L3_STEP
#undef L3_TSEQ_NEXT
#undef L3_TSLOT_NEXT
}
#undef L3_SEQ_LABELS
#undef L3_SLOT_LABELS
#undef L3_MSEQ_LABELS
#undef L3_MSLOT_LABELS
#undef L3_SEQ_START
#undef L3_PC_OF
#undef L3_TGT_OF
#undef L3_TAKEN_TARGET
#undef L3_TAKEN_IN
#undef L3_SEQ_DECODE
#undef L3_SEQ_TO_GENERIC
#undef L3_SEQ_LEAVE

}  // namespace

template <bool kTimed>
void Cpu::loop_pages() {
  if (L3_UNLIKELY(bp_skip)) {  // resumes from a breakpoint
    if (spans) span_at_pc();
    loop<kTimed, false, true, true>();
  }
  if (broke) return;
  while (cycles < eff_limit) {
    dead_pages.clear();
    if (spans) span_at_pc();  // a step boundary
    CodePage* pg = code_page(pc);
    if (pg) check_page_gen(*pg);
    if (L3_UNLIKELY(!pg || irl > irq_thresh)) {
      // Outside the pages, or an interrupt to take (or held off for one
      // instruction after WRPSR): one step of the generic loop.
      if (!bp_pcs.empty())
        loop<kTimed, false, true, true>();
      else
        loop<kTimed, false, false, true>();
      if (broke) return;
      continue;
    }
    // The run's window: the page, or its part in the open span's window
    // (word-aligned; it holds pc).
    const uint64_t lo = std::max<uint64_t>(pg->base, (uint64_t(span_lo) + 3) & ~uint64_t(3));
    const uint64_t end = std::min<uint64_t>(uint64_t(pg->base) + kCodePageBytes, uint64_t(span_last) + 1);
    const PageRun run(*pg, uint32_t(lo), uint32_t(end - lo));
    uint32_t lpc = pc, lnpc = npc;
    // kWhole (timed): the run is the whole page (no span window inside it),
    // so its length is a constant and the loop keeps one more value in a
    // register. The functional loop gains nothing from it (callgrind).
    // Pages without write generations check their records' tags (in pages
    // with them, the tags of timed mode are run_page_tseq's I-cache stamps).
    const bool whole = run.len == kCodePageBytes;
    if constexpr (kTimed) {
      if (pg->has_bp && !pg->gen)
        run_page_timed<true, false, true>(*this, run, lpc, lnpc);
      else if (pg->has_bp)
        run_page_timed<true, false, false>(*this, run, lpc, lnpc);
      else if (!pg->gen)
        run_page_timed<false, false, true>(*this, run, lpc, lnpc);
      else if (ics() == 3 && !ic_force.thr && is_cacheable(pg->base))  // a fetch leaves its line MRU
        whole ? run_page_tseq<false>(*this, run, lpc, lnpc) : run_page_tseq<true>(*this, run, lpc, lnpc);
      else if (!whole)
        run_page_timed<false, false, false>(*this, run, lpc, lnpc);
      else  // every fetch goes to the bus (or may): nothing for run_page_tseq's line test to skip
        run_page_timed<false, true, false>(*this, run, lpc, lnpc);
    } else {
      if (pg->has_bp && !pg->gen)
        run_page<true, true>(*this, run, lpc, lnpc);
      else if (pg->has_bp)
        run_page<true, false>(*this, run, lpc, lnpc);
      else if (!pg->gen)
        run_page<false, true>(*this, run, lpc, lnpc);
      else if (whole && watch_pages.empty())
        run_page_seq<false>(*this, run, lpc, lnpc);
      else if (whole)
        run_page_seq<true>(*this, run, lpc, lnpc);
      else
        run_page<false, false>(*this, run, lpc, lnpc);
    }
    if (broke) return;
  }
}

template void Cpu::loop_pages<false>();
template void Cpu::loop_pages<true>();

}  // namespace l3vp::leon3
