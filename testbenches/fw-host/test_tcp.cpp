// TCP (RFC 793, RFC 1122 4.2, RFC 6298): handshakes, data, windows, MSS,
// retransmission timing, out-of-order data, closes, TIME-WAIT, RST, many
// connections, sequence wrap-around, ISN generation.
#include "tcp_peer.h"

#include <set>

using namespace nh;

namespace {

class Tcp : public NetTest {
 protected:
  void SetUp() override {
    NetTest::SetUp();
    prime_arp();
    ASSERT_EQ(NET_OK, tcp_listen(80, app_call, nullptr));
  }

  // Passive open by `p`; returns the established connection.
  struct tcp_conn* accept(Peer& p, int mss = 1000) {
    p.send(TCP_SYN, {}, mss >= 0 ? mss_opt((uint16_t)mss) : Bytes());
    auto segs = take_tcp();
    EXPECT_EQ(1u, segs.size());
    if (segs.size() != 1) return nullptr;
    const Pkt& sa = segs[0];
    EXPECT_EQ(TCP_SYN | TCP_ACK, sa.flags);
    EXPECT_EQ(p.snd, sa.ack);
    EXPECT_EQ(p.port, sa.dport);
    EXPECT_EQ(p.lport, sa.sport);
    p.rcv = sa.seq + 1;
    p.send(TCP_ACK);
    struct tcp_conn* c = find_conn(p.port);
    EXPECT_NE(nullptr, c);
    if (c) {
      EXPECT_EQ(TCP_ESTABLISHED, c->state);
    }
    EXPECT_TRUE(take_tcp().empty());
    return c;
  }

