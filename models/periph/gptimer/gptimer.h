// GRLIB GPTIMER general-purpose timer unit (hw-reference §4; template:
// 2 timers, 8-bit prescaler, 32-bit timers, separate IRQs 8/9 at 0x80000300).
//
// Analytical model: nothing ticks per clock. The state (prescaler, every
// timer's value) is a snapshot taken at an integer clock cycle c0; the state
// at any later cycle is computed in closed form from it, and a single
// sc_event is scheduled for the next underflow that has a visible side effect
// (IRQ/IP for IE=1 timers, EN clearing for RS=0 timers). See README.md for the
// exact clock-level semantics that the formulas reproduce.
#pragma once
#include <cstdint>
#include <vector>

#include <string>

#include "apb_device.h"
#include "params.h"
#include "probe.h"

namespace l3vp {

// Probe events (README "Probes"). Times are the exact clock edges, even when
// the model learns of an underflow later (see README).
struct TimerUnderflowEvent {
  sc_core::sc_time t;  // clock edge of the underflow
  unsigned timer;      // 1..ntimers
  uint32_t value;      // counter value after it: the reload value (RS=1) or all-ones (RS=0, stopped)
};
struct TimerIpEvent {
  sc_core::sc_time t;  // time of the change
  unsigned timer;      // 1..ntimers
  bool pending;        // new value of TCTRL.IP
};
// Text lines of leon3vp --probe (probe_text.h).
class ProbeText;
void probe_text(ProbeText& o, const TimerUnderflowEvent& e);
void probe_text(ProbeText& o, const TimerIpEvent& e);

// Named after the gptimer.vhd generics; defaults = GR-XC3S-1500 template.
struct GptimerParams {
  unsigned pindex = 3;
  uint32_t paddr = 0x003;
  uint32_t pmask = 0xFFF;
  unsigned pirq = 8;
  unsigned sepirq = 1;   // timer n uses IRQ pirq+n-1
  unsigned sbits = 8;    // prescaler width
  unsigned ntimers = 2;  // 1..7
  unsigned nbits = 32;   // timer width 1..32
  unsigned revision = 1;
  sc_core::sc_time clk_period = sc_core::sc_time(25, sc_core::SC_NS);  // 40 MHz
  // The model the owner puts in the GPTIMER slot: "tlm" (this one) or a
  // registered variant (SlotVariants, board_slots.h); the TLM model ignores it.
  std::string model = "tlm";
  // Configuration rows (below), keys below the instance prefix.
  static const param::Rows<GptimerParams>& rows();
};

// The configuration rows: keys below the instance prefix the owner gives.
inline const param::Rows<GptimerParams>& GptimerParams::rows() {
  using namespace param;
  // clang-format off
  static const Rows<GptimerParams> r = {
    {{"model", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "tlm",
      "model in the GPTIMER slot (APB slot 3, IRQ 8/9): `tlm` (built in) or a registered variant "
      "(`SlotVariants`, e.g. an RTL co-simulation)"}, L3VP_PARAM_FIELD(GptimerParams, model)},
  };
  // clang-format on
  return r;
}

class StatsGroup;

class Gptimer : public ApbDevice {
 public:
  using Params = GptimerParams;

  SC_HAS_PROCESS(Gptimer);
  Gptimer(sc_core::sc_module_name name, const Params& p = Params());

  void reset() override;

  // Statistics: underflows of timer n (1-based) up to sc_time_stamp(),
  // counted whether or not they raise an interrupt; reset() keeps them.
  uint64_t underflows(unsigned n);
  // Registers `underflows` (one element per timer) under `g` (devices.gptimer).
  void register_stats(const StatsGroup& g) override;
  // Publishes the underflows up to `t` (ApbDevice::catch_up).
  void catch_up(const sc_core::sc_time& t) override;
  // <prefix>.underflow, <prefix>.ip (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix) override;
  // IRQ line used by timer n.
  unsigned irq_line(unsigned n) const { return p_.sepirq ? p_.pirq + n - 1 : p_.pirq; }
  const Params& params() const { return p_; }

  // --- probes (published only when listened to) ---
  Probe<TimerUnderflowEvent> on_underflow;  // every underflow of every timer
  Probe<TimerIpEvent> on_ip;                // every change of a TCTRL.IP bit

