// TCP send side with a send buffer (default build, NET_TCP_UIP_SEND=0):
// several segments in flight, RFC 5681 congestion control, retransmission
// from the buffer, RFC 5961 ACK check, persist timer with a limit.
#include <algorithm>

#include "tcp_peer.h"

using namespace nh;

#if !NET_TCP_UIP_SEND
namespace {

class TcpSend : public NetTest {
 protected:
  void SetUp() override {
    NetTest::SetUp();
    prime_arp();
    ASSERT_EQ(NET_OK, tcp_listen(80, app_call, nullptr));
  }
  struct tcp_conn* accept(Peer& p, int mss = 1000) {
    p.send(TCP_SYN, {}, mss_opt((uint16_t)mss));
    auto segs = take_tcp();
    EXPECT_EQ(1u, segs.size());
    if (segs.size() != 1) return nullptr;
    p.rcv = segs[0].seq + 1;
    p.send(TCP_ACK);
    take_tcp();
    return find_conn(p.port);
  }
};

}  // namespace
#endif

#if !NET_TCP_UIP_SEND
namespace {

// Sequence-ordered data of the segments.
Bytes cat(const std::vector<Pkt>& v) {
  Bytes b;
  for (auto& s : v) b.insert(b.end(), s.data.begin(), s.data.end());
  return b;
}

TEST_F(TcpSend, SlowStartFromInitialWindowThenCongestionAvoidance) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);  // MSS 1000: IW = 4 segments (RFC 5681 3.1)
  Bytes d = pattern(8000, 3);
  app_of(c).to_send = d;
  tcp_poll(c);
  auto s = take_tcp();
  ASSERT_EQ(4u, s.size());
  EXPECT_EQ(4000u, c->cwnd);
  EXPECT_EQ(Bytes(d.begin(), d.begin() + 4000), cat(s));
  // Each ACK of a full segment grows cwnd by one MSS: two new segments.
  p.rcv += 1000;
  p.send(TCP_ACK);
  EXPECT_EQ(5000u, c->cwnd);
  s = take_tcp();
  ASSERT_EQ(2u, s.size());
  EXPECT_EQ(p.rcv + 3000, s[0].seq);
  // Above ssthresh: about one MSS per window (mss * mss / cwnd per ACK).
  c->ssthresh = 4000;
  p.rcv += 1000;
  p.send(TCP_ACK);
  EXPECT_EQ(5000u + 1000u * 1000u / 5000u, c->cwnd);
}

TEST_F(TcpSend, FastRetransmitAfterThreeDupAcksAndFastRecovery) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);
  Bytes d = pattern(8000, 4);
  app_of(c).to_send = d;
  tcp_poll(c);
  auto s = take_tcp();
  ASSERT_EQ(4u, s.size());
  // Segment 1 lost: the peer acknowledges segments 2, 3, 4 with dup ACKs.
  p.send(TCP_ACK);
  p.send(TCP_ACK);
  EXPECT_TRUE(take_tcp().empty());  // two duplicates: nothing yet
  p.send(TCP_ACK);
  s = take_tcp();
  ASSERT_GE(s.size(), 1u);
  EXPECT_EQ(p.rcv, s[0].seq);  // the lost segment, from the send buffer
  EXPECT_EQ(Bytes(d.begin(), d.begin() + 1000), s[0].data);
  EXPECT_EQ(1u, net_stats.tcp.fast_rexmit);
  EXPECT_EQ(2000u, c->ssthresh);  // max(FlightSize / 2, 2 * MSS)
  EXPECT_EQ(2000u + 3000u, c->cwnd);
  EXPECT_EQ(0u, app_of(c).rexmits);
  // Full ACK: recovery ends, cwnd deflates to ssthresh.
  p.rcv += 4000;
  p.send(TCP_ACK);
  EXPECT_EQ(2000u, c->cwnd);
  EXPECT_EQ(0u, c->dupacks);
}

TEST_F(TcpSend, PartialAckResendsNextHoleAndFreesBuffer) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);
  Bytes d = pattern(NET_TCP_SNDBUF, 5);
  app_of(c).to_send = d;
  tcp_poll(c);
  take_tcp();
  EXPECT_EQ(0u, tcp_sndmax(c));  // the buffer is full
  for (int i = 0; i < 3; i++) p.send(TCP_ACK);
  take_tcp();
  // Segments 1 and 2 were lost: the ACK for the fast retransmission is
  // partial (below the recovery point) and the next hole goes at once.
  p.rcv += 1000;
  p.send(TCP_ACK);
  EXPECT_EQ(1000u, tcp_sndmax(c));  // the partial ACK freed buffer room
  auto s = take_tcp();
  ASSERT_GE(s.size(), 1u);
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_EQ(Bytes(d.begin() + 1000, d.begin() + 2000), s[0].data);
  EXPECT_EQ(2u, net_stats.tcp.rexmit);
  EXPECT_EQ(NET_TCP_SNDBUF - 1000u, c->snd_buf_len);
}