  // Active open towards p (p.port is the remote port).
  struct tcp_conn* connect(Peer& p) {
    struct tcp_conn* c = tcp_connect(p.ip, p.port, app_call, nullptr);
    EXPECT_NE(nullptr, c);
    auto segs = take_tcp();
    EXPECT_EQ(1u, segs.size());
    if (!c || segs.size() != 1) return nullptr;
    EXPECT_EQ(TCP_SYN, segs[0].flags);
    p.lport = segs[0].sport;
    p.rcv = segs[0].seq + 1;
    p.send(TCP_SYN | TCP_ACK, {}, mss_opt(1000));
    auto acks = take_tcp();
    EXPECT_EQ(1u, acks.size());
    if (acks.size() == 1) {
      EXPECT_EQ(TCP_ACK, acks[0].flags);
      EXPECT_EQ(p.snd, acks[0].ack);
    }
    return c;
  }
};

TEST_F(Tcp, PassiveOpenHandshakeAndMss) {
  Peer p;
  p.send(TCP_SYN, {}, mss_opt(1000));
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(TCP_SYN | TCP_ACK, segs[0].flags);
  EXPECT_EQ(p.snd, segs[0].ack);
  EXPECT_EQ(NET_TCP_MSS, segs[0].mss);
  EXPECT_EQ(NET_TCP_RCV_WND, segs[0].wnd);
  struct tcp_conn* c = find_conn(p.port);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(TCP_SYN_RCVD, c->state);
  EXPECT_TRUE(app_of(c).events.empty());  // not yet visible to the app
  p.rcv = segs[0].seq + 1;
  p.send(TCP_ACK);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  ASSERT_EQ(1u, app_of(c).events.size());
  EXPECT_EQ((unsigned)NET_EV_CONNECTED, app_of(c).events[0]);
  EXPECT_EQ(1000, c->mss);
#if NET_TCP_UIP_SEND
  EXPECT_EQ(1000u, tcp_sndmax(c));
#else
  EXPECT_EQ(1000u, c->mss);
  EXPECT_EQ((unsigned)NET_TCP_SNDBUF, tcp_sndmax(c));  // the empty send buffer
#endif
}

// Receive checksum offload: a segment the MAC confirmed (NET_RXCK_TCP) is
// not summed again; a UDP confirmation or none leaves the check in place.
TEST_F(Tcp, ChecksumTheMacConfirmedIsNotSummedAgain) {
  Peer p;
  TcpSeg s;
  s.sport = p.port;
  s.seq = p.snd;
  s.flags = TCP_SYN;
  s.bad_checksum = true;
  inject(peer_ip_frame(6, tcp_segment(p.ip, kOurIp, s)));
  inject_checked(peer_ip_frame(6, tcp_segment(p.ip, kOurIp, s)), NET_RXCK_UDP);
  EXPECT_EQ(2u, net_stats.tcp.drop_chksum);
  EXPECT_TRUE(take_tcp().empty());
  inject_checked(peer_ip_frame(6, tcp_segment(p.ip, kOurIp, s)), NET_RXCK_TCP);
  EXPECT_EQ(2u, net_stats.tcp.drop_chksum);
  EXPECT_EQ(1u, net_stats.tcp.chk_hw);
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(TCP_SYN | TCP_ACK, segs[0].flags);
}

TEST_F(Tcp, MssDefaultsAndClamp) {
  Peer a, b;
  b.port = 40001;
  struct tcp_conn* ca = accept(a, -1);    // no option: 536 (RFC 1122 4.2.2.6)
  struct tcp_conn* cb = accept(b, 9000);  // larger than ours: clamped
  ASSERT_TRUE(ca && cb);
  EXPECT_EQ(NET_TCP_DEFAULT_MSS, ca->mss);
  EXPECT_EQ(NET_TCP_MSS, cb->mss);
}

TEST_F(Tcp, ActiveOpenHandshake) {
  Peer p;
  p.port = 5555;
  struct tcp_conn* c = connect(p);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_GE(p.lport, 49152);
  EXPECT_EQ((unsigned)NET_EV_CONNECTED, app_of(c).events.at(0));
}

TEST_F(Tcp, ActiveOpenRefusedByRst) {
  struct tcp_conn* c = tcp_connect(kPeerIp, 5555, app_call, nullptr);
  ASSERT_NE(nullptr, c);
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  Peer p;
  p.port = 5555;
  p.lport = segs[0].sport;
  p.rcv = segs[0].seq + 1;
  p.snd = 0;
  unsigned idx = (unsigned)(c - tcp_conns);
  p.send(TCP_RST | TCP_ACK);
  EXPECT_EQ(TCP_CLOSED, tcp_conns[idx].state);
  EXPECT_TRUE(apps[idx].all & NET_EV_ABORTED);
}

TEST_F(Tcp, SimultaneousOpen) {
  struct tcp_conn* c = tcp_connect(kPeerIp, 5555, app_call, nullptr);
  auto syn = take_tcp();
  ASSERT_EQ(1u, syn.size());
  Peer p;
  p.port = 5555;
  p.lport = syn[0].sport;
  p.send(TCP_SYN, {}, mss_opt(1200));  // crossing SYN, no ACK
  auto sa = take_tcp();
  ASSERT_EQ(1u, sa.size());
  EXPECT_EQ(TCP_SYN | TCP_ACK, sa[0].flags);
  EXPECT_EQ(syn[0].seq, sa[0].seq);
  EXPECT_EQ(TCP_SYN_RCVD, c->state);
  p.rcv = syn[0].seq + 1;
  p.send(TCP_ACK);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_EQ(1200, c->mss);
  EXPECT_TRUE(app_of(c).all & NET_EV_CONNECTED);
}

TEST_F(Tcp, ReceiveDataIsAcked) {
  Peer p;
  struct tcp_conn* c = accept(p);
  ASSERT_NE(nullptr, c);
  Bytes d = pattern(700);
  p.send(TCP_ACK | TCP_PSH, d);
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(TCP_ACK, segs[0].flags);
  EXPECT_EQ(p.snd, segs[0].ack);
  EXPECT_EQ(d, app_of(c).rx);
  EXPECT_TRUE(app_of(c).events.back() & NET_EV_NEWDATA);
}

TEST_F(Tcp, EchoPiggybacksAck) {
  Peer p;
  struct tcp_conn* c = accept(p);
  app_of(c).echo = true;
  Bytes d = pattern(300);
  p.send(TCP_ACK | TCP_PSH, d);
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());  // one segment: data + ACK
  EXPECT_EQ(d, segs[0].data);
  EXPECT_EQ(p.snd, segs[0].ack);
  EXPECT_EQ(p.rcv, segs[0].seq);
  p.rcv += 300;
  p.send(TCP_ACK);
  EXPECT_TRUE(app_of(c).events.back() & NET_EV_ACKED);
  EXPECT_EQ(c->snd_una, c->snd_nxt);
}

#if NET_TCP_UIP_SEND  // default build: test_tcpsend.cpp
TEST_F(Tcp, SendLargeDataInMssSegmentsOneInFlight) {
  Peer p;
  struct tcp_conn* c = accept(p);  // peer MSS 1000
  Bytes d = pattern(3500, 9);
  app_of(c).to_send = d;
  tcp_poll(c);
  Bytes got;
  for (int i = 0; i < 10 && got.size() < d.size(); i++) {
    auto segs = take_tcp();
    ASSERT_EQ(1u, segs.size());
    EXPECT_LE(segs[0].data.size(), 1000u);
    EXPECT_EQ(p.rcv, segs[0].seq);
    got.insert(got.end(), segs[0].data.begin(), segs[0].data.end());
    p.rcv += (uint32_t)segs[0].data.size();
    p.send(TCP_ACK);
  }
  EXPECT_EQ(d, got);
}
#endif

