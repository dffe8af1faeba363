// Slot policy (firmware/net/README.md "Slot policy"): the idle
// timeout of passive connections, keep-alive probes (RFC 1122 4.2.3.6),
// eviction of the connection idle longest for a new peer (listener limit
// and full table), and the zero-window persist limit as a run-time knob.
// Idle time is measured by the slow timer (NET_TCP_SLOW_MS), so times
// below are checked to within one slow period.
#include "tcp_peer.h"

using namespace nh;

namespace {

constexpr uint32_t kSlow = NET_TCP_SLOW_MS;

class Slots : public NetTest {
 protected:
  void SetUp() override {
    NetTest::SetUp();
    prime_arp();
    ASSERT_EQ(NET_OK, tcp_listen(80, app_call, nullptr));
  }
  // `n` established peers at ports 41000, 41001, ... of the listener.
  void open_peers(std::vector<Peer>& ps, unsigned n) {
    ps.resize(n);
    for (unsigned i = 0; i < n; i++) {
      ps[i].port = (uint16_t)(41000 + i);
      ASSERT_NE(nullptr, accept_peer(ps[i]));
    }
  }
  void policy(uint32_t idle, uint32_t ka = 0, uint32_t intvl = 0, uint32_t probes = 0, uint32_t persist = 0,
              uint32_t evict = NET_TCP_EVICT_IDLE_MS) {
    struct tcp_policy p = {idle, ka, intvl, probes, persist, evict};
    tcp_set_policy(&p);
  }
  // Advance in 10 ms ticks until slot `idx` is closed or `limit` ms passed;
  // @return the time it closed (net_now), or 0.
  uint32_t run_until_closed(unsigned idx, uint32_t limit) {
    for (uint32_t t = 0; t < limit; t += 10) {
      net_timer_tick(10);
      if (tcp_conns[idx].state == TCP_CLOSED) return net_now;
    }
    return 0;
  }
  static bool has_rst(const std::vector<Pkt>& v, uint16_t port) {
    for (auto& s : v)
      if ((s.flags & TCP_RST) && s.dport == port) return true;
    return false;
  }
};

// ---- idle timeout ------------------------------------------------------------

TEST_F(Slots, IdleTimeoutResetsAPassiveConnectionAndFreesItsSlot) {
  policy(2000);
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  unsigned idx = (unsigned)(c - tcp_conns);
  advance(1900);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_TRUE(take_tcp().empty());
  uint32_t t = run_until_closed(idx, 1000);
  ASSERT_NE(0u, t) << "not reset after 2.9 s idle";
  EXPECT_GE(t, 2000u);
  EXPECT_LE(t, 2000u + 2 * kSlow);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_RST | TCP_ACK, s[0].flags);
  EXPECT_EQ(p.rcv, s[0].seq);
  EXPECT_TRUE(apps[idx].all & NET_EV_TIMEDOUT);
  EXPECT_EQ(1u, net_stats.tcp.idle_timeouts);
  EXPECT_EQ(0u, net_stats.tcp.idle_evicted);
}

TEST_F(Slots, TrickleKeepsAConnectionAliveUnderTheIdleTimeout) {
  // One byte every 1.5 s against a 2 s idle timeout: data keeps moving, so
  // the idle timeout alone never fires (eviction is what answers trickle).
  policy(2000);
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  for (int i = 0; i < 8; i++) {
    advance(1500);
    p.send(TCP_ACK | TCP_PSH, {(uint8_t)i});
    take_tcp();
  }
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_EQ(8u, app_of(c).rx.size());
  EXPECT_EQ(0u, net_stats.tcp.idle_timeouts);
  // Our data acknowledged counts too: the peer sends nothing.
  for (int i = 0; i < 4; i++) {
    advance(1500);
    app_of(c).to_send = pattern(10, (unsigned)i);
    tcp_poll(c);
    auto s = take_tcp();
    ASSERT_EQ(1u, s.size());
    p.rcv += 10;
    p.send(TCP_ACK);
    take_tcp();
  }
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  advance(2000 + 2 * kSlow);  // then silence: reset
  EXPECT_EQ(TCP_CLOSED, c->state);
  EXPECT_EQ(1u, net_stats.tcp.idle_timeouts);
}

