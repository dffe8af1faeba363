// One probe event as one line of text (leon3vp --probe; probe_registry.h).
//
// Every event struct has a formatter beside it, a free function found by
// argument-dependent lookup:
//
//   void probe_text(ProbeText& o, const TimerUnderflowEvent& e) {
//     o.at(e.t);                                   // the event's simulated time
//     o.num("timer", e.timer).hex("value", e.value);  // its named fields, in order
//   }
//
// The line is "<ps> ps <probe name> key=value ...", e.g.
// "12345000 ps greth.frame_sent end=12350000 len=98". Times inside the
// fields are ps too. An event that carries a CPU cycle count instead of a
// time stamps itself with at_cycle(): the registry gives the text the clock
// period of the model that registered the probe (cycle * period is the
// CPU's own time).
#pragma once
#include <cstdint>
#include <string>
#include <systemc>

namespace l3vp {

class ProbeText {
 public:
  explicit ProbeText(const sc_core::sc_time& cycle_period = sc_core::SC_ZERO_TIME);

  // The event's time (the line's leading field).
  void at(const sc_core::sc_time& t) { ps_ = to_ps(t); }
  void at_cycle(uint64_t cycle) { ps_ = cycle * period_ps_; }

  // Named fields, appended in call order.
  ProbeText& num(const char* key, uint64_t v);
  ProbeText& hex(const char* key, uint32_t v, unsigned digits = 8);  // 0x + `digits` hex digits
  ProbeText& flag(const char* key, bool v);                          // 0 / 1
  ProbeText& time(const char* key, const sc_core::sc_time& t);       // ps
  ProbeText& word(const char* key, const char* v);                   // a name without blanks (an enum)

  uint64_t ps() const { return ps_; }
  const std::string& fields() const { return fields_; }
  // "<ps> ps <name> <fields>".
  std::string line(const std::string& name) const;

  static uint64_t to_ps(const sc_core::sc_time& t);

 private:
  void key(const char* k);

  uint64_t period_ps_;
  uint64_t ps_ = 0;
  std::string fields_;
};

}  // namespace l3vp
