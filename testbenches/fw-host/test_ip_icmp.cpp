// IPv4 validation (RFC 791, RFC 1122 3.2.1) and ICMP echo (RFC 792).
#include "net_harness.h"

using namespace nh;

namespace {

class IpIcmp : public NetTest {
 protected:
  void SetUp() override {
    NetTest::SetUp();
    prime_arp();
  }
};

// Echo at every payload size from 0 up to the MTU (1500 - 20 - 8 = 1472).
TEST_F(IpIcmp, EchoReplyAtEverySizeUpToMtu) {
  for (unsigned n = 0; n <= 1472; n++) {
    Bytes data = pattern(n, n);
    inject(peer_ip_frame(1, icmp_echo(8, 0x4242, (uint16_t)n, data)));
    ASSERT_EQ(1u, tx.size()) << "size " << n;
    Pkt p = parse(tx[0]);
    tx.clear();
    ASSERT_TRUE(p.ip_ok) << n;
    ASSERT_TRUE(p.l4_ok) << n;
    EXPECT_EQ(kOurIp, p.src);
    EXPECT_EQ(kPeerIp, p.dst);
    EXPECT_EQ(1, p.proto);
    ASSERT_EQ(0, p.payload[0]);  // echo reply
    EXPECT_EQ(0x4242, get16(p.payload, 4));
    EXPECT_EQ(n, get16(p.payload, 6));
    ASSERT_EQ(data, p.data) << n;
    EXPECT_TRUE(std::equal(kPeerMac, kPeerMac + 6, p.raw.begin()));
  }
  EXPECT_EQ(1473u, net_stats.icmp.echo_rx);
  EXPECT_EQ(1473u, net_stats.icmp.tx);
}

// The in-place reply (icmp_input(): words written into the request's own
// frame, no ARP lookup) must give the same frame as the general path
// (ip_output_frame() and arp_output_ip_frame()), which a request at a
// frame address that is not 8-aligned takes in zero-copy builds (copy
// builds copy every frame into the aligned net_buf: in place always).
// Only the IP identification differs (the next value of the same counter)
// and with it the header checksum.
TEST_F(IpIcmp, InPlaceReplyIsTheGeneralPathsFrame) {
  for (unsigned n : {0u, 1u, 18u, 56u, 64u, 1000u, 1472u}) {
    Bytes req = peer_ip_frame(1, icmp_echo(8, 0x1234, (uint16_t)n, pattern(n, n)));
    Bytes got[3];
    uint32_t in_place[3];
    const size_t offsets[3] = {0, 2, 4};
    for (int k = 0; k < 3; k++) {
      uint32_t before = net_stats.icmp.echo_in_place;
      inject_at(req, offsets[k]);
      ASSERT_EQ(1u, tx.size()) << n << " offset " << offsets[k];
      got[k] = tx[0];
      tx.clear();
      in_place[k] = net_stats.icmp.echo_in_place - before;
    }
    EXPECT_EQ(1u, in_place[0]) << n;
    EXPECT_EQ(NET_ZERO_COPY ? 0u : 1u, in_place[1]) << n;
    EXPECT_EQ(NET_ZERO_COPY ? 0u : 1u, in_place[2]) << n;
    for (int k = 0; k < 3; k++) {
      Pkt p = parse(got[k]);
      ASSERT_TRUE(p.ip_ok && p.l4_ok) << n << " offset " << offsets[k];
      EXPECT_EQ((uint16_t)(get16(got[0], 18) + k), get16(got[k], 18)) << n;  // identification
      Bytes a = got[0], b = got[k];
      for (Bytes* x : {&a, &b}) {
        put16(*x, 18, 0);
        put16(*x, 24, 0);
      }
      EXPECT_EQ(a, b) << n << " offset " << offsets[k];
    }
    EXPECT_TRUE(std::equal(kPeerMac, kPeerMac + 6, got[0].begin()));
    EXPECT_TRUE(std::equal(kOurMac, kOurMac + 6, got[0].begin() + 6));
    EXPECT_EQ(0x4500, get16(got[0], 14));
    EXPECT_EQ(0x4000, get16(got[0], 20));  // DF
    EXPECT_EQ(64, got[0][22]);             // TTL
  }
}

// The in-place reply goes to the frame's source MAC only when the ARP
// entry of the source says so: a request from the peer's address but
// another MAC (a conflict: the entry keeps the old MAC, arp.c) is answered
// through the table, to the MAC in use; a non-zero TOS comes back as 0 as
// on the general path.
TEST_F(IpIcmp, InPlaceReplyNeedsTheArpEntrysMac) {
  const uint8_t other[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x77};
  Bytes icmp = icmp_echo(8, 5, 6, pattern(30));
  Bytes f = eth_frame(kOurMac, other, 0x0800, ip_packet(kPeerIp, kOurIp, 1, icmp));
  uint32_t before = net_stats.icmp.echo_in_place;
  inject(f);
  ASSERT_EQ(1u, tx.size());
  EXPECT_TRUE(std::equal(kPeerMac, kPeerMac + 6, tx[0].begin())) << "reply to the claimed MAC";
  EXPECT_EQ(before, net_stats.icmp.echo_in_place);
  EXPECT_EQ(1u, net_stats.arp.conflict);
  tx.clear();

  Bytes req = peer_ip_frame(1, icmp_echo(8, 5, 7, pattern(30)));
  req[15] = 0x10;  // TOS: low delay
  put16(req, 24, 0);
  put16(req, 24, ref_sum(req.data() + 14, 20) ^ 0xffff);
  inject(req);
  ASSERT_EQ(1u, tx.size());
  Pkt p = parse(tx[0]);
  EXPECT_TRUE(p.ip_ok && p.l4_ok);
  EXPECT_EQ(0, tx[0][15]);
}

TEST_F(IpIcmp, FrameAboveBufferDropped) {
  inject(peer_ip_frame(1, icmp_echo(8, 1, 1, pattern(1473))));  // 1515 bytes
  EXPECT_TRUE(tx.empty());
  EXPECT_EQ(1u, net_stats.eth.drop_too_big);
}

TEST_F(IpIcmp, OptionsAreSkipped) {
  IpOpt o;
  o.options = {0x01, 0x01, 0x01, 0x00, 0x94, 0x04, 0x00, 0x00};  // NOPs, EOL, router alert
  Bytes data = pattern(40);
  inject(peer_ip_frame(1, icmp_echo(8, 7, 9, data), o));
  ASSERT_EQ(1u, tx.size());
  Pkt p = parse(tx[0]);
  EXPECT_TRUE(p.l4_ok);
  EXPECT_EQ(data, p.data);
  EXPECT_EQ(20u, (p.raw[14] & 15) * 4u);  // reply has no options
  EXPECT_EQ(1u, net_stats.ip.opts_skipped);
}

TEST_F(IpIcmp, EthernetPaddingIgnored) {
  Bytes f = peer_ip_frame(1, icmp_echo(8, 1, 2, {0xaa, 0xbb}));
  f.resize(60, 0xee);  // padded to the minimum frame size
  inject(f);
  ASSERT_EQ(1u, tx.size());
  Pkt p = parse(tx[0]);
  EXPECT_TRUE(p.l4_ok);
  EXPECT_EQ((Bytes{0xaa, 0xbb}), p.data);
}

TEST_F(IpIcmp, NotForUsAndBroadcastEcho) {
  inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {}), IpOpt(), kPeerIp, NET_IP4(10, 0, 0, 9)));
  EXPECT_EQ(1u, net_stats.ip.drop_not_for_us);
  inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {}), IpOpt(), kPeerIp, NET_IP4(10, 0, 0, 255)));
  EXPECT_EQ(1u, net_stats.icmp.drop_bcast);
  inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {}), IpOpt(), kPeerIp, NET_IP4(224, 0, 0, 1)));
  EXPECT_EQ(2u, net_stats.ip.drop_not_for_us);
  inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {}), IpOpt(), NET_IP4(10, 0, 0, 255), kOurIp));
  EXPECT_EQ(1u, net_stats.ip.drop_src);
  EXPECT_TRUE(tx.empty());
}

TEST_F(IpIcmp, OtherIcmpTypesAndUnknownProtocolCounted) {
  inject(peer_ip_frame(1, icmp_echo(0, 1, 1, {1})));   // echo reply
  inject(peer_ip_frame(1, icmp_echo(13, 1, 1, {1})));  // timestamp
  EXPECT_EQ(2u, net_stats.icmp.drop_type);
  inject(peer_ip_frame(47, Bytes(20, 0)));  // GRE
  EXPECT_EQ(1u, net_stats.ip.drop_proto);
  EXPECT_TRUE(tx.empty());
}

TEST_F(IpIcmp, OutputHeaderIsWellFormed) {
  inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {1, 2, 3})));
  ASSERT_EQ(1u, tx.size());
  const Bytes& f = tx[0];
  EXPECT_EQ(0x45, f[14]);
  EXPECT_EQ(NET_IP_TTL, f[14 + 8]);
  EXPECT_EQ(0x4000, get16(f, 14 + 6));  // DF, no fragment
  EXPECT_EQ(0xffff, ref_sum(f.data() + 14, 20));
  EXPECT_EQ(1u, net_stats.ip.tx);
}

}  // namespace
