// The probes of one board by name (docs/developer-guide.md "Add a probe
// listener"): every model registers each Probe<Event> it owns under
// "<instance>.<probe>" (greth.frame_sent, cpu.trap, ...), so that a
// listener can attach by name at run time (leon3vp --probe NAME) and a
// debug run can listen to all of them (leon3vp --probe-all).
//
//   void Gptimer::register_probes(ProbeRegistry& r, const std::string& prefix) {
//     r.add(prefix, "underflow", on_underflow, "timer value");
//   }
//
// Entries are type-erased: a name, the event's field names (as the text line
// has them) and two ways to attach a listener: one counting events, one
// receiving each event as a line of text (probe_text.h; the event type needs
// a probe_text() overload). Attaching returns the function that detaches.
//
// The board owns its registry (Leon3mp::probes()), one per board: nothing
// here is global. Registration happens at elaboration; the registry holds
// pointers to the models' probes and must not outlive them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "probe.h"
#include "probe_text.h"

namespace l3vp {

class ProbeRegistry {
 public:
  using LineSink = std::function<void(const std::string& line)>;
  using Detach = std::function<void()>;
  struct Entry {
    std::string name;                              // "<instance>.<probe>"
    std::string fields;                            // the text line's keys after the time, blank-separated
    std::function<Detach(uint64_t& count)> count;  // ++count per event (count must stay put)
    std::function<Detach(LineSink sink)> text;     // sink(line) per event
  };

  ProbeRegistry() = default;
  ProbeRegistry(const ProbeRegistry&) = delete;
  ProbeRegistry& operator=(const ProbeRegistry&) = delete;

  // Registers `p` as "<prefix>.<probe>" (a name taken twice throws
  // std::logic_error). cycle_period: the clock of events stamped with
  // ProbeText::at_cycle() (the CPU's).
  template <typename Event>
  void add(const std::string& prefix, const char* probe, Probe<Event>& p, const char* fields,
           const sc_core::sc_time& cycle_period = sc_core::SC_ZERO_TIME) {
    Entry e;
    e.name = prefix + "." + probe;
    e.fields = fields;
    Probe<Event>* pp = &p;
    e.count = [pp](uint64_t& n) -> Detach {
      const auto id = pp->listen([&n](const Event&) { ++n; });
      return [pp, id] { pp->unlisten(id); };
    };
    e.text = [pp, name = e.name, cycle_period](LineSink sink) -> Detach {
      const auto id = pp->listen([name, cycle_period, sink = std::move(sink)](const Event& ev) {
        ProbeText o(cycle_period);
        probe_text(o, ev);
        sink(o.line(name));
      });
      return [pp, id] { pp->unlisten(id); };
    };
    insert(std::move(e));
  }

  // In registration order.
  const std::vector<Entry>& entries() const { return entries_; }
  // The entry named `name`, or null.
  const Entry* find(const std::string& name) const;
  // The entries `pattern` selects: a full name, or a prefix followed by one
  // trailing '*' ("greth.*", "cpu.t*", "*" = all). Empty: none matched.
  std::vector<const Entry*> match(const std::string& pattern) const;
  // The instance prefixes, sorted, comma-separated ("ahb, cpu, greth, ...").
  std::string prefixes() const;
  // "name: fields" lines ("name:" for an event without fields), one per
  // probe (leon3vp --list-probes).
  std::string listing() const;

 private:
  void insert(Entry e);
  std::vector<Entry> entries_;
};

}  // namespace l3vp
