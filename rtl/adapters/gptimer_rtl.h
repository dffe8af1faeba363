// The RTL GPTIMER (rtl/gptimer/gptimer.vhd, verilated) behind an APB
// pin-level adapter, a drop-in for the TLM Gptimer in the GPTIMER slot
// (`--rtl gptimer`, `--set gptimer.model=rtl`; rtl/adapters/README.md).
//
// The Verilator model is a plain C++ object stepped on demand, never clocked
// by SystemC:
//  * an APB access at cycle c first steps the model (clock edges with idle
//    pins) up to c, then drives the pins: a read is the combinational prdata
//    after edge c, a write is sampled at edge c itself (the TLM rule "the
//    state after edge c is what an access at cycle c sees; a write at c
//    changes that state");
//  * a second instance, the scout, starts from a copy of the main instance's
//    state (Verilator --savable, serialised into memory) and runs ahead to
//    the next edge where an irq output rises; one sc_event is scheduled there
//    and the main instance pulses the IRQ with that edge's exact time.
// So nothing happens per clock in SystemC and the CPU keeps its long quanta.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apb_device.h"
#include "gptimer.h"  // GptimerParams

class Vgptimer;
class VerilatedContext;
class VerilatedVcdC;

namespace l3vp {

class CheckedVcdFile;  // the trace's file (gptimer_rtl.cpp)

class GptimerRtl : public ApbDevice {
 public:
  using Params = GptimerParams;

  SC_HAS_PROCESS(GptimerRtl);
  // The verilated netlist has fixed generics (the template: 2 timers, 8-bit
  // prescaler, 32-bit timers, IRQ 8/9 separate): other params throw
  // std::invalid_argument. Only pindex/paddr/pmask/revision/clk_period vary.
  GptimerRtl(sc_core::sc_module_name name, const Params& p = Params());
  ~GptimerRtl() override;

  void reset() override;
  void register_stats(const StatsGroup& g) override;
  unsigned irq_line(unsigned n) const { return p_.sepirq ? p_.pirq + n - 1 : p_.pirq; }

  // Verilator's VCD of the main instance's signals, timestamps in ps of
  // simulated time (the board VCD's time base). Throws std::runtime_error
  // when the file cannot be opened. Call before the run.
  void open_trace(const std::string& path);
  // Flushes and closes the trace (also done by the destructor): "" when
  // everything reached the file, else why not ("No space left on device";
  // a write that failed during the run dropped the rest of the trace).
  std::string close_trace();

  // Host-side work: clock edges of the main and the scout instance.
  uint64_t main_edges() const { return main_edges_; }
  uint64_t scout_edges() const { return scout_edges_; }
  // IRQ pulses of timer n (1-based).
  uint64_t irq_pulses(unsigned n) const { return n >= 1 && n <= 2 ? pulses_[n] : 0; }

  // Factory settings of the "rtl" variant of the GPTIMER slot: the trace
  // file of the next instance built by the factory (rtl_variants.cpp).
  static void set_trace_file(const std::string& path) { trace_file_ = path; }
  // Only changes in [start, end] ps are written (--vcd-start/--vcd-end).
  static void set_trace_window(uint64_t start_ps, uint64_t end_ps) {
    trace_start_ps_ = start_ps;
    trace_end_ps_ = end_ps;
  }
  static const std::string& trace_file() { return trace_file_; }

 protected:
  // A debug read shows the timer at sc_time_stamp(): the scout instance is
  // brought there from a copy of the main one (the main instance, the IRQ
  // schedule and the statistics are untouched).
  bool debug_read(uint32_t word, uint32_t& v) override;

 private:
  using cyc_t = int64_t;
  cyc_t cycle_now() const { return static_cast<cyc_t>(now().value() / clk_ps_); }
  sc_core::sc_time cyc_time(cyc_t c) const { return sc_core::sc_time::from_value(uint64_t(c) * clk_ps_); }

  // Combinational APB read of word `w` of `m` (no clock edge).
  static uint32_t pin_read(Vgptimer& m, unsigned w);
  // One rising edge of `m` (clk low, then high).
  static void edge(Vgptimer& m);
  // The same edge with --rtl-trace: both evaluations, dumped at `fall` and
  // `rise` ps.
  void traced_edge(Vgptimer& m, uint64_t fall, uint64_t rise);
  // Main instance: edges with idle pins up to (including) edge c.
  void step_main(cyc_t c);
  // Main instance: edge done at cycle c (hold: a same-cycle write edge).
  void main_edge_done(cyc_t c, bool hold);
  void write_word(unsigned w, uint32_t v);
  // One trace dump at `t` ps (see the window).
  void dump(uint64_t t);
  uint32_t read_word(unsigned w);

  // State copies through Verilator's serialisation (--savable).
  void copy(Vgptimer& from, Vgptimer& to);
  // Could an irq output ever rise without another write? (a timer with
  // EN=1 and IE=1 in the main instance)
  bool irq_possible();
  // Scout ahead of the main instance and schedule the wake-up event.
  void reschedule();
  void on_event();

  Params p_;
  uint64_t clk_ps_;
  std::unique_ptr<VerilatedContext> main_ctx_, scout_ctx_;
  std::unique_ptr<Vgptimer> main_, scout_;
  std::unique_ptr<CheckedVcdFile> vcd_file_;  // outlives vcd_, which writes to it
  std::unique_ptr<VerilatedVcdC> vcd_;
  uint64_t last_dump_ = 0;
  bool dumped_ = false;

  cyc_t m_ = 0;               // the main instance holds the state after edge m_
  bool scout_valid_ = false;  // the scout holds the state the main one reaches at edge scout_c_
  cyc_t scout_c_ = 0;
  cyc_t scout_start_ = 0;     // cycle of the scout's last copy from the main instance
  cyc_t scan_ = 0;            // current look-ahead chunk (cycles), see reschedule()
  cyc_t gap_ = 0;             // last IRQ edge found, in cycles after the scout's copy
  std::vector<uint8_t> buf_;  // serialised model state

  // The main instance is being evaluated (a step, a write's edge, a wake-up:
  // each may pulse an interrupt, which calls out): accesses do not step it
  // (eval_scope.h, README "Re-entry").
  bool in_eval_ = false;

  uint64_t main_edges_ = 0, scout_edges_ = 0;
  uint64_t pulses_[3] = {};
  sc_core::sc_event ev_;

  static std::string trace_file_;
  static uint64_t trace_start_ps_, trace_end_ps_;
};

// Registers the RTL variants of the platform's slots ("gptimer" / "rtl",
// "chksum" / "rtl");
// idempotent. leon3vp calls it at start-up (an explicit call, so the static
// library's code cannot be dropped by the linker).
void register_rtl_variants();
// `--rtl BLOCK`: the slot key for a block name ("gptimer" -> "gptimer.model",
// "chksum" -> "chksum.model"),
// or "" for an unknown block. rtl_block_names() lists them for the error.
std::string rtl_slot_key(const std::string& block);
std::string rtl_block_names();

}  // namespace l3vp
