// UDP (RFC 768): bind, receive with/without checksum, send, echo from the
// callback (data in net_buf in copy mode).
#include "net_harness.h"

using namespace nh;

namespace {

struct Rx {
  uint32_t src;
  uint16_t sport;
  Bytes data;
};
std::vector<Rx> g_rx;
bool g_echo;

void on_udp(struct udp_ep* ep, uint32_t src, uint16_t sport, const uint8_t* d, unsigned n) {
  g_rx.push_back({src, sport, Bytes(d, d + n)});
  if (g_echo) {
    EXPECT_EQ(NET_OK, udp_sendto(ep, src, sport, d, n));
  }
}

class Udp : public NetTest {
 protected:
  struct udp_ep* ep_ = nullptr;
  void SetUp() override {
    NetTest::SetUp();
    g_rx.clear();
    g_echo = false;
    prime_arp();
    ep_ = udp_bind(7, on_udp, nullptr, nullptr);
    ASSERT_NE(nullptr, ep_);
  }
};

TEST_F(Udp, ReceiveWithAndWithoutChecksum) {
  Bytes d = pattern(300);
  inject(peer_ip_frame(17, udp_datagram(kPeerIp, kOurIp, 1234, 7, d, true)));
  inject(peer_ip_frame(17, udp_datagram(kPeerIp, kOurIp, 1235, 7, d, false)));
  ASSERT_EQ(2u, g_rx.size());
  EXPECT_EQ(d, g_rx[0].data);
  EXPECT_EQ(1234, g_rx[0].sport);
  EXPECT_EQ(kPeerIp, g_rx[0].src);
  EXPECT_EQ(1235, g_rx[1].sport);
}

TEST_F(Udp, BadChecksumAndUnboundPortDropped) {
  Bytes u = udp_datagram(kPeerIp, kOurIp, 1234, 7, pattern(10), true);
  u[9] ^= 1;  // corrupt data
  inject(peer_ip_frame(17, u));
  inject(peer_ip_frame(17, udp_datagram(kPeerIp, kOurIp, 1234, 8, pattern(10))));
  EXPECT_TRUE(g_rx.empty());
  EXPECT_EQ(1u, net_stats.udp.drop_chksum);
  EXPECT_EQ(1u, net_stats.udp.drop_no_port);
  EXPECT_TRUE(tx.empty());
}

// Receive checksum offload (a GRETH_GBIT's RX descriptor, passed on by the
// driver): a datagram the MAC confirmed is not summed again -- the stack
// trusts the flag, so a corruption only a sum would see gets through --
// while the flag belongs to that frame alone, speaks only for UDP, and
// leaves the length checks in place.
TEST_F(Udp, ChecksumTheMacConfirmedIsNotSummedAgain) {
  Bytes u = udp_datagram(kPeerIp, kOurIp, 1234, 7, pattern(100), true);
  u[20] ^= 1;
  inject_checked(peer_ip_frame(17, u), NET_RXCK_UDP);
  ASSERT_EQ(1u, g_rx.size());
  EXPECT_EQ(u[20], g_rx[0].data[12]);
  EXPECT_EQ(1u, net_stats.udp.chk_hw);
  EXPECT_EQ(0u, net_stats.udp.drop_chksum);
  inject(peer_ip_frame(17, u));
  EXPECT_EQ(1u, net_stats.udp.drop_chksum);
  inject_checked(peer_ip_frame(17, u), NET_RXCK_TCP);
  EXPECT_EQ(2u, net_stats.udp.drop_chksum);
  EXPECT_EQ(1u, g_rx.size());
  Bytes l = udp_datagram(kPeerIp, kOurIp, 1234, 7, pattern(100), true);
  put16(l, 4, 109);  // UDP length beyond the IP payload
  inject_checked(peer_ip_frame(17, l), NET_RXCK_UDP);
  EXPECT_EQ(1u, net_stats.udp.drop_len);
  EXPECT_EQ(1u, g_rx.size());
  EXPECT_EQ(1u, net_stats.udp.chk_hw);
}

TEST_F(Udp, SendHasValidHeaderAndChecksum) {
  for (unsigned n : {0u, 1u, 2u, 100u, 1471u, 1472u}) {
    Bytes d = pattern(n, n + 1);
    ASSERT_EQ(NET_OK, udp_sendto(ep_, kPeerIp, 9999, d.data(), n));
    ASSERT_EQ(1u, tx.size());
    Pkt p = parse(tx[0]);
    tx.clear();
    ASSERT_TRUE(p.ip_ok);
    EXPECT_TRUE(p.l4_ok) << n;
    EXPECT_NE(0, get16(p.payload, 6));  // checksum generated
    EXPECT_EQ(7, p.sport);
    EXPECT_EQ(9999, p.dport);
    EXPECT_EQ(d, p.data);
  }
  Bytes big(1473);
  EXPECT_EQ(NET_ERR_BUF, udp_sendto(ep_, kPeerIp, 9999, big.data(), 1473));
}

TEST_F(Udp, EchoFromCallbackUsesReceivedDataInPlace) {
  g_echo = true;
  for (unsigned n : {1u, 64u, 1472u}) {
    Bytes d = pattern(n, 5);
    inject(peer_ip_frame(17, udp_datagram(kPeerIp, kOurIp, 4000, 7, d)));
    ASSERT_EQ(1u, tx.size());
    Pkt p = parse(tx[0]);
    tx.clear();
    EXPECT_TRUE(p.l4_ok);
    EXPECT_EQ(4000, p.dport);
    EXPECT_EQ(d, p.data);
  }
}

TEST_F(Udp, BindRules) {
  net_err_t err;
  EXPECT_EQ(nullptr, udp_bind(7, on_udp, nullptr, &err));
  EXPECT_EQ(NET_ERR_USE, err);
  EXPECT_EQ(nullptr, udp_bind(0, on_udp, nullptr, &err));
  EXPECT_EQ(NET_ERR_ARG, err);
  expected_arg_errors_ = 1;
  for (unsigned i = 1; i < NET_UDP_ENDPOINTS; i++)
    EXPECT_NE(nullptr, udp_bind((uint16_t)(100 + i), on_udp, nullptr, nullptr));
  EXPECT_EQ(nullptr, udp_bind(200, on_udp, nullptr, &err));
  EXPECT_EQ(NET_ERR_MEM, err);
  udp_unbind(ep_);
  EXPECT_NE(nullptr, udp_bind(200, on_udp, nullptr, &err));
}

TEST_F(Udp, BroadcastDatagramAccepted) {
  inject(eth_frame(
      kBcastMac, kPeerMac, 0x0800,
      ip_packet(kPeerIp, NET_IP4_BROADCAST, 17, udp_datagram(kPeerIp, NET_IP4_BROADCAST, 68, 7, {1, 2}))));
  ASSERT_EQ(1u, g_rx.size());
}

}  // namespace
