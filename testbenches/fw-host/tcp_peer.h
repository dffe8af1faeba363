// tcp_peer.h - a scripted remote TCP endpoint for the host tests.
#pragma once

#include "net_harness.h"

namespace nh {

struct Peer {
  uint32_t ip = kPeerIp;
  uint16_t port = 40000;
  uint16_t lport = 80;  // our (the stack's) port
  uint32_t snd = 1000;  // the peer's next sequence number
  uint32_t rcv = 0;     // what the peer expects next from us
  uint16_t wnd = 8192;

  void send(uint8_t flags, const Bytes& data = {}, Bytes options = {}) {
    TcpSeg s;
    s.sport = port;
    s.dport = lport;
    s.seq = snd;
    s.ack = (flags & TCP_ACK) ? rcv : 0;
    s.flags = flags;
    s.wnd = wnd;
    s.options = std::move(options);
    s.data = data;
    inject(peer_ip_frame(6, tcp_segment(ip, kOurIp, s)));
    snd += (uint32_t)data.size() + ((flags & TCP_SYN) ? 1 : 0) + ((flags & TCP_FIN) ? 1 : 0);
  }
  // Raw segment with explicit fields (does not advance snd).
  void send_raw(const TcpSeg& s) { inject(peer_ip_frame(6, tcp_segment(ip, kOurIp, s))); }
  TcpSeg seg(uint8_t flags) const {
    TcpSeg s;
    s.sport = port;
    s.dport = lport;
    s.seq = snd;
    s.ack = rcv;
    s.flags = flags;
    s.wnd = wnd;
    return s;
  }
};

inline Bytes mss_opt(uint16_t mss) { return {2, 4, (uint8_t)(mss >> 8), (uint8_t)mss}; }

// TCP segments sent to `port` (parsed), removing all captured frames.
inline std::vector<Pkt> take_tcp() {
  std::vector<Pkt> v;
  for (auto& f : tx) {
    Pkt p = parse(f);
    EXPECT_TRUE(p.ip_ok);
    if (p.proto == 6) {
      EXPECT_TRUE(p.l4_ok);
      v.push_back(p);
    }
  }
  tx.clear();
  return v;
}

inline struct tcp_conn* find_conn(uint16_t rport) {
  for (auto& c : tcp_conns)
    if (c.state != TCP_CLOSED && c.rport == rport) return &c;
  return nullptr;
}

// The passive open of `p` at one of our listeners: SYN, our SYN-ACK
// (checked), ACK; whatever the stack sends after the ACK is dropped.
// @return the established connection, or nullptr (after a failed EXPECT).
inline struct tcp_conn* accept_peer(Peer& p) {
  p.send(TCP_SYN);
  auto s = take_tcp();
  EXPECT_EQ(1u, s.size());
  if (s.size() != 1) return nullptr;
  EXPECT_EQ(TCP_SYN | TCP_ACK, s[0].flags);
  p.rcv = s[0].seq + 1;
  p.send(TCP_ACK);
  take_tcp();
  struct tcp_conn* c = find_conn(p.port);
  EXPECT_NE(nullptr, c);
  if (c) {
    EXPECT_EQ(TCP_ESTABLISHED, c->state);
  }
  return c;
}

}  // namespace nh
