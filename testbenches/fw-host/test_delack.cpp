// Delayed ACKs (RFC 1122 4.2.3.2), built with NET_TCP_DELAYED_ACK=1.
#include "tcp_peer.h"

using namespace nh;

namespace {

static_assert(NET_TCP_DELAYED_ACK == 1, "build test_net_delack with delayed ACKs");

class DelAck : public NetTest {
 protected:
  Peer p;
  struct tcp_conn* c = nullptr;
  void SetUp() override {
    NetTest::SetUp();
    prime_arp();
    ASSERT_EQ(NET_OK, tcp_listen(80, app_call, nullptr));
    p.send(TCP_SYN, {}, mss_opt(1000));
    auto sa = take_tcp();
    ASSERT_EQ(1u, sa.size());
    p.rcv = sa[0].seq + 1;
    p.send(TCP_ACK);
    c = find_conn(p.port);
    ASSERT_NE(nullptr, c);
  }
};

TEST_F(DelAck, LoneSegmentAckedAfterDelay) {
  p.send(TCP_ACK, pattern(100));
  EXPECT_TRUE(take_tcp().empty());
  advance(NET_TCP_DELACK_MS - 10);
  EXPECT_TRUE(take_tcp().empty());
  advance(10);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(p.snd, s[0].ack);
}

TEST_F(DelAck, EverySecondSegmentAckedAtOnce) {
  p.send(TCP_ACK, pattern(100));
  EXPECT_TRUE(take_tcp().empty());
  p.send(TCP_ACK, pattern(100));
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(p.snd, s[0].ack);
  advance(NET_TCP_DELACK_MS);
  EXPECT_TRUE(take_tcp().empty());  // nothing owed any more
}

TEST_F(DelAck, ReplyCarriesTheAck) {
  app_of(c).echo = true;
  p.send(TCP_ACK, pattern(50));
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(50u, s[0].data.size());
  EXPECT_EQ(p.snd, s[0].ack);
  p.rcv += 50;
  p.send(TCP_ACK);  // the peer's pure ACK needs no ACK
  advance(NET_TCP_DELACK_MS);
  EXPECT_TRUE(take_tcp().empty());
}

TEST_F(DelAck, FinAndOutOfOrderAckedImmediately) {
  uint32_t s0 = p.snd;
  p.snd += 100;
  p.send(TCP_ACK, pattern(10));  // after a gap
  ASSERT_EQ(1u, take_tcp().size());
  p.snd = s0;
  p.send(TCP_FIN | TCP_ACK);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(p.snd, s[0].ack);
}

}  // namespace