TEST_F(Slots, IdleTimeoutSparesActiveOpensAndIsOffByDefault) {
  Peer p;
  struct tcp_conn* passive = accept_peer(p);
  ASSERT_NE(nullptr, passive);
  advance(60000);  // default policy: no idle timeout
  EXPECT_EQ(TCP_ESTABLISHED, passive->state);
  policy(2000);
  Peer srv;
  srv.port = 5555;
  srv.lport = 0;
  struct tcp_conn* c = tcp_connect(srv.ip, srv.port, app_call, nullptr);
  ASSERT_NE(nullptr, c);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  srv.lport = s[0].sport;
  srv.rcv = s[0].seq + 1;
  srv.send(TCP_SYN | TCP_ACK);
  take_tcp();
  ASSERT_EQ(TCP_ESTABLISHED, c->state);
  advance(10000);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);  // ours: not subject to it
  EXPECT_EQ(TCP_CLOSED, passive->state);
  EXPECT_EQ(1u, net_stats.tcp.idle_timeouts);
  take_tcp();
}

// ---- eviction -------------------------------------------------------------------

TEST_F(Slots, TrickleIsEvictedForANewPeerAtTheListenerLimit) {
  ASSERT_EQ(NET_OK, tcp_listen_limit(80, 2));
  std::vector<Peer> tr;
  ASSERT_NO_FATAL_FAILURE(open_peers(tr, 2));
  // One byte each every 2 s; the new peer comes 1.5 s after a round.
  for (int r = 0; r < 3; r++) {
    advance(2000);
    for (auto& p : tr) p.send(TCP_ACK | TCP_PSH, {(uint8_t)r});
  }
  take_tcp();
  advance(1500);
  Peer late;
  late.port = 42000;
  struct tcp_conn* c = accept_peer(late);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_EQ(1u, net_stats.tcp.idle_evicted);
  EXPECT_EQ(0u, net_stats.tcp.drop_listen_full);
  // The first of the two (equally idle) was reset and told.
  EXPECT_EQ(nullptr, find_conn(41000));
  EXPECT_NE(nullptr, find_conn(41001));
  bool aborted = false;
  for (auto& a : apps) aborted |= (a.all & NET_EV_ABORTED) != 0;
  EXPECT_TRUE(aborted);
}

TEST_F(Slots, EvictionPicksTheConnectionIdleLongest) {
  ASSERT_EQ(NET_OK, tcp_listen_limit(80, 3));
  std::vector<Peer> ps;
  ASSERT_NO_FATAL_FAILURE(open_peers(ps, 3));
  // Last data: peer 0 at 3 s, peer 2 at 4 s, peer 1 never (idle longest).
  advance(3000);
  ps[0].send(TCP_ACK | TCP_PSH, {1});
  advance(1000);
  ps[2].send(TCP_ACK | TCP_PSH, {2});
  advance(1500);
  take_tcp();
  Peer late;
  late.port = 42000;
  late.send(TCP_SYN);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_SYN | TCP_ACK, s[0].flags);
  // Nothing is evicted for a SYN (it may be forged): only for its ACK.
  EXPECT_NE(nullptr, find_conn(41000));
  EXPECT_NE(nullptr, find_conn(41001));
  EXPECT_NE(nullptr, find_conn(41002));
  EXPECT_EQ(0u, net_stats.tcp.idle_evicted);
  late.rcv = s[0].seq + 1;
  late.send(TCP_ACK);
  s = take_tcp();
  EXPECT_TRUE(has_rst(s, 41001));
  EXPECT_EQ(nullptr, find_conn(41001));
  EXPECT_NE(nullptr, find_conn(41000));
  EXPECT_NE(nullptr, find_conn(41002));
  ASSERT_NE(nullptr, find_conn(42000));
  EXPECT_EQ(TCP_ESTABLISHED, find_conn(42000)->state);
  EXPECT_EQ(1u, net_stats.tcp.idle_evicted);
}

