// A Value Change Dump writer for changes that arrive out of time order
// (README: "Why not sc_trace").
//
// Signals are declared first (add()), then changes are recorded with their
// exact time in any order; flush(h) writes out, in time order, every change
// dated at or before h. The caller promises that no later change will be
// dated at or before h (a change that breaks the promise is counted in
// late() and written at the earliest time still open, never dropped).
//
//   vcd::Writer w;
//   auto irl = w.add("board.irq", "irl", 4);
//   w.open("run.vcd", 1, {"leon3vp ..."});     // 1 = timescale 1 ps
//   w.change(t_ps, irl, 5);
//   w.flush(horizon_ps);                        // any number of times
//   std::string err = w.close(end_ps);          // "" or the reason
//
// Within one time, changes are written by signal (declaration order), and
// the last change of a signal at that time wins: the general buffer's in
// recording order, then each ordered stream's (in creation order), so a
// stream's change beats a general one at the same time. A source records in
// its own order, so the file does not depend on the order in which
// simultaneous changes of different sources were recorded (the quantum of
// temporal decoupling changes that order, not the file).
#pragma once
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace l3vp::vcd {

class Writer {
 public:
  using Sig = uint32_t;
  static constexpr uint64_t kForever = std::numeric_limits<uint64_t>::max();

  Writer() = default;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer();

  // Declares a signal `name` in the dotted scope `scope` ("board.irq").
  // width 1: a wire; 2..64: a vector (reg); 0: a string (GTKWave's "string"
  // variable type). Initial value: 0, or `init` for strings (no spaces).
  Sig add(const std::string& scope, const std::string& name, unsigned width, std::string init = "-");
  size_t signals() const { return sigs_.size(); }

  // Only changes in [start, end] are written; the values at `start` are
  // dumped there ($dumpvars). Call before open().
  void set_window(uint64_t start, uint64_t end) {
    win_start_ = start;
    win_end_ = end;
  }

  // At most `bytes` in the file (0: no limit; --vcd-max-size). The file then
  // ends after the last whole time group ("#t" and its changes) that leaves
  // room for truncation_note(), followed by that note; later changes are
  // dropped (the run is not affected). The header and the note are always
  // written, even when they alone exceed the limit. Call before open().
  void set_max_bytes(uint64_t bytes) { max_bytes_ = bytes; }
  bool truncated() const { return cut_; }
  uint64_t truncated_at() const { return cut_at_; }  // the time of the first group left out
  // The $comment that ends a file cut at `t` by a limit of `cap` bytes.
  static std::string truncation_note(uint64_t cap, uint64_t t);

  // Creates the file and writes the header; `timescale_ps` is the time unit
  // of every time given to this writer. Throws std::runtime_error.
  void open(const std::string& path, uint64_t timescale_ps, const std::vector<std::string>& comments);

  // An ordered stream: a source that records its changes in nondecreasing
  // time order (one AHB master's transactions) appends to its own stream,
  // which flush() merges without sorting. A change that would break the
  // order goes to the general buffer instead (still written correctly).
  using Stream = uint32_t;
  Stream add_stream() {
    streams_.emplace_back();
    return Stream(streams_.size() - 1);
  }
  void change(Stream st, uint64_t t, Sig s, uint64_t v) {
    std::vector<Change>& q = streams_[st];
    if (q.empty() ? t >= stream_floor_ : t >= q.back().t)
      q.push_back({t, s, v, Op::Set});
    else
      buf_.push_back({t, s, v, Op::Set});
  }

  // Records a change. Vector values are masked to the width.
  void change(uint64_t t, Sig s, uint64_t v) { buf_.push_back({t, s, v, Op::Set}); }
  void change(uint64_t t, Sig s, std::string_view str) { buf_.push_back({t, s, intern(str), Op::Set}); }
  // Adds a signed delta to a vector signal (counts of things in progress);
  // applied in time order, so the out-of-order recording does not matter.
  void add_delta(uint64_t t, Sig s, int64_t d) { buf_.push_back({t, s, uint64_t(d), Op::Add}); }
  // 1 (or v) at t, 0 at t + width.
  void pulse(uint64_t t, Sig s, uint64_t width, uint64_t v = 1) {
    change(t, s, v);
    change(t + width, s, uint64_t(0));
  }

  // The value of string `s` for change(Stream, ...) on a string signal.
  uint64_t string_value(std::string_view s) { return intern(s); }

  size_t pending() const {
    size_t n = buf_.size();
    for (const auto& q : streams_) n += q.size();
    return n;
  }
  // Writes out the recorded changes dated <= h, in time order.
  void flush(uint64_t h);
  // Writes out everything, then a final time stamp (`end`, clipped to the
  // window; never before the last change written) and closes the file.
  // Returns "" or the reason the file is incomplete.
  std::string close(uint64_t end);

  uint64_t late() const { return late_; }

 private:
  enum class Op : uint8_t { Set, Add };
  struct Change {
    uint64_t t;
    Sig sig;
    uint64_t v;
    Op op;
  };
  struct Signal {
    std::string scope, name;
    unsigned width;
    std::string code;
    uint64_t cur = 0;  // value (strings: index into strs_)
  };

  uint64_t intern(std::string_view s);
  void emit_value(const Signal& s, uint64_t v);
  void emit_time(uint64_t t);
  void dump_all(uint64_t t);
  void out(std::string_view s);
  void drain();
  void end_group();  // the time group being written is complete: keep it, or cut the file before it
  void apply_group(std::vector<Change>& g);  // all changes of one time

  std::vector<Signal> sigs_;
  std::vector<std::string> strs_;
  std::unordered_map<std::string, uint64_t> str_index_;
  std::vector<Change> buf_;
  std::vector<std::vector<Change>> streams_;
  std::vector<Change> group_;  // scratch of flush()
  uint64_t stream_floor_ = 0;  // no stream change may be dated before this

  std::FILE* f_ = nullptr;
  std::string obuf_;
  std::string err_;
  uint64_t win_start_ = 0, win_end_ = kForever;
  bool flushed_any_ = false;
  uint64_t horizon_ = 0;    // everything <= horizon_ has been written
  bool dumped_ = false;     // $dumpvars written
  bool time_open_ = false;  // a "#t" line for last_t_ is written
  uint64_t last_t_ = 0;
  uint64_t late_ = 0;
  // Size limit: bytes handed to the file so far, where the open time group
  // starts in obuf_, and whether (and at which time) the file was cut.
  uint64_t max_bytes_ = 0, written_ = 0, note_room_ = 0;
  size_t group_start_ = 0;
  bool cut_ = false;
  uint64_t cut_at_ = 0;
};

}  // namespace l3vp::vcd
