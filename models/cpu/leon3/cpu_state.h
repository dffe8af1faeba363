// Internal state of the LEON3 core (not part of the public API).
//
// Core::Impl derives from Cpu; the semantic functions (isa/semantics.h) and the
// decoder work on Cpu directly. Everything a semantic function touches per
// instruction is inline here.
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "cache.h"
#include "core.h"
#include "endian.h"  // models/common: be32/be16/put_be32/put_be16
#include "timing.h"

namespace l3vp::leon3 {

struct Cpu;
struct Decoded;
using Handler = void (*)(Cpu& c, const Decoded& d);

// One pre-decoded instruction: the unit of the decoded-instruction cache.
// All fields are derived from the instruction word alone (branch
// displacements are kept relative), so an entry is valid wherever the same
// word is fetched: the cache is indexed by PC and tagged by the word.
struct Decoded {
  Handler fn;
  uint32_t tag;  // the instruction word as it sits in memory (big-endian bytes, no swap)
  int32_t imm;   // simm13 (fmt3, i=1), imm22<<10 (SETHI), disp22*4 (Bicc), disp30*4 (CALL)
  uint8_t rd;    // Bicc/Ticc: cond in bits 3:0, annul in bit 4
  uint8_t rs1;
  uint8_t rs2;
  uint8_t asi;
  uint8_t cls;   // InsnClass
  uint8_t cost;  // cycles (timing::kClassCycles)
  // Timed mode only (set at decode, never re-derived at run time):
  uint8_t tk;        // timing::TKind
  uint8_t tcost;     // base cycles in timed mode (Cpu::tcost_tab[tk])
  uint16_t tflags;   // timing::TFlag
  uint8_t hs1, hs2;  // source registers read at issue (0 when unused: r0 is never pending)
  uint8_t hsl;       // register read one cycle after issue (store data), 0 when none
  // 1 when the handler may change next_pc/next_npc (Bicc, CALL, JMPL, RETT:
  // the only writers); the loop then reloads them, else it steps pc/npc itself.
  uint8_t cti;
  // Index of the handler in the page loop's switch (fast_loop.cpp), 0 when
  // the loop calls `fn` (Cpu::decode_into sets it).
  uint8_t op;
};

// Decoder (isa.cpp).
void decode(uint32_t raw, Decoded& d);
// The page loop's case of a decoded instruction, 0 when it has none (fast_loop.cpp).
uint8_t fast_op(const Decoded& d);
// Mnemonic of an instruction word ("ILLEGAL" when unlisted); debugging/tests.
const char* mnemonic(uint32_t raw);

// Where a row of the instruction table sits in the encoding space, for the
// check that no two rows decode the same word (isa.cpp, at the decoder's
// construction: an extension row in a base row's slot stops the start-up).
struct IsaRowKey {
  const char* name;  // mnemonic
  const char* file;  // the .def file and line of the row
  int line;
  unsigned fmt;  // 1, 2, 3: L3_FMT1/2/3(_SEL); 0: L3_UNLISTED (every unlisted word of op)
  unsigned op;   // 0..3
  int opc;       // op2 (format 2) or op3 (format 3); 0 otherwise
  bool sel;      // an L3_FMT3_SEL row: only words with these rs1/rd
  int rs1, rd;   // L3_ANY (-1): any value
};
// "" when every row fits its format and no two rows decode the same word,
// else a one-line message naming the row (or the first two such rows). Plain
// rows clash on the same op/op2/op3, SEL rows on the same op/op3 with
// overlapping rs1 and rd, L3_UNLISTED rows on the same op; a SEL row refining
// a plain row is no clash (that is what it is for).
std::string isa_table_check(const std::vector<IsaRowKey>& rows);

// Trap types used by the core (hw-reference §7.2).
enum Tt : unsigned {
  kTtInstrAccess = 0x01,
  kTtIllegal = 0x02,
  kTtPrivileged = 0x03,
  kTtFpDisabled = 0x04,
  kTtWinOverflow = 0x05,
  kTtWinUnderflow = 0x06,
  kTtUnaligned = 0x07,
  kTtDataAccess = 0x09,
  kTtTagOverflow = 0x0A,
  kTtCpDisabled = 0x24,
  kTtDivZero = 0x2A,
};

// A DMI window cached for one access kind. Hit test: (addr - base) + len-1
// <= last, in 64-bit arithmetic; base = kNoBase never hits.
struct DmiWin {
  static constexpr uint64_t kNoBase = uint64_t(1) << 40;
  uint64_t base = kNoBase;
  uint64_t last = 0;
  uint8_t* ptr = nullptr;
  uint32_t rlat = 0, wlat = 0;  // timed mode: access latencies of the region
  template <unsigned N>
  uint8_t* hit(uint32_t a) const {
    uint64_t off = uint64_t(a) - base;
    return off + (N - 1) <= last ? ptr + off : nullptr;
  }
  uint8_t* hit_n(uint32_t a, unsigned n) const {
    uint64_t off = uint64_t(a) - base;
    return off + (n - 1) <= last ? ptr + off : nullptr;
  }
};

// A functional data window over a whole DMI region with the watched pages
// in it as one hole [hole_lo, hole_lo + hole_n) (the first to the last):
// run_page_seq's fast loads and stores while watchpoints are set. The
// clipped windows (read_w/write_w: Cpu::clip_window) alternate between the
// two sides of a watched page; this one holds both.
struct HoledWin {
  uint64_t base = DmiWin::kNoBase, last = 0;
  uint8_t* ptr = nullptr;
  uint64_t hole_lo = 0, hole_n = 0;
  template <unsigned N>
  uint8_t* hit(uint32_t a) const {  // (an aligned access lies in one page)
    const uint64_t off = uint64_t(a) - base;
    if (off + (N - 1) > last || uint64_t(a) - hole_lo < hole_n) return nullptr;
    return ptr + off;
  }
};

struct DmiRegion {
  uint32_t start, end;  // inclusive
  uint8_t* ptr;
  bool readable, writable;
  uint32_t rlat = 0, wlat = 0;    // timed mode: access latencies (cycles)
  const uint32_t* gen = nullptr;  // the memory's write generations (common/write_gen.h), or none
  const uint8_t* gen_base = nullptr;
};

// One 4 KiB page of code held in a readable DMI region: a decoded record per
// word (README "Speed structure"). Code that changed is seen at its next
// execution in one of two ways:
// - the memory keeps write generations (common/write_gen.h; `gen` set): the
//   core's own stores mark the records of the words they write stale
//   (Cpu::code_store), and a page whose generation moved (DMA, a debugger, a
//   loader, the core's own bus writes) has all its records made stale before
//   it runs again; a stale record (op kOpStale) decodes its word when it runs;
// - otherwise each record is tagged by its word like the decoded-instruction
//   cache and checked against memory at every execution.
constexpr uint32_t kCodePageBytes = 4096;
constexpr uint32_t kCodePageWords = kCodePageBytes / 4;
constexpr uint8_t kOpStale = 1;  // Decoded::op of a record to decode before it runs
// Decoded::op bit of a code-page record in timed mode: its word is the first
// of an I-cache line (the timed sequential loop checks the I-cache there).
// A record keeps it through decodes (decode_at in fast_loop.cpp) and staleness.
constexpr uint8_t kOpLine = 0x80;
struct CodePage {
  uint32_t base = 0;              // guest address (page-aligned)
  const uint8_t* host = nullptr;  // host address of base
  bool has_bp = false;            // a breakpoint address lies in the page
  const uint32_t* gen = nullptr;  // the page's write generation in its memory, or none (tagged)
  uint32_t gen_seen = 0;          // its value when the records were last made stale
  // and an end record (op kOpEnd in fast_loop.cpp); aligned so that the
  // records of an I-cache line (8 words at most) share an aligned block.
  alignas(256) Decoded recs[kCodePageWords + 1];
};

struct Cpu {
  Cpu(const CoreConfig& cfg, CoreBus& bus);