#if NET_TCP_UIP_SEND  // default build: test_tcpsend.cpp
TEST_F(Tcp, PeerWindowLimitsSegmentsAndUpdates) {
  Peer p;
  p.wnd = 300;
  struct tcp_conn* c = accept(p);
  EXPECT_EQ(300u, tcp_sndmax(c));
  app_of(c).to_send = pattern(1000);
  tcp_poll(c);
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(300u, segs[0].data.size());
  EXPECT_EQ(0u, tcp_sndmax(c));  // one segment in flight
  p.rcv += 300;
  p.wnd = 700;
  p.send(TCP_ACK);
  segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(700u, segs[0].data.size());
}
#endif

TEST_F(Tcp, AdvertisedWindowIsRuntimeSettingAndEnforced) {
  Peer p;
  struct tcp_conn* c = accept(p);
  for (uint16_t w : {100, 536, 1000, 1500}) {
    tcp_set_rcv_wnd(w);
    p.send(TCP_ACK | TCP_PSH, pattern(10));
    auto segs = take_tcp();
    ASSERT_EQ(1u, segs.size());
    EXPECT_EQ(w, segs[0].wnd);
  }
  // A peer ignoring a 100-byte window: only 100 bytes are accepted.
  tcp_set_rcv_wnd(100);
  p.send(TCP_ACK | TCP_PSH, pattern(10));
  take_tcp();
  app_of(c).rx.clear();
  uint32_t start = p.snd;
  p.send(TCP_ACK | TCP_PSH, pattern(300, 4));
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(start + 100, segs[0].ack);
  EXPECT_EQ(100u, app_of(c).rx.size());
  EXPECT_EQ(1u, net_stats.tcp.trimmed);
}

// Application flow control (tcp_set_rcv_space): the window never exceeds
// the application's room, data beyond it is not acknowledged, a zero window
// still processes the segment's ACK, and the window reopens.
TEST_F(Tcp, ApplicationFlowControlClosesAndReopensTheWindow) {
  Peer p;
  struct tcp_conn* c = accept(p);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(0xffffu, c->rcv_space) << "no limit by default";
  tcp_set_rcv_space(c, 300);
  p.send(TCP_ACK | TCP_PSH, pattern(100, 1));
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(300, segs[0].wnd);  // min(global window, room)
  // The peer overruns the room: 300 of 500 bytes accepted and acknowledged.
  app_of(c).rx.clear();
  const uint32_t start = p.snd;
  const Bytes all = pattern(500, 2);
  p.send(TCP_ACK | TCP_PSH, all);
  segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(start + 300, segs[0].ack);
  EXPECT_EQ(300u, app_of(c).rx.size());
  EXPECT_EQ(1u, net_stats.tcp.trimmed);
  // The application is full: window 0; the resent data is not accepted,
  // but the segment is answered at once with the closed window.
  tcp_set_rcv_space(c, 0);
  p.snd = start + 300;
  const Bytes rest(all.begin() + 300, all.end());
  p.send(TCP_ACK | TCP_PSH, rest);
  segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(start + 300, segs[0].ack);
  EXPECT_EQ(0, segs[0].wnd);
  EXPECT_EQ(300u, app_of(c).rx.size());
  // Room again: at the next timer tick the stack sends a window update
  // (the peer would otherwise wait for its next window probe) ...
  tcp_set_rcv_space(c, 1000);
  EXPECT_TRUE(take_tcp().empty()) << "nothing sent from inside the call";
  net_timer_tick(1);
  segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(start + 300, segs[0].ack);
  EXPECT_EQ(std::min<unsigned>(1000, tcp_get_rcv_wnd()), segs[0].wnd);
  EXPECT_TRUE(segs[0].data.empty());
  // ... and the resent data is accepted.
  p.snd = start + 300;
  p.send(TCP_ACK | TCP_PSH, rest);
  segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(start + 500, segs[0].ack);
  EXPECT_EQ(std::min<unsigned>(1000, tcp_get_rcv_wnd()), segs[0].wnd);
  EXPECT_EQ(all, app_of(c).rx);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
}

