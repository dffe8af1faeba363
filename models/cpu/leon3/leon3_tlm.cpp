#include "leon3_tlm.h"

#include "write_gen.h"

#include <algorithm>
#include <stdexcept>

#include "probe_registry.h"
#include "stats.h"

namespace l3vp {

using sc_core::sc_time;

Leon3::Leon3(sc_core::sc_module_name name, const Params& p)
    : sc_core::sc_module(name), isock("isock"), p_(p), dmi_(p.dmi) {
  period_units_ = p.period.value();
  if (period_units_ == 0) throw std::invalid_argument(std::string(this->name()) + ": clock period is zero");
  core_ = std::make_unique<leon3::Core>(p.core, *this);
  core_->reset();
  core_->set_dmi_enabled(dmi_);
  tlm_utils::tlm_quantumkeeper::set_global_quantum(p.quantum);
  isock.register_invalidate_direct_mem_ptr(this, &Leon3::invalidate_direct_mem_ptr);
  SC_HAS_PROCESS(Leon3);
  SC_THREAD(run_thread);
}

Leon3::~Leon3() = default;

void Leon3::set_irl(unsigned level) {
  core_->set_irl(level);
  // Wakes the thread if it is waiting in power-down (nobody waits otherwise).
  // Immediate notification is only legal while the simulation runs; the
  // IRQMP may also drive the level during elaboration (reset).
  if (sc_core::sc_is_running()) wake_.notify();
}

void Leon3::set_dmi_enabled(bool on) {
  dmi_ = on;
  core_->set_dmi_enabled(on);
  if (!on) core_->invalidate_dmi(0, ~uint64_t(0));
}

void Leon3::set_arbiter(ArbitrateFn fn) {
  arbiter_ = std::move(fn);
  core_->set_bus_arbitration(static_cast<bool>(arbiter_));
}

bool Leon3::take_bus_interval(sc_time& start, sc_time& end) {
  uint64_t s, e;
  if (!core_->take_bus_interval(s, e)) return false;
  start = sc_time::from_value(s * period_units_);
  end = sc_time::from_value(e * period_units_);
  return true;
}

uint64_t Leon3::arbitrate(uint64_t start, uint64_t dur) {
  if (!arbiter_) return 0;
  const sc_time w =
      arbiter_(sc_time::from_value(start * period_units_), sc_time::from_value(dur * period_units_));
  return (w.value() + period_units_ - 1) / period_units_;
}

void Leon3::dmi_transaction(const Transaction& t) {
  DmiTransaction e;
  e.kind = t.kind;
  e.addr = t.addr;
  e.bytes = t.bytes;
  e.start = time_of(t.start);
  e.end = time_of(t.start + t.dur);
  e.wait = time_of(t.wait);
  if (dmi_report_) dmi_report_(e);
}

bool Leon3::peek(uint32_t addr, uint8_t* data, unsigned len) {
  return debug_access(false, addr, data, len) == len;
}

unsigned Leon3::debug_access(bool write, uint32_t addr, uint8_t* data, unsigned len) {
  tlm::tlm_generic_payload gp;
  gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  return isock->transport_dbg(gp);
}

void Leon3::intack(unsigned level) {
  if (ack_) ack_->intack(level, cpu_time());  // the core's time: trap entry included
}

void Leon3::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  ++wc_.dmi_invalidations;
  core_->invalidate_dmi(start, end);
}

uint64_t Leon3::cycle_limit() const {
  const sc_time now = sc_core::sc_time_stamp();
  sc_time lim = std::min(qk_.next_sync_point(), end_);
  // sc_time_to_pending_activity() is max_time - now when nothing is pending.
  const sc_time to_next = sc_core::sc_time_to_pending_activity();
  if (to_next < sc_core::sc_max_time() - now) lim = std::min(lim, now + to_next);
  // First cycle boundary at or after lim: the core may start instructions at
  // any cycle whose time is strictly before the limit.
  return (lim.value() + period_units_ - 1) / period_units_;
}

void Leon3::sync() {
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time t = cpu_time();
  qk_.set(t > now ? t - now : sc_core::SC_ZERO_TIME);
  qk_.sync();  // wait(local time), reset the local time, start a new quantum
  // wait(local time) may resume this thread before other processes that are
  // due at the same instant (e.g. a timer event exactly at this time). The
  // evaluation order inside a delta cycle is unspecified, so let them all run
  // first: the core then always sees the effect of every event at or before
  // its current time, whatever the quantum was.
  settle();
  qk_.reset();
  ++wc_.syncs;
}

