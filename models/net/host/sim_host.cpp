#include "sim_host.h"

#include "tcp.h"

namespace l3vp::host {

SimHost::SimHost(sc_core::sc_module_name n, const HostConfig& cfg) : SimHost(n, cfg, TcpParams()) {}

SimHost::SimHost(sc_core::sc_module_name n, const HostConfig& cfg, const TcpParams& tcp)
    : sc_core::sc_module(n), cfg_(cfg), sched_("sched"), tcp_(std::make_unique<TcpStack>(*this, tcp)) {}

SimHost::~SimHost() = default;

const Mac* SimHost::arp_lookup(uint32_t ip) const {
  auto it = arp_.find(ip);
  return it == arp_.end() ? nullptr : &it->second;
}

void SimHost::frame_in(const EthFrame& f) {
  if (f.crc_error) {  // the NIC drops frames with a bad FCS
    ++st_.rx_crc_error;
    return;
  }
  // The card has the whole frame now (its last bit arrived): the stack gets
  // it after the receive latency, in arrival order.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  bool woke = false;
  const sc_core::sc_time ready =
      ready_time(cfg_.rx_latency, cfg_.rx_per_byte, f.data.size(), rx_ready_, woke);
  if (ready == now && rx_pending_ == 0) {  // no latency (the default): at once, as always
    publish(false, f, sc_core::SC_ZERO_TIME, false);
    handle(f);
    return;
  }
  ++rx_pending_;
  sched_.at(ready, [this, f, lat = ready - now, woke] {
    --rx_pending_;
    publish(false, f, lat, woke);
    handle(f);
  });
}

sc_core::sc_time SimHost::ready_time(const sc_core::sc_time& fixed, const sc_core::sc_time& per_byte,
                                     size_t bytes, sc_core::sc_time& prev, bool& woke) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time t = now + fixed + sc_core::sc_time::from_value(per_byte.value() * bytes);
  // Idle: nothing in either pipeline for longer than the threshold.
  woke = cfg_.wake_latency != sc_core::SC_ZERO_TIME && now > active_until_ + cfg_.idle_threshold;
  if (woke) {
    t += cfg_.wake_latency;
    ++st_.wakeups;
  }
  // A FIFO: a short frame after a long one leaves with it, not before it
  // (the per-byte term is a delay, not a service time).
  if (t < prev) t = prev;
  prev = t;
  if (active_until_ < t) active_until_ = t;
  return t;
}

void SimHost::handle(const EthFrame& f) {
  EthView e;
  if (!parse_eth(f.data.data(), f.data.size(), e)) {
    ++st_.rx_bad;
    return;
  }
  if (e.dst != cfg_.mac && e.dst != kBroadcast) {
    ++st_.rx_not_for_us;
    return;
  }
  ++st_.rx_frames;
  st_.rx_bytes += f.data.size();
  if (e.type == kEtherArp)
    handle_arp(e.payload, e.len);
  else if (e.type == kEtherIpv4)
    handle_ip(e.payload, e.len);
  else
    ++st_.rx_unknown_proto;
}

void SimHost::handle_arp(const uint8_t* p, size_t n) {
  ArpView a;
  if (!parse_arp(p, n, a)) {
    ++st_.rx_bad;
    return;
  }
  // RFC 826 "merge": refresh an existing entry; add one if we are the target.
  const bool for_us = a.tpa == cfg_.ip;
  if (a.spa != 0 && (for_us || arp_.count(a.spa))) arp_[a.spa] = a.sha;
  if (a.op == 2) ++st_.arp_replies_rcvd;
  if (a.op == 1 && for_us) {
    Bytes r = arp_packet(2, cfg_.mac, cfg_.ip, a.sha, a.spa);
    send_frame(eth_frame(a.sha, cfg_.mac, kEtherArp, r.data(), r.size()));
    ++st_.arp_replies_sent;
  }
  // Flush what waited for this address.
  auto it = pending_.find(a.spa);
  if (it != pending_.end() && arp_.count(a.spa)) {
    Unresolved u = std::move(it->second);
    pending_.erase(it);
    sched_.cancel(u.timer);
    for (const Bytes& pk : u.packets) transmit_ip(a.spa, arp_[a.spa], pk);
  }
}

