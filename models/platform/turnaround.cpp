#include "turnaround.h"

#include <algorithm>

#include "greth.h"
#include "stats.h"

namespace l3vp {

void Turnaround::rx_written(const sc_core::sc_time& t, const sc_core::sc_time& horizon) {
  feed({t, false}, horizon);
}

void Turnaround::tx_kick(const sc_core::sc_time& t, const sc_core::sc_time& horizon) {
  feed({t, true}, horizon);
}

void Turnaround::feed(const Ev& e, const sc_core::sc_time& horizon) {
  held_.push_back(e);
  settle(&horizon);
}

// Takes the held events stamped before `horizon` (all with nullptr) in time
// order, write-backs before kicks of the same time.
void Turnaround::settle(const sc_core::sc_time* horizon) {
  if (held_.empty()) return;
  std::stable_sort(held_.begin(), held_.end(),
                   [](const Ev& a, const Ev& b) { return a.t != b.t ? a.t < b.t : (!a.kick && b.kick); });
  size_t n = 0;
  while (n < held_.size() && (!horizon || held_[n].t < *horizon)) take(held_[n++]);
  held_.erase(held_.begin(), held_.begin() + long(n));
}

void Turnaround::take(const Ev& e) {
  if (!e.kick) {
    ++t_.rx_frames;
    if (waiting_) return;  // the clock runs from the oldest unanswered frame
    waiting_ = true;
    since_ = e.t;
    return;
  }
  if (!waiting_) {
    ++t_.tx_kicks_unpaired;
    return;
  }
  waiting_ = false;
  const uint64_t d = (e.t - since_).value();
  if (t_.count == 0 || d < t_.min_ps) t_.min_ps = d;
  if (d > t_.max_ps) t_.max_ps = d;
  t_.last_ps = d;
  t_.total_ps += d;
  ++t_.count;
}

const Turnaround::Totals& Turnaround::totals() {
  settle(nullptr);
  return t_;
}

void Turnaround::attach(Greth& g) {
  g.on_desc.listen([this](const GrethDescEvent& e) {
    if (e.dir == GrethDir::Rx) rx_written(e.t, sc_core::sc_time_stamp());
  });
  g.on_kick.listen([this](const GrethKickEvent& e) {
    if (e.dir == GrethDir::Tx) tx_kick(e.t, sc_core::sc_time_stamp());
  });
}

void Turnaround::register_stats(const StatsGroup& g) {
  const auto Y = StatInv::Yes;
  const auto P = StatUnit::Ps;
  const auto C = StatUnit::Count;
  auto get = [this](uint64_t Totals::*f) { return [this, f] { return totals().*f; }; };
  g.counter("count", get(&Totals::count), C, Y,
            "Turnarounds: a received frame (RX descriptor written back) followed by a TX kick (CTRL write "
            "with TE).");
  g.counter("total_ps", get(&Totals::total_ps), P, Y, "Their sum.");
  g.value("mean_ps", "int", P, Y, "Their mean, rounded down (0 when none).", [this] {
    const Totals& t = totals();
    return t.count ? t.total_ps / t.count : 0;
  });
  g.counter("min_ps", get(&Totals::min_ps), P, Y, "The shortest (0 when none).");
  g.counter("max_ps", get(&Totals::max_ps), P, Y, "The longest.");
  g.counter("last_ps", get(&Totals::last_ps), P, Y, "The last one.");
  g.counter("rx_frames", get(&Totals::rx_frames), C, Y, "RX descriptors written back.");
  g.counter("tx_kicks_unpaired", get(&Totals::tx_kicks_unpaired), C, Y,
            "TX kicks with no received frame waiting (timer-driven sends, CTRL rewrites while TX is busy).");
}

}  // namespace l3vp
