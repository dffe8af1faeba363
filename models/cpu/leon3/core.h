// LEON3 (SPARC V8) integer-unit instruction-set simulator: the pure C++ core.
//
// The core has no SystemC dependency so it can be unit-tested directly. It
// talks to the outside through CoreBus (memory accesses, interrupt
// acknowledge); the SystemC/TLM-2.0 wrapper (leon3_tlm.h) implements CoreBus on
// an AHB initiator socket with DMI and a quantum keeper.
//
// Time: the core counts CPU clock cycles (cycles()). run() executes whole
// instructions until cycles() reaches the cycle limit or something stops it.
#pragma once
#include <cstdint>
#include <optional>
#include <cstdio>
#include <memory>
#include <vector>

#include "probe.h"  // models/common

namespace l3vp::leon3 {

// Instruction classes counted for statistics and (later) timing/energy.
enum class InsnClass : unsigned {
  Alu = 0,      // arithmetic, logic, shifts, SETHI, tagged, MULScc, RD/WR state regs
  Load,         // all loads incl. LDD and LDA
  Store,        // all stores incl. STD, STA; LDSTUB and SWAP are counted as Store
  Branch,       // Bicc (taken or not, annulled or not)
  CallJmpl,     // CALL, JMPL, RETT
  Mul,          // UMUL/SMUL(cc)
  Div,          // UDIV/SDIV(cc)
  SaveRestore,  // SAVE, RESTORE
  Trap,         // Ticc (taken or not)
  Other,        // FLUSH, STBAR, UNIMP/illegal, FP/CP ops that trap, ...
  Count
};
const char* insn_class_name(InsnClass c);

// ---- timed mode (opt-in, CoreConfig::timed; README "Timed mode") -------------

// Cache replacement policy (hw-reference §7.4). LRR needs exactly 2 ways.
enum class CacheRepl : uint8_t { Lru, Lrr, Random };

// Geometry of one cache. The model keeps tags and valid bits only: data is
// always read from memory (DMI or bus), so caches change timing, never results.
struct CacheConfig {
  unsigned ways = 1;         // 1..4
  unsigned way_kib = 4;      // KiB per way: 1, 2, 4, ..., 256
  unsigned line_bytes = 16;  // 16 or 32
  CacheRepl repl = CacheRepl::Lru;
  uint32_t seed = 1;   // seed of the deterministic generator (CacheRepl::Random)
  bool snoop = false;  // snooping implemented (D-cache; active when CCR.DS = 1)
  // Miss injection (README "Forced misses"): the fraction 0..1 of read hits
  // (I-cache fetches, D-cache loads) turned into misses, drawn from a
  // generator seeded from `seed`. 0 = off; non-zero disables the fast path.
  double force_miss_rate = 0;
};

// Multiplier options of hw-reference §7.3.
enum class MulType : uint8_t {
  Pipelined32x32,  // template: issue 1 cycle, 2-cycle latency (+1 if the next insn uses rd)
  Iter16x16,       // 4 cycles
  Pipelined16x16,  // 5 cycles
};

struct TimingConfig {
  unsigned load_delay = 1;        // LDDEL: 1 or 2
  bool branch_prediction = true;  // CFG_BP: Bicc after an icc write predicted taken
  MulType mul = MulType::Pipelined32x32;
  unsigned div_cycles = 35;         // UDIV/SDIV(cc)
  unsigned trap_cycles = 5;         // a taken trap (incl. interrupts), replaces the insn's cost
  unsigned icache_miss_cycles = 3;  // fixed overhead of an instruction fetch from memory
  unsigned dcache_miss_cycles = 3;  // fixed overhead of a data read from memory
  unsigned burst_beat_cycles = 1;   // per additional 32-bit beat of a DMI burst
};

struct AddrRange {
  uint32_t first, last;  // inclusive
};

struct CoreConfig {
  unsigned nwin = 8;          // register windows, 2..32
  uint32_t reset_pc = 0;      // PC after reset (nPC = PC + 4)
  unsigned cpu_index = 0;     // %asr17.INDEX
  unsigned nwatchpoints = 4;  // %asr17.NWP (watchpoints themselves not modelled)
  bool tagged_ops = true;     // TADDcc/TSUBcc(TV) implemented (notag=0)

