// TCP receive side (wire speed under loss): out-of-order segments held in the netif's
// frames (rx_hold) and delivered when the gap is filled, duplicates and
// overlaps trimmed, held-buffer exhaustion, the window that follows the
// free hold buffers, window updates, the ACK policy. Built zero-copy with
// delayed ACKs (test_net_rx).
#include <map>

#include "tcp_peer.h"

using namespace nh;

namespace {

static_assert(NET_ZERO_COPY == 1 && NET_TCP_DELAYED_ACK == 1 && NET_TCP_RX_HOLD >= 4,
              "build test_net_rx zero-copy with delayed ACKs and hold buffers");

// The fake driver's held frames: heap copies, as many as `spares` at once.
std::map<const uint8_t*, std::unique_ptr<uint8_t[]>> held;
unsigned spares = NET_TCP_RX_HOLD;
unsigned holds_refused = 0;

const uint8_t* fake_hold(struct netif*, const uint8_t* frame, unsigned len) {
  if (held.size() >= spares) {
    holds_refused++;
    return nullptr;
  }
  std::unique_ptr<uint8_t[]> b(new uint8_t[len]);
  memcpy(b.get(), frame, len);
  const uint8_t* p = b.get();
  held[p] = std::move(b);
  return p;
}

void fake_unhold(struct netif*, const uint8_t* p) {
  auto it = held.find(p);
  ASSERT_NE(it, held.end()) << "unhold of a buffer never held";
  held.erase(it);
}

constexpr uint16_t kMss = 1000;

class TcpRx : public NetTest {
 protected:
  Peer p;
  struct tcp_conn* c = nullptr;
  uint32_t s0 = 0;  // first data sequence number
  void SetUp() override {
    NetTest::SetUp();
    held.clear();
    spares = NET_TCP_RX_HOLD;
    holds_refused = 0;
    nif_.rx_hold = fake_hold;
    nif_.rx_unhold = fake_unhold;
    tcp_set_rcv_wnd(65535);
    prime_arp();
    ASSERT_EQ(NET_OK, tcp_listen(80, app_call, nullptr));
    p.send(TCP_SYN, {}, mss_opt(kMss));
    auto sa = take_tcp();
    ASSERT_EQ(1u, sa.size());
    syn_ack_wnd = sa[0].wnd;
    p.rcv = sa[0].seq + 1;
    p.send(TCP_ACK);
    c = find_conn(p.port);
    ASSERT_NE(nullptr, c);
    s0 = p.snd;
  }
  void TearDown() override {
    for (auto& k : tcp_conns)
      if (k.state != TCP_CLOSED && k.state != TCP_TIME_WAIT) tcp_abort(&k);
    EXPECT_TRUE(held.empty()) << held.size() << " held buffers never given back";
    NetTest::TearDown();
  }
  // Data segment at stream offset `off` (from s0) of the pattern stream.
  void seg(uint32_t off, uint32_t len, uint8_t flags = TCP_ACK) {
    Bytes d(stream.begin() + off, stream.begin() + off + len);
    TcpSeg t = p.seg(flags);
    t.seq = s0 + off;
    t.data = d;
    p.send_raw(t);
  }
  Bytes stream = pattern(20 * kMss, 7);
  uint16_t syn_ack_wnd = 0;
};

TEST_F(TcpRx, GapFilledDeliversHeldSegmentsInOrder) {
  seg(kMss, kMss);
  seg(2 * kMss, kMss);
  auto a = take_tcp();
  ASSERT_EQ(2u, a.size());  // a duplicate ACK for each (RFC 5681 4.2)
  EXPECT_EQ(s0, a[0].ack);
  EXPECT_EQ(s0, a[1].ack);
  EXPECT_EQ(2u, held.size());
  EXPECT_EQ(2u, net_stats.tcp.ooo_held);
  EXPECT_TRUE(app_of(c).rx.empty());
  seg(0, kMss);  // fills the gap
  a = take_tcp();
  ASSERT_EQ(1u, a.size());  // acknowledged at once, all of it
  EXPECT_EQ(s0 + 3 * kMss, a[0].ack);
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 3 * kMss), app_of(c).rx);
  EXPECT_EQ(2u, net_stats.tcp.ooo_delivered);
  EXPECT_EQ(0u, net_stats.tcp.drop_ooo);
  EXPECT_TRUE(held.empty());
  EXPECT_EQ(s0 + 3 * kMss, c->rcv_nxt);
}

