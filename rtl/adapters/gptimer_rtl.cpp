// Verilator's headers first: included after SystemC's they take the SystemC
// time (sc_time_stamp) for $time, which this plain C++ model does not use.
#include <verilated.h>
#include <verilated_save.h>
#include <verilated_vcd_c.h>

#include "Vgptimer.h"
#include "Vgptimer___024root.h"  // rootp: the trigger state (fast_edge below)

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "chksum_rtl.h"
#include "eval_scope.h"
#include "gptimer_rtl.h"
#include "leon3mp.h"
#include "stats.h"

namespace l3vp {

// The file under --rtl-trace's VCD writer. Verilator's own treats a failed
// write as fatal and then waits, in its close path, on a lock it already
// holds: a full disk (/dev/full) hung the run forever. This one never
// reports a failure to Verilator: it keeps the first one (error()) and drops
// the rest of the trace; the caller reports it at the end of the run, as for
// every other output (models/common/output_file.h).
class CheckedVcdFile final : public VerilatedVcdFile {
 public:
  bool open(const std::string& name) override {
    fd_ = ::open(name.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) error_ = std::strerror(errno);
    return fd_ >= 0;
  }
  void close() override {
    if (fd_ < 0) return;
    if (::close(fd_) != 0 && error_.empty()) error_ = std::strerror(errno);
    fd_ = -1;
  }
  ssize_t write(const char* p, ssize_t len) override {
    ssize_t done = 0;
    while (error_.empty() && done < len) {
      const ssize_t n = ::write(fd_, p + done, size_t(len - done));
      if (n > 0)
        done += n;
      else if (n < 0 && errno == EINTR)
        continue;
      else
        error_ = n < 0 ? std::strerror(errno) : "write error";
    }
    return len;  // written or dropped: never an error for Verilator
  }
  const std::string& error() const { return error_; }

 private:
  int fd_ = -1;
  std::string error_;
};

std::string GptimerRtl::trace_file_;
uint64_t GptimerRtl::trace_start_ps_ = 0;
uint64_t GptimerRtl::trace_end_ps_ = UINT64_MAX;

namespace {

// The generics the netlist was synthesised with (rtl/gptimer/CMakeLists.txt
// uses gptimer.vhd's defaults).
constexpr unsigned kNtimers = 2, kSbits = 8, kNbits = 32, kPirq = 8, kSepirq = 1;

// Look-ahead chunk of the scout (cycles). Scouting edges that a write then
// makes useless is the waste to avoid:
//  * after a write, the scan goes as far as the last IRQ was from the write
//    before it (+1/8, at least kScanMin): a periodic interrupt acknowledged
//    by a write is found in one scan;
//  * after an IRQ edge, only kScanAfterIrq: the handler's acknowledge write
//    usually comes within that and restarts the look-ahead anyway;
//  * each further scan without an IRQ goes twice as far, up to kScanMax.
// A wake-up at the end of a chunk is one SystemC event (one CPU sync).
constexpr int64_t kScanMin = int64_t(1) << 12;       // 102 us at 40 MHz
constexpr int64_t kScanAfterIrq = int64_t(1) << 10;  // 26 us
constexpr int64_t kScanMax = int64_t(1) << 24;       // 0.42 s at 40 MHz

// Verilator serialisation into memory: the state of the small netlist is a
// few hundred bytes, copied between the main and the scout instance.
class MemSave final : public VerilatedSerialize {
 public:
  explicit MemSave(std::vector<uint8_t>& out) : out_(out) {
    out_.clear();
    m_isOpen = true;
  }
  ~MemSave() override { flush(); }
  void flush() override {
    out_.insert(out_.end(), m_bufp, m_cp);
    m_cp = m_bufp;
  }

 private:
  std::vector<uint8_t>& out_;
};

class MemRestore final : public VerilatedDeserialize {
 public:
  explicit MemRestore(const std::vector<uint8_t>& in) : in_(in) {
    m_isOpen = true;
    m_endp = m_bufp;
  }
  void fill() override {
    // Keep the unread bytes, append as much of the input as fits.
    const size_t left = size_t(m_endp - m_cp);
    std::memmove(m_bufp, m_cp, left);
    const size_t n = std::min(in_.size() - pos_, bufferSize() - left);
    std::memcpy(m_bufp + left, in_.data() + pos_, n);
    pos_ += n;
    m_cp = m_bufp;
    m_endp = m_bufp + left + n;
  }

