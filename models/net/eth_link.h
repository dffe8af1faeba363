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
#include "params.h"
#include "probe.h"

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
  unsigned mbps = 100;                                      // 10, 100 (or 1000)
  sc_core::sc_time prop_delay = sc_core::SC_ZERO_TIME;      // per cable segment
  bool switch_hop = false;                                  // store-and-forward switch between the ends
  sc_core::sc_time switch_latency = sc_core::SC_ZERO_TIME;  // after full reception, before re-sending
  // A held-back (reordered) frame is released at the latest this long after
  // it would have left, if no later frame overtakes it first.
  sc_core::sc_time reorder_timeout = sc_core::sc_time(1, sc_core::SC_MS);
  EthImpairments imp[2];  // imp[d]: direction from end d to end 1-d
  // Configuration rows (below), keys below the link's prefix
  // ("net"): speed_mbps, propagation_ns, switch.*, reorder_timeout_ns,
  // to_host.* (imp[0]), to_board.* (imp[1]).
  static const param::Rows<EthLinkParams>& rows();
};

// The configuration rows: keys below the instance prefix the owner gives.
inline const param::Rows<EthLinkParams>& EthLinkParams::rows() {
  using namespace param;
  using P = EthLinkParams;
  // clang-format off
  static const Rows<EthLinkParams> r = {
    {{"speed_mbps", Type::UInt, Check::Either, 10, 100, Show::Plain, nullptr, "100",
      "link speed in Mbit/s"}, L3VP_PARAM_FIELD(P, mbps)},
    {{"propagation_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "0",
      "propagation delay of each cable segment"}, L3VP_PARAM_FIELD(P, prop_delay)},
    {{"switch.enabled", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "false",
      "a store-and-forward switch hop between board and PC"}, L3VP_PARAM_FIELD(P, switch_hop)},
    {{"switch.latency_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "0",
      "switch forwarding latency"}, L3VP_PARAM_FIELD(P, switch_latency)},
    {{"reorder_timeout_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "1000000",
      "a held (reordered) frame is released this long after its ready time"}, L3VP_PARAM_FIELD(P, reorder_timeout)},
#define L3VP_LINK_DIR(dir, d, what)                                                                          \
    {{#dir ".loss", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",                               \
      what ": probability that a frame is lost"}, L3VP_PARAM_FIELD(P, imp[d].loss)},                         \
    {{#dir ".corrupt", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",                            \
      what ": probability that a frame is corrupted (bad FCS)"}, L3VP_PARAM_FIELD(P, imp[d].corrupt)},       \
    {{#dir ".duplicate", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",                          \
      what ": probability that a frame is delivered twice"}, L3VP_PARAM_FIELD(P, imp[d].duplicate)},         \
    {{#dir ".reorder", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",                            \
      what ": probability that a frame is held back behind the next"}, L3VP_PARAM_FIELD(P, imp[d].reorder)}, \
    {{#dir ".extra_delay_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "0",             \
      what ": delay added to every frame"}, L3VP_PARAM_FIELD(P, imp[d].extra_delay)},                        \
    {{#dir ".jitter_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "0",                  \
      what ": random extra delay, uniform in 0..jitter"}, L3VP_PARAM_FIELD(P, imp[d].jitter)},               \
    {{#dir ".seed", Type::UInt, Check::Range, 0, kNoMax, Show::Plain, nullptr, "1",                          \
      what ": seed of the impairment generator"}, L3VP_PARAM_FIELD(P, imp[d].seed)}
    L3VP_LINK_DIR(to_host, 0, "board to PC (link direction 0)"),
    L3VP_LINK_DIR(to_board, 1, "PC to board (link direction 1)"),
#undef L3VP_LINK_DIR
  };
  // clang-format on
  return r;
}

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
class ProbeRegistry;

// Impairments drawn for one frame (a bit set; README "Probes").
enum EthImpairment : uint8_t {
  kEthNone = 0,
  kEthLost = 1,        // vanished (no receive events follow)
  kEthCorrupted = 2,   // one bit flipped: the receiver sees crc_error
  kEthDuplicated = 4,  // a second copy follows it
  kEthReordered = 8,   // held back, delivered after the next frame (or the timeout)
  kEthDelayed = 16,    // extra delay + jitter > 0
};

// A frame on the wire of direction `dir` (end dir -> end 1-dir). The frame is
// the bytes on the wire at that point (padded to 60 bytes; for a send, before
// any corruption; for a receive, after it); it lives only during the call.
struct EthWireEvent {
  unsigned dir;
  const EthFrame& frame;
  sc_core::sc_time start, end;  // exact: send = the sender's segment [tx_start, +wire);
                                // receive = the receiver's [rx_start, rx_end)
  unsigned bytes;               // frame.data.size() (no FCS)
  uint8_t impairments;          // EthImpairment bits drawn for the frame
  bool duplicate;               // receive: the extra copy of a duplicated frame
  bool delivered;               // receive end: handed to an attached receiver
};
// Text line of leon3vp --probe (probe_text.h).
class ProbeText;
void probe_text(ProbeText& o, const EthWireEvent& e);

class EthLink : public sc_core::sc_module {
 public:
  using Params = EthLinkParams;

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
  // One direction's EthDirStats under `g` (register_stats: both, by name).
  void register_dir_stats(const StatsGroup& g, unsigned dir);
  // <prefix>.send, <prefix>.rx_start, <prefix>.rx_end (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix);
  // Frames submitted in direction `dir` and not yet delivered (or lost).
  size_t in_flight(unsigned dir) const;
  const Params& params() const { return p_; }

  // Probes (README "Probes"). on_send: a submitted frame, published at
  // submission with its (future) time on the sender's wire and the
  // impairments drawn for it, lost frames included. on_rx_start / on_rx_end:
  // the frame's first / last bit reaches the receiving end (published at
  // those times; on_rx_end is the delivery).
  Probe<EthWireEvent> on_send, on_rx_start, on_rx_end;

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
    uint8_t imp = kEthNone;
  };
  struct Held {
    EthFrame f;
    unsigned copies = 1;
    sc_core::sc_time ready;
    uint8_t imp = kEthNone;
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
  void schedule(unsigned d, const EthFrame& f, unsigned copies, sc_core::sc_time ready, uint8_t imp);
  void notify_next(unsigned d);
  void deliver(unsigned d);
  void hold_timeout(unsigned d);
  void deliver0() { deliver(0); }
  void deliver1() { deliver(1); }
  void hold0() { hold_timeout(0); }
  void hold1() { hold_timeout(1); }
  void emit_rx(const Probe<EthWireEvent>& p, unsigned d, const Pending& pd, bool delivered) const {
    if (p.has_listeners())
      p.notify(EthWireEvent{d, pd.f, pd.f.rx_start, pd.f.rx_end, unsigned(pd.f.data.size()), pd.imp,
                            pd.f.duplicate, delivered});
  }

  Params p_;
  sc_core::sc_time byte_, ifg_;
  Dir dir_[2];
};

}  // namespace l3vp
