// GRLIB APBUART (hw-reference §6; template UART #1: 0x80000100, IRQ 2,
// FIFO depth 4, 12-bit scaler).
//
// TX bytes go to a host sink as soon as they are handed to the transmitter
// (no waiting for the simulated character time); the status bits (TE, TS,
// TH, TF, TCNT) and interrupts still follow the simulated line timing,
// computed from SCALER and the frame format. RX bytes come from a host
// byte queue (fed by the program, a file or, on request, stdin) and arrive
// one per character time while the receiver is enabled. See README.md.
#pragma once
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "apb_device.h"
#include "params.h"
#include "probe.h"

namespace l3vp {

// Probe events (README "Probes"). Times are exact clock edges.
struct UartTxEvent {
  sc_core::sc_time start;  // the character moves to the shift register (start bit)
  sc_core::sc_time end;    // its last stop bit has left
  uint8_t ch;
  bool loopback;  // looped back into the receiver (TXD held idle)
};
struct UartRxEvent {
  sc_core::sc_time start;  // its start bit began (t - one character time at the current settings)
  sc_core::sc_time t;      // the stop bit has been received
  uint8_t ch;
  bool overrun;  // this arrival overwrote a waiting character (one lost)
};
// Text lines of leon3vp --probe (probe_text.h).
class ProbeText;
void probe_text(ProbeText& o, const UartTxEvent& e);
void probe_text(ProbeText& o, const UartRxEvent& e);

// Named after the apbuart.vhd generics; defaults = GR-XC3S-1500 UART #1.
struct ApbuartParams {
  unsigned pindex = 1;
  uint32_t paddr = 0x001;
  uint32_t pmask = 0xFFF;
  unsigned pirq = 2;
  unsigned fifosize = 4;  // 1 (holding register only), 2, 4, 8, 16, 32
  unsigned sbits = 12;    // baud scaler width
  unsigned revision = 2;  // devices table: APBUART rev 2 (older GRLIB: 1)
  sc_core::sc_time clk_period = sc_core::sc_time(25, sc_core::SC_NS);  // 40 MHz
  // Host backends, connected by the owner (Leon3mp): "-" stdout / stdin,
  // "" none, else a file (keys uart.out, uart.in).
  std::string out = "-";
  std::string in;
  // Fast UART (uart.fast, SIS's and TSIM's idea): the transmitter is never
  // busy; a character takes no line time (README "Timing").
  bool fast = false;
  // Configuration rows (below), keys below the instance prefix.
  static const param::Rows<ApbuartParams>& rows();
};

// The configuration rows: keys below the instance prefix the owner gives.
inline const param::Rows<ApbuartParams>& ApbuartParams::rows() {
  using namespace param;
  // clang-format off
  static const Rows<ApbuartParams> r = {
    {{"out", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "-",
      "UART output: `-` stdout, empty = discard, else a file"}, L3VP_PARAM_FIELD(ApbuartParams, out)},
    {{"in", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "",
      "UART input: empty = none, `-` stdin (not reproducible), else a file queued for the receiver"},
     L3VP_PARAM_FIELD(ApbuartParams, in)},
    {{"fast", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "false",
      "fast UART (as in SIS and TSIM): a transmitted character takes no line time, so STATUS always shows "
      "the transmitter idle and its FIFO empty; changes the timing of UART-bound code only"},
     L3VP_PARAM_FIELD(ApbuartParams, fast)},
  };
  // clang-format on
  return r;
}

class StatsGroup;

class Apbuart : public ApbDevice {
 public:
  using Params = ApbuartParams;

  SC_HAS_PROCESS(Apbuart);
  Apbuart(sc_core::sc_module_name name, const Params& p = Params());

  // --- host side: transmit ---
  // The output backend (not an observer: use on_tx for that). Every
  // transmitted byte is passed to the sink as soon as the transmitter takes
  // it on (default: stdout, flushed at each '\n'). nullptr discards.
  void set_tx_sink(std::function<void(uint8_t)> sink) { tx_sink_ = std::move(sink); }
  void set_tx_file(std::FILE* f);

  // --- host side: receive ---
  void rx_push(uint8_t byte);
  void rx_push(const std::string& bytes);
  // Queues the whole content of a file; false if it cannot be read or is
  // not a regular, non-empty file within kMaxUartInBytes (input_file.h).
  bool rx_load_file(const std::string& path);
  // Poll the process's stdin (non-blocking) for input while the receiver is
  // enabled and the queue is empty. Off by default: it makes the run depend
  // on host timing.
  void rx_use_stdin(bool on);
  size_t rx_host_pending() const { return host_rx_.size(); }
  void rx_host_clear() { host_rx_.clear(); }