  // ---- hot state -----------------------------------------------------------
  uint64_t cycles = 0;
  uint64_t eff_limit = 0;  // 0 while a stop (yield, power-down, error) is pending
  uint32_t pc = 0, npc = 4;
  // next_pc/next_npc: set by the loop, overridden by CTIs. Deliberately NOT
  // adjacent: a branch handler stores next_npc alone, and a 64-bit load of an
  // adjacent pair by the loop would stall on store forwarding (measured:
  // about a quarter of the functional loop's time; docs/performance.md).
  uint32_t next_pc = 0;
  unsigned pending_tt = 0;  // trap raised by the current instruction
  uint32_t next_npc = 0;
  unsigned irl = 0;
  // Register pointers of the current window, copied from rtab/wtab by
  // set_cwp(): a register access is one load of the pointer (at a fixed
  // offset in Cpu) and one of the value.
  uint32_t* rr[32] = {};     // read pointers (r0 -> zero)
  uint32_t* wr[32] = {};     // write pointers (r0 -> sink)
  unsigned irq_thresh = 15;  // an interrupt is taken when irl > irq_thresh
  uint64_t irq_inhibit_seq = ~uint64_t(0);

  // PSR fields kept apart
  uint32_t icc = 0;  // N Z V C in bits 3..0
  unsigned pil = 0, cwp = 0;
  bool s = true, ps = true, et = false;
  uint32_t y = 0, wim = 0, tba = 0;
  unsigned tt = 0;
  bool svt = false, dwt = false;
  uint32_t ccr = 0;