TEST_F(TcpRx, DuplicateOutOfOrderSegmentNotHeldTwice) {
  seg(kMss, kMss);
  seg(kMss, kMss);
  EXPECT_EQ(1u, held.size());
  EXPECT_EQ(1u, net_stats.tcp.ooo_held);
  EXPECT_EQ(1u, net_stats.tcp.ooo_dup);
  EXPECT_EQ(2u, take_tcp().size());
  seg(0, kMss);
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 2 * kMss), app_of(c).rx);
}

TEST_F(TcpRx, OverlapsAreTrimmed) {
  seg(1000, 500);  // held [1000,1500)
  seg(1200, 600);  // head overlaps: [1500,1800) held
  seg(1900, 100);  // held [1900,2000)
  seg(1850, 200);  // covers [1900,2000), which goes: [1850,2050) held
  seg(700, 400);   // tail overlaps: [700,1000) held
  EXPECT_EQ(4u, held.size());
  take_tcp();
  seg(0, 800);                       // fills [0,800): overlaps the held [700,1000)
  EXPECT_EQ(s0 + 1800, c->rcv_nxt);  // up to the gap at 1800
  seg(1800, 50);
  EXPECT_EQ(s0 + 2050, c->rcv_nxt);
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 2050), app_of(c).rx);
  EXPECT_TRUE(held.empty());
  EXPECT_GE(net_stats.tcp.ooo_dup, 3u);
}

TEST_F(TcpRx, HeldBuffersExhaustedDropsTheRest) {
  spares = 3;  // the driver runs out before the stack's table does
  for (uint32_t i = 1; i <= 5; i++) seg(i * kMss, kMss);
  EXPECT_EQ(3u, held.size());
  EXPECT_EQ(2u, net_stats.tcp.drop_ooo);
  EXPECT_EQ(2u, holds_refused);
  EXPECT_EQ(5u, take_tcp().size());  // every one answered with a duplicate ACK
  seg(0, kMss);
  auto a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(s0 + 4 * kMss, a[0].ack);  // up to the first dropped one
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 4 * kMss), app_of(c).rx);
}

TEST_F(TcpRx, StackTableLimitsHolds) {
  spares = 100;
  // The window ((NET_TCP_RX_HOLD + 1) segments) admits one more than the
  // stack can hold.
  for (uint32_t i = 1; i <= NET_TCP_RX_HOLD + 1; i++) seg(i * kMss, kMss);
  EXPECT_EQ((size_t)NET_TCP_RX_HOLD, held.size());
  EXPECT_EQ(1u, net_stats.tcp.drop_ooo);
  take_tcp();
  seg(0, kMss);
  EXPECT_EQ(s0 + (NET_TCP_RX_HOLD + 1) * kMss, c->rcv_nxt);
}

TEST_F(TcpRx, WindowFollowsFreeHoldBuffers) {
  // Nothing held: (NET_TCP_RX_HOLD + 1) segments, below the configured 65535.
  EXPECT_EQ((NET_TCP_RX_HOLD + 1) * kMss, syn_ack_wnd);
  seg(2 * kMss, kMss);  // held [2000,3000): one buffer less, 3000 bytes promised
  auto a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(NET_TCP_RX_HOLD * kMss + 3 * kMss, a[0].wnd);
  // The right edge never moves left.
  EXPECT_GE(a[0].ack + a[0].wnd, s0 + (NET_TCP_RX_HOLD + 1) * kMss);
  // Capped by the configured window.
  tcp_set_rcv_wnd(1500);
  seg(4 * kMss, 100);
  a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(1500u, a[0].wnd);
}

TEST_F(TcpRx, SegmentBeyondTheWindowIsCut) {
  tcp_set_rcv_wnd(2500);
  seg(0, 10);  // its (delayed) ACK advertises 2500: right edge at 2510
  advance(NET_TCP_DELACK_MS);
  auto a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(2500u, a[0].wnd);
  seg(1500, 1200);  // [1500,2700): only [1500,2510) is in the window
  EXPECT_EQ(1u, held.size());
  EXPECT_EQ(1u, net_stats.tcp.trimmed);
  seg(10, 1000);
  seg(1010, 490);
  EXPECT_EQ(s0 + 2510, c->rcv_nxt);
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 2510), app_of(c).rx);
}

TEST_F(TcpRx, HeldFinClosesWhenTheGapIsFilled) {
  seg(kMss, kMss, TCP_ACK | TCP_FIN);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  take_tcp();
  seg(0, kMss);
  EXPECT_EQ(TCP_CLOSE_WAIT, c->state);
  EXPECT_EQ(s0 + 2 * kMss + 1, c->rcv_nxt);
  EXPECT_TRUE(app_of(c).all & NET_EV_CLOSED);
  auto a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(s0 + 2 * kMss + 1, a[0].ack);
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 2 * kMss), app_of(c).rx);
}

