#include "apbuart.h"
#include "input_file.h"
#include "probe_registry.h"
#include "stats.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

namespace l3vp {

namespace {
// CTRL bits (hw-reference §6.3).
enum : unsigned {
  C_RE = 0,
  C_TE = 1,
  C_RI = 2,
  C_TI = 3,
  C_PS = 4,
  C_PE = 5,
  C_FL = 6,
  C_LB = 7,
  C_EC = 8,
  C_TF = 9,
  C_RF = 10,
  C_DB = 11,
  C_BI = 12,
  C_DI = 13,
  C_SI = 14,
  C_NS = 15,
};
}  // namespace

Apbuart::Apbuart(sc_core::sc_module_name name, const Params& p) : ApbDevice(name, 256), p_(p) {
  const unsigned f = p_.fifosize;
  if (f != 1 && f != 2 && f != 4 && f != 8 && f != 16 && f != 32)
    throw std::invalid_argument("Apbuart: fifosize must be 1, 2, 4, 8, 16 or 32");
  if (p_.sbits < 1 || p_.sbits > 32) throw std::invalid_argument("Apbuart: sbits must be 1..32");
  if (p_.pirq > 31) throw std::invalid_argument("Apbuart: pirq out of range");
  if (p_.clk_period == sc_core::SC_ZERO_TIME) throw std::invalid_argument("Apbuart: zero clock period");
  clk_ps_ = p_.clk_period.value();
  smask_ = p_.sbits >= 32 ? 0xFFFFFFFFu : (1u << p_.sbits) - 1;
  rx_buf_.assign(f, 0);
  pnp_.id = pnp_id(VENDOR_GAISLER, DEV_APBUART, p_.revision, p_.pirq);
  pnp_.bar = pnp_bar(p_.paddr, p_.pmask, false, false, BAR_APBIO);
  tx_sink_ = [](uint8_t c) {
    std::fputc(c, stdout);
    if (c == '\n') std::fflush(stdout);
  };
  build_registers();
  SC_METHOD(on_event);
  sensitive << ev_;
  dont_initialize();
  reset();
}

void Apbuart::set_tx_file(std::FILE* f) {
  if (!f)
    tx_sink_ = nullptr;
  else
    tx_sink_ = [f](uint8_t c) {
      std::fputc(c, f);
      if (c == '\n') std::fflush(f);
    };
}

void Apbuart::build_registers() {
  auto touch_fn = [this] { touch(); };
  // Read: the byte at the RX FIFO's read pointer (stale when empty), then
  // the pop as a read side effect. Write: push into the TX FIFO.
  regs_.add("DATA", 0x00)
      .no_store()
      .rsvd(~0xFFu)
      .sync(touch_fn)
      .read_value([this] { return uint32_t(rx_buf_[rx_rd_]); })
      .on_read([this] {
        rx_pop();
        after_change();
      })
      .on_write([this](uint32_t v) {
        // Firmware written for a boot loader that never enables the UART
        // (e.g. run with --boot entry) would otherwise print nothing and
        // not know why: say it once per run.
        if (!ctrl(C_TE) && !te_off_reported_) tx_while_disabled(static_cast<uint8_t>(v));
        if (tx_waiting() >= p_.fifosize) {
          // Hardware overwrites a FIFO slot; the model drops the new byte.
          ++tx_dropped_;
          Log::guest_error(name(), "DATA written while the TX FIFO is full: byte dropped");
        } else {
          TxChar t;
          t.ch = static_cast<uint8_t>(v);
          tx_.push_back(t);
          schedule_tx();
        }
        after_change();
      });
  // BR/OV/PE/FE take the written value (write 0 to clear, hw-reference
  // §6.2); every other bit is computed from the FIFOs.
  regs_.add("STATUS", 0x04).bind(errs_).ro(~0x78u).sync(touch_fn).read_value([this] { return status(); });
  // FA (bit 31) is a constant; TF/RF exist only with a FIFO. Reset clears
  // RE, TE, FL, EC, DB, BI, NS; the other bits keep their (power-on 0) value.
  const uint32_t fa = p_.fifosize > 1 ? 1u << 31 : 0;
  const uint32_t cleared =
      (1u << C_RE) | (1u << C_TE) | (1u << C_FL) | (1u << C_EC) | (1u << C_DB) | (1u << C_BI) | (1u << C_NS);
  regs_.add("CTRL", 0x08)
      .bind(ctrl_)
      .reset_value(fa)
      .ro(1u << 31)
      .rsvd(0x7FFF0000u | (p_.fifosize == 1 ? (1u << C_TF) | (1u << C_RF) : 0))
      .unimp(1u << C_DB, "FIFO debug mode CTRL.DB")
      .unimp(1u << C_EC, "external baud clock CTRL.EC")
      .unimp(1u << C_DI, "delayed RX interrupt CTRL.DI, treated as immediate")
      .no_reset(~cleared)
      .before_write(touch_fn)
      .on_write([this](uint32_t, uint32_t old) {
        // Frame format or transmitter enable changed: retime waiting chars.
        if ((old ^ ctrl_) & ((1u << C_TE) | (1u << C_PE) | (1u << C_NS) | (1u << C_LB))) schedule_tx();
        if (!ctrl(C_RE) || ctrl(C_LB)) rx_next_ = rx_poll_next_ = kNever;
        rx_kick(c0_);
        after_change();
      });
  // Not reset by hardware.
  regs_.add("SCALER", 0x0C)
      .bind(scaler_)
      .rsvd(~smask_)
      .no_reset(~0u)
      .before_write(touch_fn)
      .on_write([this](uint32_t) {
        schedule_tx();
        after_change();
      });
  // FIFO debug register (CTRL.DB only): not modelled, reads 0.
  regs_.add("FIFODBG", 0x10).no_store().unimp(~0u, "FIFO debug register");
}

void Apbuart::tx_while_disabled(uint8_t ch) {
  te_off_reported_ = true;
  Log::guest_error(name(), "character " + hex(ch, 2) +
                               " written while the transmitter is disabled (CTRL.TE = 0): held in the TX "
                               "FIFO, not sent until TE is set; further ones are not reported");
}

void Apbuart::reset() {
  ev_.cancel();
  c0_ = cycle_now();
  regs_.reset();  // CTRL bits as declared, STATUS error bits, SCALER kept
  tx_.clear();
  rx_rd_ = rx_cnt_ = 0;
  rx_shift_full_ = rx_stalled_ = false;
  rx_next_ = rx_poll_next_ = kNever;
  tf_level_ = rf_level_ = false;
}

uint64_t Apbuart::char_cycles() const {
  // start + 8 data + optional parity + 1 or 2 stop bits; 8 scaler ticks/bit.
  const uint64_t bits = 10 + (ctrl(C_PE) ? 1 : 0) + (ctrl(C_NS) ? 1 : 0);
  return bits * 8 * (uint64_t(scaler_) + 1);
}

unsigned Apbuart::tx_waiting() const {
  unsigned n = 0;
  for (const auto& t : tx_)
    if (!t.started) ++n;
  return n;
}

uint32_t Apbuart::status() const {
  const unsigned tcnt = tx_waiting();
  const bool shifting = !tx_.empty() && tx_.front().started;
  const unsigned f = p_.fifosize;
  uint32_t s = 0;
  s |= rx_cnt_ > 0 ? 1u : 0;     // DR
  s |= shifting ? 0 : 1u << 1;   // TS
  s |= tcnt == 0 ? 1u << 2 : 0;  // TE
  s |= errs_;                    // BR OV PE FE
  if (f > 1) {
    s |= tcnt < f / 2 ? 1u << 7 : 0;      // TH
    s |= rx_cnt_ >= f / 2 ? 1u << 8 : 0;  // RH
    s |= tcnt >= f ? 1u << 9 : 0;         // TF
    s |= rx_cnt_ >= f ? 1u << 10 : 0;     // RF
    s |= (tcnt & 0x3F) << 20;
    s |= (rx_cnt_ & 0x3F) << 26;
  }
  return s;
}

// ---------------------------------------------------------------------------
// Transmitter
// ---------------------------------------------------------------------------

void Apbuart::schedule_tx() {
  // Characters already started keep their timing; the waiting ones are
  // (re)timed back to back after the one on the line.
  cyc_t prev_end = c0_;
  for (const auto& t : tx_)
    if (t.started) prev_end = std::max(prev_end, t.end);
  const cyc_t tc = static_cast<cyc_t>(tx_char_cycles());
  for (auto& t : tx_) {
    if (t.started) continue;
    if (!ctrl(C_TE)) {
      t.start = t.end = kNever;  // held in the FIFO
      continue;
    }
    t.start = std::max(prev_end, c0_);
    t.end = t.start + tc;
    prev_end = t.end;
    if (!t.sent) {
      // Bytes leave for the host as soon as the transmitter takes them on;
      // in loop-back mode TXD is held idle and nothing reaches the host.
      t.sent = true;
      t.loop = ctrl(C_LB);
      ++tx_bytes_;
      if (!t.loop && tx_sink_) tx_sink_(t.ch);
    }
  }
}

// ---------------------------------------------------------------------------
// Receiver
// ---------------------------------------------------------------------------

void Apbuart::rx_push(uint8_t byte) {
  host_rx_.push_back(byte);
  // Called from outside any access: the host's "now" is sc_time_stamp().
  const cyc_t c = std::max(c0_, static_cast<cyc_t>(sc_core::sc_time_stamp().value() / clk_ps_));
  if (rx_next_ == kNever) {
    rx_kick(c);
    reschedule();
  }
}

void Apbuart::rx_push(const std::string& bytes) {
  for (char ch : bytes) rx_push(static_cast<uint8_t>(ch));
}

bool Apbuart::rx_load_file(const std::string& path) {
  // The same rules as every input file (a regular, non-empty file within
  // the UART-input limit), so the model never reads a FIFO or /dev/zero
  // whoever calls it; leon3vp checks first only to name its option.
  try {
    rx_push(read_input_file(path, kMaxUartInBytes, "UART input"));
  } catch (const InputFileError&) {
    return false;
  }
  return true;
}

void Apbuart::rx_use_stdin(bool on) {
  stdin_ = on;
  stdin_eof_ = false;
  if (on) {
    const cyc_t c = std::max(c0_, static_cast<cyc_t>(sc_core::sc_time_stamp().value() / clk_ps_));
    rx_kick(c);
    reschedule();
  } else {
    rx_poll_next_ = kNever;
  }
}

void Apbuart::poll_stdin() {
  if (!stdin_ || stdin_eof_) return;
  struct pollfd pfd = {0, POLLIN, 0};
  while (::poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLIN | POLLHUP))) {
    uint8_t buf[256];
    const ssize_t n = ::read(0, buf, sizeof buf);
    if (n <= 0) {
      stdin_eof_ = true;
      break;
    }
    host_rx_.insert(host_rx_.end(), buf, buf + n);
  }
}