TEST_F(Tcp, OutOfOrderSegmentDroppedWithDuplicateAck) {
  Peer p;
  struct tcp_conn* c = accept(p);
  Bytes a = pattern(100, 1), b = pattern(100, 2);
  uint32_t s0 = p.snd;
  p.snd = s0 + 100;  // the first 100 bytes are "lost"
  p.send(TCP_ACK, b);
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());
  EXPECT_EQ(s0, segs[0].ack);  // duplicate ACK
  EXPECT_TRUE(app_of(c).rx.empty());
  EXPECT_EQ(1u, net_stats.tcp.drop_ooo);
  p.snd = s0;
  p.send(TCP_ACK, a);
  p.send(TCP_ACK, b);  // resent by the peer
  Bytes ab = a;
  ab.insert(ab.end(), b.begin(), b.end());
  EXPECT_EQ(ab, app_of(c).rx);
}

TEST_F(Tcp, OverlappingRetransmissionDeliversOnlyNewBytes) {
  Peer p;
  struct tcp_conn* c = accept(p);
  Bytes d = pattern(200, 3);
  p.send(TCP_ACK, Bytes(d.begin(), d.begin() + 120));
  p.snd -= 50;  // resend the last 50 bytes plus 80 new ones
  p.send(TCP_ACK, Bytes(d.begin() + 70, d.end()));
  EXPECT_EQ(d, app_of(c).rx);
  p.snd -= 200;  // complete duplicate
  take_tcp();
  p.send(TCP_ACK, d);
  EXPECT_EQ(d, app_of(c).rx);
  auto segs = take_tcp();
  ASSERT_EQ(1u, segs.size());  // re-acknowledged
  EXPECT_EQ(c->rcv_nxt, segs[0].ack);
}

// RFC 6298: initial RTO 1 s, doubling per retransmission (capped at
// NET_TCP_RTO_MAX_MS), abort after NET_TCP_MAX_RETRIES.
TEST_F(Tcp, RetransmissionBackoffTimingAndAbort) {
  Peer p;
  struct tcp_conn* c = accept(p);
  unsigned idx = (unsigned)(c - tcp_conns);
  // The handshake's RTT sample was 0 ms: RTO = max(G, 4 * RTTVAR) clamped
  // up to its minimum.
  ASSERT_EQ(NET_TCP_RTO_MIN_MS, c->rto);
  Bytes d = pattern(500);
  apps[idx].to_send = d;
  tcp_poll(c);
  ASSERT_EQ(1u, take_tcp().size());
  std::vector<uint32_t> times;
  uint32_t t0 = net_now;
  for (uint32_t t = 0; t < 2000000 && tcp_conns[idx].state != TCP_CLOSED; t += 10) {
    net_timer_tick(10);
    for (auto& s : take_tcp()) {
      if (s.flags & TCP_RST) {
        times.push_back(0xffffffff);
        EXPECT_EQ(p.rcv + 500, s.seq);
      } else {
        EXPECT_EQ(d, s.data);
        EXPECT_EQ(p.rcv, s.seq);
        times.push_back(net_now - t0);
      }
    }
  }
  std::vector<uint32_t> want;
  uint32_t rto = NET_TCP_RTO_MIN_MS, at = 0;
  for (int i = 0; i < NET_TCP_MAX_RETRIES; i++) {
    at += rto;
    want.push_back(at);
    rto = std::min<uint32_t>(rto * 2, NET_TCP_RTO_MAX_MS);
  }
  want.push_back(0xffffffff);  // RST when the limit is reached
  EXPECT_EQ(want, times);
  EXPECT_EQ(TCP_CLOSED, tcp_conns[idx].state);
  EXPECT_TRUE(apps[idx].all & NET_EV_TIMEDOUT);
#if NET_TCP_UIP_SEND
  EXPECT_EQ((unsigned)NET_TCP_MAX_RETRIES, apps[idx].rexmits);
#else
  EXPECT_EQ(0u, apps[idx].rexmits);                    // the stack resends from its buffer
#endif
  EXPECT_EQ(1u, net_stats.tcp.timeouts);
}

