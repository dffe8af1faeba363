// EthLink: a full-duplex point-to-point Ethernet link (10/100/1000 Mbit/s)
// with exact wire timing, an optional store-and-forward switch hop and
// per-direction impairments (loss, bit corruption, duplication, reordering,
// extra delay, jitter) drawn from a seeded deterministic generator.
//
// End 0 and end 1 each have a sending side (port(end), an EthTx the MAC
// calls) and a receiving side (attach(end, EthPort*)). Direction d carries
// frames from end d to end 1-d. All times are integer sc_time arithmetic;
// see README.md for the exact timing formulas.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <random>
#include <systemc>

#include "eth_frame.h"

namespace l3vp {

// Deterministic random draws: std::mt19937_64 (its output sequence is fixed
// by the C++ standard) mapped to events with integer arithmetic only, so a
// seed gives the same sequence with every compiler and library.
class DetRng {
 public:
  explicit DetRng(uint64_t seed = 1) : gen_(seed) {}
  void seed(uint64_t s) { gen_.seed(s); }
  uint64_t next() { return gen_(); }
  // Threshold for "u < threshold" with u uniform on [0, 2^64): probability p.
  // p <= 0 never, p >= 1 always (kAlways). ldexp is exact, the conversion
  // truncates: the same threshold everywhere.
  static constexpr uint64_t kAlways = UINT64_MAX;
  static uint64_t threshold(double p);
  static bool hit(uint64_t u, uint64_t thr) { return thr == kAlways || u < thr; }
  // Maps u uniform on [0, 2^64) to [0, n) (multiply-high; bias <= n / 2^64).
  static uint64_t scale(uint64_t u, uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(u) * n) >> 64);
  }

 private:
  std::mt19937_64 gen_;
};

// Impairments of one direction. Probabilities are per submitted frame.
struct EthImpairments {
  double loss = 0;       // frame vanishes
  double corrupt = 0;    // one bit flipped (uniform over data + FCS bits); receiver sees crc_error
  double duplicate = 0;  // a second identical copy follows the frame
  double reorder = 0;    // frame held back and delivered after the next frame
  sc_core::sc_time extra_delay = sc_core::SC_ZERO_TIME;  // added to every frame
  sc_core::sc_time jitter = sc_core::SC_ZERO_TIME;       // plus uniform [0, jitter] (resolution steps)
  uint64_t seed = 1;
};

struct EthLinkParams {
  unsigned mbps = 100;  // 10, 100 (or 1000)
  sc_core::sc_time prop_delay = sc_core::SC_ZERO_TIME;  // per cable segment
  bool switch_hop = false;  // store-and-forward switch between the ends
  sc_core::sc_time switch_latency = sc_core::SC_ZERO_TIME;  // after full reception, before re-sending
  // A held-back (reordered) frame is released at the latest this long after
  // it would have left, if no later frame overtakes it first.
  sc_core::sc_time reorder_timeout = sc_core::sc_time(1, sc_core::SC_MS);
  EthImpairments imp[2];  // imp[d]: direction from end d to end 1-d
};

// What happened in one direction (counters only grow).
struct EthDirStats {
  uint64_t submitted = 0, submitted_bytes = 0;  // frames handed to the link
  uint64_t delivered = 0, delivered_bytes = 0;  // frame_in() calls (incl. duplicates)
  uint64_t lost = 0;
  uint64_t corrupted = 0;
  uint64_t duplicated = 0;
  uint64_t reordered = 0;         // frames held back
  uint64_t reorder_timeouts = 0;  // held frames released by the timeout
  uint64_t delayed = 0;           // frames with extra delay + jitter > 0
  uint64_t jitter_sum = 0;        // sum of jitter draws, in sc_time resolution units
};

class StatsGroup;

class EthLink : public sc_core::sc_module {
 public:
  using Params = EthLinkParams;
  // Observer: direction, event ("submit", "lost", "start", "deliver"), frame.
  using Hook = std::function<void(unsigned dir, const char* what, const EthFrame&)>;

  SC_HAS_PROCESS(EthLink);
  EthLink(sc_core::sc_module_name name, const Params& p = Params());

  // Sending side of end `end` (0 or 1).
  EthTx& port(unsigned end) { return dir_[end & 1].tx; }
  // Frames sent by the other end are delivered to `rx` (may be null: dropped).
  void attach(unsigned end, EthPort* rx) { dir_[(end & 1) ^ 1].rx = rx; }

  const EthDirStats& stats(unsigned dir) const { return dir_[dir & 1].st; }
  // Registers both directions' EthDirStats under `g` (net.link): to_host
  // (direction 0, end 0 -> end 1) and to_board (direction 1).
  void register_stats(const StatsGroup& g);
  // Frames submitted in direction `dir` and not yet delivered (or lost).
  size_t in_flight(unsigned dir) const;
  const Params& params() const { return p_; }
  void set_hook(Hook h) { hook_ = std::move(h); }

 private:
  struct Dir;
  struct TxEnd : EthTx {
    EthLink* link = nullptr;
    unsigned d = 0;
    Times send(const EthFrame& f) override { return link->submit(d, f); }
  };
  struct Pending {
    EthFrame f;
    bool started = false;
  };
  struct Held {
    EthFrame f;
    unsigned copies = 1;
    sc_core::sc_time ready;
  };
  struct Dir {
    TxEnd tx;
    EthPort* rx = nullptr;
    DetRng rng;
    uint64_t thr_loss = 0, thr_corrupt = 0, thr_dup = 0, thr_reorder = 0;
    sc_core::sc_time tx_free;   // earliest start of the next frame on the sender's segment
    sc_core::sc_time out_free;  // same on the receiver's segment
    std::deque<Pending> q;      // scheduled, in delivery order
    std::optional<Held> held;
    sc_core::sc_event ev, hold_ev;
    uint64_t next_seq = 1;
    EthDirStats st;
  };

  EthTx::Times submit(unsigned d, const EthFrame& f);
  void schedule(unsigned d, const EthFrame& f, unsigned copies, sc_core::sc_time ready);
  void notify_next(unsigned d);
  void deliver(unsigned d);
  void hold_timeout(unsigned d);
  void deliver0() { deliver(0); }
  void deliver1() { deliver(1); }
  void hold0() { hold_timeout(0); }
  void hold1() { hold_timeout(1); }
  void emit(unsigned d, const char* what, const EthFrame& f) {
    if (hook_) hook_(d, what, f);
  }

  Params p_;
  sc_core::sc_time byte_, ifg_;
  Dir dir_[2];
  Hook hook_;
};

}  // namespace l3vp
