// The energy model (README.md): energy of a run, exact in femtojoules,
// from the core's counters, the AHB transaction probe and, in the fine-grain
// mode, the core's step probe.
//
// The energy is linear in invariant counts, so it is kept as counts and
// multiplied out when read (gem5's "power as expressions over statistics"):
//   CPU core  sum_c N_c E_c + sum_(a,b) P_ab E_ab + S E_stall
//   I-cache   Mi E_imiss          D-cache  Md E_dmiss
//   AHB/APB/SDRAM  the CPU master's beats, APB accesses and SDRAM words
//   GRETH DMA every other master's beats, SDRAM words (and APB accesses)
//   static    P_static * cycles / clock      idle  I E_idle
// with N_c retired instructions of class c, P_ab pairs of consecutive
// retired instructions (fine mode only), Mi I-cache misses, Md D-cache read
// misses, S stall cycles (annulled slots, trap entry and every stall
// bucket of the timing model: cycles - idle - issue cycles) and I idle
// (powered-down) cycles. Bus counts come from the AHB controller (routed
// transactions, by slave and bar) and the core (DMI-served beats, in or
// out of SDRAM). Counting costs the core one out-of-line call per DMI-served
// bus transaction; only the fine mode needs the (slower) observed loop.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core.h"
#include "energy_profile.h"
#include "params.h"
#include "stats.h"

namespace l3vp::energy {

// What the owner (Leon3mp) builds the model from: the profile, a shipped
// name or a JSON file; "" = no energy model.
struct EnergyParams {
  std::string profile;
  // Configuration rows (below), keys below the instance prefix.
  static const param::Rows<EnergyParams>& rows();
};

// The configuration rows: keys below the instance prefix the owner gives.
inline const param::Rows<EnergyParams>& EnergyParams::rows() {
  using namespace param;
  // clang-format off
  static const Rows<EnergyParams> r = {
    {{"profile", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "",
      "energy model profile (`--energy`): a shipped name (`leon3-90nm-estimate`, `flat`) or a JSON file; "
      "empty = no energy model (docs/energy.md)"}, L3VP_PARAM_FIELD(EnergyParams, profile)},
  };
  // clang-format on
  return r;
}

class EnergyModel {
 public:
  enum Comp : unsigned { Core, ICache, DCache, Ahb, Apb, Sdram, Static, Idle, GrethDma, kComps };
  // Components caused by the CPU (the first kCpuComps): what regions and
  // the profile's functions measure. GRETH DMA runs beside the CPU and is
  // only reported for the whole run (per region it would depend on where
  // the quantum cut the run).
  static constexpr unsigned kCpuComps = 8;
  static const std::array<const char*, kComps> kCompNames;

  // What the model reads of the core (timed mode).
  struct CoreView {
    // The core's counters through its accessors (Core::counters() and
    // timing_counters() bring lazily kept figures, e.g. annul_cycles, up to date).
    std::function<const leon3::CoreCounters&()> ctr;
    std::function<const leon3::CoreTimingCounters&()> tctr;
    std::function<uint64_t()> cycles;  // the core's cycles(), idle included
    uint64_t clock_hz = 0;
  };
  // Per AHB master: what it did on the bus.
  struct MasterCounts {
    unsigned hindex = 0;
    std::string name;
    uint64_t beats = 0, sdram_read_words = 0, sdram_write_words = 0, apb_accesses = 0;
    uint64_t ahb_fj_per_beat = 0;  // set by the model from the profile
  };
  // The bus side: the masters (hindex, name) and a reader that fills their
  // counts now (the platform sums the AHB controller's routed counts and the
  // core's DMI-served beats; see Leon3mp).
  struct BusView {
    unsigned cpu_master = 0;  // AHB master index of the CPU
    std::vector<std::pair<unsigned, std::string>> masters;
    std::function<void(std::vector<MasterCounts>&)> read;  // fills beats..apb_accesses, same order
  };

  // Throws ProfileError when the profile names an AHB master the bus lacks.
  EnergyModel(Profile p, CoreView core, BusView bus);
  ~EnergyModel() { detach(); }
  EnergyModel(const EnergyModel&) = delete;
  EnergyModel& operator=(const EnergyModel&) = delete;

  // Fine mode: listens to the core's step probe (attach the energy model
  // before other step listeners that read it, e.g. the profiler). The coarse
  // mode listens to nothing: it only reads counters.
  void attach(leon3::Core& core);
  void detach();

  // The step listener (public for unit tests).
  void on_step(const leon3::StepRecord& s);

  // Energies now, in fJ, 128 bits wide (README "Width": 2^64 fJ is only
  // 18.4 kJ, 18 simulated seconds at the 1 kW a profile may give).
  uint128 component(unsigned c) const;
  uint128 class_energy(unsigned c) const;  // base energy + pair overheads ending in class c
  uint128 pairs_energy() const;
  uint128 cpu_total() const;  // the kCpuComps components
  uint128 total() const;      // every component
  uint64_t stall_cycles() const;
  uint128 static_energy(uint64_t cycles) const;      // floor(P * cycles / clock)
  const std::vector<MasterCounts>& masters() const;  // read now
  const Profile& profile() const { return p_; }

  // energy.* under `g` and the per-region figures energy_fj and
  // energy.{core,...} (call before Regions::register_stats).
  void register_stats(const StatsGroup& g);

 private:
  uint128 master_energy(const MasterCounts& m) const;
  // Component c with the bus counts `m` already read (cpu_total() and
  // total() read the bus once for all components).
  uint128 component(unsigned c, const std::vector<MasterCounts>& m) const;

  Profile p_;
  CoreView core_;
  BusView bus_;
  mutable std::vector<MasterCounts> masters_;  // refreshed by masters()
  std::vector<uint64_t> pair_count_;           // fine mode: [prev * kClasses + cur]
  unsigned prev_class_ = kClasses;             // class of the last retired instruction
  leon3::Core* core_probe_ = nullptr;
  Probe<leon3::StepRecord>::Id step_id_ = 0;
};

}  // namespace l3vp::energy
