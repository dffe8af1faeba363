// Per-function flat profile and measured regions (docs/timing.md).
//
//  * Profiler is a listener of the core's step probe (leon3::StepRecord):
//    every loop step (cycles incl. stalls, misses and trap entry; retired
//    instructions; I/D-cache misses) is attributed to the function holding its PC, found in the ELF symbol
//    table: the FUNC symbol whose [value, value + size) contains the PC,
//    otherwise the nearest preceding label (assembler code without .type),
//    otherwise "(unknown)". Optionally also per PC (--profile-pc).
//  * Regions accumulates what happens between REGION_BEGIN(id) and
//    REGION_END(id) (firmware/bsp/region.h) from snapshots of the core's
//    counters taken at the marker stores: a listener of the RegionMarker's
//    probe, so regions never need the (slower) observed loop. What it
//    measures is what the statistics registry marks per region (a counter's
//    .per_region() in its registration, models/common/stats.h).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "core.h"
#include "elf_loader.h"
#include "stats.h"

namespace l3vp {

class Profiler : private leon3::SpanListener {
 public:
  struct Counts {
    uint64_t cycles = 0, instructions = 0, ic_misses = 0, dc_misses = 0;
    uint128 energy_fj = 0;       // with set_energy(): the energy the steps caused (128 bits: models/energy)
    void add(const Counts& o) {  // the four counts (not the energy)
      cycles += o.cycles;
      instructions += o.instructions;
      ic_misses += o.ic_misses;
      dc_misses += o.dc_misses;
    }
  };
  struct Row {
    std::string name;
    uint32_t addr = 0, size = 0;  // symbol value / size (0 for labels)
    Counts c;
  };

  Profiler() = default;
  ~Profiler() { detach(); }
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  void set_symbols(const ElfImage& img);
  // Energy per function: `now` is the CPU-side energy so far (fJ, e.g.
  // EnergyModel::cpu_total); each step gets its growth over the step, so the
  // functions' energies add up to the CPU's energy except what grows between
  // steps (power-down: idle cycles and their static energy), which is
  // energy_unattributed(). Call before attach().
  //
  // `now` is read only where the attribution changes hands, not per step:
  // at the end of a step after which the core continues in another function
  // (StepRecord::next_pc), at the end of the loop's last step, and at
  // power-down. A run of steps in one function gets the energy growth over
  // the run, which is the sum of its steps' growths (a telescoping sum), so
  // the figures are bit-identical to sampling every step, whatever `now`
  // computes (the static energy's floor included). Only the per-PC histogram
  // needs every step's own growth: with it, `now` is read per step.
  void set_energy(std::function<uint128()> now) { energy_now_ = std::move(now); }
  bool has_energy() const { return bool(energy_now_); }
  uint128 energy_unattributed() const;
  void enable_pc_histogram(bool on) { per_pc_on_ = on; }
  bool pc_histogram_enabled() const { return per_pc_on_; }

  // The step probe's listener: attributes one step.
  void step(const leon3::StepRecord& s);
  // The span listener (leon3::SpanListener): attributes a run of steps in
  // one window, a stretch of addresses that lookup() gives one function
  // (between two neighbouring symbol starts or ends), exactly as its steps
  // one by one.
  void span(const leon3::SpanRecord& s) override;
  void window(uint32_t pc, uint32_t& lo, uint32_t& last) override;
  // Starts listening to `core` (once; detach() stops): to its spans, which
  // keep the core in its plain loop, or with the per-PC histogram to its
  // step probe (the observed loop).
  void attach(leon3::Core& core);
  void detach();

  // Functions with at least one step, most cycles first (ties: by address).
  std::vector<Row> functions() const;
  // Every PC with at least one step, by address.
  std::vector<std::pair<uint32_t, Counts>> pcs() const;
  Counts total() const;  // with the open run's energy
  // Name of the function a PC is attributed to.
  std::string function_of(uint32_t pc) const;
  // Registers the profile (cycles, instructions, functions[]) under `g`
  // (profile); give `g` the condition under which the profiler runs.
  void register_stats(const StatsGroup& g) const;