TEST_F(TcpSend, RtoCollapsesCwndAndGoesBackToSndUna) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);
  Bytes d = pattern(8000, 6);
  app_of(c).to_send = d;
  tcp_poll(c);
  ASSERT_EQ(4u, take_tcp().size());
  uint32_t rto = c->rto;
  advance(rto);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());  // cwnd = 1 segment
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_EQ(Bytes(d.begin(), d.begin() + 1000), s[0].data);
  EXPECT_EQ(1000u, c->cwnd);
  EXPECT_EQ(2000u, c->ssthresh);
  EXPECT_EQ(2 * rto, c->rto);
  // Its ACK: slow start again from SND.UNA (segments 2 and 3 resent).
  p.rcv += 1000;
  p.send(TCP_ACK);
  s = take_tcp();
  ASSERT_EQ(2u, s.size());
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_EQ(Bytes(d.begin() + 1000, d.begin() + 3000), cat(s));
}

TEST_F(TcpSend, WindowClosedWithDataInFlightIsProbedByTheRetransmission) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);
  Bytes d = pattern(8000, 9);
  app_of(c).to_send = d;
  tcp_poll(c);
  ASSERT_EQ(4u, take_tcp().size());
  p.wnd = 0;  // the peer drops the segments and closes its window
  p.send(TCP_ACK);
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(0u, c->snd_wnd);
  // The timeout resends the first segment although the window is 0: it
  // probes the window (nothing would ever go out otherwise, and the
  // persist timer does not run while data is in flight).
  advance(c->rto);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_EQ(Bytes(d.begin(), d.begin() + 1000), s[0].data);
  // The window opens with the probe's ACK: the data flows again.
  p.wnd = 60000;
  p.rcv += 1000;
  p.send(TCP_ACK);
  s = take_tcp();
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_EQ(Bytes(d.begin() + 1000, d.begin() + 1000 + s[0].data.size()), s[0].data);
}

TEST_F(TcpSend, SendingIsLimitedByThePeerWindow) {
  Peer p;
  p.wnd = 2920;
  struct tcp_conn* c = accept(p, 1460);
  app_of(c).to_send = pattern(20000, 7);
  tcp_poll(c);
  auto s = take_tcp();
  ASSERT_EQ(2u, s.size());
  EXPECT_EQ(1460u, s[0].data.size());
  EXPECT_EQ(1460u, s[1].data.size());
  p.rcv += 1460;
  p.send(TCP_ACK);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());  // one MSS of window freed
  // A small window (100 B, less than an MSS): segments of the window size.
  p.rcv += 2920;
  p.wnd = 100;
  p.send(TCP_ACK);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(100u, s[0].data.size());
}

TEST_F(TcpSend, StreamThroughTheRingWrapsAndStaysIntact) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p, 1460);
  Bytes d = pattern(5 * NET_TCP_SNDBUF + 333, 8);
  app_of(c).to_send = d;
  app_of(c).chunk = 777;  // odd-sized writes: every wrap position
  tcp_poll(c);
  Bytes got;
  for (int i = 0; i < 1000 && got.size() < d.size(); i++) {
    auto s = take_tcp();
    ASSERT_FALSE(s.empty());
    for (auto& k : s) {
      ASSERT_EQ(p.rcv + (uint32_t)(got.size() - (p.rcv - (c->iss + 1))), k.seq);
      got.insert(got.end(), k.data.begin(), k.data.end());
    }
    p.rcv = s.back().seq + (uint32_t)s.back().data.size();
    p.send(TCP_ACK);
  }
  EXPECT_EQ(d, got);
  EXPECT_EQ(0u, net_stats.tcp.rexmit);
}