  CoreCounters ctr;

  // ---- memory ----------------------------------------------------------------
  CoreBus& bus;
  DmiWin fetch_w, read_w, write_w;
  HoledWin read_hw, write_hw;  // while watch pages clip read_w/write_w
  std::vector<DmiRegion> dmi;
  bool dmi_on = true;

  // ---- register file: 8 globals + 16*NWIN windowed registers ------------------
  CoreConfig cfg;
  unsigned nwin;
  uint32_t wim_mask;
  uint32_t g[8] = {};
  uint32_t zero = 0;  // r0 read location (never written)
  uint32_t sink = 0;  // r0 write location
  std::vector<uint32_t> win;
  std::vector<uint32_t*> rtab, wtab;  // [nwin][32]

  // ---- decoded-instruction cache ------------------------------------------------
  static constexpr unsigned kDecodeEntries = 1u << 14;
  std::vector<Decoded> dcache;
  uint64_t decode_misses = 0;
  Decoded decoded_zero;  // the decode of word 0: what every entry starts as
  // decode() plus what the core adds: the timed cost and the switch index.
  void decode_into(uint32_t word_mem, Decoded& d);
  // The kOpLine bit of the record of the word at pc.
  uint8_t line_bit(uint32_t pc) const { return timed && (pc & ((1u << ic_shift) - 1)) == 0 ? kOpLine : 0; }

  // ---- code pages (fast_loop.cpp: the plain loops of both modes) ---------------
  // Pages by page number; dropped with the DMI windows (reset_dmi_windows),
  // freed only at the page loop's top (a handler may still use its record).
  static constexpr size_t kMaxCodePages = 256;  // 8 MiB of records; then all are dropped
  std::unordered_map<uint32_t, std::unique_ptr<CodePage>> code_pages;
  std::vector<std::unique_ptr<CodePage>> dead_pages;
  CodePage* code_last = nullptr;       // the page of the last lookup
  uint32_t code_nopage = 0xFFFFFFFFu;  // page number last found without a DMI region
  uint64_t code_epoch = 0;             // bumped when the pages are dropped
  CodePage* code_page(uint32_t a) {
    if (code_last && a - code_last->base < kCodePageBytes) return code_last;
    return code_page_slow(a);
  }
  CodePage* code_page_slow(uint32_t a);
  void drop_code_pages();
  // Pages with records, by page number (1 byte per 4 KiB of the address
  // space; calloc: untouched zero pages until a page is marked).
  struct FreeDeleter {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  static uint8_t* alloc_code_map() {
    if (auto* p = static_cast<uint8_t*>(std::calloc(size_t(1) << 20, 1))) return p;
    throw std::bad_alloc();
  }
  std::unique_ptr<uint8_t[], FreeDeleter> code_map{alloc_code_map()};
  // A store by the core of n <= 8 aligned bytes at a, through a DMI pointer
  // (the memory does not see it): the records of the words become stale.
  void code_store(uint32_t a, unsigned n) {
    if (__builtin_expect(code_map[a >> 12] != 0, 0)) code_store_slow(a, n);
  }
  void code_store_slow(uint32_t a, unsigned n);
  // Makes every record of the page stale when its memory saw a write.
  static void check_page_gen(CodePage& pg);
  bool page_has_break(uint32_t base) const;  // a breakpoint address in [base, base + 4 KiB)
  void mark_break_pages();
  // The plain loop over code pages (fast_loop.cpp), either mode.
  template <bool kTimed>
  void loop_pages();

  // ---- run control ---------------------------------------------------------------
  uint64_t limit = 0;
  bool yield = false, pd = false, error = false;
  unsigned err_tt = 0;
  uint32_t err_pc = 0, err_npc = 0;

