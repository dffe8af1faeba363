// Probe points: the one way to observe a model (docs/developer-guide.md
// "Add a probe listener").
//
// A model owns one Probe<Event> member per thing it can report (an IRQ line
// changed, a timer underflowed, an AHB transaction ended, an instruction
// retired). Any number of listeners attach to it; the model publishes only
// when somebody listens, so an unobserved model pays one test of an empty
// vector:
//
//   struct TimerUnderflow { sc_core::sc_time t; unsigned timer; };
//   Probe<TimerUnderflow> on_underflow;                      // in the model
//   if (on_underflow.has_listeners()) on_underflow.notify({now(), n});
//
//   auto id = gpt.on_underflow.listen([](const TimerUnderflow& e) { ... });
//   gpt.on_underflow.unlisten(id);                           // optional
//
// Rules for publishers (one probe type per event kind, listeners attach from
// outside; docs/developer-guide.md, "Add a probe listener"):
//  * the argument is a struct with named fields, never positional values or
//    strings; enums for verdicts and kinds;
//  * times are exact simulated times: a change caused inside a CPU quantum is
//    stamped sc_time_stamp() + the annotated offset of the access;
//  * listening changes no result: listeners get a const event and no way to
//    touch the model's state through the probe.
// Listeners run synchronously inside the model, in the order they attached.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace l3vp {

template <typename Event>
class Probe {
 public:
  using Listener = std::function<void(const Event&)>;
  using Id = uint64_t;

  Probe() = default;
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  // Attaches a listener; the id removes it again.
  Id listen(Listener fn) {
    listeners_.push_back({next_id_, std::move(fn)});
    return next_id_++;
  }
  // Removes a listener (unknown ids are ignored).
  void unlisten(Id id) {
    for (auto it = listeners_.begin(); it != listeners_.end(); ++it)
      if (it->id == id) {
        listeners_.erase(it);
        return;
      }
  }
  // Publishers test this before building the event.
  bool has_listeners() const { return !listeners_.empty(); }
  std::size_t listener_count() const { return listeners_.size(); }

  void notify(const Event& e) const {
    for (const auto& l : listeners_) l.fn(e);
  }

 private:
  struct Entry {
    Id id;
    Listener fn;
  };
  std::vector<Entry> listeners_;
  Id next_id_ = 1;
};

}  // namespace l3vp
