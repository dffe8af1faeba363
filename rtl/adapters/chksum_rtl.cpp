// Verilator's headers first (see gptimer_rtl.cpp).
#include <verilated.h>

#include "Vchksum.h"

#include <algorithm>
#include <stdexcept>

#include "ahb_ctrl.h"
#include "chksum_rtl.h"
#include "eval_scope.h"
#include "leon3mp.h"
#include "payload.h"
#include "stats.h"

namespace l3vp {

namespace {
constexpr unsigned kMaxBurst = 16;  // MAX_BURST of chksum.vhd (INFO[7:0])
constexpr uint8_t kIdle = 0, kNonseq = 2, kSeq = 3;
constexpr uint8_t kOkay = 0, kError = 1;
}  // namespace

ChksumRtl::ChksumRtl(sc_core::sc_module_name name, const Params& p, const BusCost& cost)
    : ApbDevice(name, 256), isock("isock"), p_(p), cost_(cost) {
  if (p_.maxburst != kMaxBurst)
    throw std::invalid_argument("ChksumRtl: the netlist is built for maxburst=16");
  if (p_.pirq > 31) throw std::invalid_argument("ChksumRtl: pirq out of range");
  if (p_.clk_period == sc_core::SC_ZERO_TIME) throw std::invalid_argument("ChksumRtl: zero clock period");
  clk_ps_ = p_.clk_period.value();
  pnp_.id = pnp_id(kVendorContrib, kDevChksum, p_.revision, p_.pirq);
  pnp_.bar = pnp_bar(p_.paddr, p_.pmask, false, false, BAR_APBIO);

  ctx_ = std::make_unique<VerilatedContext>();
  m_model_ = std::make_unique<Vchksum>(ctx_.get(), "chksum");
  Vchksum& m = *m_model_;
  m.clk = 1;
  m.rstn = 0;
  m.psel = m.penable = m.pwrite = 0;
  m.paddr = 0;
  m.pwdata = 0;
  m.hgrant = 1;  // parked: the TLM bus's arbitration becomes wait states (README)
  m.hready = 1;
  m.hresp = kOkay;
  m.hrdata = 0;
  m.eval();

  // The six registers go to the pins (the RTL decodes paddr[7:2]); the other
  // offsets stay unmapped in the bank, so they read 0 and are logged as
  // guest errors exactly as with the TLM model. An access made while the
  // model is being evaluated (the engine's own DMA reading its registers,
  // README "Re-entry") does not step it: a read sees the state after the
  // edge being evaluated, a write is refused.
  static const char* const kNames[] = {"CTRL", "STATUS", "ADDR", "LEN", "SUM", "INFO"};
  for (unsigned w = 0; w < 6; ++w) {
    regs_.add(kNames[w], w * 4)
        .no_store()
        .before_read([this] {
          if (!in_eval_) step_to(std::min(cycle_now(), wake_at_ - 1));
        })
        .read_value([this, w] { return pin_read(w); })
        .on_write([this, w](uint32_t v) {
          if (in_eval_)
            Log::guest_error(this->name(), "write while the engine is being evaluated (re-entrant): ignored");
          else
            write_word(w, v);
        });
  }

  SC_THREAD(dma_thread);
  reset();
}

ChksumRtl::~ChksumRtl() { m_model_->final(); }

AhbPnp ChksumRtl::ahb_pnp() const {
  AhbPnp r;
  r.id = pnp_id(kVendorContrib, kDevChksum, p_.revision, 0);
  return r;
}

void ChksumRtl::bind_ahb(AhbCtrl& ahb) { ahb.bind_master(isock, p_.hindex, ahb_pnp(), "chksum"); }

uint32_t ChksumRtl::pin_read(unsigned w) {
  Vchksum& m = *m_model_;
  m.psel = 1;
  m.penable = 1;
  m.pwrite = 0;
  m.paddr = w * 4;
  m.eval();  // prdata is combinational: no clock edge
  const uint32_t v = m.prdata;
  m.psel = 0;
  m.penable = 0;
  m.eval();
  return v;
}

bool ChksumRtl::debug_read(uint32_t word, uint32_t& v) {
  v = (word % 256) < 24 ? pin_read(word % 256 / 4) : 0;
  return true;
}

void ChksumRtl::write_word(unsigned w, uint32_t v) {
  // The write is sampled at edge c (the TLM rule "a write at c changes the
  // state after edge c"). A write dated at or before the model's edge (not
  // seen from the CPU, which makes one access per cycle at most) lands on
  // the next edge.
  const cyc_t c = std::max(cycle_now(), m_ + 1);
  step_to(std::min(c, wake_at_) - 1);
  const bool start = w == 0 && (v & Chksum::CTRL_START);
  if (start && busy_) {
    ++st_.ignored_starts;
    Log::guest_error(name(), "START written while BUSY (ignored)");
  }
  if (start && !busy_) {
    // The operation's bounds, through the pins (ADDR, LEN): the adapter sizes
    // each TLM burst by the contract's rule and checks the pins against it.
    const uint32_t addr = pin_read(2), len = pin_read(3) & 0xFFFF;
    const uint64_t end = uint64_t(addr) + len;  // one past the last byte
    op_len_ = len;
    // A buffer past 0xFFFFFFFF: the RTL reads up to the top word, then ends
    // with ERR (rtl/chksum/README.md "Function").
    op_wraps_ = end > 0x100000000ull;
    op_bus_error_ = false;
    op_last_word_ = len ? uint32_t(std::min<uint64_t>(end - 1, 0xFFFFFFFFu) & ~uint64_t(3)) : 0;
    op_start_ = c;
    busy_ = true;
  }
  edge(true, w, v);
  if (busy_) schedule_wake();
}

void ChksumRtl::step_to(cyc_t c) {
  // An idle engine (state IDLE, no bus transfer, irq low) is a fixed point
  // of the clock: its edges change nothing, so they are not evaluated.
  if (!busy_ && !irq_hi_ && !d_act_ && htrans_ == kIdle) {
    m_ = std::max(m_, c);
    return;
  }
  while (m_ < c) edge(false, 0, 0);
}

void ChksumRtl::edge(bool apb_write, unsigned w, uint32_t v) {
  const EvalScope eval(in_eval_);  // the TLM read of a burst may come back here
  Vchksum& m = *m_model_;
  const cyc_t e = m_ + 1;
  const bool ready = clock_edge(apb_write, w, v);
  if (ready) {
    // The data phase ended; the address phase presented before the edge was
    // accepted and its data phase starts.
    if (d_act_ && !d_err_) ++st_.beats;
    d_act_ = false;
    if (htrans_ == kNonseq || htrans_ == kSeq) start_data_phase(e);
  }
  htrans_ = m.htrans;
  haddr_ = m.haddr;
  // A new burst: its address phase is on the bus during the clock after e;
  // the TLM read is issued at e (the TLM model's bus request at START + 1).
  // (Outputs change only at edges with HREADY high.)
  if (ready && htrans_ == kNonseq) {
    ++st_.bursts;
    const uint32_t to_kib = (0x400 - (haddr_ & 0x3FF)) / 4;
    const uint32_t left = haddr_ <= op_last_word_ ? (op_last_word_ - haddr_) / 4 + 1 : 1;
    issue(haddr_, std::min({kMaxBurst, to_kib, left}), e);
  }
  if (m.irq) {
    ++st_.irq_pulses;
    pulse_irq(p_.pirq, cyc_time(e));
  }
  irq_hi_ = m.irq;
  if (busy_ && !(pin_read(1) & Chksum::ST_BUSY)) op_done(e);
}

bool ChksumRtl::clock_edge(bool apb_write, unsigned w, uint32_t v) {
  Vchksum& m = *m_model_;
  const cyc_t e = m_ + 1;
  // AHB inputs sampled at edge e: the data phase in progress completes (or
  // waits, or answers ERROR) by the schedule; no data phase: HREADY high.
  bool ready = true;
  uint8_t resp = kOkay;
  if (d_act_) {
    if (d_err_) {
      if (e >= d_ready_ - 1) resp = kError;  // two cycles: HREADY low, then high
      ready = e >= d_ready_;
    } else {
      ready = e >= d_ready_;
      if (ready) m.hrdata = d_data_;
    }
  }
  m.hready = ready;
  m.hresp = resp;
  if (apb_write) {
    m.psel = 1;
    m.penable = 1;
    m.pwrite = 1;
    m.paddr = w * 4;
    m.pwdata = v;
  }
  m.clk = 0;
  m.eval();
  m.clk = 1;
  m.eval();
  ++edges_;
  m_ = e;
  if (apb_write) {
    m.psel = m.penable = m.pwrite = 0;
    m.eval();
  }
  return ready;
}

void ChksumRtl::start_data_phase(cyc_t e) {
  // (64-bit: the top burst ends at 2^32.)
  const bool planned = haddr_ >= b_addr_ && haddr_ < uint64_t(b_addr_) + 4 * b_words_ &&
                       (htrans_ == kSeq || haddr_ == b_addr_);
  if (!planned) {
    // Not a beat of the burst the adapter sized by the contract (the pins
    // left it): a single-word TLM read for it keeps the data right.
    ++unplanned_beats_;
    issue(haddr_, 1, e);
  }
  d_act_ = true;
  d_index_ = (haddr_ - b_addr_) / 4;
  d_err_ = !b_ok_;
  const uint8_t* b = &b_data_[4 * d_index_];
  d_data_ = uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3];
  if (d_err_)
    d_ready_ = e + 2 + b_wait0_;  // HREADY low at e+1+wait, high at e+2+wait
  else if (htrans_ == kNonseq || !planned)
    d_ready_ = e + 1 + b_wait0_;
  else
    d_ready_ = e + std::max<unsigned>(1, cost_.burst_cycles_per_word);
}