  // --- statistics ---
  uint64_t tx_bytes() const { return tx_bytes_; }      // sent on the line (incl. loop-back)
  uint64_t tx_dropped() const { return tx_dropped_; }  // DATA writes to a full TX FIFO
  uint64_t rx_bytes() const { return rx_bytes_; }      // characters received (incl. lost)
  uint64_t rx_dropped() const { return rx_dropped_; }  // characters lost by overrun
  // Registers the four counters above under `g` (devices.uart).
  void register_stats(const StatsGroup& g) override;
  // <prefix>.tx, <prefix>.rx (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix) override;

  // Character time in clock cycles for the current SCALER/CTRL settings.
  uint64_t char_cycles() const;
  // The line time of a transmitted character: char_cycles(), 0 with `fast`.
  uint64_t tx_char_cycles() const { return p_.fast ? 0 : char_cycles(); }

  void reset() override;

  // --- probes (published only when listened to) ---
  Probe<UartTxEvent> on_tx;  // a character starts on the line (incl. loop-back)
  Probe<UartRxEvent> on_rx;  // a character has been received

 private:
  using cyc_t = int64_t;
  static constexpr cyc_t kNever = INT64_MAX;

  // One character handed to the transmitter: waiting in the FIFO until
  // `start` (moved to the shift register), on the line until `end`.
  struct TxChar {
    uint8_t ch;
    cyc_t start = kNever;  // kNever: held (transmitter disabled)
    cyc_t end = kNever;
    bool started = false;  // start boundary processed
    bool sent = false;     // passed to the host sink / decided loop-back
    bool loop = false;     // looped back into the receiver at `end`
  };

  void build_registers();
  sc_core::sc_time cyc_time(cyc_t c) const { return sc_core::sc_time::from_value(uint64_t(c) * clk_ps_); }
  cyc_t cycle_now() const { return static_cast<cyc_t>(now().value() / clk_ps_); }
  void sync(cyc_t c);  // process every line event up to cycle c
  void touch() { sync(cycle_now()); }
  void after_change();  // process events at c0_, level IRQs, reschedule
  void schedule_tx();   // (re)time the characters that have not started
  void rx_kick(cyc_t c);
  void rx_deliver(uint8_t ch);
  uint8_t rx_pop();
  void check_levels();
  void reschedule();
  void on_event();
  void poll_stdin();
  unsigned tx_waiting() const;  // TCNT: characters in the TX FIFO
  uint32_t status() const;

  bool ctrl(unsigned bit) const { return (ctrl_ >> bit) & 1; }
  [[gnu::cold, gnu::noinline]] void tx_while_disabled(uint8_t ch);  // the once-per-run guest error

  Params p_;
  uint64_t clk_ps_;
  uint32_t smask_;
  std::function<void(uint8_t)> tx_sink_;

  uint32_t ctrl_ = 0;    // CTRL: bits 15:0 and the constant FA (bit 31)
  uint32_t scaler_ = 0;  // not reset by hardware; power-on 0
  uint32_t errs_ = 0;    // STATUS BR/OV/PE/FE, at their STATUS bit positions

  std::deque<TxChar> tx_;
  std::vector<uint8_t> rx_buf_;  // ring buffer, fifosize entries
  unsigned rx_rd_ = 0, rx_cnt_ = 0;
  bool rx_shift_full_ = false;  // character held in the receive shift register
  uint8_t rx_shift_ = 0;
  bool rx_stalled_ = false;  // flow control (CTRL.FL): sender paused

  std::deque<uint8_t> host_rx_;
  bool stdin_ = false, stdin_eof_ = false;
  cyc_t rx_next_ = kNever;       // arrival of the next host character
  cyc_t rx_poll_next_ = kNever;  // next stdin poll

  bool tf_level_ = false, rf_level_ = false;
  cyc_t c0_ = 0;
  sc_core::sc_event ev_;

  uint64_t tx_bytes_ = 0, tx_dropped_ = 0, rx_bytes_ = 0, rx_dropped_ = 0;
  bool te_off_reported_ = false;  // a DATA write with TE = 0 was logged (once per run; reset() keeps it)
};

}  // namespace l3vp