  // Cycle-approximate mode: LEON3 pipeline timing, interlocks, caches and the
  // write buffer. false = functional timing (1 cycle per instruction + bus
  // latency), the default. Fixed at construction.
  bool timed = false;
  TimingConfig timing;
  CacheConfig icache{2, 4, 32, CacheRepl::Lru, 1, false};  // template: 2 x 4 KiB, 32 B, LRU
  CacheConfig dcache{1, 4, 16, CacheRepl::Lru, 1, true};   // template: 1 x 4 KiB, 16 B, snoop
  // Cacheable areas (AHB P&P "C" bit); everything else bypasses the caches.
  std::vector<AddrRange> cacheable{{0x00000000, 0x1FFFFFFF}, {0x40000000, 0x7FFFFFFF}};
  bool mmu_present = true;  // M bit of the cache configuration registers (no MMU modelled)
};

// Stop reasons of Core::run().
enum class StopReason {
  CycleLimit,  // cycles() >= limit
  Yield,       // request_yield() was called (e.g. by the bus after a device access)
  PowerDown,   // %asr19 write: no instruction until an interrupt (see wake rules)
  ErrorMode,   // trap with ET=0: processor halted (see error_tt(), error_pc())
  Break,       // request_break(): stopped before an instruction (pc/npc point at it)
};

// Memory interface of the core.
class CoreBus {
 public:
  enum class Kind : uint8_t { Fetch, Read, Write };
  virtual ~CoreBus() = default;
  // One access of `len` bytes (1, 2, 4 or 8; naturally aligned) at `addr`.
  // In timed mode a cache line fill is one burst access of the line size
  // (16 or 32 bytes, line-aligned, kind Fetch or Read); its data is discarded.
  // Data is in target byte order (big-endian). `asi` is the SPARC address
  // space identifier (0x8/0x9 fetch, 0xA/0xB data, 0x1 forced cache miss).
  // Adds the access latency in CPU cycles to `cycles`. Returns false on a bus
  // error (the core raises instruction_access_exception/data_access_exception).
  virtual bool access(Kind kind, uint32_t addr, uint8_t* data, unsigned len, uint8_t asi,
                      uint64_t& cycles) = 0;
  // The core took interrupt trap `level` (IRQMP acknowledge).
  virtual void intack(unsigned level) {}
  // Timed mode, no DMI: data of a cacheable access that hits in a cache.
  // A hit occupies no bus cycle on hardware, so this must be a side-effect
  // free debug read (TLM transport_dbg), not a bus transaction. Returns false
  // when the target does not support it; the core then falls back to
  // access() for the data (its latency is ignored, as for any hit).
  virtual bool peek(uint32_t addr, uint8_t* data, unsigned len) { return false; }
  // Timed mode with the arbitration side-band on (Core::set_bus_arbitration):
  // the core served a real AHB transaction (line fill, uncached read, write-
  // buffer drain) from DMI, starting at CPU cycle `start` and lasting `dur`
  // cycles, and another master accessed the bus since the core's previous
  // transaction. Returns the arbitration wait in cycles (the transaction
  // then occupies [start + wait, start + wait + dur)).
  virtual uint64_t arbitrate(uint64_t start, uint64_t dur) { return 0; }
  // Timed mode with Core::set_bus_reporting(true): one real AHB transaction
  // of the core served from DMI (line fill, uncached or forced-miss read,
  // write-buffer drain), reported when it is issued so that the bus can
  // publish it like a routed one. Times in CPU cycles.
  struct Transaction {
    Kind kind;
    uint32_t addr;   // first byte (a line fill: the line address)
    unsigned bytes;  // 1..8, or the line size of a fill
    uint64_t start;  // cycle the transfer starts (after the arbitration wait)
    uint64_t wait;   // arbitration wait before it (cycles)
    uint64_t dur;    // its duration (cycles): [start, start + dur) on the bus
  };
  virtual void dmi_transaction(const Transaction& t) {}
};

// ---- probes (README "Probes"; models/common/probe.h) -------------------------

// One loop step of the core: an executed instruction (with its annulled
// delay slot, if it annulled one), an instruction that trapped (incl. one
// whose fetch failed), or an interrupt entry. Published on
// CoreProbes::step after the step, in execution order, only by the observed
// loop (Core::run() picks it when a step or execute probe has listeners).
struct StepRecord {
  uint64_t start_cycle = 0;          // cycles() when the step began
  uint64_t cycles = 0;               // what it took: pipeline cost, interlocks, cache misses, bus
                                     // latency, write-buffer waits, trap entry; never idle cycles
  uint32_t pc = 0;                   // PC of the instruction (interrupt: the interrupted PC)
  uint32_t word = 0;                 // the instruction word; 0 when none was fetched (interrupt,
                                     // instruction_access_exception)
  InsnClass cls = InsnClass::Count;  // its class; Count when none was fetched
  uint8_t retired = 0;               // instructions retired by the step (0 or 1)
  bool annulled = false;             // the step annulled its delay slot (its cycle is counted here)
  bool trapped = false;              // a trap was taken (or error mode entered) in this step
  bool interrupt = false;            // ... and it was an interrupt (tt = 0x10 + level)
  uint8_t tt = 0;                    // trap type when trapped
  // Timed mode only (0 in functional mode): cache outcomes of this step.
  uint16_t ic_hits = 0, ic_misses = 0;  // instruction fetch (0/1 each)
  uint16_t dc_hits = 0, dc_misses = 0;  // D-cache read hits / misses (LDD, SWAP: at most 2)
  uint32_t next_pc = 0;                 // the PC after the step: where the next step begins (the core's pc())
  bool last = false;  // the loop stops after this step (Core::run() returns before the next one)
};

// The core is about to execute the instruction at pc (before its fetch; not
// for annulled slots, not for interrupt entries). The core's registers,
// PSR, WIM and Y (Core accessors) hold the state before the instruction:
// what the text trace prints. Published by the observed loop only.
struct ExecuteEvent {
  uint32_t pc = 0, npc = 0;
  uint64_t cycle = 0;  // cycles() at that point
};

// A span: consecutive loop steps whose PCs lie in one window of the
// SpanListener (Core::set_span_listener), summed. The profiler's per-function
// attribution at the plain loop's speed: the loop checks the window only
// where it checks its code page's bounds, and publishes when the PC leaves
// it (README "Spans").
struct SpanRecord {
  uint32_t pc = 0;       // PC of the first step
  uint32_t next_pc = 0;  // where the next step begins (the core's pc())
  uint64_t cycles = 0;   // the steps' StepRecord::cycles, summed (never idle cycles)
  uint64_t instructions = 0, ic_misses = 0, dc_misses = 0;  // ... their retired, ic_misses, dc_misses
  bool last = false;  // the loop ends after it (run() returns before the next step)
};

class SpanListener {
 public:
  virtual ~SpanListener() = default;
  // The window [lo, last] (inclusive, contains pc) of PCs whose steps are
  // summed into one span with a step at pc. A window that does not hold pc
  // is taken as [pc, pc] (the core makes progress whatever it gets).
  virtual void window(uint32_t pc, uint32_t& lo, uint32_t& last) = 0;
  // A span ended: the PC left its window, a trap or interrupt took it
  // elsewhere, or the loop ended (last).
  virtual void span(const SpanRecord& s) = 0;
};

// Power-down (%asr19 write) entered, or left because an interrupt woke the
// core. Cycle counts: Leon3::time_of() converts them to simulated time.
struct PowerEvent {
  bool enter = false;
  uint64_t cycle = 0;        // cycles() at the event (leave: idle cycles already added)
  uint64_t idle_cycles = 0;  // leave: idle cycles of this power-down
};

// A trap was taken (or error mode entered): the PSR, PC and TBR now hold
// the handler's state. cycle: cycles() once trap entry is done (the first
// handler instruction may issue then).
struct TrapEvent {
  uint64_t cycle = 0;
  uint8_t tt = 0;      // trap type (interrupts: 0x10 + level)
  uint32_t pc = 0;     // PC of the trapped instruction (interrupt: the interrupted one)
  bool error = false;  // ET was 0: the core entered error mode and stops
};

// PSR.PIL or PSR.ET may have changed (WRPSR, trap entry, RETT, reset): the
// new values. Published on every such write, also when the values stayed.
struct PsrEvent {
  uint64_t cycle = 0;  // cycles() at the write
  uint8_t pil = 0;
  bool et = false;
};

struct CoreProbes {
  Probe<StepRecord> step;       // every loop step (observed loop)
  Probe<ExecuteEvent> execute;  // before each executed instruction (observed loop)
  Probe<PowerEvent> power;      // power-down enter/leave (any loop; not per instruction)
  Probe<TrapEvent> trap;        // every trap entry and error mode (any loop)
  Probe<PsrEvent> psr;          // every write of PIL/ET (any loop)
};

// Writes the text trace line of the state before the instruction at the
// core's PC (36 fields: "pc npc psr wim y g1..g7 o0..o7 l0..l7 i0..i7", each
// 8-digit lowercase hex, single spaces); used as an ExecuteEvent listener.
class Core;
void write_trace_line(const Core& core, std::FILE* f);

struct CoreCounters {
  uint64_t instructions = 0;  // retired (not annulled)
  uint64_t by_class[static_cast<unsigned>(InsnClass::Count)] = {};
  uint64_t annulled = 0;     // annulled delay slots
  uint64_t traps = 0;        // traps taken (all kinds)
  uint64_t interrupts = 0;   // interrupt traps taken
  uint64_t idle_cycles = 0;  // cycles spent powered down
};

// Timed-mode statistics (all zero in functional mode). In timed mode
//   cycles() = idle_cycles + sum(class_cycles) + annul_cycles + trap_cycles
//              + every stall_* field.
struct CoreTimingCounters {
  // pipeline
  uint64_t class_cycles[static_cast<unsigned>(InsnClass::Count)] = {};  // base issue cycles
  uint64_t annul_cycles = 0;                                            // annulled delay slots
  uint64_t trap_cycles = 0;                                             // taken traps and interrupts
  uint64_t stall_load_use = 0;                                          // load-use interlock
  uint64_t stall_branch = 0;        // Bicc/Ticc/RDPSR waiting for icc, mispredicted branches
  uint64_t stall_muldiv = 0;        // MUL result use, DIV waiting for Y
  uint64_t stall_icache_miss = 0;   // I-cache line fills
  uint64_t stall_dcache_miss = 0;   // D-cache line fills
  uint64_t stall_write_buffer = 0;  // store (or memory read) waiting for the write buffer
  uint64_t stall_bus = 0;           // uncached fetches/reads (cache off/frozen miss/uncacheable/ASI 1)
  // caches
  uint64_t ic_hits = 0, ic_misses = 0, ic_uncached = 0, ic_fills = 0;
  uint64_t dc_read_hits = 0, dc_read_misses = 0, dc_uncached_reads = 0, dc_fills = 0;
  uint64_t dc_write_hits = 0, dc_write_misses = 0, dc_uncached_writes = 0;
  // Injected misses (CacheConfig::force_miss_rate), also counted in
  // ic_misses / dc_read_misses.
  uint64_t ic_forced = 0, dc_forced = 0;
  uint64_t wb_stalls = 0;            // number of write-buffer stall events
  uint64_t snoop_invalidations = 0;  // D-cache lines invalidated by snoop_write()
  uint64_t ic_flushes = 0, dc_flushes = 0;
  // Real AHB transactions of the CPU (line fills, uncached and forced-miss
  // reads, write-buffer drains): the same with DMI on or off.
  uint64_t ahb_reads = 0, ahb_writes = 0;
  // With Core::set_bus_counting(): 32-bit beats of the DMI-served ones among
  // them, [read 0 / write 1][outside 0 / inside 1 the counting range] (the
  // energy model's SDRAM words; routed ones are counted by the AHB controller).
  uint64_t dmi_beats[2][2] = {};
};

class Core {
 public:
  Core(const CoreConfig& cfg, CoreBus& bus);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  // Processor reset (hw-reference §7.1): PC = reset_pc, nPC = PC+4, S=PS=1,
  // ET=0, TBR.TBA = reset_pc high bits, CCR = 0, no error mode, no power-down.
  void reset();