  // TCTRL bits.
  enum : uint32_t { TC_EN = 1, TC_RS = 2, TC_LD = 4, TC_IE = 8, TC_IP = 0x10, TC_CH = 0x20 };
  static constexpr uint32_t kConfigDF = 1u << 9;

 protected:
  // A debug read sees the timers at sc_time_stamp(): the catch-up runs on a
  // copy of the state with interrupts and probes muted.
  bool debug_read(uint32_t word, uint32_t& v) override;

 private:
  using cyc_t = int64_t;  // absolute clock cycle number (sc_time / clk_period)
  static constexpr cyc_t kNever = INT64_MAX;
  static constexpr cyc_t kNoSweep = INT64_MIN / 4;

  struct Timer {
    uint32_t value = 0;   // counter at cycle c0_
    uint32_t reload = 0;  // TRLDVAL
    uint32_t ctrl = 0;    // TCTRL: EN RS IE IP CH (LD is applied at once and reads 0)
    bool en() const { return ctrl & TC_EN; }
    bool rs() const { return ctrl & TC_RS; }
    bool ie() const { return ctrl & TC_IE; }
    bool ch() const { return ctrl & TC_CH; }
    bool chain_pend = false;  // predecessor underflowed exactly at c0_
    uint64_t uflows = 0;
  };

  void build_registers();
  cyc_t cycle_now() const;
  // Bring the snapshot to cycle c, handling every side-effecting underflow
  // on the way (in time order).
  void sync(cyc_t c);
  void touch() { sync(cycle_now()); }
  // Move the snapshot to cycle c assuming the configuration is unchanged.
  void advance(cyc_t c);
  // After a configuration change at c0_: start/stop the prescaler
  // (it runs while any timer is enabled), recompute sweeps, reschedule.
  void reconfigure();
  void recalc_sweeps();
  void reschedule();
  void on_event();

  // Closed-form helpers, valid for c >= c0_ under the current configuration.
  uint32_t scaler_at(cyc_t c) const;
  uint64_t slot_count(unsigned n, cyc_t c) const;   // timer-n slots in (c0_, c]
  cyc_t slot_time(unsigned n, uint64_t k) const;    // k-th slot (k >= 1)
  uint64_t decs(unsigned n, cyc_t c) const;         // decrements in (c0_, c]
  uint64_t uflow_count(unsigned n, cyc_t c) const;  // underflows in (c0_, c]
  uint32_t value_at(unsigned n, cyc_t c) const;
  cyc_t dec_time(unsigned n, uint64_t k) const;    // cycle of k-th decrement
  cyc_t uflow_time(unsigned n, uint64_t k) const;  // cycle of k-th underflow
  bool has_action(unsigned n) const { return t_[n].en() && (t_[n].ie() || !t_[n].rs()); }
  sc_core::sc_time cyc_time(cyc_t c) const { return sc_core::sc_time::from_value(uint64_t(c) * clk_ps_); }
  // Publishes the underflows of (c0_, c] in time order (advance() calls it
  // before it moves the snapshot).
  void publish_underflows(cyc_t c);
  cyc_t next_action() const;

  Params p_;
  uint32_t smask_, vmask_;
  uint64_t clk_ps_;  // clock period in sc_time resolution units

  std::vector<Timer> t_;  // index 1..ntimers (never resized: registers bind to it)
  uint32_t config_ = 0;   // CONFIG: constant fields + DF (no debug-halt input is modelled)
  bool muted_ = false;    // debug_read(): no IRQs, no probes
  // Prescaler.
  uint32_t sreload_ = 0;
  bool run_ = false;
  uint32_t sfrozen_ = 0;         // SCALER while stopped
  cyc_t next_tick_ = 0;          // running: first scaler reload edge > c0_
  cyc_t prev_sweep_ = kNoSweep;  // last tick <= c0_ that started a timer sweep
  cyc_t h0_ = kNever;            // first sweep-starting tick > c0_
  cyc_t pe_ = 1;                 // period of sweep-starting ticks
  cyc_t c0_ = 0;

  sc_core::sc_event ev_;
};

}  // namespace l3vp