  // ---- helpers used by the semantics --------------------------------------------
  uint32_t R(unsigned r) const { return *rr[r]; }
  void W(unsigned r, uint32_t v) { *wr[r] = v; }
  void trap(unsigned t) { pending_tt = t; }
  uint8_t data_asi() const { return s ? 0xB : 0xA; }
  uint32_t psr() const {
    return 0xF3000000u | (icc << 20) | (pil << 8) | (unsigned(s) << 7) | (unsigned(ps) << 6) |
           (unsigned(et) << 5) | cwp;
  }
  uint32_t asr17() const;
  void set_cwp(unsigned w) {
    cwp = w;
    std::memcpy(rr, &rtab[w * 32], sizeof rr);
    std::memcpy(wr, &wtab[w * 32], sizeof wr);
  }
  // Every change of PIL or ET goes through here (the psr probe publishes it).
  void update_irq() {
    irq_thresh = et ? (pil == 15 ? 14 : pil) : 15;
    if (__builtin_expect(probes.psr.has_listeners(), 0))
      probes.psr.notify(PsrEvent{cycles, uint8_t(pil), et});
  }
  bool wake_ok() const { return irl != 0 && (irl == 15 || irl > pil); }
  void refresh_limit() { eff_limit = (yield || pd || error || watch_stop) ? 0 : limit; }
  void annul_next() {
    ++ctr.annulled;
    cycles += timing::kAnnulledCycles;
  }
  void take_interrupt();
  void write_psr(uint32_t v);  // no checks; CWP taken modulo NWIN

  // Data accesses with the normal ASI: DMI fast path, bus otherwise. On a bus
  // error they raise data_access_exception and return false.
  // Timed mode never fills read_w/write_w; its inline fast path is a line
  // that is MRU in its D-cache set (dc_fast) with a DMI window
  // (tread_w/twrite_w), the same test read_timed/write_timed start with, so
  // the result and every counter are the same as on the out-of-line path. In
  // functional mode the MRU table stays empty: that test never passes.
  template <unsigned N>
  bool read(uint32_t a, uint8_t* out) {
    if (uint8_t* p = read_w.hit<N>(a)) {
      std::memcpy(out, p, N);
      return true;
    }
    if (dc_fast(a >> dc_shift))
      if (uint8_t* p = tread_w.hit<N>(a)) {
        std::memcpy(out, p, N);
        ++tctr.dc_read_hits;
        return true;
      }
    return read_slow(a, data_asi(), out, N);
  }
  template <unsigned N>
  bool write(uint32_t a, const uint8_t* in) {
    if (uint8_t* p = write_w.hit<N>(a)) {
      std::memcpy(p, in, N);
      code_store(a, N);
      return true;
    }
    if (dc_fast(a >> dc_shift))
      if (uint8_t* p = twrite_w.hit<N>(a)) {  // = write_timed's DMI path, cached line
        wait_write_buffer();
        std::memcpy(p, in, N);
        code_store(a, N);
        uint64_t drain = twrite_w.wlat + (N > 4 ? burst_beat : 0);
        wb_free = cycles + drain + arb_dmi(drain, CoreBus::Kind::Write, a, N);
        ++tctr.dc_write_hits;
        ++tctr.ahb_writes;
        return true;
      }
    return write_slow(a, data_asi(), in, N);
  }
  bool read_slow(uint32_t a, uint8_t asi, uint8_t* out, unsigned n);
  // Timed-mode data paths (every data access comes here in timed mode: the
  // read_w/write_w fast windows stay empty). bus_only: ASI 1 forced miss.
  bool read_timed(uint32_t a, uint8_t asi, uint8_t* out, unsigned n, bool cached, bool bus_only);
  bool write_timed(uint32_t a, uint8_t asi, const uint8_t* in, unsigned n, bool bus_only);
  bool write_slow(uint32_t a, uint8_t asi, const uint8_t* in, unsigned n);
  // Alternate-space accesses (LDA/STA family), hw-reference §7.5.
  bool alt_read(uint32_t a, uint8_t asi, uint8_t* out, unsigned n);
  bool alt_write(uint32_t a, uint8_t asi, const uint8_t* in, unsigned n);
  uint32_t sysreg_read(uint32_t a) const;
  void sysreg_write(uint32_t a, uint32_t v);

  // Fetches the word at `a` in memory byte order (compare with Decoded::tag;
  // swap with __builtin_bswap32 for the instruction value).
  bool fetch(uint32_t a, uint32_t& w) {
    if (uint8_t* p = fetch_w.hit<4>(a)) {
      std::memcpy(&w, p, 4);
      return true;
    }
    return fetch_slow(a, w);
  }
  bool fetch_slow(uint32_t a, uint32_t& w);
  // Instructions retired so far (sum over the classes; the loop only counts
  // per class to keep one increment per instruction).
  uint64_t retired() const {
    uint64_t n = 0;
    for (uint64_t v : ctr.by_class) n += v;
    return n;
  }
  void reset_dmi_windows() {
    drop_code_pages();
    fetch_w = DmiWin();
    read_w = DmiWin();
    write_w = DmiWin();
    tread_w = DmiWin();
    twrite_w = DmiWin();
    read_hw = HoledWin();
    write_hw = HoledWin();
  }
  const DmiRegion* find_dmi(uint32_t a, unsigned n, bool for_write) const;
  // Host pointer for [a, a+n) through the window `w`, reloading the window
  // from the DMI regions when it misses; nullptr when no region covers it.
  uint8_t* dmi_ptr(DmiWin& w, uint32_t a, unsigned n, bool for_write);
  // A holed window over region r and the watch pages in it (dmi_ptr).
  void load_holed(HoledWin& h, const DmiRegion& r) const;