  // Executes instructions until cycles() >= cycle_limit or a stop condition.
  StopReason run(uint64_t cycle_limit);
  // Change the limit of the run() in progress (callable from CoreBus::access).
  void set_cycle_limit(uint64_t limit);
  // Make the run() in progress return StopReason::Yield after the current instruction.
  void request_yield();
  // Debugger seam: make run() return StopReason::Break before the next
  // instruction it is about to execute. Called by an execute-probe listener,
  // it stops before the very instruction of that event: the instruction is
  // neither executed nor charged, no step record is published for it, and
  // pc()/npc() point at it. Only the observed loop checks the request (it
  // runs whenever the execute probe has listeners), so the plain loop pays
  // nothing. The request stays pending until a run() honours it.
  void request_break();
  bool break_requested() const;
  // Breakpoints at full speed: run() returns StopReason::Break before an
  // instruction at one of `pcs` (nothing of it executed or charged, pc()/
  // npc() at it), checked in the plain loop by a bit filter (one load and
  // test per instruction; README "Breakpoints") and in the observed loop.
  // `skip_first`: if the first instruction the core reaches is at that
  // address, it runs (a debugger resumes from a breakpoint); an interrupt
  // taken first cancels the skip. An empty list turns the check off.
  void set_break_pcs(std::vector<uint32_t> pcs, std::optional<uint32_t> skip_first = std::nullopt);
  // Data watchpoints at full speed: after an instruction whose load or
  // store (normal or ASI 1, 8-11) touched one of `ranges` with a kind it
  // watches, run() returns StopReason::Break with watch_hit() = the
  // range's index (an instruction that trapped made no access: no stop).
  // The watched ranges' 4 KiB pages get no data DMI window, so accesses to
  // them take the slow path that checks; every other access is untouched
  // (README "Debugger seam"). Counts do not change (DMI never changes them).
  struct WatchRange {
    uint32_t addr, len;
    bool on_read, on_write;
  };
  void set_watches(const std::vector<WatchRange>& ranges);
  int watch_hit() const;  // -1 when the last Break was no watchpoint