TEST_F(Tcp, RttEstimationAndKarn) {
  Peer p;
  struct tcp_conn* c = accept(p);
  c->srtt8 = -1;  // forget the handshake sample
  auto round = [&](uint32_t rtt_ms) {
    app_of(c).to_send = pattern(100);
    tcp_poll(c);
    ASSERT_EQ(1u, take_tcp().size());
    advance(rtt_ms, 10);
    take_tcp();
    p.rcv = c->snd_nxt;
    p.send(TCP_ACK);
  };
  round(100);  // first sample: SRTT 100, RTTVAR 50, RTO 100 + 200 = 300
  EXPECT_EQ(800, c->srtt8);
  EXPECT_EQ(200, c->rttvar4);
  EXPECT_EQ(300u, c->rto);
  round(100);  // RTTVAR 3/4*50 = 37.5 -> 4*RTTVAR = 150: RTO 250
  EXPECT_EQ(250u, c->rto);
  round(200);  // delta 100: RTTVAR4 = 150 - 37 + 100, SRTT8 = 800 + 100
  EXPECT_EQ(900, c->srtt8);
  EXPECT_EQ(213, c->rttvar4);
  EXPECT_EQ(112u + 213u, c->rto);
  // Karn: a retransmitted segment gives no sample; the backed-off RTO stays.
  app_of(c).to_send = pattern(100);
  tcp_poll(c);
  take_tcp();
  advance(325 + 10);  // one retransmission
  ASSERT_EQ(1u, take_tcp().size());
  EXPECT_EQ(650u, c->rto);
  p.rcv = c->snd_nxt;
  p.send(TCP_ACK);
  EXPECT_EQ(650u, c->rto);
  EXPECT_EQ(900, c->srtt8);
}

TEST_F(Tcp, SynAckRetransmittedThenHalfOpenConnectionExpires) {
  Peer p;
  p.send(TCP_SYN, {}, mss_opt(1000));
  ASSERT_EQ(1u, take_tcp().size());
  // Initial RTO (RFC 6298 2.1), doubled after each retransmission, until
  // the half-open limit frees the slot silently (no RST: the SYN may have
  // been forged).
  std::vector<uint32_t> times;
  uint32_t gone = 0;
  for (int t = 0; t < 200000; t += 10) {
    net_timer_tick(10);
    for (auto& s : take_tcp()) {
      EXPECT_EQ(TCP_SYN | TCP_ACK, s.flags);
      times.push_back(net_now);
    }
    if (gone == 0 && find_conn(p.port) == nullptr) gone = net_now;
  }
  uint32_t rto = NET_TCP_RTO_INIT_MS, at = 0;
  std::vector<uint32_t> expect_times;
  for (int i = 0; i < NET_TCP_SYN_RETRIES && at + rto < NET_TCP_SYN_RCVD_MS; i++) {
    at += rto;
    expect_times.push_back(at);
    rto *= 2;
  }
  EXPECT_EQ(expect_times, times);
  EXPECT_EQ(NET_TCP_SYN_RCVD_MS, gone);
  EXPECT_EQ(1u, net_stats.tcp.syn_expired);
  EXPECT_EQ(0u, net_stats.tcp.timeouts);
}

TEST_F(Tcp, DuplicateSynInSynRcvdResendsSynAck) {
  Peer p;
  p.send(TCP_SYN, {}, mss_opt(1000));
  auto a = take_tcp();
  p.snd--;
  p.send(TCP_SYN, {}, mss_opt(1000));
  auto b = take_tcp();
  ASSERT_EQ(1u, b.size());
  EXPECT_EQ(TCP_SYN | TCP_ACK, b[0].flags);
  EXPECT_EQ(a[0].seq, b[0].seq);
}

TEST_F(Tcp, CloseFromUsThenPeer) {
  Peer p;
  struct tcp_conn* c = accept(p);
  unsigned idx = (unsigned)(c - tcp_conns);
  app_of(c).to_send = pattern(50);
  app_of(c).close_when_done = true;
  tcp_poll(c);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(50u, s[0].data.size());
#if NET_TCP_UIP_SEND
  EXPECT_FALSE(s[0].flags & TCP_FIN);  // FIN waits for the data's ACK
  p.rcv += 50;
  p.send(TCP_ACK);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_FIN | TCP_ACK, s[0].flags);
  EXPECT_EQ(p.rcv, s[0].seq);
#else
  EXPECT_TRUE(s[0].flags & TCP_FIN);                   // the FIN rides on the last data
  p.rcv += 50;
#endif
  EXPECT_EQ(TCP_FIN_WAIT_1, c->state);
  p.rcv++;
  p.send(TCP_ACK);
  EXPECT_EQ(TCP_FIN_WAIT_2, c->state);
  p.send(TCP_ACK, pattern(20));  // half-close: data still delivered
  EXPECT_EQ(20u, app_of(c).rx.size());
  take_tcp();
  p.send(TCP_FIN | TCP_ACK);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_ACK, s[0].flags);
  EXPECT_EQ(p.snd, s[0].ack);
  EXPECT_EQ(TCP_TIME_WAIT, c->state);
  EXPECT_TRUE(apps[idx].all & NET_EV_CLOSED);
  // TIME-WAIT: a resent FIN is acknowledged again and restarts the timer.
  advance(NET_TCP_TIME_WAIT_MS / 2, 1000);
  p.snd--;
  p.send(TCP_FIN | TCP_ACK);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(p.snd, s[0].ack);
  advance(NET_TCP_TIME_WAIT_MS - 1000, 1000);
  EXPECT_EQ(TCP_TIME_WAIT, c->state);
  advance(1000, 1000);
  EXPECT_EQ(TCP_CLOSED, c->state);
}