  // ---- timed mode (CoreConfig::timed; README "Timed mode") ----------------------
  // Pipeline time is counted in "slots": cycles minus hold cycles (cache
  // misses, write-buffer and bus waits freeze the whole pipeline, so they do
  // not separate a producer from its consumer). rdy[r] is the first slot at
  // which window-relative register r can be read without an interlock.
  static constexpr uint32_t kNoLine = 0xFFFFFFFFu;
  bool timed = false;
  unsigned lddel = 1;
  bool bpred = true, mul_pipe = true;
  uint64_t trap_cost = 1;
  uint32_t burst_beat = 1;  // cfg.timing.burst_beat_cycles (hot copy)
  uint8_t tcost_tab[timing::kTkCount] = {};
  CoreTimingCounters tctr;
  uint64_t hold = 0;
  uint64_t rdy[32] = {};
  // An upper bound of rdy[]: every write raises it, remaps and resets only
  // lower entries. rdy_hi <= t means no register is pending at slot t (the
  // page loop's one-compare interlock pre-check).
  uint64_t rdy_hi = 0;
  uint32_t mul_regs = 0;  // registers whose pending value comes from the multiplier
  uint64_t icc_rdy = 0, y_rdy = 0;
  bool icc_nobp = false;
  uint64_t wb_free = 0;           // cycle at which the write buffer is empty
  CacheModel ic_model, dc_model;  // tag-only I- and D-cache
  unsigned ic_shift = 5, dc_shift = 4;
  // Fast-path tables, one entry per cache set: the line that was last hit or
  // filled in that set (kNoLine: none). Invariant: mru[set] == line implies
  // the line is valid, its cache is enabled or frozen, it is cacheable, and
  // it is the set's most recently used way, so a hit on it changes no
  // replacement state (exactly what CacheModel::lookup would do). Every
  // lookup/fill goes through set_*_mru; anything else that may change tags
  // or CCR (flushes, CCR writes, snoops, reset) clears the table.
  // A cache that injects misses (ic_force/dc_force) never records a line:
  // its table stays empty, so every access takes the slow path, where the
  // draw is made, and the inline fast paths need no test of their own.
  std::vector<uint32_t> ic_mru_v, dc_mru_v;
  uint32_t* ic_mru = nullptr;
  uint32_t* dc_mru = nullptr;
  uint32_t ic_smask = 0, dc_smask = 0;
  bool ic_fast(uint32_t line) const { return ic_mru[line & ic_smask] == line; }
  bool dc_fast(uint32_t line) const { return dc_mru[line & dc_smask] == line; }
  void set_ic_mru(uint32_t line) {
    if (ic_force.thr) return;
    uint32_t& m = ic_mru[line & ic_smask];
    if (m != line) {
      m = line;
      next_ic_epoch();
    }
  }
  // Changes whenever ic_mru does; never 0. run_page_tseq stamps the records
  // of a line with it when it finds the line MRU in its set (their tags, in
  // pages with write generations): while the stamp is current, it still is.
  uint32_t ic_epoch = 1;
  void next_ic_epoch() {
    if (__builtin_expect(++ic_epoch == 0, 0)) restart_ic_epoch();
  }
  void restart_ic_epoch();  // after the wrap: every stamp to 0, the epoch to 1
  void set_dc_mru(uint32_t line) {
    if (!dc_force.thr) dc_mru[line & dc_smask] = line;
  }
  void forget_ic() {
    std::fill(ic_mru_v.begin(), ic_mru_v.end(), kNoLine);
    next_ic_epoch();
  }
  void forget_dc() { std::fill(dc_mru_v.begin(), dc_mru_v.end(), kNoLine); }
  DmiWin tread_w, twrite_w;  // timed-mode data DMI windows
  // AHB arbitration side-band (Core::set_bus_arbitration, set_bus_reporting).
  static constexpr uint8_t kArbArbitrate = 1, kArbReport = 2, kArbCount = 4;
  uint32_t count_base = 0;  // kArbCount: the range split in tctr.dmi_beats
  uint64_t count_size = 0;
  uint8_t arb_mode = 0;           // kArb* bits; 0 = side-band off
  bool arb_mine = false;          // the latest bus occupation is the core's own DMI transaction
  uint64_t arb_s = 0, arb_e = 0;  // ... and its interval [arb_s, arb_e) in cycles
  // A real AHB transaction of `dur` cycles served from DMI starts now:
  // returns the arbitration wait (0 unless another master used the bus since
  // the core's previous transaction and still holds it). k/a/n describe it
  // for the report (kArbReport), which takes the out-of-line path, so
  // arbitration alone costs what it did before reporting existed.
  uint64_t arb_dmi(uint64_t dur, CoreBus::Kind k, uint32_t a, unsigned n) {
    if (!arb_mode) return 0;
    if (__builtin_expect(arb_mode != kArbArbitrate, 0)) return arb_dmi_report(dur, k, a, n);
    return arb_own(dur);
  }
  // The arbitration of a DMI-served transaction (kArbArbitrate): asks the bus
  // only when another master was on it since the core's previous one, and
  // records the transaction as the bus's latest occupation.
  uint64_t arb_own(uint64_t dur) {
    uint64_t w = 0;
    if (!arb_mine) {
      w = bus.arbitrate(cycles, dur);
      arb_mine = true;
    }
    arb_s = cycles + w;
    arb_e = arb_s + dur;
    return w;
  }
  uint64_t arb_dmi_report(uint64_t dur, CoreBus::Kind k, uint32_t a, unsigned n);
  std::vector<AddrRange> cacheable;
  // Miss injection of one cache (CacheConfig::force_miss_rate; README
  // "Forced misses"): a read hit becomes a miss when the next 32-bit draw is
  // below thr = round(rate * 2^32) (0 = off, 2^32 = every hit). The
  // generator is SplitMix64, seeded from the cache's seed mixed with a
  // per-cache constant, so it is independent of the random-replacement
  // stream and of the other cache; reset() reseeds it. One draw per lookup
  // hit, so the sequence depends only on the program's accesses (not on
  // DMI, the quantum or probes).
  struct MissInjector {
    uint64_t thr = 0;
    uint64_t seed = 0;
    uint64_t state = 0;
    void reset() { state = seed; }
    bool draw() {
      uint64_t z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      return (z >> 32) < thr;
    }
  };
  MissInjector ic_force, dc_force;

