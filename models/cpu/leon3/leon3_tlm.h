// SystemC/TLM-2.0 wrapper of the LEON3 ISS core (core.h): one AHB master.
//
//  * CoreBus on `isock` (AHB master 0): every access the core cannot serve
//    from DMI becomes a b_transport whose annotated delay is the core's local
//    time offset (cycles * period - sc_time_stamp()). A non-OK response is a
//    bus error for the core. DMI is requested whenever a target allows it and
//    registered in the core; invalidations are passed to the core.
//  * IrlSink: the IRQMP sets the interrupt level; IntAckSink forwarding of
//    the core's interrupt acknowledge back to the IRQMP.
//  * One SC_THREAD runs the core in quanta (tlm_quantumkeeper) and never lets
//    it run past the next pending SystemC activity, so simulated results do
//    not depend on the quantum (see README-tlm.md for the full rules).
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>

#include "core.h"
#include "irq.h"
#include "probe.h"

namespace l3vp {

// Text lines of the core's probe events (leon3vp --probe, probe_text.h).
// core.h has no SystemC; the formatters live with the wrapper, which
// registers the probes and stamps the cycle counts with its clock period.
class ProbeText;
class ProbeRegistry;
void probe_text(ProbeText& o, const leon3::StepRecord& e);
void probe_text(ProbeText& o, const leon3::ExecuteEvent& e);
void probe_text(ProbeText& o, const leon3::PowerEvent& e);
void probe_text(ProbeText& o, const leon3::TrapEvent& e);
void probe_text(ProbeText& o, const leon3::PsrEvent& e);

struct Leon3Params {
  leon3::CoreConfig core;
  sc_core::sc_time period = sc_core::sc_time(25, sc_core::SC_NS);    // 40 MHz
  sc_core::sc_time quantum = sc_core::sc_time(100, sc_core::SC_US);  // global quantum
  bool dmi = true;
};

class StatsGroup;

// A debugger attached to the CPU thread (Leon3::set_debug_agent; the GDB stub
// in sim/gdb is one). It runs inside the CPU's SC_THREAD: while it serves the
// debugger no other SystemC process runs, so simulated time stands still.
class DebugAgent {
 public:
  enum class Cause {
    Start,  // before the first instruction (after the initial sync)
    Break,  // the core stopped for Core::request_break() (an execute listener asked)
    Poll,   // poll() asked for a stop (e.g. Ctrl-C from the debugger)
  };
  virtual ~DebugAgent() = default;
  // Called once per iteration of the CPU thread (between two runs of the
  // core, i.e. at most every quantum): a cheap non-blocking check. True asks
  // for a stop at the current instruction boundary.
  virtual bool poll() = 0;
  // The core is stopped at an instruction boundary and simulated time has
  // caught up with it (every device is up to date). Serve the debugger and
  // return true to let the core go on (continue, step, detach), false to end
  // the run at once (kill: Leon3::stop() becomes Stop::Killed).
  virtual bool stopped(Cause why) = 0;
};

class Leon3 : public sc_core::sc_module, public leon3::CoreBus, public IrlSink {
 public:
  using Params = Leon3Params;
  // How the CPU thread ended (None while running).
  enum class Stop { None, ErrorMode, EndTime, Killed };  // Killed: by the debug agent

  tlm_utils::simple_initiator_socket<Leon3> isock;

  Leon3(sc_core::sc_module_name name, const Params& p = Params());
  ~Leon3() override;

  leon3::Core& core() { return *core_; }
  const leon3::Core& core() const { return *core_; }
  const Params& params() const { return p_; }

  // Interrupt acknowledge goes to this sink (the IRQMP).
  void set_intack_sink(IntAckSink* s) { ack_ = s; }
  // IrlSink: interrupt request level 0..15 from the IRQMP.
  void set_irl(unsigned level) override;

  // DMI on/off (--no-dmi). Off drops every DMI region the core holds.
  void set_dmi_enabled(bool on);

  // AHB arbitration side-band (timed mode; Core::set_bus_arbitration): `fn`
  // is called with the start time and duration of a DMI-served transaction
  // of the core when another master was on the bus since the core's previous
  // one, and returns the arbitration wait. An empty function turns it off.
  using ArbitrateFn =
      std::function<sc_core::sc_time(const sc_core::sc_time& start, const sc_core::sc_time& dur)>;
  void set_arbiter(ArbitrateFn fn);
  // For the arbiter: the core's latest DMI-served transaction, if it is the
  // latest occupation of the bus not yet taken (then it is taken).
  bool take_bus_interval(sc_core::sc_time& start, sc_core::sc_time& end);
  // The CPU never runs past this time (the simulation's max-time), so the
  // instruction count at the end does not depend on the quantum either.
  void set_end_time(const sc_core::sc_time& t) { end_ = t; }