void SimHost::handle_ip(const uint8_t* p, size_t n) {
  Ip4View ip;
  if (!parse_ip4_packet(p, n, ip) || !ip.checksum_ok) {
    ++st_.rx_bad;
    return;
  }
  if (ip.dst != cfg_.ip && ip.dst != 0xFFFFFFFF && ip.dst != (cfg_.ip | ~cfg_.netmask)) {
    ++st_.rx_not_for_us;
    return;
  }
  if (ip.is_fragment()) {  // no reassembly
    ++st_.rx_fragments;
    return;
  }
  switch (ip.proto) {
    case kProtoIcmp:
      handle_icmp(ip);
      break;
    case kProtoUdp:
      handle_udp(ip);
      break;
    case kProtoTcp:
      tcp_->input(ip.src, ip.dst, ip.payload, ip.len);
      break;
    default:
      ++st_.rx_unknown_proto;
      break;
  }
}

void SimHost::handle_icmp(const Ip4View& ip) {
  if (ip.len < kIcmpEchoHdr || inet_checksum(ip.payload, ip.len) != 0) {
    ++st_.rx_bad;
    return;
  }
  const uint8_t type = ip.payload[0], code = ip.payload[1];
  const uint16_t id = get16(ip.payload + 4), seq = get16(ip.payload + 6);
  const uint8_t* data = ip.payload + kIcmpEchoHdr;
  const size_t dn = ip.len - kIcmpEchoHdr;
  if (type == 8 && code == 0) {
    ++st_.icmp_echo_req_rcvd;
    if (ip.dst != cfg_.ip) return;  // no replies to broadcast pings
    send_ip(ip.src, kProtoIcmp, icmp_echo(true, id, seq, data, dn));
    ++st_.icmp_echo_rep_sent;
  } else if (type == 0 && code == 0) {
    auto it = echo_.find(id);
    if (it != echo_.end()) it->second(ip.src, id, seq, data, dn);
  }
}

void SimHost::handle_udp(const Ip4View& ip) {
  UdpView u;
  if (!parse_udp(ip.src, ip.dst, ip.payload, ip.len, u) || !u.checksum_ok) {
    ++st_.rx_bad;
    return;
  }
  auto it = udp_.find(u.dport);
  if (it == udp_.end()) {
    ++st_.udp_no_port;  // (no ICMP port unreachable is sent)
    return;
  }
  it->second(ip.src, u.sport, u.dport, u.payload, u.plen);
}

bool SimHost::send_frame(Bytes frame, bool bad_fcs, bool no_pad) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  while (!on_wire_.empty() && on_wire_.front() <= now) on_wire_.pop_front();  // their places are free
  if (tx_pending_ + on_wire_.size() >= cfg_.tx_queue) {
    ++st_.tx_queue_drops;
    return false;
  }
  bool woke = false;
  const sc_core::sc_time ready = ready_time(cfg_.tx_latency, cfg_.tx_per_byte, frame.size(), tx_ready_, woke);
  if (tx_ && on_stack.has_listeners()) {
    EthFrame f;
    f.data = frame;
    f.crc_error = bad_fcs;
    f.no_pad = no_pad;
    publish(true, f, ready - now, woke);
  }
  const bool queued = !(ready == now && tx_pending_ == 0);
  auto go = [this, fr = std::move(frame), queued, bad_fcs, no_pad]() {
    if (queued) --tx_pending_;
    if (!tx_) return;
    EthFrame f;
    f.data = fr;
    f.crc_error = bad_fcs;
    f.no_pad = no_pad;
    on_wire_.push_back(tx_->send(f).end);
    ++st_.tx_frames;
    st_.tx_bytes += f.data.size();
  };
  if (!queued) {  // no latency (the default): on the wire queue at once
    go();
    return true;
  }
  ++tx_pending_;
  sched_.at(ready, std::move(go));
  return true;
}

void SimHost::transmit_ip(uint32_t dst, const Mac& mac, const Bytes& packet) {
  send_frame(eth_frame(mac, cfg_.mac, kEtherIpv4, packet.data(), packet.size()));
}

