// EthSwitch: a store-and-forward Ethernet switch with 2..64 ports, a MAC
// learning table with ageing and a size bound, a fixed forwarding latency
// and a bounded output queue per port (tail drop).
//
// Each port connects to one endpoint through its own EthLink, whose end 1 is
// the switch: `connect(i, link_i.port(1))` gives the switch the port's
// sending side, `link_i.attach(1, sw.rx(i))` its receiving side. The links
// do the wire timing (speed, propagation, IFG, impairments); the switch
// decides where a frame goes and when it is handed to the egress link. All
// times are integer sc_time arithmetic; see README.md for the formulas.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <systemc>
#include <vector>

#include "eth_frame.h"
#include "params.h"
#include "probe.h"

namespace l3vp {

struct EthSwitchParams {
  unsigned ports = 4;                                // 2..64
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;  // last bit in -> output queue
  unsigned queue_frames = 64;                        // per output port
  unsigned queue_bytes = 64 * 1024;                  // per output port (frame data bytes, no FCS)
  unsigned max_frame = 1518;                         // longer frames are dropped (data bytes, no FCS)
  unsigned ageing_s = 300;                           // learned addresses are forgotten after this
  unsigned table_size = 1024;                        // learning table entries
  // Configuration rows, keys below the instance prefix the owner gives:
  // ports, latency_ns, queue_frames, queue_bytes, max_frame, ageing_s,
  // table_size.
  static const param::Rows<EthSwitchParams>& rows();
  // Checks every field against its row; throws ConfigError naming the first
  // bad one as "<prefix>.<key>".
  void validate(const std::string& prefix) const;
};

inline const param::Rows<EthSwitchParams>& EthSwitchParams::rows() {
  using namespace param;
  using P = EthSwitchParams;
  // clang-format off
  static const Rows<EthSwitchParams> r = {
    {{"ports", Type::UInt, Check::Range, 2, 64, Show::Plain, nullptr, "4",
      "number of switch ports"}, L3VP_PARAM_FIELD(P, ports)},
    {{"latency_ns", Type::Ns, Check::Range, 0, kOneSecondNs / 1000, Show::Time, nullptr, "0",
      "forwarding latency: last bit received to entry into the output queue"}, L3VP_PARAM_FIELD(P, latency)},
    {{"queue_frames", Type::UInt, Check::Range, 1, 65536, Show::Plain, nullptr, "64",
      "output queue limit per port, in frames"}, L3VP_PARAM_FIELD(P, queue_frames)},
    {{"queue_bytes", Type::UInt, Check::Range, 64, 16u << 20, Show::Bytes, nullptr, "65536",
      "output queue limit per port, in frame bytes (no FCS)"}, L3VP_PARAM_FIELD(P, queue_bytes)},
    {{"max_frame", Type::UInt, Check::Range, 60, 65535, Show::Plain, nullptr, "1518",
      "longest frame forwarded, in bytes without FCS (longer ones are dropped)"}, L3VP_PARAM_FIELD(P, max_frame)},
    {{"ageing_s", Type::UInt, Check::Range, 1, 1000000, Show::Plain, nullptr, "300",
      "a learned address is forgotten when not seen for longer than this (simulated seconds)"},
      L3VP_PARAM_FIELD(P, ageing_s)},
    {{"table_size", Type::UInt, Check::Range, 1, 65536, Show::Plain, nullptr, "1024",
      "learning table entries (when full, new addresses are not learned)"}, L3VP_PARAM_FIELD(P, table_size)},
  };
  // clang-format on
  return r;
}

// Counters of one port (they only grow). Receive counters count what the
// port received; tx_* and the queue counters what it sent (egress).
struct EthSwitchPortStats {
  uint64_t rx_frames = 0, rx_bytes = 0;  // every frame received (bad ones included)
  uint64_t rx_crc_errors = 0;            // dropped: bad FCS
  uint64_t rx_runts = 0;                 // dropped: shorter than 60 bytes
  uint64_t rx_oversize = 0;              // dropped: longer than max_frame
  uint64_t rx_control = 0;               // dropped: MAC control frames (type 0x8808)
  uint64_t filtered = 0;                 // dropped: destination learned on this (the ingress) port
  uint64_t flooded = 0;                  // received here and flooded (unknown unicast, broadcast, multicast)
  uint64_t tx_frames = 0, tx_bytes = 0;  // handed to this port's link
  uint64_t drops_queue_full = 0;         // tail drops at this output queue (frame or byte limit)
  uint64_t drops_no_link = 0;            // frames for this port while nothing is connected
  uint64_t queue_hw_frames = 0;          // most frames ever in the output queue
  uint64_t queue_hw_bytes = 0;           // most bytes ever in the output queue
};

// Switch-wide counters (they only grow).
struct EthSwitchStats {
  uint64_t learned = 0;           // addresses entered into the table
  uint64_t moved = 0;             // learned addresses seen on another port (entry updated)
  uint64_t aged_out = 0;          // entries forgotten because they were too old
  uint64_t table_full_drops = 0;  // frames whose new source address found the table full
};

// Why a frame (or one copy of a flooded frame) was not forwarded.
enum class EthSwitchDrop : uint8_t {
  Runt,         // shorter than 60 bytes
  Oversize,     // longer than max_frame
  CrcError,     // bad FCS
  Control,      // MAC control frame (PAUSE is not modelled)
  Filtered,     // destination learned on the ingress port
  QueueFrames,  // output queue holds queue_frames frames
  QueueBytes,   // output queue would exceed queue_bytes
  NoLink,       // the egress port has no EthTx connected
};
const char* to_string(EthSwitchDrop r);

// A frame handed to an egress port's link (one event per copy of a flooded
// frame). The frame lives only during the call.
struct EthSwitchForwardEvent {
  sc_core::sc_time t;  // entry into the output queue: rx_end + latency
  unsigned ingress, egress;
  const EthFrame& frame;
  unsigned bytes;               // frame.data.size() (no FCS)
  bool flooded;                 // sent to every port but the ingress one
  sc_core::sc_time start, end;  // on the egress wire, as EthTx::send returned them
};

// A frame (or one copy) the switch dropped.
struct EthSwitchDropEvent {
  sc_core::sc_time t;
  unsigned port;     // where it is counted: the ingress port, or the egress port for
                     // QueueFrames / QueueBytes / NoLink
  unsigned ingress;  // where the frame came in
  EthSwitchDrop reason;
  const EthFrame& frame;
  unsigned bytes;
};

class ProbeText;
void probe_text(ProbeText& o, const EthSwitchForwardEvent& e);
void probe_text(ProbeText& o, const EthSwitchDropEvent& e);
class StatsGroup;
class ProbeRegistry;

class EthSwitch : public sc_core::sc_module {
 public:
  using Params = EthSwitchParams;

