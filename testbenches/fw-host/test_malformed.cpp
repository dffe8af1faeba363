// Malformed input: every broken frame is dropped and counted by reason,
// nothing is sent in reply, no connection is created, and (under ASan and
// UBSan; in the zero-copy build the frame is read in place from an exactly
// sized heap block) nothing is read out of bounds. Plus a mutation fuzzer
// that keeps checksums valid so mutations reach the deeper layers.
#include "tcp_peer.h"

#include <functional>
#include <random>
#include <string>

using namespace nh;

namespace {

struct Case {
  std::string name;
  Bytes frame;
  uint32_t* counter;
};

class Malformed : public NetTest {
 protected:
  void SetUp() override {
    NetTest::SetUp();
    prime_arp();
    ASSERT_EQ(NET_OK, tcp_listen(80, app_call, nullptr));
  }
};

Bytes syn_with_options(Bytes opts, int doff = -1) {
  TcpSeg s;
  s.flags = TCP_SYN;
  s.seq = 100;
  s.options = std::move(opts);
  s.doff = doff;
  return peer_ip_frame(6, tcp_segment(kPeerIp, kOurIp, s));
}

// Replace the IP payload and keep the IP header consistent.
Bytes with_ip_payload(uint8_t proto, const Bytes& payload) { return peer_ip_frame(proto, payload); }

TEST_F(Malformed, EachBrokenFrameDroppedAndCountedByReason) {
  TcpSeg good;
  good.flags = TCP_SYN;
  good.seq = 100;
  Bytes tcp_good = tcp_segment(kPeerIp, kOurIp, good);
  Bytes echo = icmp_echo(8, 1, 1, pattern(20));
  Bytes udp = udp_datagram(kPeerIp, kOurIp, 1, 7, pattern(20));
  Bytes ip_frame = peer_ip_frame(6, tcp_good);

  std::vector<Case> cases;
  auto add = [&](std::string n, Bytes f, uint32_t* c) { cases.push_back({std::move(n), std::move(f), c}); };

  // Ethernet
  add("empty frame", Bytes(), &net_stats.eth.drop_short);
  add("13-byte frame", Bytes(ip_frame.begin(), ip_frame.begin() + 13), &net_stats.eth.drop_short);
  {
    Bytes f = ip_frame;
    f[0] = 0x04;
    add("other unicast MAC", f, &net_stats.eth.drop_not_for_us);
    f = ip_frame;
    f[0] = 0x01;  // multicast
    add("multicast MAC", f, &net_stats.eth.drop_not_for_us);
    // net_input() compares the MACs inline, byte by byte: a difference in
    // the last byte only, and broadcast-but-one-bit, are not ours either.
    f = ip_frame;
    f[5] ^= 0x01;
    add("our MAC but the last byte", f, &net_stats.eth.drop_not_for_us);
    f = ip_frame;
    for (int i = 0; i < 6; i++) f[i] = 0xff;
    f[5] = 0xfe;
    add("broadcast MAC but one bit", f, &net_stats.eth.drop_not_for_us);
    f[5] = 0xff;
    f[2] = 0x7f;
    add("broadcast MAC but one bit (byte 2)", f, &net_stats.eth.drop_not_for_us);
    f = ip_frame;
    put16(f, 12, 0x86dd);
    add("IPv6 ethertype", f, &net_stats.eth.drop_type);
  }
  // IPv4
  add("IP header truncated", Bytes(ip_frame.begin(), ip_frame.begin() + 14 + 19), &net_stats.ip.drop_short);
  {
    IpOpt o;
    o.version = 6;
    add("version 6", peer_ip_frame(6, tcp_good, o), &net_stats.ip.drop_version);
  }
  for (int ihl : {0, 1, 4}) {
    IpOpt o;
    o.ihl = ihl;
    add("IHL " + std::to_string(ihl), peer_ip_frame(6, tcp_good, o), &net_stats.ip.drop_hl);
  }
  {
    IpOpt o;
    o.ihl = 15;  // 60-byte header, but the frame holds only 20 + 4
    o.total_len = 24;
    Bytes f = peer_ip_frame(6, Bytes(4, 0), o);
    add("IHL beyond frame", f, &net_stats.ip.drop_hl);
  }
  {
    IpOpt o;
    o.total_len = 20 + (int)tcp_good.size() + 1;
    add("total length above frame", peer_ip_frame(6, tcp_good, o), &net_stats.ip.drop_len);
    o.total_len = 65535;
    add("total length 65535", peer_ip_frame(6, tcp_good, o), &net_stats.ip.drop_len);
    o.total_len = 19;
    add("total length below header", peer_ip_frame(6, tcp_good, o), &net_stats.ip.drop_len);
    IpOpt o2;
    o2.options = {1, 1, 1, 1};
    o2.total_len = 20;  // below IHL 6
    add("total length below IHL", peer_ip_frame(6, tcp_good, o2), &net_stats.ip.drop_len);
  }
  {
    IpOpt o;
    o.bad_checksum = true;
    add("bad IP checksum", peer_ip_frame(6, tcp_good, o), &net_stats.ip.drop_chksum);
    IpOpt mf;
    mf.frag = 0x2000;
    add("first fragment (MF)", peer_ip_frame(1, echo, mf), &net_stats.ip.drop_frag);
    IpOpt off;
    off.frag = 0x0010;
    add("later fragment (offset)", peer_ip_frame(1, echo, off), &net_stats.ip.drop_frag);
    IpOpt last;
    last.frag = 0x4000 | 0x0100;  // DF + offset: still a fragment
    add("last fragment", peer_ip_frame(1, echo, last), &net_stats.ip.drop_frag);
  }
  // ICMP
  add("ICMP short", with_ip_payload(1, Bytes(echo.begin(), echo.begin() + 7)), &net_stats.icmp.drop_short);
  {
    Bytes e = echo;
    e[10] ^= 0xff;
    add("ICMP bad checksum", with_ip_payload(1, e), &net_stats.icmp.drop_chksum);
  }
  // UDP
  add("UDP short", with_ip_payload(17, Bytes(udp.begin(), udp.begin() + 7)), &net_stats.udp.drop_short);
  {
    Bytes u = udp;
    put16(u, 4, (uint16_t)(udp.size() + 1));
    add("UDP length above payload", with_ip_payload(17, u), &net_stats.udp.drop_len);
    u = udp;
    put16(u, 4, 7);
    add("UDP length below 8", with_ip_payload(17, u), &net_stats.udp.drop_len);
    u = udp;
    u[8] ^= 0x55;
    add("UDP bad checksum", with_ip_payload(17, u), &net_stats.udp.drop_chksum);
  }
  // TCP
  add("TCP header truncated", with_ip_payload(6, Bytes(tcp_good.begin(), tcp_good.begin() + 19)),
      &net_stats.tcp.drop_short);
  {
    TcpSeg s = good;
    s.bad_checksum = true;
    add("TCP bad checksum", peer_ip_frame(6, tcp_segment(kPeerIp, kOurIp, s)), &net_stats.tcp.drop_chksum);
  }
  add("TCP data offset 4", syn_with_options({}, 4), &net_stats.tcp.drop_offset);
  add("TCP data offset 0", syn_with_options({}, 0), &net_stats.tcp.drop_offset);
  add("TCP data offset beyond segment", syn_with_options({}, 15), &net_stats.tcp.drop_offset);
  add("TCP data offset 6, segment 20", syn_with_options({}, 6), &net_stats.tcp.drop_offset);
  add("option length 0", syn_with_options({2, 0, 0, 0}), &net_stats.tcp.drop_opt);
  add("option length 1", syn_with_options({8, 1, 0, 0}), &net_stats.tcp.drop_opt);
  add("option overruns header", syn_with_options({1, 2, 8, 0}), &net_stats.tcp.drop_opt);
  add("option kind in last byte", syn_with_options({1, 1, 1, 3}), &net_stats.tcp.drop_opt);
  add("MSS option overruns", syn_with_options({1, 1, 2, 4}), &net_stats.tcp.drop_opt);
  add("option length 255", syn_with_options({2, 255, 0, 0, 0, 0, 0, 0}), &net_stats.tcp.drop_opt);
  {
    TcpSeg s = good;
    s.dport = 80;
    Bytes b = peer_ip_frame(6, tcp_segment(kPeerIp, NET_IP4(10, 0, 0, 255), s), IpOpt(), kPeerIp,
                            NET_IP4(10, 0, 0, 255));
    add("TCP to broadcast", b, &net_stats.tcp.drop_bcast);
  }

  for (auto& c : cases) {
    SCOPED_TRACE(c.name);
    uint32_t before = *c.counter;
    inject(c.frame);
    EXPECT_EQ(before + 1, *c.counter);
    EXPECT_TRUE(tx.empty());
    tx.clear();
    for (auto& conn : tcp_conns) EXPECT_EQ(TCP_CLOSED, conn.state);
  }
}

TEST_F(Malformed, OddButLegalOptionsAccepted) {
  // NOPs, an unknown option, an MSS with a wrong length (ignored), EOL and
  // garbage after EOL.
  Peer p;
  p.send(TCP_SYN, {}, {1, 1, 30, 3, 0xaa, 2, 3, 9, 2, 4, 0x01, 0x00, 0, 0xde, 0xad, 0xbe});
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_SYN | TCP_ACK, s[0].flags);
  EXPECT_EQ(256, find_conn(p.port)->mss);
}