void SimHost::send_ip(uint32_t dst, uint8_t proto, const Bytes& payload, bool df) {
  if ((dst & cfg_.netmask) != (cfg_.ip & cfg_.netmask) && dst != 0xFFFFFFFF) {
    ++st_.no_route;
    return;
  }
  Bytes pk = ip4_packet(cfg_.ip, dst, proto, ip_id_++, cfg_.ttl, df, payload.data(), payload.size());
  if (dst == 0xFFFFFFFF || dst == (cfg_.ip | ~cfg_.netmask)) {
    transmit_ip(dst, kBroadcast, pk);
    return;
  }
  if (const Mac* m = arp_lookup(dst)) {
    transmit_ip(dst, *m, pk);
    return;
  }
  Unresolved& u = pending_[dst];
  if (u.packets.size() >= cfg_.arp_queue) {
    ++st_.arp_drops;
    return;
  }
  u.packets.push_back(std::move(pk));
  if (u.tries == 0) arp_request(dst);
}

void SimHost::arp_request(uint32_t ip) {
  Unresolved& u = pending_[ip];
  ++u.tries;
  ++st_.arp_requests_sent;
  Bytes r = arp_packet(1, cfg_.mac, cfg_.ip, Mac{}, ip);
  send_frame(eth_frame(kBroadcast, cfg_.mac, kEtherArp, r.data(), r.size()));
  u.timer = sched_.after(cfg_.arp_retry, [this, ip] { arp_retry(ip); });
}

void SimHost::arp_retry(uint32_t ip) {
  auto it = pending_.find(ip);
  if (it == pending_.end()) return;
  if (it->second.tries >= cfg_.arp_tries) {
    st_.arp_drops += it->second.packets.size();
    pending_.erase(it);
    return;
  }
  arp_request(ip);
}

void SimHost::send_echo_request(uint32_t dst, uint16_t id, uint16_t seq, const Bytes& data) {
  send_ip(dst, kProtoIcmp, icmp_echo(false, id, seq, data.data(), data.size()));
}

bool SimHost::udp_bind(uint16_t port, UdpHandler h) {
  if (udp_.count(port)) return false;
  udp_[port] = std::move(h);
  return true;
}

void SimHost::udp_send(uint32_t dst, uint16_t sport, uint16_t dport, const Bytes& data) {
  send_ip(dst, kProtoUdp, udp_datagram(cfg_.ip, dst, sport, dport, data.data(), data.size()));
}

nlohmann::json SimHost::stats_json() const {
  nlohmann::json j = {{"rx_frames", st_.rx_frames},
                      {"tx_frames", st_.tx_frames},
                      {"rx_bytes", st_.rx_bytes},
                      {"tx_bytes", st_.tx_bytes},
                      {"rx_crc_error", st_.rx_crc_error},
                      {"rx_not_for_us", st_.rx_not_for_us},
                      {"rx_bad", st_.rx_bad},
                      {"rx_fragments", st_.rx_fragments},
                      {"rx_unknown_proto", st_.rx_unknown_proto},
                      {"udp_no_port", st_.udp_no_port},
                      {"arp_requests_sent", st_.arp_requests_sent},
                      {"arp_replies_sent", st_.arp_replies_sent},
                      {"arp_replies_rcvd", st_.arp_replies_rcvd},
                      {"arp_drops", st_.arp_drops},
                      {"icmp_echo_req_rcvd", st_.icmp_echo_req_rcvd},
                      {"icmp_echo_rep_sent", st_.icmp_echo_rep_sent},
                      {"no_route", st_.no_route},
                      {"tx_queue_drops", st_.tx_queue_drops},
                      {"tcp_rst_sent", tcp_->rst_sent()},
                      {"tcp_bad_segments", tcp_->bad_segments()}};
  // Only with a wake-up latency configured (the results of other scenarios
  // stay as they were).
  if (cfg_.wake_latency != sc_core::SC_ZERO_TIME) j["wakeups"] = st_.wakeups;
  return j;
}

}  // namespace l3vp::host