  SC_HAS_PROCESS(EthSwitch);
  // Throws ConfigError (keys "<name>.<row key>") for a parameter out of range.
  EthSwitch(sc_core::sc_module_name name, const Params& p = Params());

  unsigned ports() const { return unsigned(port_.size()); }
  // The sending side of port `port` (typically link.port(1)); frames for an
  // unconnected port are dropped (NoLink). Throws std::out_of_range.
  void connect(unsigned port, EthTx& tx);
  // The receiving side of port `port`, for link.attach(1, ...). Throws
  // std::out_of_range.
  EthPort* rx(unsigned port);

  const EthSwitchPortStats& port_stats(unsigned port) const { return port_.at(port).st; }
  const EthSwitchStats& stats() const { return st_; }
  // Entries in the learning table (old ones included until they are looked at).
  size_t table_entries() const { return table_.size(); }
  // The port `mac` (6 bytes, as in a frame) is learned on, if it is and is not
  // too old at sc_time_stamp(); changes nothing.
  std::optional<unsigned> learned_port(const uint8_t* mac) const;
  // The output queue of `port` at sc_time_stamp(): frames handed to its link
  // whose last bit has not left yet.
  size_t queue_frames(unsigned port) const;
  uint64_t queue_bytes(unsigned port) const;
  // Frames received and not yet through the forwarding latency (all ports).
  size_t in_pipeline() const;
  const Params& params() const { return p_; }

  // Counters under `g` (net.switch): ports[] (one record per port, by index,
  // EthSwitchPortStats) and the switch-wide EthSwitchStats plus table_entries.
  void register_stats(const StatsGroup& g);
  // <prefix>.forward and <prefix>.drop (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix);

  // on_forward: at the frame's entry into an output queue, once per egress
  // port. on_drop: when the frame is dropped (receive checks and filtering
  // at its last bit; queue and no-link drops at its entry time).
  Probe<EthSwitchForwardEvent> on_forward;
  Probe<EthSwitchDropEvent> on_drop;

 private:
  struct RxPort : EthPort {
    EthSwitch* sw = nullptr;
    unsigned index = 0;
    void frame_in(const EthFrame& f) override { sw->receive(index, f); }
  };
  struct Queued {
    sc_core::sc_time end;  // last bit leaves the switch
    uint64_t bytes;
  };
  struct Port {
    RxPort rx;
    EthTx* tx = nullptr;
    std::deque<Queued> q;  // output queue, FIFO (end times do not decrease)
    uint64_t q_bytes = 0;
    EthSwitchPortStats st;
  };
  // A received frame waiting out the forwarding latency.
  struct Pending {
    std::shared_ptr<const EthFrame> f;  // one copy for every egress port
    sc_core::sc_time ready;             // rx_end + latency
    uint64_t egress;                    // bit i: send to port i
    bool flooded;
  };
  struct MacEntry {
    unsigned port;
    sc_core::sc_time last;  // last frame from this address
  };

  void receive(unsigned in, const EthFrame& f);
  std::optional<EthSwitchDrop> rx_check(const EthFrame& f) const;
  void count_rx_drop(Port& p, EthSwitchDrop r);
  void forward();
  void enqueue(unsigned out, unsigned in, const Pending& pd);
  void drop(unsigned port, unsigned in, EthSwitchDrop r, const EthFrame& f);

  bool aged(const MacEntry& e, const sc_core::sc_time& now) const { return now - e.last > ageing_; }
  MacEntry* find_live(uint64_t mac, const sc_core::sc_time& now);
  void forget(std::map<uint64_t, MacEntry>::iterator it);
  void expire(const sc_core::sc_time& now);
  void learn(uint64_t sa, unsigned port, const sc_core::sc_time& now);

  Params p_;
  sc_core::sc_time ageing_;
  uint64_t all_ports_;
  std::vector<Port> port_;                          // never resized after construction (rx pointers)
  std::vector<std::deque<Pending>> pipe_;           // per ingress port, in arrival order
  sc_core::sc_event pipe_ev_;                       // the earliest Pending::ready
  std::map<uint64_t, MacEntry> table_;              // address (48 bits) -> entry
  std::set<std::pair<uint64_t, uint64_t>> by_age_;  // (last.value(), address), oldest first
  EthSwitchStats st_;
};

}  // namespace l3vp