  unsigned ics() const { return ccr & 3; }  // 3 enabled, 1 frozen, x0 disabled
  unsigned dcs() const { return (ccr >> 2) & 3; }
  bool is_cacheable(uint32_t a) const {
    for (const AddrRange& r : cacheable)
      if (a >= r.first && a <= r.last) return true;
    return false;
  }
  // The D-cache counter of a store that is not a forced miss (write-through,
  // no allocation on a write miss: the tags do not change).
  [[gnu::always_inline]] void count_dc_write(uint32_t a) {
    if (dc_fast(a >> dc_shift))  // MRU line of its set: valid
      ++tctr.dc_write_hits;
    else
      count_dc_write_slow(a);
  }
  void count_dc_write_slow(uint32_t a) {
    if ((dcs() & 1) && is_cacheable(a))
      ++(dc_model.contains(a) ? tctr.dc_write_hits : tctr.dc_write_misses);
    else
      ++tctr.dc_uncached_writes;
  }
  void add_hold(uint64_t n, uint64_t& bucket) {
    cycles += n;
    hold += n;
    bucket += n;
  }
  // Waits until the write buffer is empty (before a store or any memory read).
  void wait_write_buffer() {
    if (wb_free > cycles) {
      ++tctr.wb_stalls;
      add_hold(wb_free - cycles, tctr.stall_write_buffer);
    }
  }
  // Timed mode: data of a cacheable hit (DMI window, DMI region or
  // CoreBus::peek; no bus transaction, no latency).
  void peek_mem(DmiWin& w, uint32_t a, uint8_t* out, unsigned n, CoreBus::Kind k, uint8_t asi);
  // Timed mode: one real AHB read transaction, from DMI (dmi = true and a
  // region covers it; arbitration through arb_dmi) or the bus: the `n`
  // bytes at `a`, or with line != 0 a fill of the line-aligned `line` bytes
  // holding them (the n bytes at `a` are copied to out). `lat` = its latency
  // incl. any arbitration wait. Returns false on a bus error.
  bool ahb_read(CoreBus::Kind k, DmiWin& w, uint32_t a, uint8_t asi, uint8_t* out, unsigned n, bool dmi,
                unsigned line, uint64_t& lat);
  uint64_t dmi_read_cost(uint32_t rlat, unsigned len) const {
    return rlat + uint64_t(cfg.timing.burst_beat_cycles) * (len > 4 ? len / 4 - 1 : 0);
  }
  bool fetch_t(uint32_t a, uint32_t& w) {
    if (ic_fast(a >> ic_shift))
      if (uint8_t* p = fetch_w.hit<4>(a)) {
        std::memcpy(&w, p, 4);
        ++tctr.ic_hits;
        return true;
      }
    return fetch_t_slow(a, w);
  }
  // Every fetch but an I-cache hit of the MRU line from the fetch window.
  bool fetch_t_slow(uint32_t a, uint32_t& w) {
    if (!(ics() & 1) || !is_cacheable(a)) return fetch_uncached(a, w);
    return fetch_cached(a, w);
  }
  bool fetch_cached(uint32_t a, uint32_t& w);
  bool fetch_uncached(uint32_t a, uint32_t& w);
  uint64_t interlock(const Decoded& d, uint64_t t);
  // Before the instruction `d` issues at slot t: its interlock stalls.
  // interlock() returns 0 and counts nothing unless one of these holds (a
  // conditional Bicc can only wait for icc that is not ready yet; rdy_hi
  // <= t: no register is pending), so it is called only then.
  [[gnu::always_inline]] void issue(const Decoded& d, uint64_t& t) {
    using namespace timing;
    if (__builtin_expect((rdy_hi > t && (rdy[d.hs1] > t || rdy[d.hs2] > t || rdy[d.hsl] > t + 1)) ||
                             (d.tflags & (kTfIccHold | kTfRY | kTfLdd)) ||
                             ((d.tflags & kTfBicc) && icc_rdy > t),
                         0)) {
      const uint64_t st = interlock(d, t);
      cycles += st;
      t += st;
    }
  }
  // After the instruction `d`, issued at slot t, retired: its timed cost and
  // the ready times of what it produces.
  [[gnu::always_inline]] void retire_timed(const Decoded& d, uint64_t t) {
    using namespace timing;
    cycles += d.tcost;
    tctr.class_cycles[d.cls] += d.tcost;
    ++ctr.by_class[d.cls];
    if (d.tflags & (kTfLoad | kTfMul | kTfWIcc | kTfWY)) produce(d, t);
  }
  // Timed trap entry: trap_cost replaces the instruction's own cost.
  void trap_timed(unsigned t) {
    cycles += trap_cost;
    tctr.trap_cycles += trap_cost;
    enter_trap(t);
  }
  void produce(const Decoded& d, uint64_t t) {
    using namespace timing;
    uint16_t f = d.tflags;
    if (f & kTfLoad) {
      uint64_t r = t + 1 + lddel;
      if (f & kTfLdd) {
        set_rdy(d.rd, r);
        set_rdy(d.rd | 1, r + 1);
      } else {
        set_rdy(d.rd, r);
      }
    }
    if ((f & kTfMul) && mul_pipe && d.rd) {
      rdy[d.rd] = t + 2;
      rdy_hi = std::max(rdy_hi, t + 2);
      mul_regs |= 1u << d.rd;
    }
    if (f & kTfWIcc) {
      icc_rdy = t + d.tcost + 2 + ((f & kTfMul) && mul_pipe ? 1 : 0);
      icc_nobp = (f & kTfNoBp) != 0;
    }
    if (f & kTfWY) y_rdy = t + d.tcost + 2;
  }
  [[gnu::always_inline]] void set_rdy(unsigned r, uint64_t v) {
    if (r == 0) return;
    rdy[r] = v;
    rdy_hi = std::max(rdy_hi, v);
    mul_regs &= ~(1u << r);
  }
  void remap_ready(unsigned old_cwp);
  void reset_timing();
  void flush_icache();
  void flush_dcache();
  void flush_caches() {  // FLUSH instruction: both caches entirely
    flush_icache();
    flush_dcache();
  }

