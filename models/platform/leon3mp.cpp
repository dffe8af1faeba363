#include "leon3mp.h"

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "log.h"

namespace l3vp {

Leon3Params Leon3mp::cpu_params(const PlatformConfig& c) {
  c.validate();  // first member built: nothing is allocated from a bad config
  Leon3Params p;
  p.core.nwin = c.nwin;
  p.core.reset_pc = 0x00000000;  // rstaddr: the PROM
  p.period = c.period();
  p.quantum = c.quantum();
  p.dmi = c.dmi;
  return p;
}

ApbuartParams Leon3mp::uart_params(const PlatformConfig& c) {
  ApbuartParams p;  // template UART #1: pindex 1, paddr 0x001, pirq 2, FIFO 4
  p.clk_period = c.period();
  return p;
}

GptimerParams Leon3mp::gptimer_params(const PlatformConfig& c) {
  GptimerParams p;  // pindex 3, paddr 0x003, pirq 8, sepirq, 2 timers, 8/32 bits
  p.clk_period = c.period();
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
      gptimer("gptimer", gptimer_params(cfg)),
      cfg_(cfg) {

  // --- LEON3: AHB master 0 --------------------------------------------------
  AhbPnp leon3;
  leon3.id = pnp_id(VENDOR_GAISLER, DEV_LEON3, 3, 0);  // 0x01003060
  ahb.bind_master(cpu.isock, 0, leon3, "leon3");
  cpu.set_intack_sink(&irqmp);
  cpu.on_halt = [this](unsigned tt, uint32_t pc, uint32_t o0) {
    halt_ = Halt{true, tt, pc, o0};
    sc_core::sc_stop();
  };

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
  apb.add_slave(uart_params(cfg).pindex, uart);
  uart.connect_irq(&irqmp);
  if (cfg.uart_out.empty()) {
    uart.set_tx_sink(nullptr);
  } else if (cfg.uart_out != "-") {
    uart_file_ = std::fopen(cfg.uart_out.c_str(), "wb");
    if (!uart_file_)
      throw ConfigError("uart.out: cannot open '" + cfg.uart_out + "': " + std::strerror(errno));
    uart.set_tx_file(uart_file_);
  }  // "-": the model's default sink, stdout
  if (cfg.uart_in == "-") {
    uart.rx_use_stdin(true);
  } else if (!cfg.uart_in.empty() && !uart.rx_load_file(cfg.uart_in)) {
    throw ConfigError("uart.in: cannot read '" + cfg.uart_in + "'");
  }

  // --- IRQMP: APB slot 2 -----------------------------------------------------
  apb.add_slave(2, irqmp);
  irqmp.set_cpu(&cpu);
  irqmp.set_powerdown_status([this] { return cpu.core().powered_down(); });

  // --- GPTIMER: APB slot 3, IRQ 8 (timer 1) / 9 (timer 2) -------------------
  apb.add_slave(gptimer.params().pindex, gptimer);
  gptimer.connect_irq(&irqmp);
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

nlohmann::json Leon3mp::stats() {
  using nlohmann::json;
  const leon3::CoreCounters& c = cpu.core().counters();
  json by_class = json::object();
  for (unsigned i = 0; i < static_cast<unsigned>(leon3::InsnClass::Count); ++i)
    by_class[leon3::insn_class_name(static_cast<leon3::InsnClass>(i))] = c.by_class[i];

  json pulses = json::object();
  for (unsigned l = 1; l < 16; ++l)
    if (irqmp.pulse_count(l)) pulses[std::to_string(l)] = irqmp.pulse_count(l);

  json masters = json::array();
  for (const auto& m : ahb.master_stats())
    masters.push_back({{"hindex", m.hindex},
                       {"name", m.name},
                       {"reads", m.reads},
                       {"writes", m.writes},
                       {"errors", m.errors},
                       {"dmi_grants", m.dmi_grants}});

  const auto& w = cpu.wrapper_counters();
  const uint64_t t_ps = sc_core::sc_time_stamp().value();  // resolution: 1 ps
  return json{
      {"sim_time_ps", t_ps},
      {"sim_time_ns", double(t_ps) / 1000.0},
      {"clock_hz", cfg_.clock_hz},
      {"cycles", cpu.cycles()},
      {"instructions", {{"total", c.instructions}, {"by_class", by_class}}},
      {"annulled", c.annulled},
      {"traps", c.traps},
      {"interrupts", c.interrupts},
      {"idle_cycles", c.idle_cycles},
      {"cpu_bus",
       {{"reads", w.bus_reads},
        {"writes", w.bus_writes},
        {"errors", w.bus_errors},
        {"dmi_grants", w.dmi_grants},
        {"dmi_invalidations", w.dmi_invalidations},
        {"syncs", w.syncs},
        {"powerdowns", w.powerdowns}}},
      {"devices",
       {{"uart",
         {{"tx_bytes", uart.tx_bytes()},
          {"tx_dropped", uart.tx_dropped()},
          {"rx_bytes", uart.rx_bytes()},
          {"rx_dropped", uart.rx_dropped()}}},
        {"irqmp", {{"pulses", pulses}, {"irl_changes", irqmp.irl_changes()}}},
        {"gptimer", {{"underflows", json::array({gptimer.underflows(1), gptimer.underflows(2)})}}},
        {"apb", {{"empty_slot_accesses", apb.empty_slot_accesses()}}}}},
      {"log", {{"guest_errors", Log::count(LogCat::GuestError)}, {"unimp", Log::count(LogCat::Unimp)}}},
      {"bus", {{"ahb", {{"masters", masters}, {"pnp_reads", ahb.pnp_reads()}}}}},
  };
}

}  // namespace l3vp
