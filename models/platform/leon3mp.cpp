#include "leon3mp.h"

#include <cerrno>
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <nlohmann/json.hpp>

#include "log.h"
#include "trap_names.h"
#include "units.h"

namespace l3vp {

Leon3Params Leon3mp::cpu_params(const PlatformConfig& c) {
  c.validate();  // first member built: nothing is allocated from a bad config
  board_slots::check(c);
  Leon3Params p;
  p.core.nwin = c.nwin;
  p.core.reset_pc = 0x00000000;  // rstaddr: the PROM
  p.core.timed = c.timed();
  p.core.timing.load_delay = c.lddel;
  p.core.timing.branch_prediction = c.branch_prediction;
  p.core.timing.mul = c.mul;
  p.core.timing.div_cycles = c.div_cycles;
  p.core.timing.trap_cycles = c.trap_cycles;
  // Each further word of a DMI burst costs what an AHB burst beat costs, so
  // DMI and bus accesses take the same time (docs/timing.md).
  p.core.timing.burst_beat_cycles = c.ahb_burst_cycles_per_word;
  p.core.icache = c.icache;
  p.core.dcache = c.dcache;
  // Cacheable areas = the MCTRL PROM and RAM bars (P&P C bit); the defaults
  // of CoreConfig already say so.
  p.period = c.period();
  p.quantum = c.quantum();
  p.dmi = c.dmi;
  return p;
}

ApbuartParams Leon3mp::uart_params(const PlatformConfig& c) {
  ApbuartParams p;  // template UART #1: pindex 1, paddr 0x001, pirq 2, FIFO 4
  p.clk_period = c.period();
  c.fill("uart", ApbuartParams::rows(), p);
  return p;
}

GrethParams Leon3mp::greth_params(const PlatformConfig& c) {
  GrethParams p;  // template: hindex 4, pindex 13, paddr 0x00D, pirq 6
  p.clk_period = c.period();
  p.line_mbps = link_params(c).mbps;  // the wire it sits on
  c.fill("greth", GrethParams::rows(), p);
  c.fill("net", GrethParams::station_rows(), p);
  return p;
}

EthLinkParams Leon3mp::link_params(const PlatformConfig& c) {
  EthLinkParams p;
  c.fill("net", EthLinkParams::rows(), p);
  return p;
}

Leon3mp::Leon3mp(sc_core::sc_module_name name, const PlatformConfig& cfg)
    : sc_core::sc_module(name),
      cpu("cpu", cpu_params(cfg)),
      ahb("ahb"),
      mctrl("mctrl"),
      prom("prom", cfg.prom_size, Memory::Kind::Rom),
      sdram("sdram", cfg.sdram_size, Memory::Kind::Ram),
      apb("apb"),
      uart("uart", uart_params(cfg)),
      irqmp("irqmp"),
      marker("region_marker"),
      stream_check("stream_check",
                   [this](uint32_t a, uint8_t* d, unsigned n) { return cpu.debug_access(false, a, d, n); }),
      greth("greth", greth_params(cfg)),
      link("eth", link_params(cfg)),
      cfg_(cfg) {
  // --- LEON3: AHB master 0 --------------------------------------------------
  AhbPnp leon3;
  leon3.id = pnp_id(VENDOR_GAISLER, DEV_LEON3, 3, 0);  // 0x01003060
  ahb.bind_master(cpu.isock, 0, leon3, "leon3");
  cpu.set_intack_sink(&irqmp);
  cpu.on_halt.listen([this](const Leon3::HaltEvent& e) {
    halt_ = Halt{true, e.tt, e.pc, e.o0};
    if (on_halt_)
      on_halt_(*this);
    else
      sc_core::sc_stop();
  });

  // --- MCTRL: AHB slave 0 (PROM / I/O / RAM bars), APB slot 0 ---------------
  ahb.add_slave(mctrl.params().hindex, mctrl.ahb_pnp(), "mctrl");
  ahb.bind_slave_bar(mctrl.prom_tsock, mctrl.params().hindex, Mctrl::BAR_PROM);
  ahb.bind_slave_bar(mctrl.io_tsock, mctrl.params().hindex, Mctrl::BAR_IO);
  ahb.bind_slave_bar(mctrl.ram_tsock, mctrl.params().hindex, Mctrl::BAR_RAM);
  mctrl.prom_isock.bind(prom.tsock);
  mctrl.ram_isock.bind(sdram.tsock);
  apb.add_slave(mctrl.params().pindex, mctrl);

  // --- APBCTRL: AHB slave 1, bar 0x800/0xFFF --------------------------------
  ahb.bind_slave(apb.tsock, apb.params().hindex, apb.ahb_pnp(), "apbctrl");

  // --- APBUART: APB slot 1, IRQ 2 -------------------------------------------
  const ApbuartParams up = uart_params(cfg);
  apb.add_slave(up.pindex, uart);
  uart.connect_irq(&irqmp);
  if (up.out.empty()) {
    uart.set_tx_sink(nullptr);
  } else if (up.out != "-") {
    uart_file_ = std::fopen(up.out.c_str(), "wb");
    if (!uart_file_) throw ConfigError("uart.out: cannot open '" + up.out + "': " + std::strerror(errno));
    uart.set_tx_file(uart_file_);
  }  // "-": the model's default sink, stdout
  if (up.in == "-") {
    uart.rx_use_stdin(true);
  } else if (!up.in.empty() && !uart.rx_load_file(up.in)) {
    throw ConfigError("uart.in: cannot read '" + up.in + "'");
  }

  // --- IRQMP: APB slot 2 -----------------------------------------------------
  apb.add_slave(2, irqmp);
  irqmp.set_cpu(&cpu);
  irqmp.set_powerdown_status([this] { return cpu.core().powered_down(); });

  // --- region marker: APB slot 12, simulator only (not in P&P) ---------------
  apb.bind_hidden_slave(marker.tsock, RegionMarker::kPindex, "region_marker");
  // Region accounting listens to the marker and reads the figures the
  // statistics mark per region (register_stats()): the marker store runs
  // inside the CPU's b_transport, at the exact instruction boundary, so no
  // observed loop is needed.
  regions_.set_log_name(std::string(this->name()) + ".regions");
  marker.on_mark.listen([this](const RegionMark& m) { regions_.mark(m.begin, m.id); });

  // --- stream checker: APB slot 11, simulator only (not in P&P) ------------
  // Reads the pieces the firmware names with debug accesses through the CPU's
  // socket: no bus cycles, no cache or device side effects.
  apb.bind_hidden_slave(stream_check.tsock, StreamCheck::kPindex, "stream_check");

  // --- GRETH: APB slot 13 (0x80000D00), IRQ 6, AHB master 4 (DMA) ----------
  apb.add_slave(greth.params().pindex, greth);
  ahb.bind_master(greth.isock, greth.params().hindex, greth.ahb_pnp(), "greth");
  greth.connect_irq(&irqmp);
  greth.connect_link(&link.port(0));  // the GRETH is end 0 of the link
  link.attach(0, &greth);             // net.mac: the GRETH loaded its station address (GrethParams::mac)

  // --- the slot table (board_slots.h): GPTIMER at slot 3, CHKSUM at 5, ... --
  mount_slots();

  // --- snooping: writes of other AHB masters reach the D-cache --------------
  ahb.set_snoop_fn([this](unsigned mst, uint64_t addr, unsigned len) {
    if (mst != 0) cpu.core().snoop_write(static_cast<uint32_t>(addr), len);
  });

  // --- the CPU's DMI-served AHB transactions reach the AHB probe -------------
  // (timed mode; reported by the core only while the probe has listeners)
  cpu.set_dmi_reporter([this] { return ahb.on_transaction.has_listeners(); },
                       [this](const Leon3::DmiTransaction& t) {
                         using K = leon3::CoreBus::Kind;
                         const auto kind = t.kind == K::Fetch  ? AhbTransaction::Kind::Fetch
                                           : t.kind == K::Read ? AhbTransaction::Kind::Read
                                                               : AhbTransaction::Kind::Write;
                         ahb.report_dmi(0, kind, t.addr, t.bytes, t.start, t.end, t.wait);
                       });

  // --- timed mode: bus and memory costs (docs/timing.md) ---------------------
  if (cfg.timed()) {
    const sc_core::sc_time clk = cfg.period();
    AhbCtrl::Timing t;
    t.clock = clk;
    t.transfer_cycles = cfg.ahb_transfer_cycles;
    t.burst_cycles_per_word = cfg.ahb_burst_cycles_per_word;
    t.arbitration = cfg.ahb_arbitration;
    ahb.set_timing(t);
    if (t.arbitration) {
      // The CPU's DMI-served bus transactions take part in arbitration
      // through the side-band (docs/timing.md "Contention"); CPU = port 0.
      cpu.set_arbiter([this](const sc_core::sc_time& start, const sc_core::sc_time& dur) {
        return ahb.arbitrate_dmi(0, start, dur);
      });
      ahb.set_interval_source(
          0, [this](sc_core::sc_time& s, sc_core::sc_time& e) { return cpu.take_bus_interval(s, e); });
    }
    prom.set_latency(clk * double(cfg.prom_ws.read_ws), clk * double(cfg.prom_ws.write_ws));
    sdram.set_latency(clk * double(cfg.sdram_ws.read_ws), clk * double(cfg.sdram_ws.write_ws));
    apb.set_access_delay(clk * double(cfg.apb_access_cycles));
  }
  // --- energy model (energy.profile / --energy; models/energy) -------------
  energy::EnergyParams ep;
  cfg.fill("energy", energy::EnergyParams::rows(), ep);
  if (!ep.profile.empty()) {
    if (!cfg.timed())
      throw energy::ProfileError(
          "the energy model needs timed mode (mode=timed): functional mode has no "
          "cache or stall figures");
    energy::EnergyModel::CoreView cv;
    cv.ctr = [this]() -> const leon3::CoreCounters& { return cpu.core().counters(); };
    cv.tctr = [this]() -> const leon3::CoreTimingCounters& { return cpu.core().timing_counters(); };
    cv.cycles = [this] { return cpu.cycles(); };
    cv.clock_hz = cfg.clock_hz;
    // Bus counts: the AHB controller's routed transactions by slave and
    // bar, plus (CPU) the core's DMI-served beats inside/outside SDRAM.
    cpu.core().set_bus_counting(true, kSdramBase, cfg.sdram_size);
    energy::EnergyModel::BusView bv;
    bv.cpu_master = 0;
    for (const AhbCtrl::MasterStats& m : ahb.master_stats()) bv.masters.emplace_back(m.hindex, m.name);
    const unsigned mctrl_slave = mctrl.params().hindex, apb_slave = apb.params().hindex;
    bv.read = [this, mctrl_slave, apb_slave](std::vector<energy::EnergyModel::MasterCounts>& out) {
      const auto& ms = ahb.master_stats();
      for (size_t i = 0; i < ms.size() && i < out.size(); ++i) {
        const AhbCtrl::MasterStats& m = ms[i];
        energy::EnergyModel::MasterCounts& c = out[i];
        c.beats = 0;
        for (const auto& slave : m.beats)
          for (const auto& bar : slave) c.beats += bar[0] + bar[1];
        c.sdram_read_words = m.beats[mctrl_slave][Mctrl::BAR_RAM][0];
        c.sdram_write_words = m.beats[mctrl_slave][Mctrl::BAR_RAM][1];
        c.apb_accesses = m.txns[apb_slave];
        if (m.hindex == 0) {  // the CPU: its DMI-served transactions
          const auto& d = cpu.core().timing_counters().dmi_beats;
          c.beats += d[0][0] + d[0][1] + d[1][0] + d[1][1];
          c.sdram_read_words += d[0][1];
          c.sdram_write_words += d[1][1];
        }
      }
    };
    energy_ = std::make_unique<energy::EnergyModel>(energy::load_profile(ep.profile), cv, bv);
    energy_->attach(cpu.core());
    profiler_.set_energy([this] { return energy_->cpu_total(); });
  }
  register_probes();
  // --- the listener table (board_listeners.h): listeners feeding --stats ----
  // (after every device and the probe registry: a listener may attach by name)
  for (const ListenerRow& row : board_listeners::table()) listeners_.emplace_back(&row, row.make(*this));
  register_stats();
}

void Leon3mp::mount_slots() {
  for (const SlotRow& row : board_slots::table()) {
    std::unique_ptr<ApbDevice> d = board_slots::build(row, cfg_);
    if (!d) continue;  // not enabled
    ApbDevice& dev = *d;
    apb.add_slave(row.pindex, dev);
    dev.connect_irq(&irqmp);
    if (row.bind_ahb) bind_slot_master(row, dev);
    slots_.push_back({&row, std::move(d)});
  }
}

// A slot whose device is also an AHB master: the built-in model binds through
// its row, a variant through AhbMasterSlot (and must be one).
void Leon3mp::bind_slot_master(const SlotRow& row, ApbDevice& dev) {
  const std::string model = board_slots::model(row, cfg_);
  if (model == "tlm") {
    row.bind_ahb(dev, ahb);
  } else if (auto* m = dynamic_cast<AhbMasterSlot*>(&dev)) {
    m->bind_ahb(ahb);
  } else {
    throw std::logic_error(row.name + " slot variant '" + model + "' is no AHB master");
  }
}

ApbDevice* Leon3mp::device(const std::string& name) {
  for (const Mounted& m : slots_)
    if (m.row->name == name) return m.dev.get();
  return nullptr;
}

void Leon3mp::set_trace(std::FILE* f) {
  leon3::Core& core = cpu.core();
  if (trace_listener_) core.probes().execute.unlisten(trace_listener_);
  trace_listener_ = 0;
  if (f)
    trace_listener_ = core.probes().execute.listen(
        [&core, f](const leon3::ExecuteEvent&) { leon3::write_trace_line(core, f); });
}

void Leon3mp::register_probes() {
  cpu.register_probes(probes_, "cpu");
  ahb.register_probes(probes_, "ahb");
  marker.register_probes(probes_, "marker");
  link.register_probes(probes_, "link");
  irqmp.register_probes(probes_, "irqmp");
  for (const Mounted& m : slots_) m.dev->register_probes(probes_, m.row->name);  // the model in the slot
  uart.register_probes(probes_, "uart");
  greth.register_probes(probes_, "greth");
}

void Leon3mp::listen_all_probes() {
  if (!probe_counts_.empty()) return;  // listening already
  const auto& entries = probes_.entries();
  probe_counts_.assign(entries.size(), 0);  // never resized again: the listeners hold references
  for (size_t i = 0; i < entries.size(); ++i) entries[i].count(probe_counts_[i]);
}

void Leon3mp::enable_profile(bool per_pc) {
  profiler_.set_symbols(image_);
  profiler_.enable_pc_histogram(per_pc);
  profiler_.attach(cpu.core());
  profiling_ = true;
}

Leon3mp::~Leon3mp() {
  if (uart_file_) std::fclose(uart_file_);
}

std::vector<LoadRegion> Leon3mp::load_regions() {
  return {{"prom", kPromBase, &prom}, {"sdram", kSdramBase, &sdram}};
}

const ElfImage& Leon3mp::load_elf(const std::string& path) {
  image_ = l3vp::load_elf(path, load_regions());
  return image_;
}

void Leon3mp::boot_at(uint32_t entry) {
  cpu.core().reset();
  cpu.core().set_pc(entry, entry + 4);
}

void Leon3mp::boot_reset() { cpu.core().reset(); }

bool Leon3mp::in_ram(uint32_t addr) const {
  return addr >= kSdramBase && uint64_t(addr) < uint64_t(kSdramBase) + cfg_.sdram_size;
}

namespace {
// round(num / den), for the scaler values below.
uint64_t div_round(uint64_t num, uint64_t den) { return (num + den / 2) / den; }
// A prescaler/scaler reload for a period of `ticks` clocks, kept in [lo, hi].
uint32_t reload_for(uint64_t ticks, uint32_t lo, uint32_t hi) {
  const uint64_t r = ticks > 0 ? ticks - 1 : 0;
  return static_cast<uint32_t>(std::min<uint64_t>(std::max<uint64_t>(r, lo), hi));
}
}  // namespace

// The values and their sources are in docs/user-guide.md "Boot modes".
void Leon3mp::boot_loader(uint32_t entry) {
  constexpr uint32_t kPsrS = 1u << 7, kPsrPS = 1u << 6;
  constexpr uint32_t kCcrLoader = 0x0081000F;  // DS | IB | DCS = ICS = 11 (enabled)
  constexpr uint32_t kFrame = 96 * 4;          // %sp = %fp - 384, as SIS does
  leon3::Core& c = cpu.core();
  c.reset();  // caches invalid, CWP 0, registers 0
  c.set_pc(entry, entry + 4);
  c.set_psr(kPsrS | kPsrPS);  // ET = 0 (traps off until the program installs its table), PIL 0, CWP 0
  c.set_wim(1u << 1);         // window 1 (above window 0) invalid
  c.set_tbr(0);               // the PROM: no handler unless the program sets one
  const uint32_t top = static_cast<uint32_t>(kSdramBase + cfg_.sdram_size);
  c.set_reg(30, top);           // %fp (%i6)
  c.set_reg(14, top - kFrame);  // %sp (%o6)
  c.set_ccr(kCcrLoader);        // no FI/FD: the caches are already invalid after reset

  // APBUART: 38400 baud (SCALER = round(clk / (8 * baud)) - 1), RE | TE.
  const ApbuartParams up = uart_params(cfg_);
  const uint32_t smax = up.sbits >= 32 ? 0xFFFFFFFFu : (1u << up.sbits) - 1;
  uart.regs().write(0x0C, reload_for(div_round(cfg_.clock_hz, 8 * 38400), 0, smax));
  uart.regs().write(0x08, 0x3);
  // GPTIMER: a 1 MHz tick (SRELOAD = round(clk / 1 MHz) - 1, at least the
  // number of timers, writing SRELOAD also loads SCALER); timer 1 free-running
  // from 0xFFFFFFFF without interrupt (EN | RS | LD), as SIS and QEMU leave it.
  GptimerParams tp;
  cfg_.fill("gptimer", GptimerParams::rows(), tp);
  const uint32_t pmax = tp.sbits >= 32 ? 0xFFFFFFFFu : (1u << tp.sbits) - 1;
  ApbDevice& t = timer_slot();
  t.regs().write(0x04, reload_for(div_round(cfg_.clock_hz, 1000000), tp.ntimers, pmax));
  t.regs().write(0x14, 0xFFFFFFFFu);                                       // TRLDVAL1
  t.regs().write(0x18, Gptimer::TC_EN | Gptimer::TC_RS | Gptimer::TC_LD);  // TCTRL1
  // IRQMP: nothing pending, forced, enabled; every level 0.
  irqmp.regs().write(0x00, 0);       // ILEVEL (not reset by hardware)
  irqmp.regs().write(0x0C, 0xFFFE);  // ICLEAR: IPEND = 0
  irqmp.regs().write(0x08, 0);       // IFORCE
  irqmp.regs().write(0x40, 0);       // PIMASK0
}

std::string Leon3mp::trap_handler_note(unsigned tt, uint32_t pc) {
  const uint32_t tbr = cpu.core().tbr();
  const uint32_t tba = tbr & 0xFFFFF000u;
  // What the 16 bytes at `a` hold: "" (something), else why it is empty.
  auto empty = [this](uint32_t a) -> std::string {
    for (const LoadRegion& r : load_regions()) {
      if (a < r.base || uint64_t(a) + 16 > uint64_t(r.base) + r.mem->size()) continue;
      const uint8_t* p = r.mem->data() + (a - r.base);
      for (unsigned i = 0; i < 16; ++i)
        if (p[i]) return "";
      return "empty " + std::string(r.name) + " at " + hex(a, 8);
    }
    return "no memory at " + hex(a, 8);
  };
  // The CPU stopped inside the trap table, at the start of an empty entry:
  // an earlier trap (the entry's number) went there and found nothing.
  if (pc - tba < 4096 && (pc & 15) == 0) {
    const std::string why = empty(pc);
    if (!why.empty()) {
      const unsigned first = (pc - tba) >> 4;
      return "no trap handler for tt=" + hex(first, 2) + " (" + trap_name(first) +
             "): TBR.TBA=" + hex(tba, 8) + " points at " + why;
    }
  }
  const std::string why = empty(tba + tt * 16);
  if (why.empty()) return "";
  return "no trap handler: TBR.TBA=" + hex(tba, 8) + " points at " + why;
}

// Where each model's statistics go in the --stats JSON (docs/stats-schema.md).
void Leon3mp::register_stats() {
  const StatsGroup root = stats_.root();
  const auto Y = StatInv::Yes;
  const auto N = StatInv::No;
  root.value("sim_time_ps", "int", StatUnit::Ps, Y,
             "Simulated time when the simulation stopped (SystemC time, 1 ps resolution).",
             [] { return sc_core::sc_time_stamp().value(); });
  root.value("sim_time_ns", "number", StatUnit::Ns, Y, "The same in ns (may have a fraction).",
             [] { return double(sc_core::sc_time_stamp().value()) / 1000.0; });
  root.value("clock_hz", "int", StatUnit::Hz, N, "CPU/AMBA clock.", [this] { return cfg_.clock_hz; });
  root.value("mode", "string", StatUnit::Text, Y, "`\"timed\"` or `\"functional\"` (docs/timing.md).",
             [this] { return PlatformConfig::mode_name(cfg_.mode); });
  cpu.register_stats(root);
  if (energy_) energy_->register_stats(root.sub("energy").only_if([this] { return energy_ != nullptr; }));
  regions_.register_stats(root);  // after every counter marked .per_region()
  stream_check.register_stats(root.sub("stream_check"));
  const StatsGroup dev = root.sub("devices");
  uart.register_stats(dev.sub("uart"));
  irqmp.register_stats(dev.sub("irqmp"));
  for (const Mounted& m : slots_) {
    // A device that an `enabled_by` key puts on the board: its rows are optional.
    const StatsGroup g = dev.sub(m.row->name);
    m.dev->register_stats(m.row->enabled_by.empty() ? g : g.only_if([] { return true; }));
  }
  apb.register_stats(dev.sub("apb"));
  const StatsGroup log = root.sub("log");
  // This board's messages: those of the models under its name (Log scopes).
  const std::string scope = name();
  log.value("guest_errors", "int", StatUnit::Count, Y,
            "`Log::guest_error` count of this board's models (firmware mistakes), printed or not "
            "(`--quiet`).",
            [scope] { return Log::count(LogCat::GuestError, scope); });
  log.value("unimp", "int", StatUnit::Count, Y,
            "`Log::unimp` count of this board's models (unmodelled features), printed or not (`--quiet`).",
            [scope] { return Log::count(LogCat::Unimp, scope); });
  log.value(
      "suppressed", "int", StatUnit::Count, Y,
      "Guest-error and unimp messages of this board counted but not printed: beyond the first "
      "`Log::kLinesPerKind` of each kind (`models/common/log.h`); 0 with `--quiet`.",
      [scope] { return Log::suppressed(LogCat::GuestError, scope) + Log::suppressed(LogCat::Unimp, scope); });
  ahb.register_stats(root.sub("bus.ahb"), cfg_.period());
  greth.register_stats(root.sub("net.greth"));
  for (const auto& [row, l] : listeners_) l->register_stats(root.sub(row->stats));
  link.register_stats(root.sub("net.link"));
  profiler_.register_stats(root.sub("profile").only_if([this] { return profiling_; }));
}

nlohmann::json Leon3mp::stats() { return stats_.to_json(); }

namespace {
// " %14s" of an energy in nJ with three decimals, rounded to the pJ with
// integers (exact for any 128-bit fJ value, where a double is not past 2^53).
std::string nj_column(uint128 fj) {
  const uint128 pj = (fj + 500) / 1000;
  std::string frac = std::to_string(unsigned(pj % 1000));
  frac.insert(0, 3 - frac.size(), '0');
  const std::string v = to_decimal(pj / 1000) + "." + frac;
  return " " + std::string(v.size() < 14 ? 14 - v.size() : 0, ' ') + v;
}
}  // namespace

namespace {
// The name column of the region table: the ELF's REGION_NAME for the id
// (firmware/bsp/region.h), "-" for an unnamed region. (The id column is in
// hex, as scripts/cycles-compare and the waveform label unnamed regions: the
// firmware's ids are tags such as 0x50480001, unreadable in decimal.)
std::string region_label(const std::map<uint32_t, std::string>& names, uint32_t id) {
  const auto it = names.find(id);
  return it != names.end() ? it->second : "-";
}
}  // namespace

std::string Leon3mp::profile_report() {
  std::string s;
  char line[256];
  const auto& c = cpu.core().counters();
  const uint64_t cyc = cpu.cycles();
  std::snprintf(line, sizeof line,
                "leon3vp profile (%s mode): %llu cycles (%llu idle), %llu instructions, CPI %.3f\n",
                PlatformConfig::mode_name(cfg_.mode), (unsigned long long)cyc,
                (unsigned long long)c.idle_cycles, (unsigned long long)c.instructions,
                c.instructions ? double(cyc - c.idle_cycles) / double(c.instructions) : 0.0);
  s += line;
  if (profiling_) {
    const Profiler::Counts& tot = profiler_.total();
    s += "\nFlat profile (cycles include stalls, cache misses and trap entry; idle excluded):\n";
    const bool en = profiler_.has_energy();
    std::snprintf(line, sizeof line, "%12s %6s %6s %12s %7s %8s %8s%s  %s\n", "cycles", "%", "cum%", "instrs",
                  "CPI", "I-miss", "D-miss", en ? "     energy-nJ" : "", "function");
    s += line;
    double cum = 0;
    for (const Profiler::Row& r : profiler_.functions()) {
      const double pct = tot.cycles ? 100.0 * double(r.c.cycles) / double(tot.cycles) : 0.0;
      cum += pct;
      const std::string energy = en ? nj_column(r.c.energy_fj) : "";
      std::snprintf(line, sizeof line, "%12llu %6.2f %6.2f %12llu %7.3f %8llu %8llu%s  %s\n",
                    (unsigned long long)r.c.cycles, pct, cum, (unsigned long long)r.c.instructions,
                    r.c.instructions ? double(r.c.cycles) / double(r.c.instructions) : 0.0,
                    (unsigned long long)r.c.ic_misses, (unsigned long long)r.c.dc_misses, energy.c_str(),
                    r.name.c_str());
      s += line;
    }
  }
  if (!regions_.regions().empty()) {
    s += "\nRegions (REGION_BEGIN .. REGION_END, firmware/bsp/region.h):\n";
    const bool en = energy_ != nullptr;
    std::snprintf(line, sizeof line, "%10s %8s %12s %12s %7s %8s %8s %10s %10s %10s%s  %s\n", "region",
                  "entries", "cycles", "instrs", "CPI", "I-miss", "D-miss", "stall-mem", "stall-pipe", "idle",
                  en ? "      energy-nJ" : "", "name");
    s += line;
    for (const auto& [id, r] : regions_.regions()) {
      auto x = [&, &r = r](const char* key) { return regions_.sum(r, key); };
      const uint64_t mem =
          x("stalls.icache_miss") + x("stalls.dcache_miss") + x("stalls.write_buffer") + x("stalls.bus");
      const uint64_t pipe = x("stalls.load_use") + x("stalls.branch") + x("stalls.muldiv");
      const uint64_t cycles = x("cycles"), idle = x("idle_cycles"), instrs = x("instructions");
      const std::string energy = en ? nj_column(x("energy_fj")) : "";
      std::snprintf(
          line, sizeof line, "0x%08x %8llu %12llu %12llu %7.3f %8llu %8llu %10llu %10llu %10llu%s  %s%s\n",
          id, (unsigned long long)r.entries, (unsigned long long)cycles, (unsigned long long)instrs,
          instrs ? double(cycles - idle) / double(instrs) : 0.0, (unsigned long long)x("icache_misses"),
          (unsigned long long)x("dcache_misses"), (unsigned long long)mem, (unsigned long long)pipe,
          (unsigned long long)idle, energy.c_str(), region_label(image().region_names, id).c_str(),
          r.open || r.unbalanced ? "  (unbalanced markers)" : "");
      s += line;
    }
  }
  return s;
}

std::string Leon3mp::pc_histogram() {
  std::string s = "# pc function instructions cycles icache_misses dcache_misses\n";
  char line[64];
  for (const auto& [pc, c] : profiler_.pcs()) {
    std::snprintf(line, sizeof line, "%08x ", pc);
    s += line;
    s += profiler_.function_of(pc);
    std::snprintf(line, sizeof line, " %llu %llu %llu %llu\n", (unsigned long long)c.instructions,
                  (unsigned long long)c.cycles, (unsigned long long)c.ic_misses,
                  (unsigned long long)c.dc_misses);
    s += line;
  }
  return s;
}

}  // namespace l3vp
