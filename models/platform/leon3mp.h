// The GR-XC3S-1500 "leon3mp" platform: the one place that owns the memory
// map, the IRQ map and the plug&play table (hw-reference §1.2, §1.3, §2.4).
//
//   AHB masters  0 LEON3
//                4 GRETH (DMA)
//                5 CHKSUM (DMA; chksum.enable only)
//   AHB slaves   0 MCTRL   PROM 0x00000000 (bar 0x000/0xE00), I/O 0x20000000
//                          (0x200/0xE00, empty), RAM 0x40000000 (0x400/0xC00)
//                1 APBCTRL 0x80000000 (0x800/0xFFF), APB P&P at 0x800FF000
//                AHB P&P   0xFFFFF000 (served by AHBCTRL)
//   APB slots    0 MCTRL regs   0x80000000
//                1 APBUART      0x80000100  IRQ 2
//                2 IRQMP        0x80000200
//                3 GPTIMER      0x80000300  IRQ 8 (timer 1), 9 (timer 2)
//                5 CHKSUM       0x80000500  IRQ 10 (chksum.enable only)
//               11 stream checker 0x80000B00 (simulator only, not in P&P)
//               12 region marker 0x80000C00 (simulator only, not in P&P)
//               13 GRETH        0x80000D00  IRQ 6
//
// APB slots 3 and 5 are rows of the board's slot table (board_slots.h,
// slots/*.cpp), built by the constructor's loop over it (mount_slots()).
//
// Network: the GRETH is end 0 of `link` (EthLink, parameters from net.*);
// end 1 is left to the executable (simulated host, TAP device or nothing:
// frames are then counted and dropped). An idle GRETH (TE = RE = 0) never
// schedules an event.
//
// Timed mode (PlatformConfig::mode, the default) switches on the cycle-
// approximate CPU model and every bus cost: AHB transfer/burst/arbitration,
// PROM/SDRAM wait states (also in DMI grants), APB bridge cost; functional
// mode has none of them (docs/timing.md).
#pragma once
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <systemc>
#include <vector>

#include "ahb_ctrl.h"
#include "apb_ctrl.h"
#include "apbuart.h"
#include "board_listeners.h"
#include "board_slots.h"
#include "chksum.h"
#include "config.h"
#include "elf_loader.h"
#include "energy_model.h"
#include "eth_link.h"
#include "gptimer.h"
#include "greth.h"
#include "irqmp.h"
#include "leon3_tlm.h"
#include "mctrl.h"
#include "memory.h"
#include "probe_registry.h"
#include "profiler.h"
#include "region_marker.h"
#include "stats.h"
#include "stream_check.h"

namespace l3vp {

class Leon3mp : public sc_core::sc_module {
 public:
  // Global addresses of the template map.
  static constexpr uint32_t kPromBase = 0x00000000;
  static constexpr uint32_t kSdramBase = 0x40000000;
  static constexpr uint32_t kApbBase = 0x80000000;

  // How the CPU stopped (valid after sc_start() returns).
  struct Halt {
    bool halted = false;  // error mode reached
    unsigned tt = 0;
    uint32_t pc = 0, o0 = 0;
  };

  Leon3mp(sc_core::sc_module_name name, const PlatformConfig& cfg);
  ~Leon3mp() override;

  // Loads an ELF image into PROM/SDRAM (throws ElfError).
  const ElfImage& load_elf(const std::string& path);
  // Boot modes (docs/user-guide.md "Boot modes", README "Boot modes"):
  //  boot_loader: the state a boot loader (GRMON load + run, mkprom, QEMU
  //    -kernel, SIS) leaves: UART on at 38400 baud, 1 MHz timer tick, timer 1
  //    free-running, IRQMP cleared, caches on, supervisor, ET = 0, WIM = 2,
  //    %fp/%sp at the top of SDRAM, TBR = 0; PC = entry. Device registers are written
  //    through their register banks (hooks run, no bus transaction, no time).
  //  boot_at: CPU in its reset state with PC = entry (nPC = entry + 4).
  //  boot_reset: a plain reset (PC = 0, the PROM).
  void boot_loader(uint32_t entry);
  void boot_at(uint32_t entry);
  void boot_reset();
  // Is `addr` in the RAM of the memory map (SDRAM at 0x40000000, sdram_size)?
  // leon3vp boots such an entry in loader mode by default.
  bool in_ram(uint32_t addr) const;
  // Error-mode diagnosis: a note when the trap had no handler, i.e. the
  // 16-byte trap-table entry at TBR.TBA + tt * 16 (or, when the CPU stopped
  // inside the table at TBR.TBA, the entry it ran into) is not backed by
  // PROM/SDRAM or holds four zero words. Empty string otherwise. Call after
  // the CPU halted (reads memory without side effects).
  std::string trap_handler_note(unsigned tt, uint32_t pc);
  // The CPU never runs past `t`; call before sc_start(t).
  void set_end_time(const sc_core::sc_time& t) { cpu.set_end_time(t); }
  // Per-instruction text trace (leon3::write_trace_line) into `f`, a
  // listener of the core's execute probe; nullptr = off.
  void set_trace(std::FILE* f);
  // Per-function profile (symbols of the loaded ELF); call after load_elf().
  // per_pc: also keep a per-PC histogram.
  void enable_profile(bool per_pc);
  bool profiling() const { return profiling_; }
  const Profiler& profiler() const { return profiler_; }
  // The energy model (energy.profile / --energy), or null.
  const energy::EnergyModel* energy() const { return energy_.get(); }
  const Regions& regions() const { return regions_; }
  // The --uart-out / uart.out file (null for stdout or no output), for the
  // caller to check for write errors at the end of the run.
  std::FILE* uart_out_file() const { return uart_file_; }
  // Human-readable profile + region table (leon3vp --profile).
  std::string profile_report();
  // Per-PC histogram as text lines "pc function instructions cycles ic_misses dc_misses".
  std::string pc_histogram();

