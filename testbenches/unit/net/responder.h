// A minimal "board" for the host tests: sits on the other end of an EthLink
// and answers ARP for its address, ICMP echo requests, echoes every UDP
// datagram back to its source, and runs a tiny TCP sink (fixed advertised
// window and MSS, ACKs every in-order segment at once, drops out-of-order
// ones, verifies the stream pattern) plus a tiny TCP sender for the host's
// server side. Every answer leaves `latency` after the frame arrived.
// Deliberately simple and independent of the host's TCP code.
#pragma once
#include <functional>
#include <map>
#include <systemc>
#include <vector>

#include "eth_frame.h"
#include "event_scheduler.h"
#include "wire.h"

namespace l3vp::test {

using namespace l3vp::host;

class Responder : public sc_core::sc_module, public EthPort {
 public:
  struct Seg {  // a TCP segment seen by the responder
    sc_core::sc_time t;
    uint32_t seq = 0, ack = 0;
    uint8_t flags = 0;
    uint16_t wnd = 0;
    size_t len = 0;
    uint64_t off = 0;  // stream offset of the first data byte (sink side)
  };
  struct SinkConn {
    uint32_t irs = 0, rcv_nxt = 0, iss = 0, snd_nxt = 0;
    uint64_t bytes = 0, bad = 0;
    size_t max_len = 0;
    bool fin = false;
    std::vector<Seg> segs;
  };

  Mac mac = {0x02, 0x00, 0x00, 0x00, 0x00, 0x35};
  uint32_t ip = 0xC0A80035;
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
  uint16_t tcp_window = 300, tcp_mss = 1460;
  std::map<uint16_t, SinkConn> sink;  // by the host's port
  std::vector<sc_core::sc_time> udp_rx;
  uint64_t arp_requests = 0, echo_requests = 0, echo_replies = 0, bad_frames = 0;
  std::vector<sc_core::sc_time> echo_reply_times;
  // One-shot loss: the first data segment covering this stream offset is dropped.
  int64_t drop_offset = -1;
  unsigned dropped = 0;
  // Sender side (host server tests): what the host sent back.
  std::vector<Seg> client_rx;
  uint32_t client_iss = 7000, client_irs = 0;
  bool client_established = false;

  SC_HAS_PROCESS(Responder);
  explicit Responder(sc_core::sc_module_name n) : sc_core::sc_module(n), sched("sched") {}
  void connect(EthTx* t) { tx = t; }
  EventScheduler sched;

  void frame_in(const EthFrame& f) override {
    EthView e;
    if (f.crc_error || !parse_eth(f.data.data(), f.data.size(), e)) return;
    if (e.type == kEtherArp) {
      ArpView a;
      if (!parse_arp(e.payload, e.len, a)) return;
      host_mac = a.sha;
      if (a.op == 1 && a.tpa == ip) {
        ++arp_requests;
        send_eth(a.sha, kEtherArp, arp_packet(2, mac, ip, a.sha, a.spa));
      }
      return;
    }
    if (e.type != kEtherIpv4 || e.dst != mac) return;
    host_mac = e.src;
    Ip4View v;
    if (!parse_ip4_packet(e.payload, e.len, v) || !v.checksum_ok || v.dst != ip) {
      ++bad_frames;
      return;
    }
    host_ip = v.src;
    if (v.proto == kProtoIcmp && v.len >= 8 && inet_checksum(v.payload, v.len) == 0) {
      if (v.payload[0] == 8) {
        ++echo_requests;
        send_ip(kProtoIcmp,
                icmp_echo(true, get16(v.payload + 4), get16(v.payload + 6), v.payload + 8, v.len - 8));
      } else if (v.payload[0] == 0) {
        ++echo_replies;
        echo_reply_times.push_back(sc_core::sc_time_stamp());
      }
    } else if (v.proto == kProtoUdp) {
      UdpView u;
      if (!parse_udp(v.src, v.dst, v.payload, v.len, u) || !u.checksum_ok) {
        ++bad_frames;
        return;
      }
      udp_rx.push_back(sc_core::sc_time_stamp());
      send_ip(kProtoUdp, udp_datagram(ip, v.src, u.dport, u.sport, u.payload, u.plen));
    } else if (v.proto == kProtoTcp) {
      TcpView t;
      if (!parse_tcp(v.src, v.dst, v.payload, v.len, t) || !t.checksum_ok) {
        ++bad_frames;
        return;
      }
      if (t.dport == client_port)
        client_in(t);
      else
        sink_in(t);
    }
  }

