#include "eth_switch.h"

#include <algorithm>
#include <stdexcept>

#include "probe_registry.h"
#include "stats.h"

namespace l3vp {

using sc_core::sc_time;

namespace {

// The 48-bit address at `off` (first byte most significant).
uint64_t mac_at(const std::vector<uint8_t>& d, size_t off) {
  uint64_t m = 0;
  for (size_t i = 0; i < 6; ++i) m = m << 8 | d[off + i];
  return m;
}
uint64_t mac_of(const uint8_t* b) {
  uint64_t m = 0;
  for (size_t i = 0; i < 6; ++i) m = m << 8 | b[i];
  return m;
}
// Group (multicast or broadcast) address: the I/G bit, bit 0 of the first byte.
bool is_group(uint64_t mac) { return (mac >> 40) & 1; }

}  // namespace

const char* to_string(EthSwitchDrop r) {
  switch (r) {
    case EthSwitchDrop::Runt:
      return "runt";
    case EthSwitchDrop::Oversize:
      return "oversize";
    case EthSwitchDrop::CrcError:
      return "crc_error";
    case EthSwitchDrop::Control:
      return "control";
    case EthSwitchDrop::Filtered:
      return "filtered";
    case EthSwitchDrop::QueueFrames:
      return "queue_frames";
    case EthSwitchDrop::QueueBytes:
      return "queue_bytes";
    case EthSwitchDrop::NoLink:
      return "no_link";
  }
  return "?";
}

void EthSwitchParams::validate(const std::string& prefix) const {
  EthSwitchParams copy = *this;  // the rows' field functions take a mutable Params
  for (const param::Row<EthSwitchParams>& r : rows()) {
    const std::string key = param::join(prefix, r.key);
    param::check(r, param::load(r, r.field(copy)), key);
  }
}

EthSwitch::EthSwitch(sc_core::sc_module_name name, const Params& p) : sc_core::sc_module(name), p_(p) {
  p_.validate(this->name());
  ageing_ = sc_time::from_value(sc_time(1, sc_core::SC_SEC).value() * p_.ageing_s);
  all_ports_ = p_.ports == 64 ? ~uint64_t(0) : (uint64_t(1) << p_.ports) - 1;
  port_.resize(p_.ports);
  pipe_.resize(p_.ports);
  for (unsigned i = 0; i < p_.ports; ++i) {
    port_[i].rx.sw = this;
    port_[i].rx.index = i;
  }
  SC_METHOD(forward);
  sensitive << pipe_ev_;
  dont_initialize();
}

void EthSwitch::connect(unsigned port, EthTx& tx) { port_.at(port).tx = &tx; }

EthPort* EthSwitch::rx(unsigned port) { return &port_.at(port).rx; }

std::optional<unsigned> EthSwitch::learned_port(const uint8_t* mac) const {
  auto it = table_.find(mac_of(mac));
  if (it == table_.end() || aged(it->second, sc_core::sc_time_stamp())) return std::nullopt;
  return it->second.port;
}

size_t EthSwitch::queue_frames(unsigned port) const {
  const sc_time now = sc_core::sc_time_stamp();
  size_t n = 0;
  for (const Queued& q : port_.at(port).q) n += q.end > now;
  return n;
}

uint64_t EthSwitch::queue_bytes(unsigned port) const {
  const sc_time now = sc_core::sc_time_stamp();
  uint64_t n = 0;
  for (const Queued& q : port_.at(port).q) n += q.end > now ? q.bytes : 0;
  return n;
}

size_t EthSwitch::in_pipeline() const {
  size_t n = 0;
  for (const auto& p : pipe_) n += p.size();
  return n;
}

// ---------------------------------------------------------------- receive

std::optional<EthSwitchDrop> EthSwitch::rx_check(const EthFrame& f) const {
  if (f.data.size() < eth::kMinData) return EthSwitchDrop::Runt;
  if (f.data.size() > p_.max_frame) return EthSwitchDrop::Oversize;
  if (f.crc_error) return EthSwitchDrop::CrcError;
  if (eth::type_field(f) == eth::kTypeMacControl) return EthSwitchDrop::Control;
  return std::nullopt;
}

void EthSwitch::count_rx_drop(Port& p, EthSwitchDrop r) {
  switch (r) {
    case EthSwitchDrop::Runt:
      ++p.st.rx_runts;
      break;
    case EthSwitchDrop::Oversize:
      ++p.st.rx_oversize;
      break;
    case EthSwitchDrop::CrcError:
      ++p.st.rx_crc_errors;
      break;
    case EthSwitchDrop::Control:
      ++p.st.rx_control;
      break;
    case EthSwitchDrop::Filtered:
      ++p.st.filtered;
      break;
    case EthSwitchDrop::QueueFrames:
    case EthSwitchDrop::QueueBytes:
    case EthSwitchDrop::NoLink:
      break;  // counted at the egress port (enqueue)
  }
}

// The last bit of `f` has arrived on port `in`: check, learn, decide where
// it goes; it enters the output queues `latency` later (forward()).
void EthSwitch::receive(unsigned in, const EthFrame& f) {
  const sc_time now = sc_core::sc_time_stamp();
  Port& p = port_[in];
  ++p.st.rx_frames;
  p.st.rx_bytes += f.data.size();
  if (const auto bad = rx_check(f)) {
    count_rx_drop(p, *bad);
    drop(in, in, *bad, f);
    return;
  }
  const uint64_t da = mac_at(f.data, 0);
  learn(mac_at(f.data, 6), in, now);
  uint64_t egress;
  const MacEntry* e = is_group(da) ? nullptr : find_live(da, now);
  if (e && e->port == in) {
    count_rx_drop(p, EthSwitchDrop::Filtered);
    drop(in, in, EthSwitchDrop::Filtered, f);
    return;
  }
  const bool flood = e == nullptr;
  if (flood) {
    egress = all_ports_ & ~(uint64_t(1) << in);
    ++p.st.flooded;
  } else {
    egress = uint64_t(1) << e->port;
  }
  // What the switch sends is a new frame: only the bytes carry over.
  auto out = std::make_shared<EthFrame>();
  out->data = f.data;
  pipe_[in].push_back(Pending{std::move(out), now + p_.latency, egress, flood});
  pipe_ev_.notify(p_.latency);  // an earlier pending notification stays
}

// ---------------------------------------------------------------- forward

// Every frame whose latency has passed enters its output queues: the
// earliest first, ingress ports in index order at equal times, egress ports
// in index order.
void EthSwitch::forward() {
  const sc_time now = sc_core::sc_time_stamp();
  const unsigned n = ports();
  for (;;) {
    unsigned best = n;
    for (unsigned i = 0; i < n; ++i) {
      if (pipe_[i].empty() || pipe_[i].front().ready > now) continue;
      if (best == n || pipe_[i].front().ready < pipe_[best].front().ready) best = i;
    }
    if (best == n) break;
    const Pending pd = std::move(pipe_[best].front());
    pipe_[best].pop_front();
    for (unsigned out = 0; out < n; ++out)
      if ((pd.egress >> out) & 1) enqueue(out, best, pd);
  }
  std::optional<sc_time> next;
  for (const auto& q : pipe_)
    if (!q.empty() && (!next || q.front().ready < *next)) next = q.front().ready;
  if (next) pipe_ev_.notify(*next - now);
}

// One copy of `pd` enters the output queue of port `out` now: tail drop if
// the queue is full, else it is handed to the port's link at once (the
// link's FIFO is the queue; it starts when the wire is free).
void EthSwitch::enqueue(unsigned out, unsigned in, const Pending& pd) {
  const sc_time now = sc_core::sc_time_stamp();
  Port& o = port_[out];
  const EthFrame& f = *pd.f;
  if (!o.tx) {
    ++o.st.drops_no_link;
    drop(out, in, EthSwitchDrop::NoLink, f);
    return;
  }
  // Frames whose last bit has left are no longer queued.
  while (!o.q.empty() && o.q.front().end <= now) {
    o.q_bytes -= o.q.front().bytes;
    o.q.pop_front();
  }
  const uint64_t bytes = f.data.size();
  std::optional<EthSwitchDrop> full;
  if (o.q.size() >= p_.queue_frames)
    full = EthSwitchDrop::QueueFrames;
  else if (o.q_bytes + bytes > p_.queue_bytes)
    full = EthSwitchDrop::QueueBytes;
  if (full) {
    ++o.st.drops_queue_full;
    drop(out, in, *full, f);
    return;
  }
  const EthTx::Times t = o.tx->send(f);
  o.q.push_back(Queued{t.end, bytes});
  o.q_bytes += bytes;
  o.st.queue_hw_frames = std::max<uint64_t>(o.st.queue_hw_frames, o.q.size());
  o.st.queue_hw_bytes = std::max(o.st.queue_hw_bytes, o.q_bytes);
  ++o.st.tx_frames;
  o.st.tx_bytes += bytes;
  if (on_forward.has_listeners())
    on_forward.notify(EthSwitchForwardEvent{now, in, out, f, unsigned(bytes), pd.flooded, t.start, t.end});
}

void EthSwitch::drop(unsigned port, unsigned in, EthSwitchDrop r, const EthFrame& f) {
  if (on_drop.has_listeners())
    on_drop.notify(EthSwitchDropEvent{sc_core::sc_time_stamp(), port, in, r, f, unsigned(f.data.size())});
}

// ---------------------------------------------------------------- learning

// The entry of `mac` if it is not too old; an old one is forgotten here
// (ageing is lazy: nothing runs while the table is idle).
EthSwitch::MacEntry* EthSwitch::find_live(uint64_t mac, const sc_time& now) {
  auto it = table_.find(mac);
  if (it == table_.end()) return nullptr;
  if (aged(it->second, now)) {
    forget(it);
    ++st_.aged_out;
    return nullptr;
  }
  return &it->second;
}

void EthSwitch::forget(std::map<uint64_t, MacEntry>::iterator it) {
  by_age_.erase({it->second.last.value(), it->first});
  table_.erase(it);
}

// Forgets every entry that is too old, oldest first.
void EthSwitch::expire(const sc_time& now) {
  while (!by_age_.empty()) {
    auto it = table_.find(by_age_.begin()->second);
    if (!aged(it->second, now)) break;
    forget(it);
    ++st_.aged_out;
  }
}

void EthSwitch::learn(uint64_t sa, unsigned port, const sc_time& now) {
  if (is_group(sa)) return;  // a group address is never a station
  if (MacEntry* e = find_live(sa, now)) {
    if (e->port != port) ++st_.moved;
    e->port = port;
    by_age_.erase({e->last.value(), sa});
    e->last = now;
    by_age_.insert({now.value(), sa});
    return;
  }
  if (table_.size() >= p_.table_size) expire(now);
  if (table_.size() >= p_.table_size) {
    ++st_.table_full_drops;
    return;
  }
  table_.emplace(sa, MacEntry{port, now});
  by_age_.insert({now.value(), sa});
  ++st_.learned;
}

// ---------------------------------------------------------------- statistics

// All simulated: invariant.
void EthSwitch::register_stats(const StatsGroup& g) {
  const auto U = StatUnit::Count;
  const auto B = StatUnit::Bytes;
  const auto Y = StatInv::Yes;
  using R = const EthSwitchPortStats*;
  auto& t = g.table<R>("ports", Y, "Per switch port, by port index.", [this] {
    std::vector<R> rows;
    for (const Port& p : port_) rows.push_back(&p.st);
    return rows;
  });
  struct F {
    const char* name;
    uint64_t EthSwitchPortStats::*m;
    StatUnit unit;
    const char* desc;
  };
  // clang-format off
  static const F fields[] = {
    {"rx_frames", &EthSwitchPortStats::rx_frames, U, "Frames received on the port (bad ones included)."},
    {"rx_bytes", &EthSwitchPortStats::rx_bytes, B, "Their bytes (no FCS)."},
    {"rx_crc_errors", &EthSwitchPortStats::rx_crc_errors, U, "Received frames dropped for a bad FCS."},
    {"rx_runts", &EthSwitchPortStats::rx_runts, U, "Received frames dropped as shorter than 60 bytes."},
    {"rx_oversize", &EthSwitchPortStats::rx_oversize, U, "Received frames dropped as longer than max_frame."},
    {"rx_control", &EthSwitchPortStats::rx_control, U, "Received MAC control frames (dropped)."},
    {"filtered", &EthSwitchPortStats::filtered, U, "Received frames whose destination is on this port (dropped)."},
    {"flooded", &EthSwitchPortStats::flooded, U, "Received frames flooded to every other port."},
    {"tx_frames", &EthSwitchPortStats::tx_frames, U, "Frames handed to the port's link."},
    {"tx_bytes", &EthSwitchPortStats::tx_bytes, B, "Their bytes (no FCS)."},
    {"drops_queue_full", &EthSwitchPortStats::drops_queue_full, U, "Frames tail-dropped at the output queue."},
    {"drops_no_link", &EthSwitchPortStats::drops_no_link, U, "Frames for the port while nothing is connected."},
    {"queue_hw_frames", &EthSwitchPortStats::queue_hw_frames, U, "Most frames ever in the output queue."},
    {"queue_hw_bytes", &EthSwitchPortStats::queue_hw_bytes, B, "Most bytes ever in the output queue."},
  };
  // clang-format on
  for (const F& f : fields) {
    const auto m = f.m;
    t.field(f.name, "int", f.unit, Y, f.desc, [m](R r) { return r->*m; });
  }
  g.value("table_entries", "int", U, Y, "Entries in the learning table (old ones until looked at).",
          [this] { return nlohmann::json(table_.size()); });
  g.counter("learned", &st_.learned, U, Y, "Addresses entered into the learning table.");
  g.counter("moved", &st_.moved, U, Y, "Learned addresses seen again on another port.");
  g.counter("aged_out", &st_.aged_out, U, Y, "Table entries forgotten for their age.");
  g.counter("table_full_drops", &st_.table_full_drops, U, Y,
            "Frames whose new source address was not learned: table full.");
}

// ---------------------------------------------------------------- probes

void probe_text(ProbeText& o, const EthSwitchForwardEvent& e) {
  o.at(e.t);
  o.num("ingress", e.ingress).num("egress", e.egress).num("bytes", e.bytes);
  o.hex("type", eth::type_field(e.frame), 4).flag("flooded", e.flooded);
  o.time("start", e.start).time("end", e.end);
}

void probe_text(ProbeText& o, const EthSwitchDropEvent& e) {
  o.at(e.t);
  o.num("port", e.port).num("ingress", e.ingress).word("reason", to_string(e.reason));
  o.num("bytes", e.bytes).hex("type", eth::type_field(e.frame), 4);
}

void EthSwitch::register_probes(ProbeRegistry& r, const std::string& prefix) {
  r.add(prefix, "forward", on_forward, "ingress egress bytes type flooded start end");
  r.add(prefix, "drop", on_drop, "port ingress reason bytes type");
}

}  // namespace l3vp