namespace {
// The CPUs of every board in the kernel (several boards in one process):
// one of them at a time lets the processes due at the current instant run;
// the others wait for it. Two CPUs each waiting a delta while anything is
// pending would keep each other pending forever.
struct Settle {
  bool busy = false;
  sc_core::sc_event done;
};
Settle& settle_state() {
  static Settle s;  // one SystemC kernel per process
  return s;
}
}  // namespace

void Leon3::settle() {
  Settle& s = settle_state();
  if (s.busy) {  // another CPU is settling this instant: its end is ours
    sc_core::wait(s.done);
    return;
  }
  s.busy = true;
  while (sc_core::sc_pending_activity_at_current_time()) sc_core::wait(sc_core::SC_ZERO_TIME);
  s.busy = false;
  s.done.notify();  // immediate: the waiting CPUs resume in this evaluation phase
}

void Leon3::account_idle() {
  // Whole cycles only: the core resumes at the first cycle boundary at or
  // after the time it was woken.
  const uint64_t target = (sc_core::sc_time_stamp().value() + period_units_ - 1) / period_units_;
  if (target > core_->cycles()) core_->add_idle_cycles(target - core_->cycles());
}

void Leon3::run_thread() {
  sync();
  bool go_on = !agent_ || agent_->stopped(DebugAgent::Cause::Start);
  for (; go_on;) {
    if (core_->in_error_mode()) {
      stop_ = Stop::ErrorMode;
      if (on_halt.has_listeners())
        on_halt.notify(
            HaltEvent{core_->error_tt(), core_->error_pc(), core_->reg(8), sc_core::sc_time_stamp()});
      return;
    }
    if (sc_core::sc_time_stamp() >= end_) {
      stop_ = Stop::EndTime;
      return;
    }
    if (core_->powered_down()) {
      ++wc_.powerdowns;
      // Skip the idle time in one wait: no host time is spent while the
      // firmware idles. The IRQMP's set_irl() notifies wake_.
      while (core_->powered_down() && sc_core::sc_time_stamp() < end_) {
        // Without an end time, wait for the wake-up alone: a timeout at
        // sc_max_time() would be an event that keeps a simulation in which
        // nothing can wake the core from ever starving (leon3vp ends such a
        // run as "idle").
        if (end_ == sc_core::sc_max_time())
          sc_core::wait(wake_);
        else
          sc_core::wait(end_ - sc_core::sc_time_stamp(), wake_);
        account_idle();
      }
      sync();
      continue;
    }
    const uint64_t lim = std::max(cycle_limit(), core_->cycles() + 1);
    core_->set_bus_reporting(dmi_wanted_ && dmi_report_ && dmi_wanted_());
    const leon3::StopReason why = core_->run(lim);
    // Every stop reason (limit reached, yield, power-down, error mode) needs
    // simulated time to catch up with the core first.
    sync();
    // Debugger: stopped at an instruction boundary with every device up to
    // date; serving it here (in this thread) freezes simulated time.
    if (agent_) {
      if (why == leon3::StopReason::Break)
        go_on = agent_->stopped(DebugAgent::Cause::Break);
      else if (!core_->in_error_mode() && agent_->poll())
        go_on = agent_->stopped(DebugAgent::Cause::Poll);
    }
  }
  stop_ = Stop::Killed;
  sc_core::sc_stop();
}

