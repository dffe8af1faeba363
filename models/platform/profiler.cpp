#include "profiler.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "log.h"
#include "stats.h"

namespace l3vp {

// ---------------------------------------------------------------- Profiler

void Profiler::set_symbols(const ElfImage& img) {
  rows_.clear();
  funcs_.clear();
  labels_.clear();
  per_pc_.clear();
  energy_total_ = 0;
  run_ = kNoRun;
  next_pc_ = 1;
  for (const ElfSymbol& s : img.symbols) {
    if (s.type == ElfSymbol::Type::Object || s.name.empty() || s.name[0] == '.' || s.name[0] == '$') continue;
    const bool func = s.type == ElfSymbol::Type::Func && s.size > 0;
    if (s.type == ElfSymbol::Type::Func && s.size == 0) continue;  // FUNC without size: ignore
    Row r;
    r.name = s.name;
    r.addr = s.value;
    r.size = func ? s.size : 0;
    const unsigned idx = static_cast<unsigned>(rows_.size());
    rows_.push_back(r);
    if (func)
      funcs_.push_back(Sym{s.value, s.value + s.size, idx});
    else
      labels_.push_back(Sym{s.value, s.value, idx});
  }
  Row unknown;
  unknown.name = "(unknown)";
  rows_.push_back(unknown);
  auto by_start = [](const Sym& a, const Sym& b) { return a.start < b.start; };
  std::stable_sort(funcs_.begin(), funcs_.end(), by_start);
  std::stable_sort(labels_.begin(), labels_.end(), by_start);
  last_ = Sym{1, 0, 0};
  bounds_.clear();
  for (const Sym& f : funcs_) bounds_.insert(bounds_.end(), {f.start, f.end});
  for (const Sym& l : labels_) bounds_.push_back(l.start);
  std::sort(bounds_.begin(), bounds_.end());
  bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
}

// lookup(pc) depends on pc only through which symbol starts and FUNC ends
// lie at or below it, so it is constant between two neighbouring bounds.
void Profiler::window(uint32_t pc, uint32_t& lo, uint32_t& last) {
  auto it = std::upper_bound(bounds_.begin(), bounds_.end(), pc);
  lo = it == bounds_.begin() ? 0 : *(it - 1);
  last = it == bounds_.end() ? 0xFFFFFFFFu : *it - 1;
}

unsigned Profiler::lookup(uint32_t pc) const {
  const unsigned unknown = static_cast<unsigned>(rows_.size()) - 1;
  // A FUNC symbol containing pc (the last one starting at or before pc).
  auto it = std::upper_bound(funcs_.begin(), funcs_.end(), pc,
                             [](uint32_t v, const Sym& s) { return v < s.start; });
  if (it != funcs_.begin()) {
    const Sym& f = *(it - 1);
    if (pc < f.end) {
      last_ = f;
      return f.idx;
    }
  }
  // Otherwise the nearest preceding label, up to the next FUNC start.
  auto lt = std::upper_bound(labels_.begin(), labels_.end(), pc,
                             [](uint32_t v, const Sym& s) { return v < s.start; });
  if (lt == labels_.begin()) return unknown;
  const Sym& l = *(lt - 1);
  // A FUNC lies between the label and pc (and has ended): pc is in a gap.
  // Labels are not cached in last_ (their extent is not known exactly).
  if (it != funcs_.begin() && (it - 1)->start > l.start) return unknown;
  return l.idx;
}

void Profiler::attach(leon3::Core& core) {
  detach();
  core_ = &core;
  if (per_pc_on_)
    listener_ = core.probes().step.listen([this](const leon3::StepRecord& s) { step(s); });
  else
    core.set_span_listener(this);
  if (energy_now_) {
    energy_last_ = energy_now_();
    run_ = kNoRun;
    next_pc_ = 1;
    power_listener_ = core.probes().power.listen([this](const leon3::PowerEvent& e) {
      // Enter: right after the loop's last step (already closed, the run ended there).
      if (run_ != kNoRun) close_run();
      if (e.enter) return;
      const uint128 now = energy_now_();
      energy_jumps_ += now - energy_last_;
      energy_last_ = now;
    });
  }
}

void Profiler::detach() {
  if (core_) {
    if (listener_)
      core_->probes().step.unlisten(listener_);
    else
      core_->set_span_listener(nullptr);
    if (power_listener_) core_->probes().power.unlisten(power_listener_);
  }
  power_listener_ = 0;
  listener_ = 0;
  core_ = nullptr;
}

void Profiler::close_run() {
  const uint128 now = energy_now_();
  const uint128 e = now - energy_last_;
  energy_last_ = now;
  rows_[run_].c.energy_fj += e;
  energy_total_ += e;
  run_ = kNoRun;
}

uint128 Profiler::open_run_energy() const { return run_ != kNoRun ? energy_now_() - energy_last_ : 0; }

uint128 Profiler::energy_unattributed() const {
  // An open run (the last step ended without a close: a debugger stop) takes
  // the growth since its start; otherwise it is growth outside the steps.
  return energy_now_ && run_ == kNoRun ? energy_jumps_ + (energy_now_() - energy_last_) : energy_jumps_;
}

Profiler::Counts Profiler::total() const {
  Counts t;  // the rows' sums (kept per row only: one add per figure and step)
  for (const Row& r : rows_) t.add(r.c);
  t.energy_fj = energy_total_ + open_run_energy();
  return t;
}

unsigned Profiler::row_of(uint32_t pc) {
  if (rows_.empty()) rows_.push_back(Row{"(unknown)", 0, 0, Counts()});
  return pc == next_pc_ ? next_idx_ : index_of(pc);
}

void Profiler::step(const leon3::StepRecord& s) {
  const unsigned idx = row_of(s.pc);
  const Counts add{s.cycles, s.retired, s.ic_misses, s.dc_misses};
  if (per_pc_on_) {
    rows_[idx].c.add(add);
    return step_pc(idx, s.pc, add);
  }
  attribute(idx, add, s.next_pc, s.last);
}

void Profiler::span(const leon3::SpanRecord& s) {
  attribute(row_of(s.pc), Counts{s.cycles, s.instructions, s.ic_misses, s.dc_misses}, s.next_pc, s.last);
}

void Profiler::attribute(unsigned idx, const Counts& add, uint32_t next_pc, bool last) {
  rows_[idx].c.add(add);
  next_pc_ = next_pc;
  next_idx_ = index_of(next_pc_);
  if (!energy_now_) return;
  // The open run continues while the steps stay in its function. A step in
  // another function without a close before it means the core continued
  // outside the steps at another PC (a debugger wrote it): the open run
  // ends with this step.
  if (run_ != idx && run_ != kNoRun) close_run();
  run_ = idx;
  if (last || next_idx_ != idx) close_run();
}

// The per-PC histogram: the step's counts and, with energy, its own growth.
void Profiler::step_pc(unsigned idx, uint32_t pc, const Counts& add) {
  Counts& p = per_pc_[pc];
  p.add(add);
  if (!energy_now_) return;
  run_ = idx;
  const uint128 before = energy_last_;
  close_run();
  p.energy_fj += energy_last_ - before;
}

std::vector<Profiler::Row> Profiler::functions() const {
  std::vector<Row> out;
  for (size_t i = 0; i < rows_.size(); ++i) {
    const Row& r = rows_[i];
    if (!r.c.cycles && !r.c.instructions) continue;
    out.push_back(r);
    if (i == run_) out.back().c.energy_fj += open_run_energy();
  }
  std::stable_sort(out.begin(), out.end(), [](const Row& a, const Row& b) {
    return a.c.cycles != b.c.cycles ? a.c.cycles > b.c.cycles : a.addr < b.addr;
  });
  return out;
}

std::vector<std::pair<uint32_t, Profiler::Counts>> Profiler::pcs() const {
  std::vector<std::pair<uint32_t, Counts>> out(per_pc_.begin(), per_pc_.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

std::string Profiler::function_of(uint32_t pc) const {
  if (rows_.empty()) return "(unknown)";
  return rows_[lookup(pc)].name;
}

// ---------------------------------------------------------------- Regions

void Regions::read(std::vector<uint128>& out) const {
  out.resize(width_);
  if (reg_) reg_->prepare();  // lazily kept counters (the core's instructions)
  unsigned k = 0;
  for (const RegionFigure& f : figures_) {
    if (f.names.empty()) {
      out[k++] = f.read(0);
      continue;
    }
    for (unsigned i = 0; i < f.names.size(); ++i) out[k++] = f.read(i);
  }
}

void Regions::mark(bool begin, uint32_t id) {
  auto it = regions_.find(id);
  if (it == regions_.end()) {
    if (regions_.size() >= kMaxRegions) {
      if (dropped_marks_++ == 0)
        Log::guest_error(log_name_,
                         "more than " + std::to_string(kMaxRegions) +
                             " distinct region ids: marks of further ids (first: " + std::to_string(id) +
                             ") are not accounted, only counted (--stats region_marks_dropped)");
      return;
    }
    it = regions_.emplace(id, Region{}).first;
  }
  Region& r = it->second;
  r.id = id;
  if (begin) {
    if (r.open) ++r.unbalanced;  // nested BEGIN of the same id: restart
    r.open = true;
    read(r.begin);
    return;
  }
  if (!r.open) {
    ++r.unbalanced;
    return;
  }
  read(now_);
  r.sum.resize(width_);
  for (unsigned k = 0; k < width_; ++k) r.sum[k] += now_[k] - r.begin[k];
  r.open = false;
  ++r.entries;
}

uint128 Regions::sum(const Region& r, const std::string& key) const {
  const auto it = index_.find(key);
  if (it == index_.end()) throw std::out_of_range("no per-region figure '" + key + "'");
  return it->second < r.sum.size() ? r.sum[it->second] : 0;
}

// ---------------------------------------------------------------- statistics

void Profiler::register_stats(const StatsGroup& g) const {
  const auto U = StatUnit::Count;
  const auto C = StatUnit::Cycles;
  const auto Y = StatInv::Yes;
  g.counter(
      "cycles", [this] { return total().cycles; }, C, Y,
      "Only with --profile, --profile-out or --profile-pc: profiled cycles (= `cycles − idle_cycles`).");
  g.counter(
      "instructions", [this] { return total().instructions; }, U, Y,
      "Profiled instructions (= `instructions.total`).");
  using R = Row;
  auto& t = g.table<R>("functions", Y, "Per function with at least one step, most cycles first.",
                       [this] { return functions(); });
  t.field("name", "string", StatUnit::Text, Y, "ELF symbol.", [](const R& r) { return r.name; });
  t.field("addr", "int", StatUnit::Id, Y, "Symbol value.", [](const R& r) { return r.addr; });
  t.field("size", "int", StatUnit::Bytes, Y, "Symbol size (0 for a label).",
          [](const R& r) { return r.size; });
  t.field("cycles", "int", C, Y, "Cycles (stalls, misses and trap entry included).",
          [](const R& r) { return r.c.cycles; });
  t.field("instructions", "int", U, Y, "Instructions retired.", [](const R& r) { return r.c.instructions; });
  t.field("icache_misses", "int", U, Y, "I-cache misses.", [](const R& r) { return r.c.ic_misses; });
  t.field("dcache_misses", "int", U, Y, "D-cache misses.", [](const R& r) { return r.c.dc_misses; });
  if (energy_now_) {  // with --energy (the platform sets it before registering)
    t.field("energy_fj", "int", StatUnit::Fj, Y,
            "With --energy: energy caused by the function's steps (growth of `energy.cpu_fj` over them).",
            [](const R& r) { return wide_json(r.c.energy_fj); });
    g.counter(
        "energy_fj", [this] { return total().energy_fj; }, StatUnit::Fj, Y,
        "With --energy: energy of all profiled steps (the sum of `functions[].energy_fj`).");
    g.counter(
        "energy_unattributed_fj", [this] { return energy_unattributed(); }, StatUnit::Fj, Y,
        "With --energy: CPU energy outside any step (power-down: idle cycles and their static "
        "energy); `energy_fj` + this = `energy.cpu_fj`.");
  }
}

void Regions::register_stats(const StatsGroup& g) {
  reg_ = &g.registry();
  figures_ = reg_->region_figures();
  index_.clear();
  width_ = 0;
  std::vector<unsigned> first;  // position of each figure's first element
  for (const RegionFigure& f : figures_) {
    first.push_back(width_);
    if (f.names.empty()) {
      index_[f.name] = width_++;
      continue;
    }
    for (const std::string& n : f.names) index_[f.name + "." + n] = width_++;
  }
  for (const char* fixed : {"id", "entries", "unbalanced", "open", "cpi"})
    for (const RegionFigure& f : figures_)
      if (stats_detail::split_path(f.name)[0] == fixed)
        throw std::logic_error(std::string("stats: per-region '") + f.name + "' collides with regions[]." +
                               fixed);

  const auto Y = StatInv::Yes;
  g.counter("region_marks_dropped", &dropped_marks_, StatUnit::Count, Y,
            "Region marker stores of ids beyond the first 1024 (`Regions::kMaxRegions`) distinct ones: "
            "not accounted in `regions[]` (bounded table), only counted.");
  using R = const Region*;
  auto& t = g.table<R>("regions", Y,
                       "Per region id (firmware `REGION_BEGIN/END`, docs/timing.md), by id; empty when no "
                       "marker was written. Sums over the completed BEGIN..END pairs.",
                       [this] {
                         std::vector<R> rows;
                         for (const auto& kv : regions_) rows.push_back(&kv.second);
                         return rows;
                       });
  t.field("id", "int", StatUnit::Id, Y, "Region id.", [](R r) { return r->id; });
  t.field("entries", "int", StatUnit::Count, Y, "Completed BEGIN..END pairs.",
          [](R r) { return r->entries; });
  t.field("unbalanced", "int", StatUnit::Count, Y,
          "BEGIN while open (restarts) + END while closed (ignored).", [](R r) { return r->unbalanced; });
  t.field("open", "bool", StatUnit::Flag, Y, "BEGIN without END at the end.", [](R r) { return r->open; });
  // The figures, from the registry's list (a region that never closed sums 0).
  for (size_t i = 0; i < figures_.size(); ++i) {
    const RegionFigure& f = figures_[i];
    const unsigned at = first[i];
    auto elem = [at](R r, unsigned i) -> uint128 { return at + i < r->sum.size() ? r->sum[at + i] : 0; };
    if (f.names.empty())
      t.field(f.name, "int", f.unit, f.inv, f.desc.c_str(), [elem](R r) { return wide_json(elem(r, 0)); });
    else
      t.vector(f.name, f.names, f.unit, f.inv, f.desc.c_str(), elem);
  }
  // Derived: CPI of the busy cycles.
  if (index_.count("cycles") && index_.count("idle_cycles") && index_.count("instructions")) {
    const unsigned cyc = index_.at("cycles"), idle = index_.at("idle_cycles"),
                   ins = index_.at("instructions");
    t.field("cpi", "number", StatUnit::Ratio, Y, "`(cycles − idle_cycles) / instructions` (0 without).",
            [cyc, idle, ins](R r) {
              if (r->sum.empty() || !r->sum[ins]) return 0.0;
              return double(r->sum[cyc] - r->sum[idle]) / double(r->sum[ins]);
            });
  }
}

}  // namespace l3vp
