// EventScheduler: many one-shot callbacks in simulated time behind a single
// sc_event (timers of the host stack, its applications and test harnesses).
// Callbacks due at the same time run in the order they were scheduled, so
// a run is deterministic. Idle (nothing scheduled) means no SystemC events.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <systemc>
#include <utility>

namespace l3vp::host {

class EventScheduler : public sc_core::sc_module {
 public:
  using Id = uint64_t;  // 0 is never a valid id
  using Fn = std::function<void()>;

  SC_HAS_PROCESS(EventScheduler);
  explicit EventScheduler(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_METHOD(run);
    sensitive << ev_;
    dont_initialize();
  }

  // Runs `fn` at absolute time `t` (now if t is in the past).
  Id at(const sc_core::sc_time& t, Fn fn) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time when = t < now ? now : t;
    const Id id = ++next_id_;
    q_.emplace(Key{when.value(), id}, std::move(fn));
    ev_.notify(when - now);  // an earlier notification wins over a later one
    return id;
  }
  Id after(const sc_core::sc_time& dt, Fn fn) { return at(sc_core::sc_time_stamp() + dt, std::move(fn)); }
  // Cancels a pending callback (no effect if it already ran or id is 0).
  void cancel(Id id) {
    for (auto it = q_.begin(); it != q_.end(); ++it)
      if (it->first.second == id) {
        q_.erase(it);
        return;
      }
  }
  size_t pending() const { return q_.size(); }

 private:
  using Key = std::pair<uint64_t, Id>;  // (time value, order)
  void run() {
    const uint64_t now = sc_core::sc_time_stamp().value();
    while (!q_.empty() && q_.begin()->first.first <= now) {
      Fn fn = std::move(q_.begin()->second);
      q_.erase(q_.begin());
      fn();
    }
    if (!q_.empty()) ev_.notify(sc_core::sc_time::from_value(q_.begin()->first.first - now));
  }

  std::map<Key, Fn> q_;
  Id next_id_ = 0;
  sc_core::sc_event ev_;
};

}  // namespace l3vp::host