// Start the next host character if the receiver can take one.
void Apbuart::rx_kick(cyc_t c) {
  if (!ctrl(C_RE) || ctrl(C_LB) || rx_stalled_ || rx_next_ != kNever) return;
  const cyc_t tc = static_cast<cyc_t>(char_cycles());
  if (host_rx_.empty()) poll_stdin();
  if (!host_rx_.empty()) {
    rx_next_ = c + tc;
    rx_poll_next_ = kNever;
  } else if (stdin_ && !stdin_eof_ && rx_poll_next_ == kNever) {
    rx_poll_next_ = c + 10 * tc;
  }
}

// A character's stop bit has been received.
void Apbuart::rx_deliver(uint8_t ch) {
  ++rx_bytes_;
  bool overrun = false;
  const unsigned f = p_.fifosize;
  if (rx_cnt_ < f) {
    rx_buf_[(rx_rd_ + rx_cnt_) % f] = ch;
    ++rx_cnt_;
  } else {
    // FIFO full: the character waits in the shift register; a second one
    // arriving meanwhile overwrites it (overrun, one character lost).
    if (rx_shift_full_) {
      errs_ |= 1u << 4;  // OV
      ++rx_dropped_;
      overrun = true;
    }
    rx_shift_full_ = true;
    rx_shift_ = ch;
  }
  // c0_ is the cycle being processed (sync() sets it before each boundary).
  if (on_rx.has_listeners()) {
    const cyc_t ct = static_cast<cyc_t>(char_cycles());
    on_rx.notify({cyc_time(c0_ > ct ? c0_ - ct : 0), cyc_time(c0_), ch, overrun});
  }
  if (ctrl(C_RI)) pulse_irq(p_.pirq);
}