bool Leon3::access(Kind kind, uint32_t addr, uint8_t* data, unsigned len, uint8_t asi, uint64_t& cycles) {
  // `stamp` is the kernel's current time and follows it (a reference to it,
  // so reading it again after the transport costs no sc_time_stamp() call).
  const sc_time& stamp = sc_core::sc_time_stamp();
  const sc_time now = stamp;
  const sc_time t = cpu_time();
  sc_time delay = t > now ? t - now : sc_core::SC_ZERO_TIME;
  // The access starts at now + delay. A target may call wait() inside
  // b_transport (an RTL model behind an adapter): time then advances and it
  // returns a smaller delay, so the latency is the difference of absolute
  // times (stamp + offset), never of the offsets alone.
  const sc_time start = now + delay;

  tlm::tlm_generic_payload& gp = gp_;
  gp.set_command(kind == Kind::Write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_byte_enable_length(0);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  isock->b_transport(gp, delay);
  if (kind == Kind::Write)
    ++wc_.bus_writes;
  else
    ++wc_.bus_reads;

  // Target latency, rounded up to whole cycles.
  const sc_time end = stamp + delay;
  if (end > start) cycles += ((end - start).value() + period_units_ - 1) / period_units_;

  if (!gp.is_response_ok()) {
    ++wc_.bus_errors;
    return false;
  }
  if (dmi_ && gp.is_dmi_allowed()) {
    tlm::tlm_dmi dmi;
    gp.set_address(addr);
    WriteGenExt gen;  // the memory's write generations, when it keeps them
    gp.set_extension(&gen);
    const bool granted = isock->get_direct_mem_ptr(gp, dmi);
    gp.clear_extension(&gen);
    if (granted && dmi.get_dmi_ptr()) {
      ++wc_.dmi_grants;
      // The grant's latencies (memory wait states + interconnect cost) in
      // whole cycles: the timed core charges them per DMI access.
      auto to_cycles = [this](const sc_time& t) {
        return static_cast<unsigned>((t.value() + period_units_ - 1) / period_units_);
      };
      core_->add_dmi(static_cast<uint32_t>(dmi.get_start_address()),
                     static_cast<uint32_t>(std::min<uint64_t>(dmi.get_end_address(), 0xFFFFFFFFull)),
                     dmi.get_dmi_ptr(), dmi.is_read_allowed(), dmi.is_write_allowed(),
                     to_cycles(dmi.get_read_latency()), to_cycles(dmi.get_write_latency()), gen.gen,
                     gen.base);
    }
  }
  // The target may have scheduled an event earlier than the current limit
  // (a timer reload, a UART transmit): never run past it.
  // A limit at or below the current cycle count stops the core after the
  // instruction in progress.
  core_->set_cycle_limit(cycle_limit());
  return true;
}

void Leon3::finish() {
  if (core_->powered_down()) account_idle();
}

// ---------------------------------------------------------------- statistics

void Leon3::register_stats(const StatsGroup& g) {
  using leon3::InsnClass;
  const leon3::CoreCounters& c = core_->counters();
  const leon3::CoreTimingCounters& t = core_->timing_counters();
  const Counters& w = wc_;
  std::vector<std::string> classes;
  for (unsigned i = 0; i < static_cast<unsigned>(InsnClass::Count); ++i)
    classes.push_back(leon3::insn_class_name(static_cast<InsnClass>(i)));
  constexpr auto U = StatUnit::Count;
  constexpr auto C = StatUnit::Cycles;
  constexpr auto Y = StatInv::Yes;
  constexpr auto N = StatInv::No;
  // counters() and timing_counters() bring instructions.total and
  // annul_cycles up to date: read them once before the values.
  g.prepare([this] {
    core_->counters();
    core_->timing_counters();
  });

  // .per_region(key): also measured per firmware region (regions[].key).
  g.counter(
       "cycles", [this] { return core_->cycles(); }, C, Y, "CPU clock cycles executed, idle cycles included.")
      .per_region("cycles", "Cycles.");
  g.value("cpi", "number", StatUnit::Ratio, Y,
          "`(cycles − idle_cycles) / instructions.total` (0 without instructions).", [this, &c] {
            const uint64_t busy = core_->cycles() - c.idle_cycles;
            return c.instructions ? double(busy) / double(c.instructions) : 0.0;
          });
  g.counter("instructions.total", &c.instructions, U, Y,
            "Instructions retired (annulled delay slots not included).")
      .per_region("instructions", "Instructions retired.");
  g.vector("instructions.by_class", classes, U, Y,
           "Retired instructions per class (`leon3::insn_class_name()`); they sum to `total`.",
           [&c](unsigned i) { return c.by_class[i]; })
      .per_region("by_class", "Instructions per class (as `instructions.by_class`).");
  g.counter("annulled", &c.annulled, U, Y, "Annulled delay-slot instructions.");
  g.counter("traps", &c.traps, U, Y, "Traps taken (all kinds, interrupts included).")
      .per_region("traps", "Traps taken.");
  g.counter("interrupts", &c.interrupts, U, Y, "Interrupt traps taken.");
  g.counter("idle_cycles", &c.idle_cycles, C, Y,
            "Cycles spent powered down (`%asr19`), skipped without host cost.")
      .per_region("idle_cycles", "Powered-down cycles.");

  // Timed-mode pipeline, cache and write-buffer counters (zero in functional mode).
  const StatsGroup tg = g.sub("timing");
  tg.vector("class_cycles", classes, C, Y,
            "Timed mode: base pipeline cycles per instruction class. All `timing.*` values are 0 in "
            "functional mode.",
            [&t](unsigned i) { return t.class_cycles[i]; });
  tg.counter("annul_cycles", &t.annul_cycles, C, Y, "Cycles of annulled delay slots.");
  tg.counter("trap_cycles", &t.trap_cycles, C, Y, "Cycles of taken traps and interrupts.");
  const StatsGroup st = tg.sub("stalls");
  st.counter("load_use", &t.stall_load_use, C, Y,
             "Stall cycles: load-use interlock. `cycles = idle_cycles + Σ class_cycles + annul_cycles + "
             "trap_cycles + Σ stalls` exactly (timed mode).")
      .per_region("stalls.load_use");
  st.counter("branch", &t.stall_branch, C, Y,
             "Stall cycles: Bicc/Ticc/RDPSR waiting for icc, mispredicted branches.")
      .per_region("stalls.branch");
  st.counter("muldiv", &t.stall_muldiv, C, Y, "Stall cycles: MUL result use, DIV waiting for Y.")
      .per_region("stalls.muldiv");
  st.counter("icache_miss", &t.stall_icache_miss, C, Y, "Stall cycles: I-cache line fills.")
      .per_region("stalls.icache_miss");
  st.counter("dcache_miss", &t.stall_dcache_miss, C, Y, "Stall cycles: D-cache line fills.")
      .per_region("stalls.dcache_miss");
  st.counter("write_buffer", &t.stall_write_buffer, C, Y,
             "Stall cycles: a store or memory read waiting for the write buffer.")
      .per_region("stalls.write_buffer");
  st.counter("bus", &t.stall_bus, C, Y,
             "Stall cycles: uncached fetches/reads (cache off, frozen miss, uncacheable, ASI 1; "
             "incl. APB registers).")
      .per_region("stalls.bus");
  const StatsGroup ic = tg.sub("icache");
  ic.value("accesses", "int", U, Y, "Instruction fetches (= hits + misses + uncached).",
           [&t] { return t.ic_hits + t.ic_misses + t.ic_uncached; });
  ic.counter("hits", &t.ic_hits, U, Y, "I-cache hits.");
  ic.counter("misses", &t.ic_misses, U, Y, "I-cache misses.").per_region("icache_misses", "I-cache misses.");
  ic.counter("forced_misses", &t.ic_forced, U, Y,
             "I-cache hits turned into misses by `icache.force_miss_rate` (included in `misses`).");
  ic.counter("uncached", &t.ic_uncached, U, Y, "Fetches that bypass the I-cache.");
  ic.counter("line_fills", &t.ic_fills, U, Y, "I-cache line fills.");
  ic.counter("flushes", &t.ic_flushes, U, Y, "I-cache flushes.");
  const StatsGroup dc = tg.sub("dcache");
  dc.value("accesses", "int", U, Y,
           "Data accesses, loads and stores (= the sum of the six hit/miss/uncached counts).", [&t] {
             return t.dc_read_hits + t.dc_read_misses + t.dc_uncached_reads + t.dc_write_hits +
                    t.dc_write_misses + t.dc_uncached_writes;
           });
  dc.counter("read_hits", &t.dc_read_hits, U, Y, "D-cache read hits.");
  dc.counter("read_misses", &t.dc_read_misses, U, Y, "D-cache read misses.")
      .per_region("dcache_misses", "D-cache read misses.");
  dc.counter("forced_misses", &t.dc_forced, U, Y,
             "D-cache read hits turned into misses by `dcache.force_miss_rate` (included in "
             "`read_misses`).");
  dc.counter("uncached_reads", &t.dc_uncached_reads, U, Y, "Reads that bypass the D-cache.");
  dc.counter("write_hits", &t.dc_write_hits, U, Y, "Stores that hit the D-cache.");
  dc.counter("write_misses", &t.dc_write_misses, U, Y, "Stores that miss the D-cache.");
  dc.counter("uncached_writes", &t.dc_uncached_writes, U, Y, "Stores to uncacheable addresses.");
  dc.counter("line_fills", &t.dc_fills, U, Y, "D-cache line fills.");
  dc.counter("flushes", &t.dc_flushes, U, Y, "D-cache flushes.");
  dc.counter("snoop_invalidations", &t.snoop_invalidations, U, Y,
             "D-cache lines invalidated by snooping other masters' writes.");
  const StatsGroup wb = tg.sub("write_buffer");
  wb.counter("stalls", &t.wb_stalls, U, Y, "Times a store or memory read waited for the write buffer.");
  wb.counter("stall_cycles", &t.stall_write_buffer, C, Y,
             "Cycles they waited (= `timing.stalls.write_buffer`).");
  const StatsGroup ahb = tg.sub("ahb");
  ahb.counter("reads", &t.ahb_reads, U, Y,
              "Real AHB read transactions of the CPU (line fills, uncached/forced-miss/frozen-miss "
              "fetches and reads); the same with and without DMI.");
  ahb.counter("writes", &t.ahb_writes, U, Y,
              "Real AHB write transactions of the CPU (write-buffer drains, one per store).");

  const StatsGroup bus = g.sub("cpu_bus");
  bus.counter("reads", &w.bus_reads, U, N, "Bus read transactions issued by the CPU wrapper (non-DMI).");
  bus.counter("writes", &w.bus_writes, U, N, "Bus write transactions issued by the CPU wrapper (non-DMI).");
  bus.counter("errors", &w.bus_errors, U, N, "Error responses to the CPU wrapper's bus transactions.");
  bus.counter("dmi_grants", &w.dmi_grants, U, N, "DMI regions obtained.");
  bus.counter("dmi_invalidations", &w.dmi_invalidations, U, N, "DMI regions invalidated.");
  bus.counter("syncs", &w.syncs, U, N, "Quantum-keeper synchronisations (depends on the quantum).");
  bus.counter("powerdowns", &w.powerdowns, U, Y, "Times the CPU entered a power-down wait.");
}

void probe_text(ProbeText& o, const leon3::StepRecord& e) {
  o.at_cycle(e.start_cycle);
  o.num("cycle", e.start_cycle).num("cycles", e.cycles).hex("pc", e.pc).hex("word", e.word);
  o.word("class", e.cls == leon3::InsnClass::Count ? "none" : leon3::insn_class_name(e.cls));
  o.num("retired", e.retired).flag("annulled", e.annulled).flag("trapped", e.trapped);
  o.flag("interrupt", e.interrupt).num("tt", e.tt).num("ic_hits", e.ic_hits).num("ic_misses", e.ic_misses);
  o.num("dc_hits", e.dc_hits).num("dc_misses", e.dc_misses);
}

void probe_text(ProbeText& o, const leon3::ExecuteEvent& e) {
  o.at_cycle(e.cycle);
  o.num("cycle", e.cycle).hex("pc", e.pc).hex("npc", e.npc);
}

void probe_text(ProbeText& o, const leon3::PowerEvent& e) {
  o.at_cycle(e.cycle);
  o.num("cycle", e.cycle).flag("enter", e.enter).num("idle_cycles", e.idle_cycles);
}

void probe_text(ProbeText& o, const leon3::TrapEvent& e) {
  o.at_cycle(e.cycle);
  o.num("cycle", e.cycle).num("tt", e.tt).hex("pc", e.pc).flag("error", e.error);
}

void probe_text(ProbeText& o, const leon3::PsrEvent& e) {
  o.at_cycle(e.cycle);
  o.num("cycle", e.cycle).num("pil", e.pil).flag("et", e.et);
}

void probe_text(ProbeText& o, const Leon3::HaltEvent& e) {
  o.at(e.t);
  o.num("tt", e.tt).hex("pc", e.pc).hex("o0", e.o0);
}

void Leon3::register_probes(ProbeRegistry& r, const std::string& prefix) {
  leon3::CoreProbes& cp = core_->probes();
  const sc_core::sc_time clk = p_.period;
  r.add(
      prefix, "step", cp.step,
      "cycle cycles pc word class retired annulled trapped interrupt tt ic_hits ic_misses dc_hits dc_misses",
      clk);
  r.add(prefix, "execute", cp.execute, "cycle pc npc", clk);
  r.add(prefix, "power", cp.power, "cycle enter idle_cycles", clk);
  r.add(prefix, "trap", cp.trap, "cycle tt pc error", clk);
  r.add(prefix, "psr", cp.psr, "cycle pil et", clk);
  r.add(prefix, "halt", on_halt, "tt pc o0");
}

}  // namespace l3vp