  // Trap entry (or error mode when ET=0) for trap type t at the current PC/nPC.
  void enter_trap(unsigned t);

  // ---- probes (Core::probes; README "Probes") ------------------------------------
  // Kept behind the hot state: the plain loop never touches them.
  CoreProbes probes;
  // Observed loop: the step in progress and the counters at its start.
  StepRecord obs;
  bool obs_open = false;
  uint64_t obs_ticc = 0, obs_traps = 0, obs_ints = 0, obs_annul = 0;
  uint64_t obs_ich = 0, obs_icm = 0, obs_dch = 0, obs_dcm = 0;
  bool obs_err = false;
  // Core::request_break(): the observed loop stops before the instruction of
  // the current (or next) execute event, without executing or charging it.
  bool brk = false;
  bool broke = false;  // the run() in progress stopped for brk
  // Core::set_watches(): data watchpoints. Their pages get no data DMI
  // window (clip_window), so every access to them takes read_slow/
  // write_slow, which call watch_check(); a hit ends the loop after the
  // instruction (watch_stop), and run() reports it as a Break unless the
  // instruction trapped.
  struct WatchRange {
    uint32_t lo, hi;  // inclusive
    bool on_read, on_write;
  };
  std::vector<WatchRange> watches;
  std::vector<std::pair<uint32_t, uint32_t>> watch_pages;  // [first, last] bytes of whole pages, sorted
  bool watch_stop = false;
  int watch_hit = -1;        // index into watches of the last stop's hit
  uint64_t watch_traps = 0;  // ctr.traps when the hit was seen
  void watch_check(uint32_t a, unsigned n, bool write) {
    if (__builtin_expect(!watches.empty(), 0)) watch_check_slow(a, n, write);
  }
  void watch_check_slow(uint32_t a, unsigned n, bool write);
  // Narrows a data window just loaded for [a, a+n) to the pages around it
  // that hold no watchpoint; false if [a, a+n) touches a watched page.
  bool clip_window(DmiWin& w, uint32_t a, unsigned n) const;
  // Core::set_break_pcs(): the loop stops before an instruction at one of
  // these addresses (sorted); bp_filter has bit (pc >> 2) % kBpFilterBits of
  // each, so a PC with a clear bit costs one load and test (the plain loop's
  // kBreaks variant). bp_skip: the first instruction checked, if at
  // bp_skip_pc, runs (a debugger resumes from a breakpoint).
  static constexpr unsigned kBpFilterBits = 1u << 12;
  std::vector<uint32_t> bp_pcs;
  std::vector<uint64_t> bp_filter = std::vector<uint64_t>(kBpFilterBits / 64);
  bool bp_skip = false;
  uint32_t bp_skip_pc = 0;
  static uint32_t bp_bit(uint32_t a) { return (a >> 2) & (kBpFilterBits - 1); }
  bool bp_filter_hit(uint32_t a) const {
    const uint32_t b = bp_bit(a);
    return (bp_filter[b >> 6] >> (b & 63)) & 1;
  }
  // Whether the instruction at `a` is a breakpoint to stop at (consumes the skip).
  bool at_break(uint32_t a) {
    const bool skip = bp_skip && a == bp_skip_pc;
    bp_skip = false;
    return !skip && std::binary_search(bp_pcs.begin(), bp_pcs.end(), a);
  }
  // Core::set_span_listener(): the open span's window [span_lo, span_last]
  // (the whole space without a listener, so that the page loops' window is
  // their page) and the counters at its start.
  SpanListener* spans = nullptr;
  uint32_t span_lo = 0, span_last = 0xFFFFFFFFu;
  bool span_open = false;
  SpanRecord span0;  // pc; cycles, instructions, ic_misses, dc_misses at the start
  // At a step boundary: keeps the open span while pc is in its window,
  // otherwise closes it and opens one at pc.
  void span_at_pc() {
    if (span_open && pc - span_lo <= span_last - span_lo) return;
    span_switch();
  }
  void span_switch();
  // Publishes the open span (if any step happened in it) and closes it.
  void span_close(bool last);
  uint64_t pd_idle0 = 0;  // idle_cycles when the current power-down began (PowerEvent)
  // Publishes the step in progress (if any); `last`: the loop ends after it.
  void obs_close(bool last = false);
  // Publishes the step in progress and opens one at the current PC.
  void obs_begin() {
    if (obs_open) obs_close();
    obs_open = true;
    // Field by field (obs_close sets the others): assigning a fresh
    // StepRecord goes through a stack temporary whose narrow stores stall the
    // wide reload (store forwarding).
    obs.pc = pc;
    obs.start_cycle = cycles;
    obs.word = 0;
    obs.cls = InsnClass::Count;
    obs.retired = 0;
    obs.tt = 0;
    obs_ticc = ctr.by_class[unsigned(InsnClass::Trap)];
    obs_traps = ctr.traps;
    obs_ints = ctr.interrupts;
    obs_annul = ctr.annulled;
    obs_ich = tctr.ic_hits;
    obs_icm = tctr.ic_misses;
    obs_dch = tctr.dc_read_hits;
    obs_dcm = tctr.dc_read_misses;
    obs_err = error;
  }

  // The run loop: kTimed = timed mode, kObserved = publish the step and
  // execute probes (README "Probes"), kBreaks = stop at bp_pcs (the
  // observed loop checks them whenever there are any).
  // loop<kTimed, false, false> is the plain loop.
  // kSingle: one iteration only (the page loop's step outside its pages).
  template <bool kTimed, bool kObserved, bool kBreaks = false, bool kSingle = false>
  void loop();
};

}  // namespace l3vp::leon3