TEST_F(TcpSend, AckOfDataNeverSentIsDroppedAndAnswered) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);
  app_of(c).to_send = pattern(3000, 9);
  tcp_poll(c);
  ASSERT_EQ(3u, take_tcp().size());
  uint32_t una = c->snd_una;
  TcpSeg bad = p.seg(TCP_ACK);
  bad.ack = c->snd_max + 1;  // one byte beyond what was sent (RFC 5961 5.2)
  p.send_raw(bad);
  EXPECT_EQ(una, c->snd_una);
  EXPECT_EQ(3000u, c->snd_buf_len);
  EXPECT_EQ(1u, net_stats.tcp.drop_bad_ack);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());  // an ACK, nothing more
  EXPECT_TRUE(s[0].data.empty());
  EXPECT_EQ(c->snd_max, s[0].seq);
  // Far too old (below SND.UNA - MAX.SND.WND): dropped as well.
  bad.ack = c->snd_una - 60001;
  p.send_raw(bad);
  EXPECT_EQ(2u, net_stats.tcp.drop_bad_ack);
  take_tcp();
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
}

// Probe times (from when the window closed) and the reset of a peer whose
// window never opens: probes back off from the RTO; the connection is reset
// persist_max_ms after the first probe (tcp_policy, NET_TCP_PERSIST_MAX_MS).
static void zero_window_forever(uint32_t limit) {
  Peer p;
  p.wnd = 0;
  p.send(TCP_SYN, {}, mss_opt(1000));
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  p.rcv = segs[0].seq + 1;
  p.send(TCP_ACK);
  take_tcp();
  struct tcp_conn* c = find_conn(p.port);
  ASSERT_NE(nullptr, c);
  unsigned idx = (unsigned)(c - tcp_conns);
  app_of(c).to_send = pattern(10);
  tcp_poll(c);
  EXPECT_TRUE(take_tcp().empty());  // window closed: nothing sent
  uint32_t rto = c->rto, t0 = net_now;
  std::vector<uint32_t> times;
  for (uint32_t t = 0; t < 3000000 && tcp_conns[idx].state != TCP_CLOSED; t += 10) {
    net_timer_tick(10);
    for (auto& s : take_tcp()) {
      if (s.flags & TCP_RST) {
        times.push_back(0x80000000u | (net_now - t0));
      } else {
        EXPECT_TRUE(s.data.empty());
        EXPECT_EQ(p.rcv - 1, s.seq);  // old sequence number: forces an ACK
        times.push_back(net_now - t0);
        p.send(TCP_ACK);  // still window 0
      }
    }
  }
  std::vector<uint32_t> want;
  uint32_t at = rto, iv = rto;
  while (at - rto < limit) {
    want.push_back(at);
    iv = std::min<uint32_t>(iv * 2, NET_TCP_RTO_MAX_MS);
    at += iv;
  }
  want.push_back(0x80000000u | (rto + limit));  // the RST, at the limit
  EXPECT_EQ(want, times);
  EXPECT_EQ(TCP_CLOSED, tcp_conns[idx].state);
  EXPECT_TRUE(apps[idx].all & NET_EV_TIMEDOUT);
  EXPECT_EQ(want.size() - 1, net_stats.tcp.persist_probes);
}

TEST_F(TcpSend, ZeroWindowPersistBacksOffAndAbortsAtTheLimit) {
  zero_window_forever(NET_TCP_PERSIST_MAX_MS);
  EXPECT_EQ(8u, net_stats.tcp.persist_probes);  // the old count limit's 8
}

TEST_F(TcpSend, ZeroWindowPersistLimitIsARunTimeKnob) {
  struct tcp_policy pol;
  tcp_get_policy(&pol);
  pol.persist_max_ms = 5000;
  tcp_set_policy(&pol);
  zero_window_forever(5000);
  EXPECT_EQ(4u, net_stats.tcp.persist_probes);
}

TEST_F(TcpSend, ZeroWindowOpensAndDataFlows) {
  Peer p;
  p.wnd = 0;
  struct tcp_conn* c = accept(p);
  app_of(c).to_send = pattern(10);
  tcp_poll(c);
  advance(c->rto);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());  // a probe
  EXPECT_TRUE(s[0].data.empty());
  p.wnd = 500;
  p.send(TCP_ACK);  // the answer opens the window
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(pattern(10), s[0].data);
  EXPECT_EQ(0u, c->nprobe);
}

}  // namespace
#endif