TEST_F(Slots, BusyConnectionsAreNotEvictedAndTheNewPeerRetries) {
  ASSERT_EQ(NET_OK, tcp_listen_limit(80, 2));
  std::vector<Peer> ps;
  ASSERT_NO_FATAL_FAILURE(open_peers(ps, 2));
  // Data every 0.5 s: never idle for the 1 s eviction minimum.
  for (int r = 0; r < 6; r++) {
    advance(500);
    for (auto& p : ps) p.send(TCP_ACK | TCP_PSH, {(uint8_t)r});
  }
  take_tcp();
  Peer late;
  late.port = 42000;
  late.send(TCP_SYN);
  EXPECT_TRUE(take_tcp().empty());  // dropped: the peer's SYN comes again
  EXPECT_EQ(1u, net_stats.tcp.drop_listen_full);
  EXPECT_EQ(nullptr, find_conn(42000));
  // A SYN taken while one was idle, whose ACK finds both busy again: reset.
  advance(1200);
  late.snd = 5000;
  late.send(TCP_SYN);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  late.rcv = s[0].seq + 1;
  for (auto& p : ps) p.send(TCP_ACK | TCP_PSH, {9});
  take_tcp();
  late.send(TCP_ACK);
  s = take_tcp();
  EXPECT_TRUE(has_rst(s, 42000));
  EXPECT_EQ(nullptr, find_conn(42000));
  EXPECT_EQ(2u, net_stats.tcp.drop_listen_full);
  EXPECT_EQ(0u, net_stats.tcp.idle_evicted);
  // Once they go quiet the retried peer gets in.
  advance(1200);
  late.snd = 9000;
  ASSERT_NE(nullptr, accept_peer(late));
  EXPECT_EQ(TCP_ESTABLISHED, find_conn(42000)->state);
  EXPECT_EQ(1u, net_stats.tcp.idle_evicted);
}

TEST_F(Slots, FullTableEvictsAnIdlePassiveConnectionForASyn) {
  std::vector<Peer> ps;
  ASSERT_NO_FATAL_FAILURE(open_peers(ps, NET_TCP_CONNS));
  advance(2000);
  for (unsigned i = 0; i < NET_TCP_CONNS; i++)
    if (i != 3) ps[i].send(TCP_ACK | TCP_PSH, {1});
  take_tcp();
  Peer late;
  late.port = 42000;
  late.send(TCP_SYN);
  auto s = take_tcp();
  EXPECT_TRUE(has_rst(s, 41003));  // the idle one
  ASSERT_EQ(2u, s.size());
  EXPECT_EQ(TCP_SYN | TCP_ACK, s[1].flags);
  EXPECT_EQ(nullptr, find_conn(41003));
  EXPECT_EQ(1u, net_stats.tcp.idle_evicted);
  EXPECT_EQ(0u, net_stats.tcp.drop_no_slot);
  late.rcv = s[1].seq + 1;
  late.send(TCP_ACK);
  ASSERT_NE(nullptr, find_conn(42000));
  EXPECT_EQ(TCP_ESTABLISHED, find_conn(42000)->state);
  // With eviction off the table-full SYN is refused as before.
  policy(0, 0, 0, 0, 0, 0);
  advance(3000);
  Peer later;
  later.port = 43000;
  later.send(TCP_SYN);
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(1u, net_stats.tcp.drop_no_slot);
}

// ---- keep-alive -------------------------------------------------------------------