// Seed frames for the fuzzer: an established connection gets data, a SYN
// with options, UDP, ICMP echo, ARP.
class Fuzz : public Malformed {};

void fix_checksums(Bytes& f) {
  if (f.size() < 34 || get16(f, 12) != 0x0800) return;
  size_t hl = (f[14] & 15) * 4u;
  if (hl < 20 || 14 + hl > f.size()) return;
  put16(f, 24, 0);
  put16(f, 24, (uint16_t)~ref_sum(f.data() + 14, hl));
  size_t tot = get16(f, 16);
  if (tot < hl || 14 + tot > f.size()) return;
  Bytes l4(f.begin() + 14 + hl, f.begin() + 14 + tot);
  uint32_t src = get32(f, 26), dst = get32(f, 30);
  size_t ck;
  uint16_t sum;
  switch (f[23]) {
    case 6:
      ck = 16;
      break;
    case 17:
      ck = 6;
      break;
    case 1:
      ck = 2;
      break;
    default:
      return;
  }
  if (l4.size() < ck + 2) return;
  put16(l4, ck, 0);
  sum = f[23] == 1 ? ref_sum(l4.data(), l4.size()) : ref_pseudo_sum(src, dst, f[23], l4);
  put16(f, 14 + hl + ck, (uint16_t)~sum);
}