uint8_t Apbuart::rx_pop() {
  const unsigned f = p_.fifosize;
  // Reading an empty FIFO returns the stale byte at the read pointer.
  const uint8_t c = rx_buf_[rx_rd_];
  if (rx_cnt_ == 0) return c;
  rx_rd_ = (rx_rd_ + 1) % f;
  --rx_cnt_;
  if (rx_shift_full_) {
    rx_buf_[(rx_rd_ + rx_cnt_) % f] = rx_shift_;
    ++rx_cnt_;
    rx_shift_full_ = false;
  }
  if (rx_stalled_) {
    rx_stalled_ = false;
    rx_kick(c0_);
  }
  return c;
}

// ---------------------------------------------------------------------------
// Event processing
// ---------------------------------------------------------------------------

void Apbuart::sync(cyc_t c) {
  c = std::max(c, c0_);
  for (;;) {
    // Candidate boundaries, in processing order for equal times:
    // TX end, TX start, RX arrival, stdin poll.
    cyc_t t_end = kNever, t_start = kNever;
    if (!tx_.empty() && tx_.front().started) t_end = tx_.front().end;
    TxChar* next = nullptr;
    for (auto& t : tx_)
      if (!t.started) {
        next = &t;
        t_start = t.start;
        break;
      }
    const cyc_t t = std::min({t_end, t_start, rx_next_, rx_poll_next_});
    if (t > c) break;
    c0_ = t;
    if (t_end == t) {
      const TxChar done = tx_.front();
      tx_.pop_front();
      if (done.loop && ctrl(C_RE)) rx_deliver(done.ch);
      const bool back_to_back = !tx_.empty() && tx_.front().start == t;
      if (ctrl(C_SI) && !back_to_back) pulse_irq(p_.pirq);  // shift register became empty
    } else if (t_start == t) {
      next->started = true;
      if (on_tx.has_listeners()) on_tx.notify({cyc_time(t), cyc_time(next->end), next->ch, next->loop});
      if (p_.fifosize == 1 || tx_waiting() == 0)
        if (ctrl(C_TI)) pulse_irq(p_.pirq);  // FIFO (holding register) became empty
    } else if (rx_next_ == t) {
      rx_next_ = kNever;
      const bool full = rx_cnt_ >= p_.fifosize && rx_shift_full_;
      if (ctrl(C_FL) && full) {
        rx_stalled_ = true;  // RTS deasserted: the sender waits
      } else if (!host_rx_.empty()) {
        const uint8_t ch = host_rx_.front();
        host_rx_.pop_front();
        rx_deliver(ch);
      }
      rx_kick(t);
    } else {
      rx_poll_next_ = kNever;
      rx_kick(t);
    }
    check_levels();
  }
  c0_ = c;
}

