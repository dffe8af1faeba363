// Turnaround meter: how long the board takes from a frame received to the
// next frame handed to the MAC, measured at the GRETH's registers and
// descriptors (docs/network.md "Turnaround").
//
// Start: the GRETH has written a received frame's RX descriptor back (the
// frame is in memory and the MAC raises its interrupt). End: the next CTRL
// write with TE set (the driver hands a TX descriptor to the MAC). Frames
// received while one is already waiting do not restart the clock: a
// turnaround is counted from the oldest frame not yet followed by a TX
// kick, so for a ping it is "request in memory to reply handed to the
// GRETH", with the interrupt entry, the stack and the driver in it and the
// MAC's own receive and transmit times (wire, FIFO, DMA) out of it. A TX
// kick with no frame waiting (a timer-driven retransmission, the drivers'
// CTRL read-modify-write re-arming RE while the TX DMA is busy) counts as
// `tx_kicks_unpaired`.
//
// Events may arrive out of time order: the CPU runs ahead of the kernel in
// its quantum, so its TX kick can be published before a DMA write-back
// stamped earlier. Events are therefore kept until the kernel time has
// passed them (no later event can be stamped before the current
// sc_time_stamp()) and then taken in time order, a write-back before a kick
// of the same time: the figures do not depend on the quantum.
//
// A listener on the GRETH's probes: it changes no result.
#pragma once
#include <cstdint>
#include <systemc>
#include <vector>

namespace l3vp {

class Greth;
class StatsGroup;

class Turnaround {
 public:
  struct Totals {
    uint64_t count = 0;     // turnarounds measured
    uint64_t total_ps = 0;  // their sum
    uint64_t min_ps = 0, max_ps = 0, last_ps = 0;
    uint64_t rx_frames = 0;          // RX descriptors written back
    uint64_t tx_kicks_unpaired = 0;  // TX kicks with no frame waiting
  };

  // Feeds: the end of an RX descriptor write-back; a CTRL write with TE.
  // `horizon`: no event fed later is stamped before it (the kernel time).
  void rx_written(const sc_core::sc_time& t, const sc_core::sc_time& horizon);
  void tx_kick(const sc_core::sc_time& t, const sc_core::sc_time& horizon);

  // Listens to g's on_desc (RX) and on_kick (TX).
  void attach(Greth& g);

  // Every event fed so far taken into account.
  const Totals& totals();
  // count, total_ps, mean_ps, min_ps, max_ps, last_ps, rx_frames,
  // tx_kicks_unpaired under `g` (turnaround).
  void register_stats(const StatsGroup& g);

 private:
  struct Ev {
    sc_core::sc_time t;
    bool kick;
  };
  void feed(const Ev& e, const sc_core::sc_time& horizon);
  void take(const Ev& e);
  void settle(const sc_core::sc_time* horizon);  // nullptr: everything

  Totals t_;
  std::vector<Ev> held_;  // not yet passed by the kernel time
  bool waiting_ = false;
  sc_core::sc_time since_;
};

}  // namespace l3vp