 private:
  struct Sym {
    uint32_t start, end;  // [start, end)
    unsigned idx;         // into names_/counts_
  };
  unsigned lookup(uint32_t pc) const;
  unsigned index_of(uint32_t pc) const {
    return (pc >= last_.start && pc < last_.end) ? last_.idx : lookup(pc);
  }
  // The row of a record starting at pc (the cached next function when pc is
  // where the previous record ended).
  unsigned row_of(uint32_t pc);
  void step_pc(unsigned idx, uint32_t pc, const Counts& add);
  // Adds steps of function idx that end at next_pc; reads the energy where
  // the function changes.
  void attribute(unsigned idx, const Counts& add, uint32_t next_pc, bool last);
  // Gives the energy grown since energy_last_ to the open run's function.
  void close_run();
  // The open run's energy not given yet (0 without one).
  uint128 open_run_energy() const;
  static constexpr unsigned kNoRun = ~0u;

  std::vector<Row> rows_;         // by index; last = "(unknown)"
  std::vector<Sym> funcs_;        // FUNC symbols with a size, by start
  std::vector<Sym> labels_;       // other labels, by start
  std::vector<uint32_t> bounds_;  // every symbol start and FUNC end, sorted: lookup() is constant between two
  mutable Sym last_{1, 0, 0};     // last lookup (empty range initially)
  uint128 energy_total_ = 0;      // energy given to the rows
  bool per_pc_on_ = false;
  std::unordered_map<uint32_t, Counts> per_pc_;
  leon3::Core* core_ = nullptr;
  Probe<leon3::StepRecord>::Id listener_ = 0;  // 0: listening to spans
  Probe<leon3::PowerEvent>::Id power_listener_ = 0;
  std::function<uint128()> energy_now_;
  uint128 energy_last_ = 0;   // the energy when the open run began (or after the last step)
  uint128 energy_jumps_ = 0;  // growth during power-downs
  unsigned run_ = kNoRun;     // the function of the open run: its growth is not given yet
  uint32_t next_pc_ = 1;      // the PC the next step is expected at (odd: none) ...
  unsigned next_idx_ = 0;     // ... and its function
};

class Regions {
 public:
  struct Region {
    uint32_t id = 0;
    uint64_t entries = 0;     // completed BEGIN..END pairs
    uint64_t unbalanced = 0;  // BEGIN while open (restarts) + END while closed (ignored)
    // Figures are 128 bits wide (energies; stats.h RegionFigure).
    std::vector<uint128> sum;  // per figure element: accumulated END - BEGIN (see sum())
    bool open = false;
    std::vector<uint128> begin;  // the figures at the open BEGIN
  };

  // Captures the figures the registry of `g` marks per region (counters
  // registered with .per_region(), before this call) and registers the
  // per-region records under `g` (regions[]): one row per region id seen, by
  // id; fields id, entries, unbalanced, open, the figures, and the derived
  // cpi (when cycles, idle_cycles and instructions are figures).
  void register_stats(const StatsGroup& g);
  // At most this many distinct region ids are accounted (the table and
  // --stats stay bounded whatever ids a firmware stores); marks of further
  // ids are only counted (dropped_marks(), --stats region_marks_dropped)
  // and one guest-error line says so.
  static constexpr size_t kMaxRegions = 1024;

  // A marker store: reads every figure now (after the registry's prepare
  // functions) and opens or closes region `id`.
  void mark(bool begin, uint32_t id);
  uint64_t dropped_marks() const { return dropped_marks_; }
  // The `who` of its log line (log.h: its first component is the board's scope).
  void set_log_name(std::string who) { log_name_ = std::move(who); }
  const std::map<uint32_t, Region>& regions() const { return regions_; }
  // A region's sum of one figure by its per-region key ("instructions",
  // "stalls.bus", "by_class.load"); throws std::out_of_range for an unknown key.
  uint128 sum(const Region& r, const std::string& key) const;

 private:
  void read(std::vector<uint128>& out) const;

  const StatsRegistry* reg_ = nullptr;
  std::vector<RegionFigure> figures_;
  std::map<std::string, unsigned> index_;  // per-region key -> position in Region::sum
  unsigned width_ = 0;                     // elements of all figures
  std::vector<uint128> now_;               // scratch of mark()
  std::map<uint32_t, Region> regions_;
  uint64_t dropped_marks_ = 0;
  std::string log_name_ = "regions";
};

}  // namespace l3vp