TEST_F(Fuzz, MutatedFramesNeverCrashOrOverflow) {
  Peer p;
  p.send(TCP_SYN, {}, mss_opt(1000));
  auto sa = take_tcp();
  ASSERT_EQ(1u, sa.size());
  p.rcv = sa[0].seq + 1;
  p.send(TCP_ACK);
  app_of(find_conn(p.port)).echo = true;

  std::vector<Bytes> seeds;
  {
    TcpSeg s = p.seg(TCP_ACK | TCP_PSH);
    s.data = pattern(200);
    seeds.push_back(peer_ip_frame(6, tcp_segment(kPeerIp, kOurIp, s)));
    TcpSeg syn;
    syn.sport = 50000;
    syn.flags = TCP_SYN;
    syn.options = {2, 4, 5, 0xb4, 1, 3, 3, 7, 4, 2, 1, 1};
    seeds.push_back(peer_ip_frame(6, tcp_segment(kPeerIp, kOurIp, syn)));
    TcpSeg fin = p.seg(TCP_FIN | TCP_ACK | TCP_URG);
    fin.urp = 60000;
    fin.data = pattern(30);
    seeds.push_back(peer_ip_frame(6, tcp_segment(kPeerIp, kOurIp, fin)));
    udp_bind(
        7,
        [](struct udp_ep* ep, uint32_t src, uint16_t sport, const uint8_t* d, unsigned n) {
          udp_sendto(ep, src, sport, d, n);
        },
        nullptr, nullptr);
    seeds.push_back(peer_ip_frame(17, udp_datagram(kPeerIp, kOurIp, 9, 7, pattern(100))));
    IpOpt o;
    o.options = {1, 1, 1, 0};
    seeds.push_back(peer_ip_frame(1, icmp_echo(8, 1, 2, pattern(64)), o));
    Bytes arp(28, 0);
    put16(arp, 0, 1);
    put16(arp, 2, 0x0800);
    arp[4] = 6;
    arp[5] = 4;
    put16(arp, 6, 1);
    std::copy(kPeerMac, kPeerMac + 6, arp.begin() + 8);
    put32(arp, 14, kPeerIp);
    put32(arp, 24, kOurIp);
    seeds.push_back(eth_frame(kBcastMac, kPeerMac, 0x0806, arp));
  }

  std::mt19937 rng(2024);
  const int kIterations = 40000;
  for (int i = 0; i < kIterations; i++) {
    Bytes f = seeds[rng() % seeds.size()];
    int kind = rng() % 4;
    int n = 1 + rng() % 4;
    for (int k = 0; k < n && !f.empty(); k++) {
      size_t pos = rng() % f.size();
      if (kind == 0 || pos < 14) {
        f[std::max<size_t>(pos, 14) % f.size()] ^= (uint8_t)(1u << (rng() % 8));
      } else if (kind == 1) {
        f[pos] = (uint8_t)rng();
      } else if (kind == 2) {
        // Header length nibbles and length fields.
        size_t fields[] = {14, 16, 17, 14 + 20 + 12, 14 + 24 + 12, 14 + 20 + 4, 14 + 20 + 5};
        size_t fpos = fields[rng() % 7];
        if (fpos < f.size()) f[fpos] = (uint8_t)rng();
      } else {
        f.resize(rng() % (f.size() + 1));
      }
    }
    if (rng() % 2) fix_checksums(f);
    inject(f);
    tx.clear();
    if (i % 1000 == 0) net_timer_tick(100);
  }
  EXPECT_EQ((uint32_t)kIterations, net_stats.eth.rx - 3);  // + handshake + prime_arp
  // The mutations reached every layer and many drop reasons.
  EXPECT_GT(net_stats.tcp.rx, 5000u);
  EXPECT_GT(net_stats.udp.rx, 2000u);
  EXPECT_GT(net_stats.icmp.echo_rx, 500u);
  EXPECT_GT(net_stats.arp.rx, 2000u);
  for (uint32_t c :
       {net_stats.ip.drop_hl, net_stats.ip.drop_len, net_stats.ip.drop_chksum, net_stats.tcp.drop_offset,
        net_stats.tcp.drop_opt, net_stats.tcp.drop_chksum, net_stats.udp.drop_len, net_stats.tcp.drop_seq}) {
    EXPECT_GT(c, 0u);
  }
}

}  // namespace
