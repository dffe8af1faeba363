#include "profiler.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "stats.h"

namespace l3vp {

// ---------------------------------------------------------------- Profiler

void Profiler::set_symbols(const ElfImage& img) {
  rows_.clear();
  funcs_.clear();
  labels_.clear();
  per_pc_.clear();
  total_ = Counts();
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
  listener_ = core.probes().step.listen([this](const leon3::StepRecord& s) { step(s); });
}

void Profiler::detach() {
  if (core_) core_->probes().step.unlisten(listener_);
  core_ = nullptr;
}

void Profiler::step(const leon3::StepRecord& s) {
  const uint32_t pc = s.pc;
  const uint64_t cycles = s.cycles;
  const unsigned retired = s.retired, ic_misses = s.ic_misses, dc_misses = s.dc_misses;
  if (rows_.empty()) rows_.push_back(Row{"(unknown)", 0, 0, Counts()});
  const unsigned idx = (pc >= last_.start && pc < last_.end) ? last_.idx : lookup(pc);
  Counts& c = rows_[idx].c;
  c.cycles += cycles;
  c.instructions += retired;
  c.ic_misses += ic_misses;
  c.dc_misses += dc_misses;
  total_.cycles += cycles;
  total_.instructions += retired;
  total_.ic_misses += ic_misses;
  total_.dc_misses += dc_misses;
  if (per_pc_on_) {
    Counts& p = per_pc_[pc];
    p.cycles += cycles;
    p.instructions += retired;
    p.ic_misses += ic_misses;
    p.dc_misses += dc_misses;
  }
}

std::vector<Profiler::Row> Profiler::functions() const {
  std::vector<Row> out;
  for (const Row& r : rows_)
    if (r.c.cycles || r.c.instructions) out.push_back(r);
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

Regions::Snapshot Regions::Snapshot::of(const leon3::Core& core) {
  Snapshot s;
  const leon3::CoreCounters& c = core.counters();
  const leon3::CoreTimingCounters& t = core.timing_counters();
  s.cycles = core.cycles();
  s.idle_cycles = c.idle_cycles;
  s.instructions = c.instructions;
  std::copy(std::begin(c.by_class), std::end(c.by_class), s.by_class);
  s.stall_load_use = t.stall_load_use;
  s.stall_branch = t.stall_branch;
  s.stall_muldiv = t.stall_muldiv;
  s.stall_icache_miss = t.stall_icache_miss;
  s.stall_dcache_miss = t.stall_dcache_miss;
  s.stall_write_buffer = t.stall_write_buffer;
  s.stall_bus = t.stall_bus;
  s.ic_misses = t.ic_misses;
  s.dc_read_misses = t.dc_read_misses;
  s.traps = c.traps;
  return s;
}

namespace {
void accumulate(Regions::Snapshot& sum, const Regions::Snapshot& a, const Regions::Snapshot& b) {
  sum.cycles += b.cycles - a.cycles;
  sum.idle_cycles += b.idle_cycles - a.idle_cycles;
  sum.instructions += b.instructions - a.instructions;
  for (unsigned k = 0; k < static_cast<unsigned>(leon3::InsnClass::Count); ++k)
    sum.by_class[k] += b.by_class[k] - a.by_class[k];
  sum.stall_load_use += b.stall_load_use - a.stall_load_use;
  sum.stall_branch += b.stall_branch - a.stall_branch;
  sum.stall_muldiv += b.stall_muldiv - a.stall_muldiv;
  sum.stall_icache_miss += b.stall_icache_miss - a.stall_icache_miss;
  sum.stall_dcache_miss += b.stall_dcache_miss - a.stall_dcache_miss;
  sum.stall_write_buffer += b.stall_write_buffer - a.stall_write_buffer;
  sum.stall_bus += b.stall_bus - a.stall_bus;
  sum.ic_misses += b.ic_misses - a.ic_misses;
  sum.dc_read_misses += b.dc_read_misses - a.dc_read_misses;
  sum.traps += b.traps - a.traps;
}
}  // namespace

void Regions::mark(bool begin, uint32_t id, const Snapshot& now) {
  Region& r = regions_[id];
  r.id = id;
  if (begin) {
    if (r.open) ++r.unbalanced;  // nested BEGIN of the same id: restart
    r.open = true;
    r.begin = now;
    return;
  }
  if (!r.open) {
    ++r.unbalanced;
    return;
  }
  accumulate(r.sum, r.begin, now);
  r.open = false;
  ++r.entries;
}

nlohmann::json Regions::to_json() const {
  using nlohmann::json;
  json out = json::array();
  for (const auto& [id, r] : regions_) {
    const Snapshot& s = r.sum;
    json by_class = json::object();
    for (unsigned k = 0; k < static_cast<unsigned>(leon3::InsnClass::Count); ++k)
      by_class[leon3::insn_class_name(static_cast<leon3::InsnClass>(k))] = s.by_class[k];
    const uint64_t busy = s.cycles - s.idle_cycles;
    out.push_back({{"id", id},
                   {"entries", r.entries},
                   {"unbalanced", r.unbalanced},
                   {"open", r.open},
                   {"cycles", s.cycles},
                   {"idle_cycles", s.idle_cycles},
                   {"instructions", s.instructions},
                   {"cpi", s.instructions ? double(busy) / double(s.instructions) : 0.0},
                   {"by_class", by_class},
                   {"stalls",
                    {{"load_use", s.stall_load_use},
                     {"branch", s.stall_branch},
                     {"muldiv", s.stall_muldiv},
                     {"icache_miss", s.stall_icache_miss},
                     {"dcache_miss", s.stall_dcache_miss},
                     {"write_buffer", s.stall_write_buffer},
                     {"bus", s.stall_bus}}},
                   {"icache_misses", s.ic_misses},
                   {"dcache_misses", s.dc_read_misses},
                   {"traps", s.traps}});
  }
  return out;
}

// ---------------------------------------------------------------- statistics

namespace {
std::vector<std::string> class_names() {
  std::vector<std::string> v;
  for (unsigned k = 0; k < static_cast<unsigned>(leon3::InsnClass::Count); ++k)
    v.push_back(leon3::insn_class_name(static_cast<leon3::InsnClass>(k)));
  return v;
}
}  // namespace

void Profiler::register_stats(const StatsGroup& g) const {
  const auto U = StatUnit::Count;
  const auto C = StatUnit::Cycles;
  const auto Y = StatInv::Yes;
  g.counter("cycles", &total_.cycles, C, Y,
            "Only with --profile, --profile-out or --profile-pc: profiled cycles (= `cycles − idle_cycles`).");
  g.counter("instructions", &total_.instructions, U, Y, "Profiled instructions (= `instructions.total`).");
  using R = Row;
  auto& t = g.table<R>("functions", Y, "Per function with at least one step, most cycles first.",
                       [this] { return functions(); });
  t.field("name", "string", StatUnit::Text, Y, "ELF symbol.", [](const R& r) { return r.name; });
  t.field("addr", "int", StatUnit::Id, Y, "Symbol value.", [](const R& r) { return r.addr; });
  t.field("size", "int", StatUnit::Bytes, Y, "Symbol size (0 for a label).", [](const R& r) { return r.size; });
  t.field("cycles", "int", C, Y, "Cycles (stalls, misses and trap entry included).",
          [](const R& r) { return r.c.cycles; });
  t.field("instructions", "int", U, Y, "Instructions retired.", [](const R& r) { return r.c.instructions; });
  t.field("icache_misses", "int", U, Y, "I-cache misses.", [](const R& r) { return r.c.ic_misses; });
  t.field("dcache_misses", "int", U, Y, "D-cache misses.", [](const R& r) { return r.c.dc_misses; });
}

void Regions::register_stats(const StatsGroup& g) const {
  const auto U = StatUnit::Count;
  const auto C = StatUnit::Cycles;
  const auto Y = StatInv::Yes;
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
  t.field("entries", "int", U, Y, "Completed BEGIN..END pairs.", [](R r) { return r->entries; });
  t.field("unbalanced", "int", U, Y, "BEGIN while open (restarts) + END while closed (ignored).",
          [](R r) { return r->unbalanced; });
  t.field("open", "bool", StatUnit::Flag, Y, "BEGIN without END at the end.", [](R r) { return r->open; });
  t.field("cycles", "int", C, Y, "Cycles.", [](R r) { return r->sum.cycles; });
  t.field("idle_cycles", "int", C, Y, "Powered-down cycles.", [](R r) { return r->sum.idle_cycles; });
  t.field("instructions", "int", U, Y, "Instructions retired.", [](R r) { return r->sum.instructions; });
  t.field("cpi", "number", StatUnit::Ratio, Y, "`(cycles − idle_cycles) / instructions` (0 without).",
          [](R r) {
            const Snapshot& s = r->sum;
            return s.instructions ? double(s.cycles - s.idle_cycles) / double(s.instructions) : 0.0;
          });
  t.vector("by_class", class_names(), U, Y, "Instructions per class (as `instructions.by_class`).",
           [](R r, unsigned k) { return r->sum.by_class[k]; });
  t.field("stalls.load_use", "int", C, Y, "As `timing.stalls.load_use`.", [](R r) { return r->sum.stall_load_use; });
  t.field("stalls.branch", "int", C, Y, "As `timing.stalls.branch`.", [](R r) { return r->sum.stall_branch; });
  t.field("stalls.muldiv", "int", C, Y, "As `timing.stalls.muldiv`.", [](R r) { return r->sum.stall_muldiv; });
  t.field("stalls.icache_miss", "int", C, Y, "As `timing.stalls.icache_miss`.",
          [](R r) { return r->sum.stall_icache_miss; });
  t.field("stalls.dcache_miss", "int", C, Y, "As `timing.stalls.dcache_miss`.",
          [](R r) { return r->sum.stall_dcache_miss; });
  t.field("stalls.write_buffer", "int", C, Y, "As `timing.stalls.write_buffer`.",
          [](R r) { return r->sum.stall_write_buffer; });
  t.field("stalls.bus", "int", C, Y, "As `timing.stalls.bus`.", [](R r) { return r->sum.stall_bus; });
  t.field("icache_misses", "int", U, Y, "I-cache misses.", [](R r) { return r->sum.ic_misses; });
  t.field("dcache_misses", "int", U, Y, "D-cache read misses.", [](R r) { return r->sum.dc_read_misses; });
  t.field("traps", "int", U, Y, "Traps taken.", [](R r) { return r->sum.traps; });
}

}  // namespace l3vp