TEST_F(Tcp, CloseFromPeerThenUs) {
  Peer p;
  struct tcp_conn* c = accept(p);
  app_of(c).close_on_peer_close = true;
  p.send(TCP_FIN | TCP_ACK, pattern(10));
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());  // ACK of data+FIN and our FIN in one segment
  EXPECT_EQ(TCP_FIN | TCP_ACK, s[0].flags);
  EXPECT_EQ(p.snd, s[0].ack);
  EXPECT_EQ(TCP_LAST_ACK, c->state);
  EXPECT_EQ(10u, app_of(c).rx.size());
  EXPECT_EQ((unsigned)(NET_EV_NEWDATA | NET_EV_CLOSED), app_of(c).events.back());
  p.rcv++;
  p.send(TCP_ACK);
  EXPECT_EQ(TCP_CLOSED, c->state);
}

TEST_F(Tcp, PeerCloseLeavesCloseWaitUntilAppCloses) {
  Peer p;
  struct tcp_conn* c = accept(p);
  p.send(TCP_FIN | TCP_ACK);
  EXPECT_EQ(TCP_CLOSE_WAIT, c->state);
  take_tcp();
  app_of(c).to_send = pattern(30);  // still allowed to send
  advance(NET_TCP_POLL_MS);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(30u, s[0].data.size());
  p.rcv += 30;
  p.send(TCP_ACK);
  tcp_close(c);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_FIN | TCP_ACK, s[0].flags);
  EXPECT_EQ(TCP_LAST_ACK, c->state);
  // Our FIN is lost once: resent by the stack after the RTO.
  advance(c->rto);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_FIN | TCP_ACK, s[0].flags);
  p.rcv++;
  p.send(TCP_ACK);
  EXPECT_EQ(TCP_CLOSED, c->state);
}

TEST_F(Tcp, SimultaneousClose) {
  Peer p;
  struct tcp_conn* c = accept(p);
  tcp_close(c);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_FIN | TCP_ACK, s[0].flags);
  EXPECT_EQ(TCP_FIN_WAIT_1, c->state);
  p.send(TCP_FIN | TCP_ACK);  // crossing FIN, does not ack ours
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_ACK, s[0].flags);
  EXPECT_EQ(p.snd, s[0].ack);
  EXPECT_EQ(TCP_CLOSING, c->state);
  p.rcv++;
  p.send(TCP_ACK);
  EXPECT_EQ(TCP_TIME_WAIT, c->state);
  advance(NET_TCP_TIME_WAIT_MS, 1000);
  EXPECT_EQ(TCP_CLOSED, c->state);
}

TEST_F(Tcp, FinAckedTogetherWithPeerFin) {
  Peer p;
  struct tcp_conn* c = accept(p);
  tcp_close(c);
  take_tcp();
  p.rcv++;
  p.send(TCP_FIN | TCP_ACK);  // acks our FIN and closes
  EXPECT_EQ(TCP_TIME_WAIT, c->state);
}

TEST_F(Tcp, RstInWindowAbortsOutOfWindowIgnored) {
  Peer p;
  struct tcp_conn* c = accept(p);
  unsigned idx = (unsigned)(c - tcp_conns);
  TcpSeg bad = p.seg(TCP_RST);
  bad.seq = p.snd + 100000;
  p.send_raw(bad);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_EQ(1u, net_stats.tcp.drop_seq);
  p.send(TCP_RST);
  EXPECT_EQ(TCP_CLOSED, tcp_conns[idx].state);
  EXPECT_TRUE(apps[idx].all & NET_EV_ABORTED);
  EXPECT_EQ(1u, net_stats.tcp.rst_rx);
}

TEST_F(Tcp, SegmentsWithoutConnectionGetRst) {
  Peer p;
  p.lport = 81;  // nobody listens
  p.send(TCP_SYN);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_RST | TCP_ACK, s[0].flags);
  EXPECT_EQ(p.snd, s[0].ack);
  EXPECT_EQ(0u, s[0].seq);
  p.lport = 80;
  p.rcv = 777777;
  p.send(TCP_ACK, pattern(5));  // stray ACK
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_RST, s[0].flags);
  EXPECT_EQ(777777u, s[0].seq);
  p.send(TCP_RST);  // never answered
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(3u, net_stats.tcp.drop_no_conn);
}