  // Board-initiated traffic.
  void ping_host(uint32_t host, uint16_t seq) {
    host_ip = host;
    ++pings_sent;
    Bytes d(32, 0xA5);
    send_ip_now(kProtoIcmp, icmp_echo(false, 1, seq, d.data(), d.size()));
  }
  // TCP client: SYN to the host's `port`; on SYN-ACK, ACK; then the test
  // calls client_send() for data segments and client_fin().
  void client_connect(uint32_t host, uint16_t port) {
    host_ip = host;
    client_dport = port;
    client_nxt = client_iss + 1;
    send_tcp_now(client_port, port, client_iss, 0, kSyn, 65535, 1460, nullptr, 0);
  }
  void client_send(uint64_t off, size_t len) {
    Bytes d(len);
    for (size_t i = 0; i < len; ++i) d[i] = stream_byte(off + i);
    send_tcp_now(client_port, client_dport, client_iss + 1 + uint32_t(off), client_irs + 1 + client_fin_seen,
                 kAck | kPsh, 65535, 0, d.data(), len);
  }
  void client_fin(uint64_t off) {
    send_tcp_now(client_port, client_dport, client_iss + 1 + uint32_t(off), client_irs + 1, kFin | kAck,
                 65535, 0, nullptr, 0);
  }
  uint16_t client_port = 40000;
  unsigned pings_sent = 0;
  Mac host_mac{};
  uint32_t host_ip = 0;

 private:
  void sink_in(const TcpView& t) {
    SinkConn& c = sink[t.sport];
    Seg s{sc_core::sc_time_stamp(),
          t.seq,
          t.ack,
          t.flags,
          t.wnd,
          t.plen,
          uint64_t(uint32_t(t.seq - c.irs - 1))};
    if (t.flags & kSyn) {
      c = SinkConn{};
      c.irs = t.seq;
      c.rcv_nxt = t.seq + 1;
      c.iss = 100000u * (t.sport % 1000);
      c.snd_nxt = c.iss + 1;
      s.off = 0;
      c.segs.push_back(s);
      send_tcp(t.dport, t.sport, c.iss, c.rcv_nxt, kSyn | kAck, tcp_window, tcp_mss, nullptr, 0);
      return;
    }
    c.segs.push_back(s);
    if (t.flags & kRst) return;
    if (t.plen > 0 && drop_offset >= 0 && uint64_t(drop_offset) >= s.off &&
        uint64_t(drop_offset) < s.off + t.plen) {
      drop_offset = -1;
      ++dropped;
      c.segs.back().len = 0;  // record as lost
      c.segs.back().flags |= 0x80;
      return;
    }
    if (t.seq == c.rcv_nxt) {
      for (size_t i = 0; i < t.plen; ++i)
        if (t.payload[i] != stream_byte(s.off + i)) ++c.bad;
      c.bytes += t.plen;
      c.max_len = std::max(c.max_len, t.plen);
      c.rcv_nxt += uint32_t(t.plen);
      if (t.flags & kFin) {
        c.rcv_nxt += 1;
        c.fin = true;
        send_tcp(t.dport, t.sport, c.snd_nxt, c.rcv_nxt, kFin | kAck, tcp_window, 0, nullptr, 0);
        c.snd_nxt += 1;
        return;
      }
    }
    if (t.plen > 0 || (t.flags & kFin))
      send_tcp(t.dport, t.sport, c.snd_nxt, c.rcv_nxt, kAck, tcp_window, 0, nullptr, 0);
  }
  void client_in(const TcpView& t) {
    client_rx.push_back({sc_core::sc_time_stamp(), t.seq, t.ack, t.flags, t.wnd, t.plen, 0});
    if ((t.flags & kSyn) && (t.flags & kAck)) {
      client_irs = t.seq;
      client_established = true;
      send_tcp_now(client_port, client_dport, client_nxt, t.seq + 1, kAck, 65535, 0, nullptr, 0);
    } else if (t.flags & kFin) {
      client_fin_seen = 1;
      send_tcp_now(client_port, client_dport, t.ack, t.seq + 1, kAck, 65535, 0, nullptr, 0);
    }
  }
  void send_eth(const Mac& dst, uint16_t type, const Bytes& p) {
    Bytes fr = eth_frame(dst, mac, type, p.data(), p.size());
    sched.after(latency, [this, fr] {
      EthFrame f;
      f.data = fr;
      tx->send(f);
    });
  }
  void send_ip(uint8_t proto, const Bytes& p) {
    send_eth(host_mac, kEtherIpv4, ip4_packet(ip, host_ip, proto, id++, 64, false, p.data(), p.size()));
  }
  void send_ip_now(uint8_t proto, const Bytes& p) {
    Bytes ipk = ip4_packet(ip, host_ip, proto, id++, 64, false, p.data(), p.size());
    EthFrame f;
    f.data = eth_frame(host_mac, mac, kEtherIpv4, ipk.data(), ipk.size());
    tx->send(f);
  }
  void send_tcp(uint16_t sp, uint16_t dp, uint32_t seq, uint32_t ack, uint8_t fl, uint16_t w, uint16_t mss,
                const uint8_t* d, size_t n) {
    send_ip(kProtoTcp, tcp_segment(ip, host_ip, sp, dp, seq, ack, fl, w, mss, d, n));
  }
  void send_tcp_now(uint16_t sp, uint16_t dp, uint32_t seq, uint32_t ack, uint8_t fl, uint16_t w,
                    uint16_t mss, const uint8_t* d, size_t n) {
    send_ip_now(kProtoTcp, tcp_segment(ip, host_ip, sp, dp, seq, ack, fl, w, mss, d, n));
  }
  EthTx* tx = nullptr;
  uint16_t id = 1;
  uint16_t client_dport = 0;
  uint32_t client_nxt = 0;
  uint32_t client_fin_seen = 0;
};

}  // namespace l3vp::test