  // Interrupt request level from the IRQMP (0..15).
  void set_irl(unsigned level);
  unsigned irl() const;
  // True when powered down and no interrupt can wake it yet.
  bool powered_down() const;
  // Advance the cycle counter while powered down (idle time skipped by the
  // wrapper); counted as idle cycles.
  void add_idle_cycles(uint64_t n);

  // Direct memory access fast path: host pointer to target memory
  // [start, end] (inclusive), bytes in target order.
  // The latencies (CPU cycles, timed mode only) are the wait states of one
  // access to the region; a burst adds TimingConfig::burst_beat_cycles per
  // further 32-bit beat. Functional mode ignores them (DMI costs nothing).
  // `gen`, `gen_base`: the memory's write generations (common/write_gen.h),
  // when it keeps them: code pages in the region then skip the per-instruction
  // check of their words (README "Speed structure").
  void add_dmi(uint32_t start, uint32_t end, uint8_t* ptr, bool readable, bool writable,
               unsigned read_latency_cycles = 0, unsigned write_latency_cycles = 0,
               const uint32_t* gen = nullptr, const uint8_t* gen_base = nullptr);
  void invalidate_dmi(uint64_t start, uint64_t end);
  void set_dmi_enabled(bool on);

  // AHB arbitration side-band (timed mode; docs/timing.md "Contention").
  // With DMI, the core's real AHB transactions (line fills, uncached reads,
  // write-buffer drains) do not reach the bus. With the side-band on, the
  // core keeps the interval of its latest such transaction itself and asks
  // CoreBus::arbitrate() for a wait only when another master was on the bus
  // after it (take_bus_interval() returned it); the arbiter fetches the
  // interval with take_bus_interval() before routing any other access. So
  // contention is modelled the same with and without DMI, at the cost of
  // one flag test per DMI-served transaction. Off by default.
  void set_bus_arbitration(bool on);
  // If the core's latest real AHB transaction was served from DMI and not yet
  // taken, returns true with its interval [start, end) in CPU cycles; the
  // caller (the arbiter) records it as the bus's latest occupation.
  bool take_bus_interval(uint64_t& start, uint64_t& end);
  // Report every DMI-served real AHB transaction through
  // CoreBus::dmi_transaction (timed mode). Off by default; a bus observer
  // turns it on only while somebody listens (one more flag test per such
  // transaction while arbitration is on, none otherwise).
  void set_bus_reporting(bool on);
  // Count the beats of DMI-served real AHB transactions in
  // CoreTimingCounters::dmi_beats, split by [base, base + size) (the energy
  // model: SDRAM or not). Off by default; costs an out-of-line call per
  // DMI-served transaction (a store, a line fill) while on.
  void set_bus_counting(bool on, uint32_t base = 0, uint64_t size = 0);

