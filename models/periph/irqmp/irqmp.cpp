#include "irqmp.h"
#include "stats.h"

#include <stdexcept>

namespace l3vp {

namespace {
// Number of the highest set bit (0 when none).
unsigned highest(uint32_t v) { return v ? 31u - static_cast<unsigned>(__builtin_clz(v)) : 0u; }
}  // namespace

Irqmp::Irqmp(sc_core::sc_module_name name, const Params& p) : ApbDevice(name, 256), p_(p) {
  if (p_.ncpu != 1 || p_.eirq != 0)
    throw std::invalid_argument("Irqmp: only ncpu=1, eirq=0 is modelled");
  pnp_.id = pnp_id(VENDOR_GAISLER, DEV_IRQMP, p_.revision, 0);
  pnp_.bar = pnp_bar(p_.paddr, p_.pmask, false, false, BAR_APBIO);
  build_registers();
}

void Irqmp::build_registers() {
  // paddr[7:6] = "00" decodes paddr[4:2] only, so 0x20..0x3C alias 0x00..0x1C.
  for (uint32_t alias : {0x00u, 0x20u}) {
    const std::string sfx = alias ? "_ALIAS" : "";
    regs_.add("ILEVEL" + sfx, alias + 0x00)
        .on_read([this] { return ilevel_; })
        .on_write([this](uint32_t v) { ilevel_ = v & kIrqBits; update(); });
    // Writable in the VHDL: a write replaces the pending bits.
    regs_.add("IPEND" + sfx, alias + 0x04)
        .on_read([this] { return ipend_; })
        .on_write([this](uint32_t v) { ipend_ = v & kIrqBits; update(); });
    // Alias of CPU 0's force register, plain write.
    regs_.add("IFORCE0" + sfx, alias + 0x08)
        .on_read([this] { return iforce_; })
        .on_write([this](uint32_t v) { iforce_ = v & kIrqBits; update(); });
    regs_.add("ICLEAR" + sfx, alias + 0x0C)
        .on_read([] { return 0u; })
        .on_write([this](uint32_t v) { ipend_ &= ~(v & kIrqBits); update(); });
    // MPSTAT; with ncpu = 1 offset 0x14 (BRDCST on SMP builds) decodes to it too.
    for (uint32_t off : {0x10u, 0x14u}) {
      regs_.add((off == 0x10 ? "MPSTAT" : "MPSTAT_0x14") + sfx, alias + off)
          .on_read([this] {
            uint32_t v = ((p_.ncpu - 1) & 0xF) << 28 | (p_.eirq & 0xF) << 16;
            if (cpu_pwd_ && cpu_pwd_()) v |= 1;
            return v;
          })
          // Writing 1 to bit n restarts CPU n; CPU 0 always runs after reset.
          .on_write([](uint32_t) {});
    }
    // ERRSTAT: CPU error-mode status; the CPU's error mode is not wired here.
    regs_.add("ERRSTAT" + sfx, alias + 0x18).on_read([] { return 0u; }).on_write([](uint32_t) {});
  }
  regs_.add("PIMASK0", 0x40)
      .on_read([this] { return imask_; })
      .on_write([this](uint32_t v) { imask_ = v & kIrqBits; update(); });
  // Set half 15:1, clear half 31:17; a bit named in both ends up cleared.
  regs_.add("PIFORCE0", 0x80)
      .on_read([this] { return iforce_; })
      .on_write([this](uint32_t v) {
        iforce_ = (iforce_ | (v & kIrqBits)) & ~((v >> 16) & kIrqBits);
        update();
      });
}

void Irqmp::irq_pulse(unsigned line) {
  if (line == 0) return;  // interrupt 0 does not exist
  if (line > 15) {
    Log::unimp(name(), "pulse on extended interrupt line " + std::to_string(line) + " (eirq=0)");
    return;
  }
  ++pulses_[line];
  if (on_irq_pulse_) on_irq_pulse_(line, now());
  ipend_ |= 1u << line;
  update();
}

void Irqmp::intack(unsigned level) {
  if (level == 0 || level > 15) return;
  const uint32_t bit = 1u << level;
  // Force has precedence: the pending bit survives if the force bit was set.
  if (iforce_ & bit) iforce_ &= ~bit;
  else ipend_ &= ~bit;
  update();
}

void Irqmp::update() {
  const uint32_t req = (ipend_ | iforce_) & imask_ & kIrqBits;
  unsigned level = highest(req & ilevel_);
  if (level == 0) level = highest(req & ~ilevel_);
  if (level == irl_) return;
  irl_ = level;
  ++irl_changes_;
  if (cpu_) cpu_->set_irl(level);
  irl_changed_.notify(access_offset());
}

void Irqmp::reset() {
  // ILEVEL is not reset in the VHDL (except reset-all builds); power-on 0.
  // Statistics survive a reset (they cover the whole run).
  ipend_ = iforce_ = imask_ = 0;
  update();
}

// ---------------------------------------------------------------- statistics

void Irqmp::register_stats(const StatsGroup& g) {
  g.value("pulses", "object", StatUnit::Count, StatInv::Yes,
          "Interrupt pulses received per IRQ line: keys are decimal line numbers, only lines with at "
          "least one pulse appear.",
          [this] {
            nlohmann::json o = nlohmann::json::object();
            for (unsigned l = 1; l < 16; ++l)
              if (pulse_count(l)) o[std::to_string(l)] = pulse_count(l);
            return o;
          });
  g.counter("irl_changes", &irl_changes_, StatUnit::Count, StatInv::Yes,
            "Changes of the interrupt level driven to the CPU.");
}

}  // namespace l3vp
