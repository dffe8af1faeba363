// GRLIB IRQMP multiprocessor interrupt controller, single-CPU build
// (hw-reference §5; template: ncpu=1, eirq=0, APB slot 2 at 0x80000200).
//
// Peripherals pulse lines 1..15 (IrqLineSink); the controller keeps IPEND,
// IFORCE, PIMASK and ILEVEL, recomputes the CPU's interrupt request level
// after every change and hands it to the CPU (IrlSink) whenever it changes.
// The CPU acknowledges taken interrupts through IntAckSink.
#pragma once
#include <array>
#include <cstdint>
#include <functional>

#include "apb_device.h"
#include "probe.h"

namespace l3vp {

// Probe events (README "Probes"). Times are exact simulated times.
struct IrqLineEvent {
  sc_core::sc_time t;  // time of the pulse
  unsigned line;       // 1..15
};
struct IrlEvent {
  sc_core::sc_time t;  // time of the change
  unsigned level;      // new request level driven to the CPU (0 = none)
};
struct IntAckEvent {
  sc_core::sc_time t;  // the CPU's own time of the interrupt trap (IntAckSink)
  unsigned level;
};
// Text lines of leon3vp --probe (probe_text.h).
class ProbeText;
void probe_text(ProbeText& o, const IrqLineEvent& e);
void probe_text(ProbeText& o, const IrlEvent& e);
void probe_text(ProbeText& o, const IntAckEvent& e);

// Generics of irqmp.vhd that matter to software. Only ncpu = 1 and
// eirq = 0 are modelled (the template configuration).
struct IrqmpParams {
  unsigned pindex = 2;
  uint32_t paddr = 0x002;
  uint32_t pmask = 0xFFF;
  unsigned ncpu = 1;
  unsigned eirq = 0;
  unsigned revision = 4;  // devices table: IRQMP rev 4 (older GRLIB: 3)
};

class StatsGroup;

class Irqmp : public ApbDevice, public TimedIrqLineSink, public IntAckSink {
 public:
  using Params = IrqmpParams;

  Irqmp(sc_core::sc_module_name name, const Params& p = Params());

  // --- wiring ---
  void set_cpu(IrlSink* cpu) { cpu_ = cpu; }
  // Query read as MPSTAT bit 0 (CPU 0 power-down status); default: reads 0.
  void set_powerdown_status(std::function<bool()> f) { cpu_pwd_ = std::move(f); }

  // --- probes (published only when listened to) ---
  Probe<IrqLineEvent> on_line;   // every pulse on an input line 1..15
  Probe<IrlEvent> on_irl;        // every change of the CPU's IRL
  Probe<IntAckEvent> on_intack;  // every interrupt acknowledge (level 1..15)

  // IrqLineSink: a one-clock pulse on pirq[line] sets IPEND[line]. The
  // timed form carries the exact time of a pulse from a device that runs
  // ahead of sc_time_stamp(); the plain one happens at now().
  void irq_pulse(unsigned line) override { irq_pulse_at(line, now()); }
  void irq_pulse_at(unsigned line, const sc_core::sc_time& t) override;
  // IntAckSink: the CPU took interrupt trap `level`.
  void intack(unsigned level, const sc_core::sc_time& t) override;
  // An acknowledge at sc_time_stamp() (unit tests).
  void intack(unsigned level) { intack(level, sc_core::sc_time_stamp()); }

  // Current interrupt request level driven to the CPU (0 = none).
  unsigned irl() const { return irl_; }
  // Notified whenever irl() changes value (both rises and falls). The
  // notification is timed at the moment of the change: a delta notification
  // for pulses/acknowledges, or the access offset for a change caused by an
  // IRQMP register access with an annotated delay. A powered-down CPU
  // wrapper waits on it and re-reads irl().
  sc_core::sc_event& irl_changed() { return irl_changed_; }

  // Statistics: pulses received per line (index 0..15; 0 is never counted).
  uint64_t pulse_count(unsigned line) const { return line < 16 ? pulses_[line] : 0; }
  uint64_t irl_changes() const { return irl_changes_; }
  // Registers pulses and irl_changes under `g` (devices.irqmp).
  void register_stats(const StatsGroup& g) override;
  // <prefix>.line, <prefix>.irl, <prefix>.intack (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix) override;

  void reset() override;

 private:
  static constexpr uint32_t kIrqBits = 0xFFFE;  // lines 15..1, bit 0 never set

  void build_registers();
  void update() { update(now()); }
  void update(const sc_core::sc_time& t);  // recompute irl and deliver changes (at t)

  Params p_;
  IrlSink* cpu_ = nullptr;
  std::function<bool()> cpu_pwd_;

  uint32_t ilevel_ = 0, ipend_ = 0, iforce_ = 0, imask_ = 0;
  unsigned irl_ = 0;
  sc_core::sc_event irl_changed_;
  std::array<uint64_t, 16> pulses_{};
  uint64_t irl_changes_ = 0;
};

}  // namespace l3vp