void ChksumRtl::op_done(cyc_t e) {
  // DONE rose at edge e (after the START edge STATUS shows BUSY).
  busy_ = false;
  const bool err = pin_read(1) & Chksum::ST_ERR;
  ++st_.ops;
  if (err)
    ++st_.errors;
  else
    st_.bytes += op_len_;
  if (err && op_wraps_ && !op_bus_error_)
    Log::guest_error(name(),
                     "DMA buffer runs past 0xFFFFFFFF: stopped at the top (ERR)");  // as the TLM model
  st_.busy_cycles += uint64_t(e - op_start_);
}

void ChksumRtl::issue(uint32_t addr, unsigned words, cyc_t e) {
  // Issued at the edge's time: from the thread that is sc_time_stamp(); from
  // inside a CPU access that runs ahead it is a later time, annotated.
  const sc_core::sc_time at = cyc_time(e), stamp = sc_core::sc_time_stamp();
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  if (at > stamp)
    d = at - stamp;
  else if (at < stamp)
    ++late_issues_;
  b_data_.assign(4 * words, 0);
  tlm::tlm_generic_payload gp;
  set_burst(gp, tlm::TLM_READ_COMMAND, addr, b_data_.data(), 4 * words);
  const sc_core::sc_time before = d;
  isock->b_transport(gp, d);
  ++tlm_reads_;
  b_addr_ = addr;
  b_words_ = words;
  b_ok_ = gp.is_response_ok();
  // The TLM bus's delay in clocks, rounded up. What it charges for the
  // transfer itself (transfer_cycles for the address phase + first beat,
  // burst_cycles_per_word per further beat; the pins spend their own address
  // clock and one clock per beat) is taken off: the rest (arbitration wait,
  // slave latency) are wait states of the first beat (README "Time mapping").
  const cyc_t dc = cyc_t(((d - before).value() + clk_ps_ - 1) / clk_ps_);
  const cyc_t charged = b_ok_ ? cyc_t(cost_.transfer_cycles) + cyc_t(words - 1) * cost_.burst_cycles_per_word
                              : cyc_t(cost_.transfer_cycles) + (cost_.transfer_cycles ? 1 : 0);
  b_wait0_ = std::max<cyc_t>(0, dc - charged);
  if (!b_ok_) {
    op_bus_error_ = true;
    Log::guest_error(name(), "AHB error response reading " + hex(addr));
  }
}