  // Probes of the core (see CoreProbes). Listening to `step` or `execute`
  // makes the next run() use the observed loop; without listeners it runs
  // the plain loop, which does no probe work at all.
  CoreProbes& probes();
  const CoreProbes& probes() const;
  // Spans (SpanRecord) to `l` from the next run() on (nullptr: none). One
  // listener at a time; it does not make a run observed.
  void set_span_listener(SpanListener* l);

  // --- state access (tests, debug, stats) ---
  uint64_t cycles() const;
  // The hot loop counts per class only; each call refreshes `instructions`
  // (= sum of by_class) before returning the reference.
  const CoreCounters& counters() const;
  uint32_t pc() const;
  uint32_t npc() const;
  void set_pc(uint32_t pc, uint32_t npc);
  uint32_t reg(unsigned r) const;        // r0..r31 in the current window
  void set_reg(unsigned r, uint32_t v);  // writes to r0 ignored
  // Register r (0..31) as seen from window w (0..nwin-1) whatever CWP is
  // (debuggers: the windows of the callers still held in registers).
  uint32_t window_reg(unsigned w, unsigned r) const;
  void set_window_reg(unsigned w, unsigned r, uint32_t v);
  uint32_t psr() const;
  void set_psr(uint32_t v);  // raw write (no trap checks)
  uint32_t wim() const;
  void set_wim(uint32_t v);
  uint32_t tbr() const;
  void set_tbr(uint32_t v);
  uint32_t y() const;
  void set_y(uint32_t v);
  uint32_t asr17() const;
  uint32_t ccr() const;      // cache control register (ASI 2, 0x00)
  void set_ccr(uint32_t v);  // as `sta v, [%g0] 2` (FI/FD flush, read 0)

  bool in_error_mode() const;
  unsigned error_tt() const;  // tt of the trap that caused error mode
  uint32_t error_pc() const;  // PC of the instruction that trapped
  uint32_t error_npc() const;

  const CoreConfig& config() const;

  // Timed mode: pipeline/cache statistics (see CoreTimingCounters).
  const CoreTimingCounters& timing_counters() const;
  // Another bus master wrote [addr, addr+len): with a snooping D-cache
  // (CacheConfig::snoop) and CCR.DS = 1, matching lines are invalidated.
  void snoop_write(uint32_t addr, unsigned len);
  // Tag lookup without side effects (tests, debug): is the line of `addr`
  // valid in the I-cache (icache = true) or the D-cache?
  bool cache_holds(bool icache, uint32_t addr) const;

  // Decoded-instruction cache misses (decodes) so far; tests and --stats.
  uint64_t decode_cache_misses() const;
  // Mnemonic of an instruction word per the decode table ("ILLEGAL" if none).
  static const char* mnemonic(uint32_t raw);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace l3vp::leon3