 private:
  const std::vector<uint8_t>& in_;
  size_t pos_ = 0;
};

// One rising edge is normally two eval() calls: clk low (so that Verilator
// sees the change), clk high. The clock-low evaluation computes nothing the
// design uses (every process is on the rising edge) but costs as much as the
// other one. Where the generated model keeps the clock's previous value in
// __Vtrigrprev__TOP__clk (Verilator 5), setting it low and evaluating once
// with the clock high is the same edge for 40 % less host time. A Verilator
// without that member takes the two-eval path (this compiles either way).
template <class Root>
auto fast_edge(Root* r, Vgptimer& m, int) -> decltype(r->__Vtrigrprev__TOP__clk = 0, void()) {
  r->__Vtrigrprev__TOP__clk = 0;
  m.clk = 1;
  m.eval();
}
template <class Root>
void fast_edge(Root*, Vgptimer& m, long) {
  m.clk = 0;
  m.eval();
  m.clk = 1;
  m.eval();
}

}  // namespace

GptimerRtl::GptimerRtl(sc_core::sc_module_name name, const Params& p) : ApbDevice(name, 128), p_(p) {
  if (p_.ntimers != kNtimers || p_.sbits != kSbits || p_.nbits != kNbits || p_.pirq != kPirq ||
      p_.sepirq != kSepirq)
    throw std::invalid_argument(
        "GptimerRtl: the verilated netlist is built for ntimers=2 sbits=8 nbits=32 pirq=8 sepirq=1");
  if (p_.clk_period == sc_core::SC_ZERO_TIME) throw std::invalid_argument("GptimerRtl: zero clock period");
  clk_ps_ = p_.clk_period.value();
  pnp_.id = pnp_id(VENDOR_GAISLER, DEV_GPTIMER, p_.revision, p_.pirq);
  pnp_.bar = pnp_bar(p_.paddr, p_.pmask, false, false, BAR_APBIO);

  main_ctx_ = std::make_unique<VerilatedContext>();
  main_ctx_->traceEverOn(true);  // before the model is built, so --rtl-trace can attach
  scout_ctx_ = std::make_unique<VerilatedContext>();
  main_ = std::make_unique<Vgptimer>(main_ctx_.get(), "gptimer");
  scout_ = std::make_unique<Vgptimer>(scout_ctx_.get(), "scout");
  for (Vgptimer* m : {main_.get(), scout_.get()}) {
    m->clk = 1;
    m->rstn = 0;
    m->hold = 0;
    m->psel = m->penable = m->pwrite = 0;
    m->paddr = 0;
    m->pwdata = 0;
    m->eval();
  }

  // Every word of the 128-byte window goes to the pins: the RTL decodes
  // paddr[6:2] itself (reserved bits, aliases and unused offsets included).
  // An access made while the main instance is being evaluated (from an
  // interrupt sink called inside a step, README "Re-entry") does not step
  // it: a read sees the state after the edge being evaluated, a write is
  // refused.
  for (unsigned w = 0; w < 32; ++w) {
    regs_.add("W" + std::to_string(w * 4), w * 4)
        .no_store()
        .before_read([this] {
          if (!in_eval_) step_main(cycle_now());
        })
        .read_value([this, w] { return pin_read(*main_, w); })
        .on_write([this, w](uint32_t v) {
          if (in_eval_)
            Log::guest_error(this->name(), "write while the timer is being evaluated (re-entrant): ignored");
          else
            write_word(w, v);
        });
  }

  SC_METHOD(on_event);
  sensitive << ev_;
  dont_initialize();
  reset();
}

GptimerRtl::~GptimerRtl() { close_trace(); }

void GptimerRtl::open_trace(const std::string& path) {
  close_trace();
  auto file = std::make_unique<CheckedVcdFile>();
  auto vcd = std::make_unique<VerilatedVcdC>(file.get());
  main_->trace(vcd.get(), 99);
  vcd->open(path.c_str());
  if (!vcd->isOpen()) throw std::runtime_error("cannot write '" + path + "': " + file->error());
  vcd_file_ = std::move(file);
  vcd_ = std::move(vcd);
  dumped_ = false;
}

std::string GptimerRtl::close_trace() {
  if (!vcd_) return "";
  vcd_->close();  // the last buffered data go to vcd_file_ here
  vcd_.reset();
  const std::string why = vcd_file_->error();
  vcd_file_.reset();
  return why;
}

void GptimerRtl::dump(uint64_t t) {
  // Dump times must increase: a same-cycle (hold) edge goes 1 ps after the
  // last dump. Outside the window nothing is written; Verilator compares
  // with the last dumped values, so the first dump in it is complete.
  if (dumped_ && t <= last_dump_) return;
  last_dump_ = t;
  dumped_ = true;
  if (t < trace_start_ps_ || t > trace_end_ps_) return;
  vcd_->dump(t);
}

uint32_t GptimerRtl::pin_read(Vgptimer& m, unsigned w) {
  m.psel = 1;
  m.penable = 1;
  m.pwrite = 0;
  m.paddr = static_cast<uint8_t>(w * 4);
  m.eval();  // combinational: no clock edge
  const uint32_t v = m.prdata;
  m.psel = 0;
  m.penable = 0;
  return v;
}

void GptimerRtl::edge(Vgptimer& m) { fast_edge(m.rootp, m, 0); }

void GptimerRtl::traced_edge(Vgptimer& m, uint64_t fall, uint64_t rise) {
  m.clk = 0;
  m.eval();
  dump(fall);
  m.clk = 1;
  m.eval();
  dump(rise);
}

void GptimerRtl::main_edge_done(cyc_t c, bool hold) {
  ++main_edges_;
  if (hold) return;
  const uint8_t irq = main_->irq;
  if (!irq) return;
  for (unsigned n = 1; n <= kNtimers; ++n) {
    if (!(irq & (1u << (n - 1)))) continue;
    ++pulses_[n];
    pulse_irq(irq_line(n), cyc_time(c));
  }
}

void GptimerRtl::step_main(cyc_t c) {
  const EvalScope eval(in_eval_);  // pulse_irq() below calls out
  Vgptimer& m = *main_;
  while (m_ < c) {
    ++m_;
    if (vcd_) {
      // Clock low half a period before the edge, high at the edge (ps).
      const uint64_t rise = uint64_t(m_) * clk_ps_;
      traced_edge(m, rise - clk_ps_ / 2, rise);
    } else {
      edge(m);
    }
    main_edge_done(m_, false);
  }
}

void GptimerRtl::write_word(unsigned w, uint32_t v) {
  const EvalScope eval(in_eval_);
  const cyc_t c = cycle_now();
  // A write at a cycle the main instance has already passed (several
  // accesses in one cycle, or an access dated before an earlier one) is
  // applied with `hold` high: an edge that moves no counting state, so the
  // write lands on the state after edge m_ like the TLM's.
  const bool hold = c <= m_;
  if (!hold) step_main(c - 1);
  Vgptimer& m = *main_;
  m.psel = 1;
  m.penable = 1;
  m.pwrite = 1;
  m.paddr = static_cast<uint8_t>(w * 4);
  m.pwdata = v;
  m.hold = hold;
  if (!hold) ++m_;
  if (vcd_) {
    const uint64_t rise = hold ? last_dump_ + 2 : uint64_t(m_) * clk_ps_;
    const uint64_t fall = hold ? last_dump_ + 1 : rise - clk_ps_ / 2;
    traced_edge(m, fall, rise);
  } else {
    edge(m);
  }
  m.psel = 0;
  m.penable = 0;
  m.pwrite = 0;
  m.hold = 0;
  main_edge_done(m_, hold);
  scout_valid_ = false;
  scan_ = std::clamp<cyc_t>(gap_ + gap_ / 8, kScanMin, kScanMax);
  reschedule();
}

bool GptimerRtl::debug_read(uint32_t word, uint32_t& v) {
  const unsigned w = (word % 128) / 4;
  const cyc_t c = static_cast<cyc_t>(sc_core::sc_time_stamp().value() / clk_ps_);
  if (c <= m_ || in_eval_) {
    v = pin_read(*main_, w);
    return true;
  }
  // The scout runs the main state forward; it is re-copied before its next
  // look-ahead (the scheduled wake-up stays valid: nothing was written).
  copy(*main_, *scout_);
  for (cyc_t k = m_; k < c; ++k) edge(*scout_);
  v = pin_read(*scout_, w);
  scout_valid_ = false;
  return true;
}

void GptimerRtl::copy(Vgptimer& from, Vgptimer& to) {
  {
    MemSave os(buf_);
    os << from;
  }
  MemRestore is(buf_);
  is >> to;
}

bool GptimerRtl::irq_possible() {
  for (unsigned n = 1; n <= kNtimers; ++n) {
    const uint32_t ctrl = pin_read(*main_, 4 * n + 2);
    if ((ctrl & (Gptimer::TC_EN | Gptimer::TC_IE)) == (Gptimer::TC_EN | Gptimer::TC_IE)) return true;
  }
  return false;
}

void GptimerRtl::reschedule() {
  ev_.cancel();
  // Only a timer with EN=1 and IE=1 can raise an irq output before the next
  // write (EN can only fall without one): otherwise no look-ahead at all.
  if (!irq_possible()) return;
  if (scout_valid_ && scout_c_ < m_) scout_valid_ = false;  // the main instance went past it
  if (!scout_valid_) {
    copy(*main_, *scout_);
    scout_c_ = m_;
    scout_start_ = m_;
    scout_valid_ = true;
  }
  if (scout_c_ == m_) {
    // Run ahead to the next rising irq output or the end of the chunk.
    const cyc_t lim = m_ + scan_;
    Vgptimer& s = *scout_;
    bool hit = false;
    while (scout_c_ < lim) {
      edge(s);
      ++scout_c_;
      ++scout_edges_;
      if (s.irq) {
        hit = true;
        break;
      }
    }
    if (hit)
      gap_ = scout_c_ - scout_start_;
    else
      scan_ = std::min(std::max(scan_ * 2, gap_ + gap_ / 8), kScanMax);
  }
  // Wake up at the scout's edge (an IRQ edge, or the end of the chunk where
  // the look-ahead goes on).
  const sc_core::sc_time at = cyc_time(scout_c_);
  const sc_core::sc_time stamp = sc_core::sc_time_stamp();
  ev_.notify(at > stamp ? at - stamp : sc_core::SC_ZERO_TIME);
}

void GptimerRtl::on_event() {
  const EvalScope eval(in_eval_);
  const cyc_t c = static_cast<cyc_t>(sc_core::sc_time_stamp().value() / clk_ps_);
  if (scout_valid_ && scout_c_ == c && c > m_ && !vcd_) {
    // Nothing was written since the scout's copy: its state is the main
    // instance's future. Take it instead of stepping the same edges again.
    copy(*scout_, *main_);
    m_ = c;
    main_edge_done(c, false);
  } else {
    step_main(c);
  }
  if (main_->irq) scan_ = kScanAfterIrq;  // an IRQ edge: an acknowledge is likely to follow
  reschedule();
}

void GptimerRtl::reset() {
  ev_.cancel();
  Vgptimer& m = *main_;
  m.rstn = 0;
  m.psel = m.penable = m.pwrite = 0;
  m.hold = 1;
  edge(m);  // synchronous reset
  m.rstn = 1;
  m.hold = 0;
  m.eval();
  m_ = cycle_now();
  scout_valid_ = false;
  scan_ = kScanMin;
}

void GptimerRtl::register_stats(const StatsGroup& g) {
  g.value("irq_pulses", "[int, int]", StatUnit::Count, StatInv::Yes,
          "RTL GPTIMER: interrupt pulses of timer 1 and timer 2 delivered so far.", [this] {
            return nlohmann::json::array({pulses_[1], pulses_[2]});
          });
  g.counter("rtl_edges", &main_edges_, StatUnit::Count, StatInv::No,
            "RTL GPTIMER: clock edges evaluated by the main Verilator instance (host work).");
  g.counter("rtl_scout_edges", &scout_edges_, StatUnit::Count, StatInv::No,
            "RTL GPTIMER: clock edges evaluated by the look-ahead (scout) instance (host work).");
}

// ---------------------------------------------------------------- registration

void register_rtl_variants() {
  if (!SlotVariants::find("chksum", "rtl"))
    SlotVariants::add("chksum", "rtl", [](const char* name, const PlatformConfig& cfg) {
      ChksumParams p;  // hindex 5, pindex 5, paddr 0x005, pirq 10, as the TLM engine
      p.clk_period = cfg.period();
      // What the board's AhbCtrl charges per transaction (timed mode only).
      ChksumRtl::BusCost cost;
      if (cfg.timed()) {
        cost.transfer_cycles = cfg.ahb_transfer_cycles;
        cost.burst_cycles_per_word = cfg.ahb_burst_cycles_per_word;
      }
      return std::unique_ptr<ApbDevice>(std::make_unique<ChksumRtl>(name, p, cost));
    });
  if (SlotVariants::find("gptimer", "rtl")) return;
  SlotVariants::add("gptimer", "rtl", [](const char* name, const PlatformConfig& cfg) {
    GptimerParams p;  // the template instance, as the platform's TLM GPTIMER
    p.clk_period = cfg.period();
    auto d = std::make_unique<GptimerRtl>(name, p);
    if (!GptimerRtl::trace_file().empty()) d->open_trace(GptimerRtl::trace_file());
    return std::unique_ptr<ApbDevice>(std::move(d));
  });
}

std::string rtl_slot_key(const std::string& block) {
  if (block == "gptimer") return "gptimer.model";
  if (block == "chksum") return "chksum.model";
  return "";
}
std::string rtl_block_names() { return "gptimer, chksum"; }

}  // namespace l3vp