#if !NET_TCP_UIP_SEND
namespace {

TEST_F(TcpSend, OneSegmentWindowIsSentAsTwoHalves) {
  // A peer offering only one MSS of window (and delaying its ACKs) gets
  // segments of half its largest window: two in flight, acknowledged at once.
  Peer p;
  p.wnd = 1460;
  struct tcp_conn* c = accept(p, 1460);
  app_of(c).to_send = pattern(5000, 10);
  tcp_poll(c);
  auto s = take_tcp();
  ASSERT_EQ(2u, s.size());
  EXPECT_EQ(730u, s[0].data.size());
  EXPECT_EQ(730u, s[1].data.size());
}

}  // namespace
#endif

#if !NET_TCP_UIP_SEND
namespace {

TEST_F(TcpSend, SegmentsAreBuiltInTheDriverTransmitBuffer) {
  // A driver that hands out its transmit buffer (netif tx_buffer): every
  // data segment is built there (one copy from the ring) and sent in place;
  // the stream and its checksums stay intact.
  nif_.tx_buffer = fake_tx_buffer_ptr();
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p, 999);  // odd segments: every ring offset parity
  Bytes d = pattern(3 * NET_TCP_SNDBUF + 555, 11);
  app_of(c).to_send = d;
  unsigned out0 = tx_buffers_out;
  tcp_poll(c);
  Bytes got;
  unsigned segs = 0;
  for (int i = 0; i < 1000 && got.size() < d.size(); i++) {
    auto s = take_tcp();
    ASSERT_FALSE(s.empty());
    segs += (unsigned)s.size();
    for (auto& k : s) {
      ASSERT_EQ(p.rcv, k.seq);
      got.insert(got.end(), k.data.begin(), k.data.end());
      p.rcv += (uint32_t)k.data.size();
    }
    p.send(TCP_ACK);
  }
  EXPECT_EQ(d, got);
  EXPECT_EQ(segs, tx_in_place);
  EXPECT_GE(tx_buffers_out - out0, segs);
}

// tcp_pure_ack() (header prediction) must end where tcp_process() ends: the
// same ACK sequence as pure ACKs (fast path) and with PSH set (which the
// fast path leaves to the general one) gives the same state and segments.
TEST_F(TcpSend, PureAckFastPathEndsLikeTheGeneralPath) {
  Peer p1, p2;
  p2.port = 40001;
  p1.wnd = p2.wnd = 60000;
  struct tcp_conn* c1 = accept(p1, 1460);
  struct tcp_conn* c2 = accept(p2, 1460);
  Bytes d = pattern(40000, 14);
  app_of(c1).to_send = d;
  app_of(c2).to_send = d;
  tcp_poll(c1);
  auto s1 = take_tcp();
  tcp_poll(c2);
  auto s2 = take_tcp();
  ASSERT_EQ(s1.size(), s2.size());
  // Acknowledge in steps, with the window changing (shrinking, growing).
  const uint16_t wnds[] = {60000, 20000, 5000, 30000, 64000, 2920, 60000};
  for (uint16_t w : wnds) {
    p1.rcv += 1460;
    p2.rcv += 1460;
    p1.wnd = p2.wnd = w;
    p1.send(TCP_ACK);
    auto a = take_tcp();
    p2.send(TCP_ACK | TCP_PSH);
    auto b = take_tcp();
    ASSERT_EQ(a.size(), b.size()) << "window " << w;
    for (size_t i = 0; i < a.size(); i++) {
      EXPECT_EQ(a[i].seq - c1->iss, b[i].seq - c2->iss);
      EXPECT_EQ(a[i].data, b[i].data);
    }
    EXPECT_EQ(c1->snd_una - c1->iss, c2->snd_una - c2->iss);
    EXPECT_EQ(c1->snd_nxt - c1->iss, c2->snd_nxt - c2->iss);
    EXPECT_EQ(c1->snd_wnd, c2->snd_wnd);
    EXPECT_EQ(c1->snd_wnd_max, c2->snd_wnd_max);
    EXPECT_EQ(c1->snd_wl2 - c1->iss, c2->snd_wl2 - c2->iss);
    EXPECT_EQ(c1->cwnd, c2->cwnd);
    EXPECT_EQ(c1->snd_buf_len, c2->snd_buf_len);
    EXPECT_EQ(c1->flags & 0x03, c2->flags & 0x03);  // timer, RTT sample
    EXPECT_EQ(app_of(c1).events.size(), app_of(c2).events.size());
  }
  EXPECT_EQ(0u, net_stats.tcp.dupacks);
}

