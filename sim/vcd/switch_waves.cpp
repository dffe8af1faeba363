#include "switch_waves.h"

namespace l3vp::vcd {

SwitchWaves::SwitchWaves(EthSwitch& sw, const std::string& scope) : sw_(sw) {
  for (unsigned p = 0; p < sw.ports(); ++p) {
    const std::string s = scope + ".p" + std::to_string(p);
    ports_.push_back(PortSigs{w_.add(s, "queue_frames", 16), w_.add(s, "tx", 1), w_.add(s, "forwarded", 32),
                              w_.add(s, "drops", 32)});
  }
  fwd_id_ = sw.on_forward.listen([this](const EthSwitchForwardEvent& e) { forward(e); });
  drop_id_ = sw.on_drop.listen([this](const EthSwitchDropEvent& e) { drop(e); });
  attached_ = true;
}

SwitchWaves::~SwitchWaves() {
  if (attached_) {
    sw_.on_forward.unlisten(fwd_id_);
    sw_.on_drop.unlisten(drop_id_);
  }
}

void SwitchWaves::open(const std::string& path, const std::vector<std::string>& comments) {
  w_.open(path, 1, comments);
}

// The switch notifies in simulated-time order, so every change dated at or
// before the event's time is recorded: flush up to it (the queue's -1 and
// the wire's 0 at the frame's end lie ahead and wait).
void SwitchWaves::forward(const EthSwitchForwardEvent& e) {
  const PortSigs& s = ports_.at(e.egress);
  const uint64_t now = e.t.value(), start = e.start.value(), end = e.end.value();
  w_.add_delta(now, s.queue, 1);
  w_.add_delta(end, s.queue, -1);
  w_.change(start, s.tx, 1);
  w_.change(end, s.tx, uint64_t(0));
  w_.add_delta(now, s.forwarded, 1);
  w_.flush(now);
}

void SwitchWaves::drop(const EthSwitchDropEvent& e) {
  const uint64_t now = e.t.value();
  w_.add_delta(now, ports_.at(e.port).drops, 1);
  w_.flush(now);
}

std::string SwitchWaves::close() {
  if (attached_) {
    sw_.on_forward.unlisten(fwd_id_);
    sw_.on_drop.unlisten(drop_id_);
    attached_ = false;
  }
  return w_.close(sc_core::sc_time_stamp().value());
}

}  // namespace l3vp::vcd