TEST_F(TcpRx, AbortReleasesHeldBuffers) {
  seg(kMss, kMss);
  seg(3 * kMss, kMss);
  EXPECT_EQ(2u, held.size());
  tcp_abort(c);
  EXPECT_TRUE(held.empty());
}

TEST_F(TcpRx, PeerResetReleasesHeldBuffers) {
  seg(kMss, kMss);
  TcpSeg t = p.seg(TCP_RST | TCP_ACK);
  t.seq = s0;
  p.send_raw(t);
  EXPECT_EQ(TCP_CLOSED, c->state);
  EXPECT_TRUE(held.empty());
}

TEST_F(TcpRx, EverySecondSegmentAckedDelayedOtherwise) {
  seg(0, kMss);
  EXPECT_TRUE(take_tcp().empty());  // delayed
  seg(kMss, kMss);
  auto a = take_tcp();
  ASSERT_EQ(1u, a.size());  // the second one: at once
  EXPECT_EQ(s0 + 2 * kMss, a[0].ack);
  seg(2 * kMss, kMss);
  EXPECT_TRUE(take_tcp().empty());
  advance(NET_TCP_DELACK_MS);
  a = take_tcp();
  ASSERT_EQ(1u, a.size());  // the delayed ACK
  EXPECT_EQ(s0 + 3 * kMss, a[0].ack);
}

TEST_F(TcpRx, WindowBlockedPeerAckedAtOnce) {
  tcp_set_rcv_wnd(kMss);  // one segment: the peer can send nothing more
  seg(0, 10);             // the next ACK advertises kMss
  advance(NET_TCP_DELACK_MS);
  take_tcp();
  seg(10, kMss);
  auto a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(s0 + 10 + kMss, a[0].ack);
}

TEST_F(TcpRx, TwoSegmentWindowAckedEverySegment) {
  tcp_set_rcv_wnd(2 * kMss);  // after one segment the peer has one left
  seg(0, 10);                 // the next ACK advertises 2 MSS
  advance(NET_TCP_DELACK_MS);
  take_tcp();
  seg(10, kMss);
  auto a = take_tcp();
  ASSERT_EQ(1u, a.size());  // at once, not after the second segment
  EXPECT_EQ(s0 + 10 + kMss, a[0].ack);
  seg(10 + kMss, kMss);
  a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(s0 + 10 + 2 * kMss, a[0].ack);
}

TEST_F(TcpRx, WindowUpdateOnlyForALargeOpening) {
  tcp_set_rcv_wnd(8 * kMss);
  tcp_set_rcv_space(c, 0);
  seg(0, 10);  // the ACK advertises the closed window
  advance(NET_TCP_DELACK_MS);
  auto a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(0u, a[0].wnd);
  tcp_set_rcv_space(c, 100);  // a closed window opens: update
  advance(10);
  a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(100u, a[0].wnd);
  tcp_set_rcv_space(c, 100 + 2 * kMss - 1);  // less than 2 MSS more: nothing
  advance(10);
  EXPECT_TRUE(take_tcp().empty());
  tcp_set_rcv_space(c, 100 + 2 * kMss);  // 2 MSS: update
  advance(10);
  a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ(100u + 2 * kMss, a[0].wnd);
}

TEST_F(TcpRx, ReorderedStreamIsDeliveredIntact) {
  // A deterministic shuffle with duplicates of 20 segments.
  std::vector<uint32_t> order = {1,  0,  3,  2,  2,  5,  4,  7,  9,  8,  6,  6,
                                 11, 10, 13, 12, 15, 14, 14, 17, 16, 19, 18, 18};
  for (uint32_t i : order) seg(i * kMss, kMss);
  EXPECT_EQ(s0 + 20 * kMss, c->rcv_nxt);
  EXPECT_EQ(stream, app_of(c).rx);
  EXPECT_GT(net_stats.tcp.ooo_held, 0u);
  EXPECT_TRUE(held.empty());
}

// Deferred consumption (tcp_recv_hold / tcp_recv_done): an application
// that keeps every segment it is given.
struct Kept {
  int handle;
  const uint8_t* data;
  uint16_t len;
};