#if NET_TCP_SNDREFS
// tcp_send_ref(): the stack keeps references to the application's data.
TEST_F(TcpSend, SendRefStreamComesFromTheApplicationsBufferBeyondTheRing) {
  nif_.tx_buffer = fake_tx_buffer_ptr();
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p, 999);  // odd segments: every piece parity
  Bytes d = pattern(6 * NET_TCP_SNDBUF + 321, 12);
  App& a = app_of(c);
  a.ref_data = d.data();
  a.ref_len = d.size();
  a.ref_chunk = 1333;  // references and segments end at different places
  a.close_when_done = true;
  tcp_poll(c);
  // Not copied: a byte the stack has not sent yet is read when it sends.
  ASSERT_LT(c->snd_nxt - c->snd_una, c->snd_buf_len);
  size_t unsent = c->snd_nxt - (c->iss + 1);
  d[unsent] ^= 0xa5u;
  Bytes want = d;
  Bytes got;
  uint32_t max_flight = 0;
  for (int i = 0; i < 1000 && got.size() < d.size(); i++) {
    auto s = take_tcp();
    ASSERT_FALSE(s.empty());
    for (auto& k : s) {
      ASSERT_EQ(p.rcv, k.seq);
      got.insert(got.end(), k.data.begin(), k.data.end());
      p.rcv += (uint32_t)k.data.size();
    }
    max_flight = std::max(max_flight, c->snd_nxt - c->snd_una);
    p.send(TCP_ACK);
  }
  EXPECT_EQ(want, got);
  EXPECT_GT(max_flight, (uint32_t)NET_TCP_SNDBUF);  // not bounded by the ring
  EXPECT_GT(a.ref_full, 0u);                        // ... but by the references
  EXPECT_EQ(0u, net_stats.tcp.rexmit);
  EXPECT_EQ(0u, c->snd_buf_len);
  EXPECT_EQ(0u, c->ref_n);
  EXPECT_EQ(TCP_FIN_WAIT_1, c->state);  // the FIN followed the last reference
}

TEST_F(TcpSend, SendRefRetransmitsFromTheReferencesAfterLoss) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);  // MSS 1000, IW 4 segments
  Bytes d = pattern(9000, 13);
  App& a = app_of(c);
  a.ref_data = d.data();
  a.ref_len = d.size();
  a.ref_chunk = 1300;  // 4 references (the default) cover the initial window
  tcp_poll(c);
  ASSERT_EQ(4u, take_tcp().size());
  // A partial ACK in the middle of a reference (101 bytes into the 2nd),
  // then three duplicates: fast retransmit from the references.
  p.rcv += 1401;
  p.send(TCP_ACK);
  take_tcp();
  for (int i = 0; i < 3; i++) p.send(TCP_ACK);
  auto s = take_tcp();
  ASSERT_GE(s.size(), 1u);
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_EQ(Bytes(d.begin() + 1401, d.begin() + 2401), s[0].data);
  EXPECT_EQ(1u, net_stats.tcp.fast_rexmit);
  // Then a timeout: go-back-N from SND.UNA, again from the references.
  advance(c->rto);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(Bytes(d.begin() + 1401, d.begin() + 2401), s[0].data);
  EXPECT_EQ(a.ref_next - 1401u, c->snd_buf_len);
  EXPECT_EQ(NET_TCP_SNDREFS, c->ref_n + 0);
}

