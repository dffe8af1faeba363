// The energy model (energy_model.h, README.md).
#include "energy_model.h"

#include <stdexcept>

namespace l3vp::energy {

const std::array<const char*, EnergyModel::kComps> EnergyModel::kCompNames = {
    "core", "icache", "dcache", "ahb", "apb", "sdram", "static", "idle", "greth_dma"};

static_assert(kClasses == unsigned(leon3::InsnClass::Count), "energy classes = the ISS's classes");

EnergyModel::EnergyModel(Profile p, CoreView core, BusView bus)
    : p_(std::move(p)), core_(std::move(core)), bus_(std::move(bus)) {
  if (!core_.ctr || !core_.tctr || !core_.cycles || core_.clock_hz == 0)
    throw std::logic_error("EnergyModel: incomplete CoreView");
  if (!bus_.read) throw std::logic_error("EnergyModel: BusView without a reader");
  for (const auto& [h, name] : bus_.masters) {
    MasterCounts m;
    m.hindex = h;
    m.name = name;
    m.ahb_fj_per_beat = p_.ahb_fj(name);
    masters_.push_back(m);
  }
  for (const auto& [name, fj] : p_.ahb_master_fj) {
    bool found = false;
    std::string names;
    for (const auto& [h, n] : bus_.masters) {
      found = found || n == name;
      names += (names.empty() ? "" : ", ") + n;
    }
    if (!found)
      throw ProfileError(p_.origin + ": ahb_transfer_pj." + name +
                         ": no AHB master of that name (masters: " + names + ", or \"default\")");
  }
  if (p_.fine()) pair_count_.assign(kClasses * kClasses, 0);
}

void EnergyModel::attach(leon3::Core& core) {
  detach();
  if (p_.fine()) {
    core_probe_ = &core;
    step_id_ = core.probes().step.listen([this](const leon3::StepRecord& s) { on_step(s); });
  }
}

void EnergyModel::detach() {
  if (core_probe_) core_probe_->probes().step.unlisten(step_id_);
  core_probe_ = nullptr;
}

void EnergyModel::on_step(const leon3::StepRecord& s) {
  if (!s.retired || s.cls == leon3::InsnClass::Count) return;
  const unsigned c = unsigned(s.cls);
  if (prev_class_ < kClasses && !pair_count_.empty()) ++pair_count_[prev_class_ * kClasses + c];
  prev_class_ = c;
}

const std::vector<EnergyModel::MasterCounts>& EnergyModel::masters() const {
  bus_.read(masters_);
  return masters_;
}

// Every product is taken in 128 bits: a 64-bit count times a coefficient of
// at most 10^9 fJ, summed over a few terms, stays far below 2^128.
uint128 EnergyModel::master_energy(const MasterCounts& m) const {
  return uint128(m.beats) * m.ahb_fj_per_beat + uint128(m.sdram_read_words) * p_.sdram_read_word_fj +
         uint128(m.sdram_write_words) * p_.sdram_write_word_fj + uint128(m.apb_accesses) * p_.apb_access_fj;
}

uint64_t EnergyModel::stall_cycles() const {
  const leon3::CoreTimingCounters& t = core_.tctr();
  return t.annul_cycles + t.trap_cycles + t.stall_load_use + t.stall_branch + t.stall_muldiv +
         t.stall_icache_miss + t.stall_dcache_miss + t.stall_write_buffer + t.stall_bus;
}

uint128 EnergyModel::static_energy(uint64_t cycles) const {
  // P [nW] * cycles / f [Hz] = P * cycles / f * 1e-9 J = P * cycles * 1e6 / f fJ
  // (P <= 10^12 nW: the product stays below 2^40 * 2^64 * 2^20 = 2^124).
  const uint128 num = uint128(p_.static_nw) * cycles * 1000000u;
  return num / core_.clock_hz;
}

uint128 EnergyModel::class_energy(unsigned c) const {
  uint128 e = uint128(core_.ctr().by_class[c]) * p_.insn_fj[c];
  if (!pair_count_.empty())
    for (unsigned a = 0; a < kClasses; ++a)
      e += uint128(pair_count_[a * kClasses + c]) * p_.pair_fj[a * kClasses + c];
  return e;
}

uint128 EnergyModel::pairs_energy() const {
  uint128 e = 0;
  for (size_t i = 0; i < pair_count_.size(); ++i) e += uint128(pair_count_[i]) * p_.pair_fj[i];
  return e;
}

uint128 EnergyModel::component(unsigned c) const { return component(c, masters()); }

uint128 EnergyModel::component(unsigned c, const std::vector<MasterCounts>& ms) const {
  switch (c) {
    case Core: {
      uint128 e = uint128(stall_cycles()) * p_.stall_cycle_fj;
      for (unsigned k = 0; k < kClasses; ++k) e += class_energy(k);
      return e;
    }
    case ICache:
      return uint128(core_.tctr().ic_misses) * p_.icache_miss_fj;
    case DCache:
      return uint128(core_.tctr().dc_read_misses) * p_.dcache_miss_fj;
    case Ahb:
    case Apb:
    case Sdram: {
      for (const MasterCounts& m : ms)
        if (m.hindex == bus_.cpu_master) {
          if (c == Ahb) return uint128(m.beats) * m.ahb_fj_per_beat;
          if (c == Apb) return uint128(m.apb_accesses) * p_.apb_access_fj;
          return uint128(m.sdram_read_words) * p_.sdram_read_word_fj +
                 uint128(m.sdram_write_words) * p_.sdram_write_word_fj;
        }
      return 0;
    }
    case Static:
      return static_energy(core_.cycles());
    case Idle:
      return uint128(core_.ctr().idle_cycles) * p_.idle_cycle_fj;
    case GrethDma: {
      uint128 e = 0;
      for (const MasterCounts& m : ms)
        if (m.hindex != bus_.cpu_master) e += master_energy(m);
      return e;
    }
    default:
      return 0;
  }
}

uint128 EnergyModel::cpu_total() const {
  const std::vector<MasterCounts>& ms = masters();
  uint128 e = 0;
  for (unsigned c = 0; c < kCpuComps; ++c) e += component(c, ms);
  return e;
}

uint128 EnergyModel::total() const {
  const std::vector<MasterCounts>& ms = masters();
  uint128 e = 0;
  for (unsigned c = 0; c < kComps; ++c) e += component(c, ms);
  return e;
}

void EnergyModel::register_stats(const StatsGroup& g) {
  const auto Y = StatInv::Yes;
  const auto N = StatInv::No;
  g.value("profile", "object", StatUnit::Object, Y,
          "The energy profile as read (`--energy`, docs/energy.md): its name, coefficients and sources.",
          [this] { return p_.json; });
  g.value("profile_origin", "string", StatUnit::Text, N,
          "Where the profile came from: `shipped:<name>` or the file path given.",
          [this] { return p_.origin; });
  g.value("profile_hash", "string", StatUnit::Text, Y,
          "FNV-1a of the profile's canonical JSON (tells profiles apart).", [this] {
            const std::string s = p_.json.dump();
            return hex64(fnv1a64(s.data(), s.size()));
          });
  g.value(
      "fine", "bool", StatUnit::Flag, Y,
      "Fine-grain mode: the profile has `pair_pj` (inter-instruction overheads; needs the observed loop).",
      [this] { return p_.fine(); });
  g.counter(
      "total_fj", [this] { return total(); }, StatUnit::Fj, Y,
      "Energy of the run: the sum of `by_component`.");
  g.counter(
      "cpu_fj", [this] { return cpu_total(); }, StatUnit::Fj, Y,
      "Energy caused by the CPU: every component but `greth_dma` (what `regions[].energy_fj` and "
      "`profile.functions[].energy_fj` measure).");
  g.value("average_power_mw", "number", StatUnit::Mw, Y,
          "`total_fj` over the CPU's elapsed time (`cycles` / `clock_hz`); 0 before the first cycle.",
          [this] {
            const uint64_t cyc = core_.cycles();
            return cyc ? double(total()) * double(core_.clock_hz) / double(cyc) * 1e-12 : 0.0;
          });
  std::vector<std::string> comps(kCompNames.begin(), kCompNames.end());
  g.vector(
      "by_component", comps, StatUnit::Fj, Y,
      "Energy by component: `core` (instruction base energies, pair overheads, stall cycles), "
      "`icache`/`dcache` (miss energies), `ahb`/`apb`/`sdram` (the CPU master's AHB beats, APB accesses, "
      "SDRAM words), `static` (leakage over the CPU's cycles), `idle` (powered-down cycles), `greth_dma` "
      "(every other AHB master: beats, SDRAM words).",
      [this](unsigned i) { return component(i); });
  std::vector<std::string> classes(kClassNames.begin(), kClassNames.end());
  g.vector("by_class", classes, StatUnit::Fj, Y,
           "Instruction energy by class: retired instructions x base energy, plus the pair overheads "
           "ending in the class (part of `by_component.core`).",
           [this](unsigned i) { return class_energy(i); });
  g.counter(
      "pairs_fj", [this] { return pairs_energy(); }, StatUnit::Fj, Y,
      "Inter-instruction overheads (fine mode; 0 otherwise), included in `by_class`.");
  g.counter(
      "stall_cycles", [this] { return stall_cycles(); }, StatUnit::Cycles, Y,
      "Cycles charged at `stall_cycle_pj`: annulled slots, trap entry and every `timing.stalls.*`.");
  using R = const MasterCounts*;
  auto& t = g.table<R>("by_master", Y, "Per AHB master: its bus activity and the energy it costs.", [this] {
    std::vector<R> rows;
    for (const MasterCounts& m : masters()) rows.push_back(&m);
    return rows;
  });
  t.field("hindex", "int", StatUnit::Id, Y, "AHB master index.", [](R m) { return m->hindex; });
  t.field("name", "string", StatUnit::Text, Y, "Master name.", [](R m) { return m->name; });
  t.field("beats", "int", StatUnit::Count, Y,
          "32-bit AHB data beats of every transaction (DMI-served, routed, P&P and ERROR responses).",
          [](R m) { return m->beats; });
  t.field("sdram_read_words", "int", StatUnit::Count, Y, "Beats read from SDRAM.",
          [](R m) { return m->sdram_read_words; });
  t.field("sdram_write_words", "int", StatUnit::Count, Y, "Beats written to SDRAM.",
          [](R m) { return m->sdram_write_words; });
  t.field("apb_accesses", "int", StatUnit::Count, Y, "Transactions to the APB bridge.",
          [](R m) { return m->apb_accesses; });
  t.field("energy_fj", "int", StatUnit::Fj, Y, "Their energy (AHB + SDRAM + APB).",
          [this](R m) { return wide_json(master_energy(*m)); });

  // Per region: the CPU-side energy and its components.
  StatsRegistry& reg = g.registry();
  RegionFigure total_fig;
  total_fig.name = "energy_fj";
  total_fig.unit = StatUnit::Fj;
  total_fig.inv = Y;
  total_fig.desc = "With `--energy`: energy caused by the CPU in the region (as `energy.cpu_fj`).";
  total_fig.read = [this](unsigned) { return cpu_total(); };
  reg.add_region_figure(std::move(total_fig));
  RegionFigure comp_fig;
  comp_fig.name = "energy";
  comp_fig.names.assign(kCompNames.begin(), kCompNames.begin() + kCpuComps);
  comp_fig.unit = StatUnit::Fj;
  comp_fig.inv = Y;
  comp_fig.desc = "With `--energy`: the region's energy by component (as `energy.by_component`, CPU side).";
  comp_fig.read = [this](unsigned i) { return component(i); };
  reg.add_region_figure(std::move(comp_fig));
}

}  // namespace l3vp::energy
