#include "apps.h"

#include <algorithm>

namespace l3vp::host {

using nlohmann::json;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

uint64_t ps_of(const sc_time& t) {
  static const uint64_t per_ps = sc_time(1, sc_core::SC_PS).value();
  return t.value() / per_ps;
}

uint64_t isqrt128(unsigned __int128 v) {
  // Bitwise integer square root: floor(sqrt(v)).
  unsigned __int128 r = 0, bit = static_cast<unsigned __int128>(1) << 126;
  while (bit > v) bit >>= 2;
  while (bit) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return static_cast<uint64_t>(r);
}

// ---------------------------------------------------------------------------
// Ping

void PingApp::start() {
  probes_.assign(p_.count, Probe{});
  h_.on_echo_reply(
      p_.id, [this](uint32_t, uint16_t, uint16_t seq, const uint8_t* d, size_t n) { reply(seq, d, n); });
  t0_ = sc_time_stamp() + p_.start;
  if (p_.count == 0) {
    done_ = true;
    return;
  }
  for (unsigned k = 0; k < p_.count; ++k)
    h_.sched().at(t0_ + sc_time::from_value(p_.interval.value() * k), [this, k] { send_probe(k); });
  // Done: the last probe's timeout after it left (earlier if all replied).
  h_.sched().at(t0_ + sc_time::from_value(p_.interval.value() * (p_.count - 1)) + p_.timeout,
                [this] { done_ = true; });
}

void PingApp::send_probe(unsigned k) {
  Probe& pr = probes_[k];
  pr.seq = static_cast<uint16_t>(k + 1);  // Linux ping numbers from 1
  pr.sent = sc_time_stamp();
  h_.send_echo_request(p_.dst, p_.id, pr.seq, udp_pattern(pr.seq, p_.size));
}

void PingApp::reply(uint16_t seq, const uint8_t* d, size_t n) {
  if (seq == 0 || seq > probes_.size() || done_) return;
  Probe& pr = probes_[seq - 1];
  if (pr.seq == 0) return;  // not sent yet (bogus)
  if (pr.replied) {
    ++pr.duplicates;
    return;
  }
  const Bytes want = udp_pattern(seq, p_.size);
  pr.corrupt = n != want.size() || !std::equal(want.begin(), want.end(), d);
  pr.replied = true;
  pr.rtt = sc_time_stamp() - pr.sent;
  if (std::all_of(probes_.begin(), probes_.end(), [](const Probe& p) { return p.replied; })) done_ = true;
}

uint64_t PingApp::received() const {
  return std::count_if(probes_.begin(), probes_.end(), [](const Probe& p) { return p.replied; });
}
uint64_t PingApp::rtt_min_ps() const {
  uint64_t m = UINT64_MAX;
  for (const Probe& p : probes_)
    if (p.replied) m = std::min(m, ps_of(p.rtt));
  return m == UINT64_MAX ? 0 : m;
}
uint64_t PingApp::rtt_max_ps() const {
  uint64_t m = 0;
  for (const Probe& p : probes_)
    if (p.replied) m = std::max(m, ps_of(p.rtt));
  return m;
}
uint64_t PingApp::rtt_avg_ps() const {
  unsigned __int128 s = 0;
  uint64_t n = 0;
  for (const Probe& p : probes_)
    if (p.replied) {
      s += ps_of(p.rtt);
      ++n;
    }
  return n ? static_cast<uint64_t>(s / n) : 0;
}
uint64_t PingApp::rtt_mdev_ps() const {
  // sqrt(sum(r^2)/n - (sum(r)/n)^2) = sqrt(n*sum(r^2) - sum(r)^2) / n, exact integers.
  unsigned __int128 s = 0, s2 = 0, n = 0;
  for (const Probe& p : probes_)
    if (p.replied) {
      const unsigned __int128 r = ps_of(p.rtt);
      s += r;
      s2 += r * r;
      ++n;
    }
  if (n == 0) return 0;
  return isqrt128(n * s2 - s * s) / static_cast<uint64_t>(n);
}

json PingApp::to_json() const {
  json pk = json::array();
  for (const Probe& p : probes_)
    pk.push_back({{"seq", p.seq},
                  {"sent_ps", ps_of(p.sent)},
                  {"rtt_ps", p.replied ? json(ps_of(p.rtt)) : json(nullptr)},
                  {"corrupt", p.corrupt},
                  {"duplicates", p.duplicates}});
  const uint64_t rx = received();
  return {{"type", "ping"},
          {"dst", ip4_str(p_.dst)},
          {"size", p_.size},
          {"transmitted",
           std::count_if(probes_.begin(), probes_.end(), [&](const Probe& p) { return p.seq != 0; })},
          {"received", rx},
          {"loss_percent", p_.count ? 100.0 * double(p_.count - rx) / p_.count : 0.0},
          {"rtt_min_ps", rtt_min_ps()},
          {"rtt_avg_ps", rtt_avg_ps()},
          {"rtt_max_ps", rtt_max_ps()},
          {"rtt_mdev_ps", rtt_mdev_ps()},
          {"packets", pk}};
}

// ---------------------------------------------------------------------------
// UDP

void UdpSender::start() {
  t0_ = sc_time_stamp() + p_.start;
  for (unsigned k = 0; k < p_.count; ++k)
    h_.sched().at(t0_ + sc_time::from_value(p_.delay.value() * k), [this, k] {
      h_.udp_send(p_.dst, p_.sport, p_.dport, udp_pattern(k, p_.size));
      ++sent_;
      last_ = sc_time_stamp();
    });
}

json UdpSender::to_json() const {
  return {{"type", "udp_send"},
          {"dst", ip4_str(p_.dst)},
          {"sport", p_.sport},
          {"dport", p_.dport},
          {"size", p_.size},
          {"count", p_.count},
          {"sent", sent_},
          {"delay_ps", ps_of(p_.delay)},
          {"first_send_ps", ps_of(t0_)},
          {"last_send_ps", sent_ ? json(ps_of(last_)) : json(nullptr)}};
}

void UdpReceiver::start() {
  h_.udp_bind(p_.port, [this](uint32_t src, uint16_t sport, uint16_t, const uint8_t* d, size_t n) {
    rx(src, sport, d, n);
  });
}

void UdpReceiver::rx(uint32_t src, uint16_t sport, const uint8_t* d, size_t n) {
  uint32_t k = 0;
  const bool ok = udp_pattern_ok(d, n, &k);
  ++received_;
  bytes_ += n;
  if (arrivals_.empty()) first_len_ = n;
  arrivals_.push_back(sc_time_stamp());
  if (!ok) {
    ++bad_;
  } else if (n >= 4) {
    if (k < (1u << 24)) {  // bitmap for duplicates, bounded
      if (seen_bits_.size() <= k) seen_bits_.resize(k + 1, false);
      if (seen_bits_[k])
        ++dups_;
      else {
        seen_bits_[k] = true;
        seen_.push_back(k);
      }
    }
    if (int64_t(k) < max_k_) ++reordered_;
    max_k_ = std::max<int64_t>(max_k_, k);
  }
  if (p_.echo) h_.udp_send(src, p_.port, sport, Bytes(d, d + n));
}

json UdpReceiver::to_json() const {
  json j = {{"type", "udp_recv"}, {"port", p_.port},     {"received", received_},   {"bytes", bytes_},
            {"bad", bad_},        {"duplicates", dups_}, {"reordered", reordered_}, {"unique", seen_.size()}};
  if (p_.expect) j["lost"] = p_.expect > seen_.size() ? p_.expect - seen_.size() : 0;
  if (!arrivals_.empty()) {
    j["first_rx_ps"] = ps_of(arrivals_.front());
    j["last_rx_ps"] = ps_of(arrivals_.back());
    const uint64_t span = ps_of(arrivals_.back() - arrivals_.front());
    // Payload goodput between first and last arrival (first datagram excluded).
    j["goodput_bps"] = span ? double(bytes_ - first_len_) * 8e12 / double(span) : 0.0;
  }
  return j;
}

// ---------------------------------------------------------------------------
// TCP

void TcpClientApp::start() {
  t0_ = sc_time_stamp() + p_.start;
  for (unsigned i = 0; i < p_.connections; ++i)
    h_.sched().at(t0_ + sc_time::from_value(p_.stagger.value() * i), [this] {
      TcpConn* c = h_.tcp().connect(p_.dst, p_.dport);
      c->send(p_.bytes, true);
      conns_.push_back(c);
    });
}

bool TcpClientApp::done() const {
  if (conns_.size() < p_.connections) return false;
  for (const TcpConn* c : conns_)
    if (c->stats().data_acked == sc_core::SC_ZERO_TIME && c->state() != TcpState::kClosed) return false;
  return true;
}

json TcpClientApp::to_json() const {
  json cs = json::array();
  uint64_t acked = 0, retx = 0, completed = 0;
  sc_time last;
  for (const TcpConn* c : conns_) {
    cs.push_back(c->to_json());
    acked += c->stats().bytes_acked;
    retx += c->stats().retransmits;
    if (c->stats().data_acked != sc_core::SC_ZERO_TIME) {
      ++completed;
      last = std::max(last, c->stats().data_acked);
    }
  }
  json j = {{"type", "tcp_send"},
            {"dst", ip4_str(p_.dst)},
            {"dport", p_.dport},
            {"bytes_per_connection", p_.bytes},
            {"connections", p_.connections},
            {"completed", completed},
            {"bytes_acked", acked},
            {"retransmits", retx},
            {"start_ps", ps_of(t0_)},
            {"conns", cs}};
  if (completed == p_.connections && completed > 0) {
    j["completion_ps"] = ps_of(last - t0_);
    j["goodput_bps"] = double(acked) * 8e12 / double(ps_of(last - t0_));
  }
  return j;
}

void TcpServerApp::start() {
  h_.tcp().listen(p_.port, [this](TcpConn& c) {
    conns_.push_back(&c);
    if (p_.send_bytes) c.send(p_.send_bytes, false);
  });
}

json TcpServerApp::to_json() const {
  json cs = json::array();
  uint64_t rx = 0, bad = 0;
  for (const TcpConn* c : conns_) {
    json x = c->to_json();
    const auto& s = c->stats();
    const uint64_t span = s.last_rx > s.first_rx ? ps_of(s.last_rx - s.first_rx) : 0;
    x["goodput_bps"] = span ? double(s.bytes_received) * 8e12 / double(span) : 0.0;
    cs.push_back(x);
    rx += s.bytes_received;
    bad += s.bad_bytes;
  }
  return {{"type", "tcp_recv"},   {"port", p_.port},  {"accepted", conns_.size()},
          {"bytes_received", rx}, {"bad_bytes", bad}, {"conns", cs}};
}

// ---------------------------------------------------------------------------
// TCP request/response

void TcpRequestApp::start() {
  t0_ = sc_time_stamp() + p_.start;
  for (unsigned i = 0; i < p_.connections; ++i)
    h_.sched().at(t0_ + sc_time::from_value(p_.stagger.value() * i), [this] {
      TcpConn* c = h_.tcp().connect(p_.dst, p_.dport);
      c->capture_rx();
      const Bytes req(p_.request.begin(), p_.request.end());
      if (p_.interval > sc_core::SC_ZERO_TIME && p_.prompt.empty()) {
        for (size_t k = 0; k < req.size(); ++k)  // byte k at k * interval
          h_.sched().at(sc_time_stamp() + sc_time::from_value(p_.interval.value() * k),
                        [c, b = req[k]] { c->send_data(Bytes{b}, false); });
      } else if (p_.prompt.empty()) {
        c->send_data(req, false);
      } else {
        c->on_data = [this, req](TcpConn& cc) {
          const Bytes& rx = cc.rx_data();
          if (cc.send_total() == 0 &&
              std::search(rx.begin(), rx.end(), p_.prompt.begin(), p_.prompt.end()) != rx.end())
            cc.send_data(req, false);
        };
      }
      conns_.push_back(c);
    });
}

bool TcpRequestApp::done() const {
  if (conns_.size() < p_.connections) return false;
  for (const TcpConn* c : conns_)
    if (c->state() != TcpState::kClosed) return false;
  return true;
}

namespace {
bool closed_normally(const TcpConn& c) {
  return c.state() == TcpState::kClosed && !c.stats().reset && !c.stats().aborted;
}
}  // namespace

unsigned TcpRequestApp::matched() const {
  unsigned n = 0;
  for (const TcpConn* c : conns_)
    if (closed_normally(*c) && c->rx_data() == Bytes(p_.expect.begin(), p_.expect.end())) ++n;
  return n;
}

json TcpRequestApp::to_json() const {
  const Bytes want(p_.expect.begin(), p_.expect.end());
  json cs = json::array();
  uint64_t rx = 0, completed = 0;
  sc_time last;
  for (const TcpConn* c : conns_) {
    json x = c->to_json();
    std::string text;  // printable ASCII and \n; anything else as '?', so the JSON stays valid
    for (uint8_t b : c->rx_data()) text += (b == '\n' || (b >= 0x20 && b < 0x7f)) ? char(b) : '?';
    x["received"] = text;
    x["match"] = closed_normally(*c) && c->rx_data() == want;
    cs.push_back(x);
    rx += c->rx_data().size();
    if (closed_normally(*c)) {
      ++completed;
      last = std::max(last, c->stats().closed);
    }
  }
  json j = {{"type", "tcp_request"},         {"dst", ip4_str(p_.dst)}, {"dport", p_.dport},
            {"connections", p_.connections}, {"completed", completed}, {"matched", matched()},
            {"bytes_received", rx},          {"start_ps", ps_of(t0_)}, {"conns", cs}};
  if (completed == p_.connections && completed > 0) j["completion_ps"] = ps_of(last - t0_);
  return j;
}

// ---------------------------------------------------------------- RawSender

void RawSender::start() {
  t0_ = sc_core::sc_time_stamp();
  if (total() == 0) return;
  // One callback at a time (a list of a million frames schedules one event,
  // not a million).
  h_.sched().at(due(0), [this] { send_next(); });
}

sc_time RawSender::due(uint64_t i) const {
  if (p_.timed) return t0_ + p_.start + p_.frames[i].at;
  return t0_ + p_.start + sc_time::from_value(p_.spacing.value() * i);
}

void RawSender::send_next() {
  const RawFrame& f = p_.frames[sent_ % p_.frames.size()];
  if (!h_.send_frame(f.data, f.bad_fcs, !f.pad)) ++dropped_;
  const sc_time now = sc_core::sc_time_stamp();
  if (sent_ == 0) first_ = now;
  last_ = now;
  bytes_ += f.data.size();
  if (++sent_ < total()) h_.sched().at(due(sent_), [this] { send_next(); });
}

json RawSender::to_json() const {
  return {{"type", "raw"},
          {"frames", p_.frames.size()},
          {"repeat", p_.repeat},
          {"sent", sent_},
          {"dropped", dropped_},
          {"bytes", bytes_},
          {"first_ps", sent_ ? json(ps_of(first_)) : json(nullptr)},
          {"last_ps", sent_ ? json(ps_of(last_)) : json(nullptr)}};
}

}  // namespace l3vp::host