TEST_F(Tcp, AppAbortSendsRst) {
  Peer p;
  struct tcp_conn* c = accept(p);
  app_of(c).abort_on_data = true;
  p.send(TCP_ACK, pattern(3));
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_TRUE(s[0].flags & TCP_RST);
  EXPECT_EQ(TCP_CLOSED, c->state);
}

TEST_F(Tcp, SynOnEstablishedConnectionGetsChallengeAck) {
  // RFC 5961 4.2: a SYN in a synchronized state, in the window or not,
  // is answered by an ACK and changes nothing.
  Peer p;
  struct tcp_conn* c = accept(p);
  for (uint32_t off : {0u, 100u, 3000000000u}) {
    TcpSeg syn = p.seg(TCP_SYN);
    syn.seq = p.snd + off;
    p.send_raw(syn);
    auto s = take_tcp();
    ASSERT_EQ(1u, s.size()) << off;
    EXPECT_EQ(TCP_ACK, s[0].flags) << off;
    EXPECT_EQ(p.snd, s[0].ack) << off;
    EXPECT_EQ(TCP_ESTABLISHED, c->state) << off;
  }
  EXPECT_EQ(3u, net_stats.tcp.drop_challenge);
  EXPECT_EQ(0u, net_stats.tcp.rst_tx);
  p.send(TCP_ACK, pattern(4));  // the connection still works
  EXPECT_EQ(pattern(4), app_of(c).rx);
}

TEST_F(Tcp, AckOfUnsentDataIsAnsweredNotAccepted) {
  Peer p;
  struct tcp_conn* c = accept(p);
  uint32_t una = c->snd_una;
  p.rcv += 1000;
  p.send(TCP_ACK);
  EXPECT_EQ(una, c->snd_una);
  EXPECT_EQ(1u, net_stats.tcp.drop_bad_ack);
  EXPECT_EQ(1u, take_tcp().size());
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
}

TEST_F(Tcp, TenSimultaneousConnections) {
  std::vector<Peer> peers(NET_TCP_CONNS);
  std::vector<struct tcp_conn*> conns;
  for (unsigned i = 0; i < peers.size(); i++) {
    peers[i].port = (uint16_t)(41000 + i);
    peers[i].snd = 5000u * i;
    conns.push_back(accept(peers[i]));
    ASSERT_NE(nullptr, conns.back());
    app_of(conns.back()).echo = true;
  }
  std::set<struct tcp_conn*> distinct(conns.begin(), conns.end());
  EXPECT_EQ((size_t)NET_TCP_CONNS, distinct.size());
  // Interleaved traffic on all of them.
  for (int round = 0; round < 3; round++) {
    for (unsigned i = 0; i < peers.size(); i++) {
      Bytes d = pattern(10 + i + round, i * 7 + round);
      peers[i].send(TCP_ACK, d);
      auto s = take_tcp();
      ASSERT_EQ(1u, s.size());
      EXPECT_EQ(peers[i].port, s[0].dport);
      EXPECT_EQ(d, s[0].data);
      peers[i].rcv += (uint32_t)d.size();
      peers[i].send(TCP_ACK);
    }
  }
  // An eleventh SYN finds no slot.
  Peer extra;
  extra.port = 42000;
  extra.send(TCP_SYN);
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(1u, net_stats.tcp.drop_no_slot);
  for (auto* c : conns) EXPECT_EQ(TCP_ESTABLISHED, c->state);
}

TEST_F(Tcp, TimeWaitSlotRecycledWhenTableFull) {
  std::vector<Peer> peers(NET_TCP_CONNS);
  for (unsigned i = 0; i < peers.size(); i++) {
    peers[i].port = (uint16_t)(41000 + i);
    ASSERT_NE(nullptr, accept(peers[i]));
  }
  struct tcp_conn* c0 = find_conn(41000);
  tcp_close(c0);
  take_tcp();
  peers[0].rcv++;
  peers[0].send(TCP_FIN | TCP_ACK);
  ASSERT_EQ(TCP_TIME_WAIT, c0->state);
  take_tcp();
  Peer extra;
  extra.port = 42000;
  ASSERT_NE(nullptr, accept(extra));
  EXPECT_EQ(1u, net_stats.tcp.tw_recycled);
}