class TcpRxKeep : public TcpRx {
 protected:
  std::vector<Kept> kept;
  unsigned refused = 0;
  void SetUp() override {
    TcpRx::SetUp();
    app_of(c).hook = [this](struct tcp_conn* k, unsigned ev) {
      if (!(ev & NET_EV_NEWDATA)) return;
      int h = tcp_recv_hold(k);
      if (h == 0) {
        refused++;
        return;
      }
      EXPECT_EQ(h, tcp_recv_hold(k)) << "a second call in the callback: the same handle";
      uint16_t len = 0;
      const uint8_t* d = tcp_recv_kept(h, &len);
      EXPECT_EQ(tcp_appdata, d) << "tcp_appdata follows the kept bytes";
      EXPECT_EQ(tcp_applen, len);
      kept.push_back({h, d, len});
    };
  }
  void TearDown() override {
    for (const Kept& k : kept) tcp_recv_done(k.handle);
    kept.clear();
    TcpRx::TearDown();
  }
  // The kept pieces, in the order they were given.
  Bytes kept_bytes() const {
    Bytes b;
    for (const Kept& k : kept) b.insert(b.end(), k.data, k.data + k.len);
    return b;
  }
};

TEST_F(TcpRxKeep, DataStaysValidUntilGivenBack) {
  seg(0, kMss);
  seg(kMss, kMss);
  seg(2 * kMss, 500);  // a short one: the right edge must not move left
  ASSERT_EQ(3u, kept.size());
  EXPECT_EQ(3u, held.size());  // in the driver's buffers (the frames were freed: ASan)
  EXPECT_EQ(3u, net_stats.tcp.app_held);
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 2 * kMss + 500), kept_bytes());
  advance(NET_TCP_DELACK_MS);
  auto a = take_tcp();
  ASSERT_FALSE(a.empty());
  uint32_t edge0 = s0 + (NET_TCP_RX_HOLD + 1) * kMss;  // advertised with the SYN-ACK
  EXPECT_EQ(s0 + 2 * kMss + 500, a.back().ack);
  EXPECT_EQ(edge0, a.back().ack + a.back().wnd) << "kept data moved the right edge";
  // Given back: the buffers return, the window opens by 3 segments, and
  // the peer is told (window update at the next tick).
  for (const Kept& k : kept) EXPECT_EQ(NET_OK, tcp_recv_done(k.handle));
  EXPECT_TRUE(held.empty());
  EXPECT_EQ(NET_ERR_ARG, tcp_recv_done(kept[0].handle));  // twice: refused
  EXPECT_EQ(NET_ERR_ARG, tcp_recv_done(0));
  EXPECT_EQ(NET_ERR_ARG, tcp_recv_done(NET_TCP_RX_HOLD + 1));
  EXPECT_EQ(3u, net_stats.err_arg);
  expected_arg_errors_ = 3;
  EXPECT_EQ(nullptr, tcp_recv_kept(kept[0].handle, nullptr));
  kept.clear();
  advance(10);
  a = take_tcp();
  ASSERT_EQ(1u, a.size());
  EXPECT_EQ((NET_TCP_RX_HOLD + 1) * kMss, a[0].wnd);
  EXPECT_EQ(s0 + 2 * kMss + 500, a[0].ack);
}

TEST_F(TcpRxKeep, HeldOutOfOrderSegmentChangesHands) {
  seg(kMss, kMss);  // held by the stack
  EXPECT_EQ(1u, held.size());
  seg(0, kMss);  // fills the gap: both delivered and both kept
  ASSERT_EQ(2u, kept.size());
  EXPECT_EQ(2u, held.size());  // the stack's buffer went to the application: no copy
  EXPECT_EQ(1u, net_stats.tcp.ooo_delivered);
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 2 * kMss), kept_bytes());
  seg(3 * kMss, kMss);  // reassembly still works beside the kept entries
  seg(2 * kMss, kMss);
  EXPECT_EQ(4u, kept.size());
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 4 * kMss), kept_bytes());
}

TEST_F(TcpRxKeep, RefusedWhenBuffersRunOut) {
  spares = 2;
  for (uint32_t i = 0; i < 4; i++) seg(i * kMss, kMss);
  EXPECT_EQ(2u, kept.size());
  EXPECT_EQ(2u, refused);
  EXPECT_EQ(2u, net_stats.tcp.app_hold_fail);
  EXPECT_EQ(s0 + 4 * kMss, c->rcv_nxt);  // refused data was still delivered
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 4 * kMss), app_of(c).rx);
  EXPECT_EQ(0, tcp_recv_hold(c)) << "outside a callback";
}

TEST_F(TcpRxKeep, KeptDataOutlivesTheConnection) {
  seg(0, kMss);
  ASSERT_EQ(1u, kept.size());
  tcp_abort(c);
  EXPECT_EQ(1u, held.size());
  EXPECT_EQ(Bytes(stream.begin(), stream.begin() + kMss), kept_bytes());
  EXPECT_EQ(NET_OK, tcp_recv_done(kept[0].handle));
  kept.clear();
  EXPECT_TRUE(held.empty());
}

}  // namespace
