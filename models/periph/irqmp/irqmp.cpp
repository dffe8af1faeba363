#include "irqmp.h"
#include "probe_registry.h"
#include "stats.h"

#include <stdexcept>

namespace l3vp {

namespace {
// Number of the highest set bit (0 when none).
unsigned highest(uint32_t v) { return v ? 31u - static_cast<unsigned>(__builtin_clz(v)) : 0u; }
}  // namespace

Irqmp::Irqmp(sc_core::sc_module_name name, const Params& p) : ApbDevice(name, 256), p_(p) {
  if (p_.ncpu != 1 || p_.eirq != 0) throw std::invalid_argument("Irqmp: only ncpu=1, eirq=0 is modelled");
  pnp_.id = pnp_id(VENDOR_GAISLER, DEV_IRQMP, p_.revision, 0);
  pnp_.bar = pnp_bar(p_.paddr, p_.pmask, false, false, BAR_APBIO);
  build_registers();
}

void Irqmp::build_registers() {
  // Bit 0 (interrupt 0 does not exist) and bits 31:16 (no extended
  // interrupts, eirq = 0) of every register read 0 and ignore writes.
  constexpr uint32_t kRsvd = ~kIrqBits;
  auto upd = [this](uint32_t) { update(); };
  // paddr[7:6] = "00" decodes paddr[4:2] only, so 0x20..0x3C alias 0x00..0x1C.
  for (uint32_t alias : {0x00u, 0x20u}) {
    const std::string sfx = alias ? "_ALIAS" : "";
    // ILEVEL is not reset in the VHDL (except reset-all builds); power-on 0.
    regs_.add("ILEVEL" + sfx, alias + 0x00).bind(ilevel_).rsvd(kRsvd).no_reset(~0u).on_write(upd);
    // Writable in the VHDL: a write replaces the pending bits.
    regs_.add("IPEND" + sfx, alias + 0x04).bind(ipend_).rsvd(kRsvd).on_write(upd);
    // Alias of CPU 0's force register, plain write.
    regs_.add("IFORCE0" + sfx, alias + 0x08).bind(iforce_).rsvd(kRsvd).on_write(upd);
    // Write 1 clears IPEND bits; nothing stored, reads 0.
    regs_.add("ICLEAR" + sfx, alias + 0x0C).no_store().rsvd(kRsvd).on_write([this](uint32_t v) {
      ipend_ &= ~v;
      update();
    });
    // MPSTAT; with ncpu = 1 offset 0x14 (BRDCST on SMP builds) decodes to it too.
    // Writing 1 to bit n restarts CPU n; CPU 0 always runs after reset, so
    // the whole register is read-only here.
    for (uint32_t off : {0x10u, 0x14u}) {
      regs_.add((off == 0x10 ? "MPSTAT" : "MPSTAT_0x14") + sfx, alias + off).ro(~0u).read_value([this] {
        uint32_t v = ((p_.ncpu - 1) & 0xF) << 28 | (p_.eirq & 0xF) << 16;
        if (cpu_pwd_ && cpu_pwd_()) v |= 1;
        return v;
      });
    }
    // ERRSTAT: CPU error-mode status; the CPU's error mode is not wired here.
    regs_.add("ERRSTAT" + sfx, alias + 0x18).ro(~0u);
  }
  regs_.add("PIMASK0", 0x40).bind(imask_).rsvd(kRsvd).on_write(upd);
  // Set half 15:1, clear half 31:17; a bit named in both ends up cleared.
  // Reads give the force bits (the same register as IFORCE0).
  regs_.add("PIFORCE0", 0x80)
      .no_store()
      .rsvd(0x00010001u)
      .read_value([this] { return iforce_; })
      .on_write([this](uint32_t v) {
        iforce_ = (iforce_ | (v & kIrqBits)) & ~((v >> 16) & kIrqBits);
        update();
      });
}

void Irqmp::irq_pulse_at(unsigned line, const sc_core::sc_time& t) {
  if (line == 0) return;  // interrupt 0 does not exist
  if (line > 15) {
    Log::unimp(name(), "pulse on extended interrupt line " + std::to_string(line) + " (eirq=0)");
    return;
  }
  ++pulses_[line];
  if (on_line.has_listeners()) on_line.notify({t, line});
  ipend_ |= 1u << line;
  update(t);
}

void Irqmp::intack(unsigned level, const sc_core::sc_time& t) {
  if (level == 0 || level > 15) return;
  // `t` is the CPU's own time of the acknowledge (ahead of sc_time_stamp()
  // inside its quantum): the probes get it; the IRL change it causes is
  // stamped with it too.
  if (on_intack.has_listeners()) on_intack.notify({t, level});
  const uint32_t bit = 1u << level;
  // Force has precedence: the pending bit survives if the force bit was set.
  if (iforce_ & bit)
    iforce_ &= ~bit;
  else
    ipend_ &= ~bit;
  update(t);
}

void Irqmp::update(const sc_core::sc_time& t) {
  const uint32_t req = (ipend_ | iforce_) & imask_ & kIrqBits;
  unsigned level = highest(req & ilevel_);
  if (level == 0) level = highest(req & ~ilevel_);
  if (level == irl_) return;
  irl_ = level;
  ++irl_changes_;
  if (cpu_) cpu_->set_irl(level);
  irl_changed_.notify(access_offset());
  if (on_irl.has_listeners()) on_irl.notify({t, level});
}

void Irqmp::reset() {
  // Declared reset values: IPEND, IFORCE, PIMASK 0; ILEVEL kept.
  // Statistics survive a reset (they cover the whole run).
  regs_.reset();
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

void probe_text(ProbeText& o, const IrqLineEvent& e) {
  o.at(e.t);
  o.num("line", e.line);
}

void probe_text(ProbeText& o, const IrlEvent& e) {
  o.at(e.t);
  o.num("level", e.level);
}

void probe_text(ProbeText& o, const IntAckEvent& e) {
  o.at(e.t);
  o.num("level", e.level);
}

void Irqmp::register_probes(ProbeRegistry& r, const std::string& prefix) {
  r.add(prefix, "line", on_line, "line");
  r.add(prefix, "irl", on_irl, "level");
  r.add(prefix, "intack", on_intack, "level");
}

}  // namespace l3vp