// The shoot-out's stall at 2 % loss (docs/firmware.md "The stack
// shoot-out"): the four references are all in flight, the segment after a
// delayed ACK is lost, so the receiver's ACK for the next segment still
// advances SND.UNA (it covers the delayed segment) and only two duplicates
// follow; nothing new can be sent (limited transmit, RFC 3042, has no
// data), so no third duplicate ever comes. The loss probe (RFC 8985 7,
// after PTO = 2 * SRTT + 2 ms) resends the last segment, its duplicate ACK
// is the third: fast retransmit long before the RTO.
TEST_F(TcpSend, TwoDupAcksAndNothingToSendProbeWithTheLastSegment) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);  // MSS 1000, IW 4 segments
  Bytes d = pattern(9000, 14);
  App& a = app_of(c);
  a.ref_data = d.data();
  a.ref_len = d.size();
  a.ref_chunk = 1000;
  tcp_poll(c);
  ASSERT_EQ(4u, take_tcp().size());
  advance(1, 1);  // an RTT sample of 1 ms: SRTT 1 ms
  // Segment 1 arrives (its ACK delayed), segment 2 is lost, segment 3's
  // arrival makes the receiver acknowledge segment 1 at once.
  uint32_t una = p.rcv;
  p.rcv += 1000;
  p.send(TCP_ACK);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());  // the freed reference: segment 5
  EXPECT_EQ(una + 4000u, s[0].seq);
  ASSERT_EQ(NET_TCP_SNDREFS, c->ref_n + 0);
  // Segments 4 and 5: two duplicate ACKs, nothing to send.
  p.send(TCP_ACK);
  p.send(TCP_ACK);
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(2u, c->dupacks);
  uint32_t rto = c->rto;
  ASSERT_GE(rto, 200u);
  // Within 2 * SRTT + 2 ms (tick by tick): the last segment once more.
  advance(4, 1);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(una + 4000u, s[0].seq);
  EXPECT_EQ(Bytes(d.begin() + 4000, d.begin() + 5000), s[0].data);
  EXPECT_EQ(1u, net_stats.tcp.rexmit);
  EXPECT_EQ(1u, net_stats.tcp.loss_probes);
  EXPECT_EQ(0u, net_stats.tcp.fast_rexmit);
  // One probe per stall: nothing more until the RTO.
  advance(50, 1);
  EXPECT_TRUE(take_tcp().empty());
  // Its duplicate ACK is the third: fast retransmit of segment 2.
  p.send(TCP_ACK);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_EQ(Bytes(d.begin() + 1000, d.begin() + 2000), s[0].data);
  EXPECT_EQ(1u, net_stats.tcp.fast_rexmit);
  // Full ACK: recovery ends, the stream goes on.
  p.rcv += 4000;
  p.send(TCP_ACK);
  EXPECT_EQ(0u, c->dupacks);
  s = take_tcp();
  ASSERT_GE(s.size(), 1u);
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_EQ(2u, net_stats.tcp.rexmit);  // no timeout
  EXPECT_EQ(1u, net_stats.tcp.loss_probes);
}

TEST_F(TcpSend, SendRefQueueLimitAndNoMixingWithTheRing) {
  Peer p;
  p.wnd = 60000;
  struct tcp_conn* c = accept(p);
  static const uint8_t bytes[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<int> r;
  app_of(c).hook = [&](struct tcp_conn* k, unsigned) {
    for (int i = 0; i < NET_TCP_SNDREFS; i++) r.push_back(tcp_send_ref(k, bytes, 10));
    r.push_back(tcp_send_ref(k, bytes, 10));  // the queue is full
    r.push_back(tcp_send(k, bytes, 10));      // references pending: no copy
    r.push_back((int)tcp_sndmax(k));
    r.push_back(tcp_send_ref(k, bytes, 0));  // bad lengths
    r.push_back(tcp_send_ref(k, bytes, 65536));
    app_of(k).hook = nullptr;
  };
  tcp_poll(c);
  ASSERT_EQ((size_t)NET_TCP_SNDREFS + 5, r.size());
  for (int i = 0; i < NET_TCP_SNDREFS; i++) EXPECT_EQ(10, r[i]);
  EXPECT_EQ(NET_ERR_BUF, r[NET_TCP_SNDREFS]);
  EXPECT_EQ(NET_ERR_STATE, r[NET_TCP_SNDREFS + 1]);
  EXPECT_EQ(0, r[NET_TCP_SNDREFS + 2]);
  EXPECT_EQ(NET_ERR_ARG, r[NET_TCP_SNDREFS + 3]);
  EXPECT_EQ(NET_ERR_ARG, r[NET_TCP_SNDREFS + 4]);
  expected_arg_errors_ = 2;
  EXPECT_EQ(10u * NET_TCP_SNDREFS, c->snd_buf_len);
  take_tcp();
  // Everything acknowledged: the references are gone, the ring is usable,
  // and while its data is unacknowledged, references are refused.
  p.rcv = c->snd_max;
  p.send(TCP_ACK);
  EXPECT_EQ(0u, c->ref_n);
  r.clear();
  app_of(c).hook = [&](struct tcp_conn* k, unsigned) {
    r.push_back(tcp_send(k, bytes, 20));
    r.push_back(tcp_send_ref(k, bytes, 10));
    app_of(k).hook = nullptr;
  };
  tcp_poll(c);
  ASSERT_EQ(2u, r.size());
  EXPECT_EQ(20, r[0]);
  EXPECT_EQ(NET_ERR_STATE, r[1]);
  auto s = take_tcp();
  Bytes want(bytes, bytes + 20);
  EXPECT_EQ(want, cat(s));
}
#endif

}  // namespace
#endif