  // Published once when the core enters error mode (after syncing, so `t`
  // is sc_time_stamp() = the core's time): trap type, PC of the trapping
  // instruction and %o0 (the firmware exit code by convention).
  struct HaltEvent {
    unsigned tt = 0;
    uint32_t pc = 0, o0 = 0;
    sc_core::sc_time t;
  };
  Probe<HaltEvent> on_halt;

  // The CPU's real AHB transactions served from DMI (timed mode: line fills,
  // uncached reads, write-buffer drains) never reach the bus. The reporter
  // is the connection that hands them to the bus model anyway (the platform
  // forwards them to AhbCtrl::report_dmi, so the AHB transaction probe sees
  // them like routed ones): `wanted` is asked before each run of the core
  // (a bus observer is listening), and only then does the core report them
  // (Core::set_bus_reporting), so nobody pays for it otherwise.
  struct DmiTransaction {
    leon3::CoreBus::Kind kind;
    uint32_t addr = 0;
    unsigned bytes = 0;
    sc_core::sc_time start, end;  // on the bus: [start, end), after the wait
    sc_core::sc_time wait;        // arbitration wait before start
  };
  using DmiReportFn = std::function<void(const DmiTransaction&)>;
  void set_dmi_reporter(std::function<bool()> wanted, DmiReportFn fn) {
    dmi_wanted_ = std::move(wanted);
    dmi_report_ = std::move(fn);
  }

  // Debugger seam (DebugAgent; README "Debugger seam"). nullptr detaches.
  void set_debug_agent(DebugAgent* a) { agent_ = a; }
  // Side-effect-free accesses for a debugger: TLM transport_dbg through the
  // CPU's socket (no bus cycles, no device side effects, no DMI changes).
  // Returns the number of bytes transferred (len when the whole range is
  // mapped).
  unsigned debug_access(bool write, uint32_t addr, uint8_t* data, unsigned len);

  // Brings the idle-cycle count up to date when the simulation ends while
  // the core is powered down. Call once after sc_start() returns.
  void finish();

  Stop stop() const { return stop_; }
  uint64_t cycles() const { return core_->cycles(); }
  // The core's notion of time: cycles * period.
  sc_core::sc_time cpu_time() const { return sc_core::sc_time::from_value(core_->cycles() * period_units_); }
  // Simulated time of CPU cycle `cycle` (the core's probes count cycles).
  sc_core::sc_time time_of(uint64_t cycle) const {
    return sc_core::sc_time::from_value(cycle * period_units_);
  }

  // Wrapper counters.
  struct Counters {
    uint64_t bus_reads = 0, bus_writes = 0, bus_errors = 0;
    uint64_t dmi_grants = 0, dmi_invalidations = 0;
    uint64_t syncs = 0, powerdowns = 0;
  };
  const Counters& wrapper_counters() const { return wc_; }

  // Registers the core's and the wrapper's statistics at the root of `g`
  // (cycles, cpi, instructions.*, timing.*, annulled, traps, interrupts,
  // idle_cycles, cpu_bus.*; docs/stats-schema.md).
  void register_stats(const StatsGroup& g);
  // <prefix>.step, .execute, .power, .trap, .psr (the core's probes; step
  // and execute switch the core to its observed loop while listened to) and
  // <prefix>.halt (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix);

 private:
  // tlm_quantumkeeper with its next sync point exposed.
  struct Qk : tlm_utils::tlm_quantumkeeper {
    const sc_core::sc_time& next_sync_point() const { return m_next_sync_point; }
  };

  void run_thread();
  // Lets simulated time catch up with the core, then lets every other process
  // due at that instant run first.
  void sync();
  // Lets every process due at the current instant run first (sync()).
  void settle();
  // Cycle count the core may run to: up to the quantum end, the next pending
  // SystemC activity and the end time, whichever is earliest.
  uint64_t cycle_limit() const;
  void account_idle();

  // CoreBus
  bool access(Kind kind, uint32_t addr, uint8_t* data, unsigned len, uint8_t asi, uint64_t& cycles) override;
  void intack(unsigned level) override;
  bool peek(uint32_t addr, uint8_t* data, unsigned len) override;
  uint64_t arbitrate(uint64_t start, uint64_t dur) override;
  void dmi_transaction(const Transaction& t) override;

  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  Params p_;
  std::unique_ptr<leon3::Core> core_;
  uint64_t period_units_;  // clock period in time-resolution units
  Qk qk_;
  sc_core::sc_event wake_;
  sc_core::sc_time end_ = sc_core::sc_max_time();
  IntAckSink* ack_ = nullptr;
  bool dmi_ = true;
  Stop stop_ = Stop::None;
  Counters wc_;
  tlm::tlm_generic_payload gp_;
  ArbitrateFn arbiter_;
  std::function<bool()> dmi_wanted_;
  DmiReportFn dmi_report_;
  DebugAgent* agent_ = nullptr;
};

void probe_text(ProbeText& o, const Leon3::HaltEvent& e);

}  // namespace l3vp