TEST_F(Slots, KeepAliveProbesAfterIdleAndDropsAfterUnansweredProbes) {
  policy(0, 5000, 1000, 3);
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  unsigned idx = (unsigned)(c - tcp_conns);
  std::vector<uint32_t> probes;
  uint32_t reset = 0;
  for (uint32_t t = 0; t < 20000 && !reset; t += 10) {
    net_timer_tick(10);
    for (auto& s : take_tcp()) {
      if (s.flags & TCP_RST) {
        reset = net_now;
        EXPECT_EQ(p.rcv, s.seq);
      } else {
        EXPECT_EQ(TCP_ACK, s.flags);
        EXPECT_TRUE(s.data.empty());
        EXPECT_EQ(p.rcv - 1, s.seq);  // SND.NXT - 1: the peer must answer
        EXPECT_EQ(p.snd, s.ack);
        probes.push_back(net_now);
      }
    }
  }
  ASSERT_EQ(3u, probes.size());
  EXPECT_GE(probes[0], 5000u);
  EXPECT_LE(probes[0], 5000u + 2 * kSlow);
  EXPECT_EQ(probes[0] + 1000, probes[1]);
  EXPECT_EQ(probes[0] + 2000, probes[2]);
  EXPECT_EQ(probes[0] + 3000, reset);
  EXPECT_EQ(TCP_CLOSED, tcp_conns[idx].state);
  EXPECT_TRUE(apps[idx].all & NET_EV_TIMEDOUT);
  EXPECT_EQ(3u, net_stats.tcp.ka_probes);
  EXPECT_EQ(1u, net_stats.tcp.ka_dropped);
}

TEST_F(Slots, KeepAliveAnsweredKeepsTheConnection) {
  policy(0, 5000, 1000, 3);
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  std::vector<uint32_t> probes;
  for (uint32_t t = 0; t < 30000; t += 10) {
    net_timer_tick(10);
    for (auto& s : take_tcp()) {
      ASSERT_FALSE(s.flags & TCP_RST);
      probes.push_back(net_now);
      if (probes.size() % 2) p.send(TCP_ACK);  // every other probe: at once
    }
  }
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_EQ(0u, net_stats.tcp.ka_dropped);
  // Answered probes: the next one 5 s after the answer; unanswered: 1 s.
  ASSERT_GE(probes.size(), 6u);
  for (size_t i = 1; i < probes.size(); i++) EXPECT_EQ(i % 2 ? 5000u : 1000u, probes[i] - probes[i - 1]) << i;
}

TEST_F(Slots, KeepAliveIsOffByDefault) {
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  advance(3600000, 100);
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_EQ(0u, net_stats.tcp.ka_probes);
}

TEST_F(Slots, PolicyDefaultsAndLimitOnAnUnknownPort) {
  struct tcp_policy p;
  tcp_get_policy(&p);
  EXPECT_EQ((uint32_t)NET_TCP_IDLE_MS, p.idle_ms);
  EXPECT_EQ((uint32_t)NET_TCP_KEEPALIVE_MS, p.keepalive_ms);
  EXPECT_EQ((uint32_t)NET_TCP_PERSIST_MAX_MS, p.persist_max_ms);
  EXPECT_EQ((uint32_t)NET_TCP_EVICT_IDLE_MS, p.evict_idle_ms);
  policy(1, 2, 0, 0, 0, 3);  // zeros take the defaults
  tcp_get_policy(&p);
  EXPECT_EQ((uint32_t)NET_TCP_KEEPALIVE_INTVL_MS, p.keepalive_intvl_ms);
  EXPECT_EQ((uint32_t)NET_TCP_KEEPALIVE_PROBES, p.keepalive_probes);
  EXPECT_EQ((uint32_t)NET_TCP_PERSIST_MAX_MS, p.persist_max_ms);
  EXPECT_EQ(NET_ERR_ARG, tcp_listen_limit(81, 2));
}

}  // namespace