  // The board's probes by name (models/common/probe_registry.h): every
  // model registered its probes in the constructor as "<instance>.<probe>"
  // (cpu.trap, ahb.transaction, greth.frame_sent, chksum.op, ...);
  // leon3vp --probe attaches to them by name. One registry per board.
  ProbeRegistry& probes() { return probes_; }
  const ProbeRegistry& probes() const { return probes_; }

  // Debug (leon3vp --probe-all): a counting listener on every probe of the
  // registry, to prove that listening changes no result (testbenches/cli,
  // cli.probes.*). counts[i]: events seen by probes().entries()[i].
  using ProbeCounts = std::vector<uint64_t>;
  void listen_all_probes();
  const ProbeCounts& probe_counts() const { return probe_counts_; }

  const Halt& halt() const { return halt_; }
  // What happens when the CPU halts (error mode or exit): by default the
  // simulation stops (sc_stop()). Several boards in one kernel set their own
  // action instead, so that one board's halt does not stop the others (it
  // then calls sc_stop() itself when every board has halted).
  void set_on_halt(std::function<void(Leon3mp&)> fn) { on_halt_ = std::move(fn); }
  const PlatformConfig& config() const { return cfg_; }
  const ElfImage& image() const { return image_; }
  std::vector<LoadRegion> load_regions();

  // Simulation-side statistics (docs/stats-schema.md): time, cycles,
  // instruction counts, devices, log counts, bus masters. The registry walk:
  // every model registered its statistics in the constructor; the
  // executable adds its own (stop, host, version, ...) to stats_registry().
  nlohmann::json stats();
  StatsRegistry& stats_registry() { return stats_; }

  // --- the devices (public: tests and the executable inspect them) ---
  Leon3 cpu;
  AhbCtrl ahb;
  Mctrl mctrl;
  Memory prom;
  Memory sdram;
  ApbCtrl apb;
  Apbuart uart;
  Irqmp irqmp;
  RegionMarker marker;
  StreamCheck stream_check;  // APB slot 11, hidden: checks received data (stream_check.h)
  Greth greth;
  EthLink link;  // end 0 = greth, end 1 = free for the PC side
  // The devices of the slot table (board_slots.h, models/platform/slots/):
  // the model in the slot named `name` (the built-in one or a variant), or
  // null when the row's device is not enabled (chksum.enable off).
  ApbDevice* device(const std::string& name);
  // The GPTIMER slot (APB slot 3, IRQ 8 and 9): the model gptimer.model
  // chose. gptimer() is the built-in TLM model, or null when a variant sits
  // in the slot.
  ApbDevice& timer_slot() { return *device("gptimer"); }
  Gptimer* gptimer() { return dynamic_cast<Gptimer*>(device("gptimer")); }
  // The checksum engine (APB slot 5, IRQ 10, AHB master 5): the TLM model,
  // or null when chksum.enable is off (the default) or a variant sits there.
  Chksum* chksum() { return dynamic_cast<Chksum*>(device("chksum")); }

  // The devices' Params: the platform's wiring (clock, slots, the link's
  // speed at the GRETH) plus the values of each device's configuration rows
  // under its instance prefix (uart, gptimer, chksum, greth, energy, net).
  static EthLinkParams link_params(const PlatformConfig& c);  // net.*
  static GrethParams greth_params(const PlatformConfig& c);   // greth.*, net.mac

 private:
  static Leon3Params cpu_params(const PlatformConfig& c);
  static ApbuartParams uart_params(const PlatformConfig& c);
  void mount_slots();
  void bind_slot_master(const SlotRow& row, ApbDevice& dev);

  void register_stats();
  void register_probes();

  PlatformConfig cfg_;
  // The slot table's devices that are on the board, by APB slot (owned).
  struct Mounted {
    const SlotRow* row;
    std::unique_ptr<ApbDevice> dev;
  };
  std::vector<Mounted> slots_;
  // The listener table's listeners of this board (board_listeners.h).
  std::vector<std::pair<const ListenerRow*, std::unique_ptr<BoardListener>>> listeners_;
  StatsRegistry stats_;
  ProbeRegistry probes_;
  std::unique_ptr<energy::EnergyModel> energy_;  // before profiler_: it reads the model
  Profiler profiler_;
  Regions regions_;
  bool profiling_ = false;
  Probe<leon3::ExecuteEvent>::Id trace_listener_ = 0;
  ProbeCounts probe_counts_;
  Halt halt_;
  std::function<void(Leon3mp&)> on_halt_;  // set_on_halt(); empty: sc_stop()
  ElfImage image_;
  std::FILE* uart_file_ = nullptr;
};

}  // namespace l3vp