void Apbuart::after_change() {
  sync(c0_);  // e.g. a character that starts right at the access time
  check_levels();
  reschedule();
}

// TF/RF are level interrupts in hardware (a pulse every clock while the
// condition holds); the model pulses when the condition becomes true.
void Apbuart::check_levels() {
  if (p_.fifosize == 1) return;
  const unsigned f = p_.fifosize;
  const bool tf = ctrl(C_TF) && ctrl(C_TE) && tx_waiting() < f / 2;
  const bool rf = ctrl(C_RF) && ctrl(C_RE) && rx_cnt_ >= f / 2;
  if ((tf && !tf_level_) || (rf && !rf_level_)) pulse_irq(p_.pirq);
  tf_level_ = tf;
  rf_level_ = rf;
}

void Apbuart::reschedule() {
  ev_.cancel();
  cyc_t t = std::min(rx_next_, rx_poll_next_);
  if (!tx_.empty() && tx_.front().started) t = std::min(t, tx_.front().end);
  for (const auto& x : tx_)
    if (!x.started) {
      t = std::min(t, x.start);
      break;
    }
  if (t == kNever || uint64_t(t) > UINT64_MAX / clk_ps_) return;
  const sc_core::sc_time at = sc_core::sc_time::from_value(uint64_t(t) * clk_ps_);
  const sc_core::sc_time stamp = sc_core::sc_time_stamp();
  ev_.notify(at > stamp ? at - stamp : sc_core::SC_ZERO_TIME);
}

void Apbuart::on_event() {
  sync(static_cast<cyc_t>(sc_core::sc_time_stamp().value() / clk_ps_));
  reschedule();
}

// ---------------------------------------------------------------- statistics

void Apbuart::register_stats(const StatsGroup& g) {
  const auto B = StatUnit::Bytes;
  const auto Y = StatInv::Yes;
  g.counter("tx_bytes", &tx_bytes_, B, Y, "Characters transmitted (incl. loop-back).");
  g.counter("tx_dropped", &tx_dropped_, B, Y, "Characters lost: DATA writes to a full TX FIFO.");
  g.counter("rx_bytes", &rx_bytes_, B, Y, "Characters received (incl. lost ones).");
  g.counter("rx_dropped", &rx_dropped_, B, Y, "Characters lost by overrun.");
}

void probe_text(ProbeText& o, const UartTxEvent& e) {
  o.at(e.start);
  o.time("end", e.end).num("ch", e.ch).flag("loopback", e.loopback);
}

void probe_text(ProbeText& o, const UartRxEvent& e) {
  o.at(e.t);
  o.time("start", e.start).num("ch", e.ch).flag("overrun", e.overrun);
}

void Apbuart::register_probes(ProbeRegistry& r, const std::string& prefix) {
  r.add(prefix, "tx", on_tx, "end ch loopback");
  r.add(prefix, "rx", on_rx, "start ch overrun");
}

}  // namespace l3vp