TEST_F(Tcp, SequenceWrapAroundBothDirections) {
  Peer p;
  p.snd = 0xffffff00u;  // peer's sequence numbers wrap after 256 bytes
  struct tcp_conn* c = accept(p);
  ASSERT_NE(nullptr, c);
  // Move our send sequence close to the wrap as well.
  c->snd_una = c->snd_nxt = 0xffffff80u;
#if !NET_TCP_UIP_SEND
  c->snd_max = c->snd_nxt;
#endif
  c->snd_wl2 = c->snd_una;
  p.rcv = c->snd_nxt;
  app_of(c).echo = true;
  Bytes all;
  for (int i = 0; i < 6; i++) {
    Bytes d = pattern(100, i);
    all.insert(all.end(), d.begin(), d.end());
    p.send(TCP_ACK, d);
    auto s = take_tcp();
    ASSERT_EQ(1u, s.size()) << i;
    EXPECT_EQ(p.snd, s[0].ack);
    EXPECT_EQ(p.rcv, s[0].seq);
    EXPECT_EQ(d, s[0].data);
    p.rcv += 100;
    p.send(TCP_ACK);
  }
  EXPECT_EQ(all, app_of(c).rx);
  EXPECT_LT(c->snd_nxt, 0x1000u);  // wrapped
  EXPECT_LT(c->rcv_nxt, 0x1000u);
  EXPECT_EQ(0u, net_stats.tcp.drop_seq + net_stats.tcp.drop_bad_ack + net_stats.tcp.drop_ooo);
  // An old duplicate from before the wrap is recognised as old.
  TcpSeg old = p.seg(TCP_ACK);
  old.seq = 0xffffff10u;
  old.data = pattern(16);
  p.send_raw(old);
  EXPECT_EQ(1u, net_stats.tcp.dup);
  EXPECT_EQ(all, app_of(c).rx);
}

TEST_F(Tcp, SeqMacrosAcrossWrap) {
  EXPECT_TRUE(TCP_SEQ_LT(0xfffffff0u, 0x10u));
  EXPECT_TRUE(TCP_SEQ_GT(0x10u, 0xfffffff0u));
  EXPECT_TRUE(TCP_SEQ_LEQ(5u, 5u));
  EXPECT_FALSE(TCP_SEQ_LT(0x10u, 0xfffffff0u));
}

TEST_F(Tcp, InitialSequenceNumbersNotPredictable) {
  std::vector<uint32_t> isn;
  for (int i = 0; i < 6; i++) {
    Peer p;
    p.port = (uint16_t)(43000 + i);
    p.send(TCP_SYN);
    auto s = take_tcp();
    ASSERT_EQ(1u, s.size());
    isn.push_back(s[0].seq);
    advance(10);
  }
  std::set<uint32_t> deltas;
  for (size_t i = 1; i < isn.size(); i++) deltas.insert(isn[i] - isn[i - 1]);
  EXPECT_EQ(isn.size() - 1, deltas.size());  // no constant increment
  // Another seed gives another sequence; the same seed reproduces it.
  net_init(&nif_, 999);
  prime_arp();
  tcp_listen(80, app_call, nullptr);
  Peer p;
  p.port = 43000;
  p.send(TCP_SYN);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_NE(isn[0], s[0].seq);
}

TEST_F(Tcp, UrgentPointerIgnoredDataInLine) {
  Peer p;
  struct tcp_conn* c = accept(p);
  TcpSeg s = p.seg(TCP_ACK | TCP_URG);
  s.data = pattern(10);
  s.urp = 5000;  // far beyond the data
  p.send_raw(s);
  EXPECT_EQ(s.data, app_of(c).rx);
  EXPECT_EQ(1u, net_stats.tcp.urg_ignored);
}

#if NET_TCP_UIP_SEND  // default build: test_tcpsend.cpp
TEST_F(Tcp, ZeroWindowProbe) {
  Peer p;
  p.wnd = 0;
  struct tcp_conn* c = accept(p);
  app_of(c).to_send = pattern(10);
  advance(NET_TCP_POLL_MS);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_TRUE(s[0].data.empty());
  EXPECT_EQ(c->snd_nxt - 1, s[0].seq);  // old sequence number: forces an ACK
  p.wnd = 500;
  p.send(TCP_ACK);  // window opens
  advance(NET_TCP_POLL_MS);
  s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(10u, s[0].data.size());
}
#endif

TEST_F(Tcp, ApiMisuseIsRejected) {
  Peer p;
  struct tcp_conn* c = accept(p);
  EXPECT_EQ(NET_ERR_STATE, tcp_send(c, "x", 1));  // outside a callback
  EXPECT_EQ(NET_ERR_USE, tcp_listen(80, app_call, nullptr));
  EXPECT_EQ(NET_ERR_ARG, tcp_listen(0, app_call, nullptr));
  EXPECT_EQ(nullptr, tcp_connect(0, 80, app_call, nullptr));
  expected_arg_errors_ = 3;
}

}  // namespace
