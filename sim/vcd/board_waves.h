// The board's waveform (leon3vp --vcd): listeners on the platform's probes
// that turn every event into value changes at its exact simulated time
// (README, docs/waveforms.md).
//
//   auto sel = vcd::parse_signals("irq,greth,link");   // throws std::invalid_argument
//   vcd::BoardWaves w(plat, sel, region_names);        // declares, attaches
//   w.open("run.vcd", {"firmware: ..."});              // after elaboration
//   sc_start(...);
//   std::string err = w.close();                      // detaches, writes the rest
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "leon3mp.h"
#include "vcd_writer.h"

namespace l3vp::vcd {

// Signal groups of --vcd-signals.
struct Selection {
  bool cpu = false, irq = false, timer = false, uart = false, ahb = false, greth = false, link = false,
       regions = false;
  bool pc = false;      // cpu.pc: the PC of every step (per instruction: runs the observed loop)
  bool iclass = false;  // cpu.class: the instruction class of every step (likewise)
};
// The default selection: every group but the per-instruction signals
// (cpu.pc, cpu.class) and the per-bus-transaction group (ahb).
Selection default_signals();
// "cpu,irq,...", "default", "all" (the default, ahb and the per-instruction
// signals), "cpu.pc", "cpu.class". Throws std::invalid_argument naming the
// bad item.
Selection parse_signals(const std::string& list);
// The selection as a comma list (the file's header comment).
std::string to_string(const Selection& s);
// About how many bytes per simulated millisecond the selection writes at
// most: the sum of each group's measured peak rate (README "Size").
uint64_t peak_bytes_per_ms(const Selection& s);

class BoardWaves {
 public:
  // Declares the signals of the selected groups and attaches the listeners.
  // region_names: names of region ids (ElfImage::region_names); each named
  // region gets its own wire, all regions appear in regions.current.
  // scope: the top scope of every signal ("board": board.cpu.pil, ...); a
  // board of several in one process takes its own name.
  BoardWaves(Leon3mp& plat, const Selection& sel, const std::map<uint32_t, std::string>& region_names,
             const std::string& scope = "board");
  ~BoardWaves();
  BoardWaves(const BoardWaves&) = delete;
  BoardWaves& operator=(const BoardWaves&) = delete;

  // Only [start, end] (simulated ps) is written. Before open().
  void set_window(uint64_t start_ps, uint64_t end_ps) { w_.set_window(start_ps, end_ps); }
  // At most `bytes` in the file (0: none; --vcd-max-size, Writer::set_max_bytes). Before open().
  void set_max_bytes(uint64_t bytes) { w_.set_max_bytes(bytes); }
  bool truncated() const { return w_.truncated(); }
  uint64_t truncated_at_ps() const { return w_.truncated_at(); }
  // Creates the file (throws std::runtime_error).
  void open(const std::string& path, const std::vector<std::string>& comments);
  // Detaches the listeners, writes everything up to the end of the run and
  // closes the file: "" or the reason the file is incomplete.
  std::string close();

  uint64_t late() const { return w_.late(); }

 private:
  using Sig = Writer::Sig;
  static constexpr size_t kFlushAt = 1 << 16;  // buffered changes before a flush

  uint64_t ps(const sc_core::sc_time& t) const { return t.value() * unit_ps_; }
  uint64_t cyc_ps(uint64_t cycle) const { return ps(plat_.cpu.time_of(cycle)); }
  // Called from listeners that never run inside a lazily computed device's
  // own update (core, AHB, marker, link): flushes when the buffer is full.
  void maybe_flush() {
    if (w_.pending() >= flush_at_) flush_now();
  }
  void flush_now();
  // Brings the GPTIMER's late underflows up to one clock before now and
  // returns that horizon (0 before the first clock).
  uint64_t catch_up_timer();
  // The constructor's groups: declare the signals, attach the listeners.
  void declare_cpu(const Selection& sel);
  void declare_irq();
  void declare_timer();
  void declare_uart();
  void declare_ahb();
  void declare_greth();
  void declare_link();
  void declare_regions(const std::map<uint32_t, std::string>& region_names);
  void region_mark(bool begin, uint32_t id, uint64_t t);
  std::string region_label(uint32_t id) const;

  Leon3mp& plat_;
  std::string scope_;  // top scope of every signal
  Writer w_;
  uint64_t unit_ps_ = 1;  // ps per sc_time resolution unit
  uint64_t clk_ps_;       // one clock: the width of a pulse
  std::vector<std::function<void()>> detach_;
  // The next flush: kFlushAt changes after what the last flush had to keep.
  // The CPU runs up to a quantum ahead of the kernel's time, so its changes
  // after the horizon stay buffered; without this every later change would
  // sort the whole buffer again (--quantum 1ms --vcd-signals all: 60 s
  // instead of 0.5 s for 120 ms of net_ping).
  size_t flush_at_ = kFlushAt;

  // cpu
  Sig pil_ = 0, et_ = 0, trap_ = 0, error_ = 0, pd_ = 0, pc_ = 0, cls_ = 0;
  Writer::Stream step_stream_ = 0;
  std::vector<uint64_t> class_v_;  // string values of the class names
  // irq
  Sig line_[16] = {}, irl_ = 0, ack_ = 0;
  // timer (index 1..7)
  struct TimerSigs {
    Sig underflow, ip, value, count;
    uint64_t n = 0;
  };
  std::vector<TimerSigs> timers_;
  // uart
  Sig tx_ = 0, tx_busy_ = 0, rx_ = 0, rx_busy_ = 0;
  // ahb
  Sig bus_master_ = 0;
  struct MasterSigs {
    Sig busy, addr, write, beats, wait;
    Writer::Stream stream;
    uint64_t name_v;  // the name as a string value of bus_master_
    // The values last recorded (the stream is in time order, so a value
    // equal to the last one needs no change).
    uint64_t addr_v = 0, write_v = 0, beats_v = 0, wait_v = 0;
  };
  std::vector<MasterSigs> masters_;  // by AHB master index (hindex < 16)
  std::vector<int> master_slot_;     // hindex -> index in masters_, -1: none
  // greth
  Sig tx_dma_ = 0, rx_dma_ = 0, tx_desc_ = 0, rx_desc_ = 0, tx_len_ = 0, rx_len_ = 0, rx_verdict_ = 0,
      girq_ = 0;
  // link, per direction (0 = to_host, 1 = to_board)
  struct DirSigs {
    Sig wire, rx, len, impair;
  };
  DirSigs dir_[2] = {};
  // regions
  std::map<uint32_t, Sig> region_sig_;
  std::map<uint32_t, std::string> region_names_;
  Sig region_current_ = 0, region_depth_ = 0;
  std::vector<uint32_t> open_regions_;  // in BEGIN order
};

}  // namespace l3vp::vcd