void ChksumRtl::schedule_wake() {
  // The next edge that needs the platform: the last beat of the burst in
  // flight (the next NONSEQ, whose TLM read is issued there, or the clock
  // before DONE follow it); else the next edge (DONE, or the NONSEQ of
  // START + 1).
  cyc_t next = m_ + 1;
  const cyc_t bc = std::max<unsigned>(1, cost_.burst_cycles_per_word);
  if (d_act_ && !d_err_ && d_index_ < b_words_)
    next = std::max(next, d_ready_ + cyc_t(b_words_ - 1 - d_index_) * bc);
  else if (!d_act_ && htrans_ == kNonseq && b_ok_)  // accepted at m_ + 1
    next = std::max(next, m_ + 2 + b_wait0_ + cyc_t(b_words_ - 1) * bc);
  wake_at_ = next;
  const sc_core::sc_time at = cyc_time(next), stamp = sc_core::sc_time_stamp();
  wake_.cancel();
  wake_.notify(at > stamp ? at - stamp : sc_core::SC_ZERO_TIME);
}

void ChksumRtl::dma_thread() {
  for (;;) {
    sc_core::wait(wake_);
    wake_at_ = kNever;
    step_to(cycle_of(sc_core::sc_time_stamp()));
    if (busy_) schedule_wake();
  }
}

void ChksumRtl::reset() {
  wake_.cancel();
  wake_at_ = kNever;
  Vchksum& m = *m_model_;
  m.rstn = 0;
  m.psel = m.penable = m.pwrite = 0;
  m.hready = 1;
  m.hresp = kOkay;
  m.clk = 0;
  m.eval();
  m.clk = 1;
  m.eval();  // synchronous reset
  m.rstn = 1;
  m.eval();
  // The state before the current cycle's edge: a write at this cycle lands
  // on its own edge.
  m_ = cycle_of(sc_core::sc_time_stamp()) - 1;
  busy_ = irq_hi_ = d_act_ = false;
  htrans_ = kIdle;
  b_words_ = 0;
  b_ok_ = true;
}

void ChksumRtl::register_stats(const StatsGroup& g) {
  // The engine's invariants under the TLM model's names (what the pins show
  // is the same), plus the adapter's host work.
  const auto U = StatUnit::Count;
  register_chksum_stats(g, st_);
  g.counter("rtl_edges", &edges_, U, StatInv::No, "RTL CHKSUM: clock edges evaluated (host work).");
  g.counter("rtl_tlm_reads", &tlm_reads_, U, StatInv::No,
            "RTL CHKSUM: TLM read transactions the AHB master adapter issued (one per burst).");
  g.counter("rtl_unplanned_beats", &unplanned_beats_, U, StatInv::No,
            "RTL CHKSUM: beats outside the burst the adapter sized by the contract (0 for a correct RTL).");
  g.counter("rtl_late_issues", &late_issues_, U, StatInv::No,
            "RTL CHKSUM: bursts issued after their edge's time (0 expected).");
}

}  // namespace l3vp
