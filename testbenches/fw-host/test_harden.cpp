// Hardening (docs/firmware.md "Hardening policy"): keyed ISNs (RFC 6528)
// with an entropy pool and rekeying, IP identification, SYN flood
// eviction, RFC 5961 challenge ACKs (a budget per connection), impossible
// source addresses (land attacks, in IPv4 and ARP), ARP conflicts, the
// default gateway, and segments to/from port 0.
#include <set>

#include "tcp_peer.h"

using namespace nh;

namespace {

const uint8_t kOtherMac[6] = {0x02, 0, 0, 0, 0, 0x33};
const uint8_t kZeroMac[6] = {0};

class Harden : public NetTest {
 protected:
  void SetUp() override {
    NetTest::SetUp();
    prime_arp();
    ASSERT_EQ(NET_OK, tcp_listen(80, app_call, nullptr));
  }
  // The ISN of the SYN-ACK answering a SYN from p (the half-open slot is
  // then freed again by a RST at exactly RCV.NXT).
  uint32_t syn_ack_isn(Peer& p) {
    p.send(TCP_SYN);
    auto s = take_tcp();
    EXPECT_EQ(1u, s.size());
    if (s.size() != 1) return 0;
    p.send(TCP_RST);
    EXPECT_EQ(nullptr, find_conn(p.port));
    return s[0].seq;
  }
  void reinit(uint32_t seed, const uint8_t* mac = kOurMac) {
    memcpy(nif_.hwaddr, mac, 6);
    net_init(&nif_, seed);
    prime_arp();
    tcp_listen(80, app_call, nullptr);
  }
};

// ---- RFC 6528 initial sequence numbers -------------------------------------

TEST_F(Harden, SipHashMatchesThePaperVectors) {
  uint8_t key[16], msg[15];
  for (int i = 0; i < 16; i++) key[i] = (uint8_t)i;
  for (int i = 0; i < 15; i++) msg[i] = (uint8_t)i;
  // Aumasson & Bernstein, appendix A: key 00..0f, message 00..0e.
  EXPECT_EQ(0xa129ca6149be45e5ull, net_siphash(key, msg, 15));
  // Empty message (first entry of the reference vectors).
  EXPECT_EQ(0x726fdb47dd0e0e31ull, net_siphash(key, msg, 0));
}

TEST_F(Harden, IsnIsKeyedHashOfTheFourTuplePlusClock) {
  // Different 4-tuples at the same time: no two equal, no fixed offset.
  std::vector<uint32_t> isn;
  for (int i = 0; i < 8; i++) {
    Peer p;
    p.port = (uint16_t)(43000 + i);
    isn.push_back(syn_ack_isn(p));
  }
  std::set<uint32_t> values(isn.begin(), isn.end()), deltas;
  for (size_t i = 1; i < isn.size(); i++) deltas.insert(isn[i] - isn[i - 1]);
  EXPECT_EQ(isn.size(), values.size());
  EXPECT_EQ(isn.size() - 1, deltas.size());
  // F is SipHash-2-4 of (local ip, local port, remote ip, remote port)
  // under the boot secret; M is the clock in 4 us ticks.
  uint8_t t[12];
  net_put32(t, kOurIp);
  net_put16(t + 4, 80);
  net_put32(t + 6, kPeerIp);
  net_put16(t + 10, 43000);
  EXPECT_EQ((uint32_t)net_siphash(net_secret, t, 12), isn[0]);
  // The same 4-tuple later: the same F, advanced by the clock.
  advance(12340);
  Peer p;
  p.port = 43000;
  EXPECT_EQ(isn[0] + 12340u * 250u, syn_ack_isn(p));
}

TEST_F(Harden, IsnDependsOnSeedAndMacAndIsReproducible) {
  auto first_isn = [&]() {
    Peer p;
    p.port = 43000;
    return syn_ack_isn(p);
  };
  reinit(1);
  Bytes secret(net_secret, net_secret + 16);  // (the first ISN folds the pool in)
  uint32_t a = first_isn();
  reinit(1);
  EXPECT_EQ(a, first_isn());  // same entropy: same ISN (deterministic simulator)
  reinit(2);
  EXPECT_NE(a, first_isn());  // another seed parameter
  reinit(1);
  net_add_entropy(0x1234);  // timer jitter
  EXPECT_NE(a, first_isn());
  // Another board (MAC) with the same seed has another secret.
  const uint8_t other_board[6] = {0x02, 0, 0, 0, 0, 0x99};
  reinit(1, other_board);
  EXPECT_NE(secret, Bytes(net_secret, net_secret + 16));
  reinit(1);
  EXPECT_EQ(secret, Bytes(net_secret, net_secret + 16));
}

// The first frame's timer is not all an attacker has to guess: every
// frame's (and tick's) timer reading before the first ISN reaches the
// secret through the pool (with the first frame's only, over a TAP the first frame falls in a
// ~15 ms band, 17 bits, enough to recover the secret from two ISNs).
TEST_F(Harden, SecretFollowsEveryFrameTimerNotOnlyTheFirst) {
  auto after = [&](std::vector<uint32_t> timers) {
    reinit(1);
    for (uint32_t t : timers) net_entropy_mix(t);
    Peer p;
    p.port = 43000;
    uint32_t isn = syn_ack_isn(p);
    return std::make_pair(isn, Bytes(net_secret, net_secret + 16));
  };
  // The same first reading, a later frame 0.1 us (one 10 MHz count) apart.
  auto a = after({0x00a81234, 0x00a80007, 0x00a7f000});
  auto b = after({0x00a81234, 0x00a80007, 0x00a7f001});
  auto c = after({0x00a81234, 0x00a80008, 0x00a7f000});
  EXPECT_NE(a.second, b.second);
  EXPECT_NE(a.second, c.second);
  EXPECT_NE(a.first, b.first);
  EXPECT_NE(a.first, c.first);
  EXPECT_EQ(a, after({0x00a81234, 0x00a80007, 0x00a7f000}));  // deterministic
  // Once an ISN was given, later readings wait in the pool for the next
  // rekey (a new secret now would move every 4-tuple's ISN).
  reinit(1);
  net_entropy_mix(0x00a81234);
  Peer p;
  p.port = 43001;
  syn_ack_isn(p);
  Bytes s0(net_secret, net_secret + 16);
  net_entropy_mix(0x00a70000);
  p.port = 43002;
  syn_ack_isn(p);
  EXPECT_EQ(s0, Bytes(net_secret, net_secret + 16));
}

TEST_F(Harden, SecretIsRekeyedFromThePoolEveryPeriod) {
  auto run = [&](uint32_t late_timer) {
    reinit(1);
    net_entropy_mix(0x00a81234);
    Peer p;
    p.port = 43000;
    syn_ack_isn(p);  // the first ISN: pool folded in
    Bytes s0(net_secret, net_secret + 16);
    net_entropy_mix(late_timer);  // a frame after it
    // The rekey comes with the first ISN a period after the last.
    advance(NET_SECRET_REKEY_MS - 10, 1000);
    p.port = 43001;
    syn_ack_isn(p);
    EXPECT_EQ(s0, Bytes(net_secret, net_secret + 16));
    EXPECT_EQ(0u, net_stats.rekeys);
    advance(10);
    EXPECT_EQ(s0, Bytes(net_secret, net_secret + 16));  // not from the timer
    syn_ack_isn(p);
    EXPECT_NE(s0, Bytes(net_secret, net_secret + 16));
    EXPECT_EQ(1u, net_stats.rekeys);
    advance(NET_SECRET_REKEY_MS, 1000);
    syn_ack_isn(p);
    EXPECT_EQ(2u, net_stats.rekeys);
    return Bytes(net_secret, net_secret + 16);
  };
  // The frames after the first ISN reach the secret at the rekey.
  Bytes x = run(0x00123456), y = run(0x00123457);
  EXPECT_NE(x, y);
  EXPECT_EQ(x, run(0x00123456));
}

// RFC 6528 3: a new secret moves the ISN space of a 4-tuple's later
// incarnations. Here F walks forward from the old key's hash to the new
// key's during the period after a rekey: each 4-tuple's ISNs keep
// advancing, by less than 2^31 in 2 MSL (240 s), across every rekey.
TEST_F(Harden, IsnsOfEach4TupleKeepAdvancingAcrossRekeys) {
  const uint32_t kStep = 2048, kMsl2 = 240000;
  const unsigned kTuples = 12;
  std::vector<std::vector<uint32_t>> isn(kTuples);
  std::vector<uint32_t> when;
  uint8_t t[12];
  uint8_t before[16] = {0};
  unsigned checked_start = 0;
  net_put32(t, kOurIp);
  net_put16(t + 4, 80);
  net_put32(t + 6, kPeerIp);
  for (uint32_t ms = 0; ms <= 3 * NET_SECRET_REKEY_MS + kStep; ms += kStep) {
    uint32_t rekeys = net_stats.rekeys;
    if (ms > 0) {
      memcpy(before, net_secret, 16);
      advance(kStep, kStep);
      net_entropy_mix(ms * 7919u);  // traffic in between
    }
    when.push_back(net_now);
    for (unsigned k = 0; k < kTuples; k++) {
      Peer p;
      p.port = (uint16_t)(44000 + k);
      isn[k].push_back(syn_ack_isn(p));
      // Right after a rekey F is still the old key's hash: no jump.
      if (net_stats.rekeys != rekeys && k == 0) {
        net_put16(t + 10, p.port);
        EXPECT_EQ((uint32_t)net_siphash(before, t, 12) + net_now * 250u, isn[k].back());
        checked_start++;
      }
    }
  }
  EXPECT_EQ(3u, net_stats.rekeys);
  EXPECT_EQ(3u, checked_start);
  for (unsigned k = 0; k < kTuples; k++) {
    for (size_t i = 0; i + 1 < when.size(); i++) {
      for (size_t j = i + 1; j < when.size() && when[j] - when[i] <= kMsl2; j++) {
        uint32_t d = isn[k][j] - isn[k][i];
        ASSERT_TRUE(d > 0 && d < 0x80000000u)
            << "tuple " << k << ": ISN 0x" << std::hex << isn[k][i] << " at " << std::dec << when[i]
            << " ms, 0x" << std::hex << isn[k][j] << " at " << std::dec << when[j] << " ms";
      }
    }
  }
  // ...and F did move: without a rekey, ISN - 250 * ms would stay put.
  for (unsigned k = 0; k < kTuples; k++)
    EXPECT_NE(isn[k].front() - when.front() * 250u, isn[k].back() - when.back() * 250u);
}

TEST_F(Harden, IpIdentificationIsPerDestinationFromASecretStart) {
  auto ping_id = [&](uint32_t src) {
    inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {1, 2}), IpOpt(), src));
    EXPECT_EQ(1u, tx.size());
    uint16_t id = tx.empty() ? 0 : get16(tx.back(), 14 + 4);
    tx.clear();
    return id;
  };
  // A destination's identifications count up from a secret start...
  uint16_t a0 = ping_id(kPeerIp), a1 = ping_id(kPeerIp);
  EXPECT_EQ((uint16_t)(a0 + 1), a1);
  // ...that is not 0 and differs with the seed.
  reinit(777);
  uint16_t b0 = ping_id(kPeerIp);
  EXPECT_NE(a0, b0);
  // Traffic to hosts in other buckets does not show in a peer's sequence
  // (no global counter to read, RFC 7739): of 30 other hosts, those that
  // leave the peer's next id unchanged exist.
  int other_buckets = 0;
  for (uint32_t h = 3; h < 33; h++) {
    prime_arp(NET_IP4(10, 0, 0, h));
    ping_id(NET_IP4(10, 0, 0, h));
    uint16_t next = ping_id(kPeerIp);
    if (next == (uint16_t)(b0 + 1)) other_buckets++;
    b0 = next;
  }
  EXPECT_GT(other_buckets, 10);
  EXPECT_LT(other_buckets, 30);
}

// ---- SYN floods --------------------------------------------------------------

TEST_F(Harden, SynFloodDoesNotLockOutARealPeer) {
  // Half-open connections from spoofed sources fill the table.
  for (unsigned i = 0; i < NET_TCP_CONNS; i++) {
    TcpSeg syn;
    syn.sport = (uint16_t)(50000 + i);
    syn.seq = 1000 * i;
    syn.flags = TCP_SYN;
    uint32_t src = NET_IP4(10, 0, 0, 100 + i);
    inject(peer_ip_frame(6, tcp_segment(src, kOurIp, syn), IpOpt(), src));
    advance(10);
  }
  for (auto& c : tcp_conns) EXPECT_EQ(TCP_SYN_RCVD, c.state);
  advance(NET_TCP_SYN_EVICT_MS);  // every one is now old enough to go
  tx.clear();
  // The real peer connects at once: the oldest half-open slot goes.
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  EXPECT_EQ(1u, net_stats.tcp.syn_evicted);
  EXPECT_EQ(0u, net_stats.tcp.drop_no_slot);
  p.send(TCP_ACK, pattern(10));
  EXPECT_EQ(pattern(10), app_of(c).rx);
  unsigned spoofed_left = 0;
  for (auto& k : tcp_conns) spoofed_left += k.state == TCP_SYN_RCVD;
  EXPECT_EQ(NET_TCP_CONNS - 1u, spoofed_left);
  for (auto& k : tcp_conns)  // the first spoofed one was the oldest
    EXPECT_FALSE(k.state == TCP_SYN_RCVD && k.rip == NET_IP4(10, 0, 0, 100));
  // The rest expire after the half-open limit; the real one stays.
  advance(NET_TCP_SYN_RCVD_MS);
  EXPECT_EQ(NET_TCP_CONNS - 1u, net_stats.tcp.syn_expired);
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
}

TEST_F(Harden, YoungHalfOpenConnectionsAreSpared) {
  // A burst of real connections (handshakes in progress) fills the table:
  // one more SYN is dropped (its peer retries) until the oldest half-open
  // connection is NET_TCP_SYN_EVICT_MS old.
  std::vector<Peer> peers(NET_TCP_CONNS + 1);
  for (unsigned i = 0; i <= NET_TCP_CONNS; i++) {
    peers[i].port = (uint16_t)(45000 + i);
    peers[i].send(TCP_SYN);
  }
  EXPECT_EQ(1u, net_stats.tcp.drop_no_slot);
  EXPECT_EQ(0u, net_stats.tcp.syn_evicted);
  advance(NET_TCP_SYN_EVICT_MS - 10);
  peers[NET_TCP_CONNS].send(TCP_SYN);
  EXPECT_EQ(2u, net_stats.tcp.drop_no_slot);
  advance(10);
  tx.clear();
  peers[NET_TCP_CONNS].send(TCP_SYN);
  EXPECT_EQ(1u, net_stats.tcp.syn_evicted);
  EXPECT_NE(nullptr, find_conn(peers[NET_TCP_CONNS].port));
  EXPECT_EQ(nullptr, find_conn(peers[0].port));  // the oldest went
}

TEST_F(Harden, EstablishedConnectionsAreNeverEvicted) {
  std::vector<Peer> peers(NET_TCP_CONNS);
  for (unsigned i = 0; i < NET_TCP_CONNS; i++) {
    peers[i].port = (uint16_t)(41000 + i);
    ASSERT_NE(nullptr, accept_peer(peers[i]));
  }
  Peer late;
  late.port = 42000;
  late.send(TCP_SYN);
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(1u, net_stats.tcp.drop_no_slot);
  EXPECT_EQ(0u, net_stats.tcp.syn_evicted);
}

// ---- RFC 5961 ----------------------------------------------------------------

TEST_F(Harden, RstInWindowButNotExactGetsChallengeAck) {
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  TcpSeg rst = p.seg(TCP_RST);
  rst.seq = p.snd + 1;  // in the window, not RCV.NXT
  p.send_raw(rst);
  auto s = take_tcp();
  ASSERT_EQ(1u, s.size());
  EXPECT_EQ(TCP_ACK, s[0].flags);
  EXPECT_EQ(p.snd, s[0].ack);  // the peer learns RCV.NXT
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
  EXPECT_EQ(0u, net_stats.tcp.rst_rx);
  EXPECT_EQ(1u, net_stats.tcp.drop_challenge);
  rst.seq = p.snd + 100000;  // outside the window: dropped silently
  p.send_raw(rst);
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(1u, net_stats.tcp.drop_seq);
  p.send(TCP_RST);  // exactly RCV.NXT: abort
  EXPECT_EQ(TCP_CLOSED, c->state);
  EXPECT_EQ(1u, net_stats.tcp.rst_rx);
}

TEST_F(Harden, ChallengeAcksAreRateLimited) {
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  TcpSeg rst = p.seg(TCP_RST);
  rst.seq = p.snd + 7;
  for (int i = 0; i < 15; i++) p.send_raw(rst);
  EXPECT_EQ(NET_TCP_CHALLENGE_ACKS, take_tcp().size());
  EXPECT_EQ(15u, net_stats.tcp.drop_challenge);
  EXPECT_EQ(15u - NET_TCP_CHALLENGE_ACKS, net_stats.tcp.challenge_limited);
  advance(1000);
  tx.clear();
  p.send_raw(rst);  // a new second: answered again
  EXPECT_EQ(1u, take_tcp().size());
  EXPECT_EQ(TCP_ESTABLISHED, c->state);
}

// CVE-2016-5696: with one budget for all connections, an off-path
// attacker with a connection of his own counts his challenge ACKs (9
// instead of 10) to learn whether spoofed RSTs hit another connection's
// window. The budget is per connection: his count is the same either way.
TEST_F(Harden, ChallengeAckBudgetIsPerConnectionNoSideChannel) {
  auto attacker_sees = [&](bool hit_victim) {
    reinit(1);
    Peer victim, attacker;  // (the harness's peers share an address)
    victim.port = 41000;
    attacker.port = 42000;
    struct tcp_conn* v = accept_peer(victim);
    struct tcp_conn* a = accept_peer(attacker);
    EXPECT_TRUE(v != nullptr && a != nullptr);
    // Spoofed RSTs at the victim: in its window (challenge ACKs to the
    // victim) or beyond it (dropped silently).
    TcpSeg rst = victim.seg(TCP_RST);
    rst.seq = victim.snd + (hit_victim ? 5u : 100000u);
    for (int i = 0; i < 5; i++) victim.send_raw(rst);
    size_t to_victim = take_tcp().size();
    EXPECT_EQ(hit_victim ? 5u : 0u, to_victim);
    // The attacker provokes challenge ACKs on his own connection.
    TcpSeg own = attacker.seg(TCP_RST);
    own.seq = attacker.snd + 9;
    for (int i = 0; i < 15; i++) attacker.send_raw(own);
    size_t n = 0;
    for (auto& s : take_tcp()) n += s.dport == attacker.port && s.flags == TCP_ACK;
    EXPECT_EQ(TCP_ESTABLISHED, v->state);
    EXPECT_EQ(TCP_ESTABLISHED, a->state);
    return n;
  };
  size_t hit = attacker_sees(true), miss = attacker_sees(false);
  EXPECT_EQ(miss, hit);
  EXPECT_EQ(NET_TCP_CHALLENGE_ACKS, hit);
}

TEST_F(Harden, ChallengeAckBudgetStartsAfreshWithANewConnection) {
  Peer p;
  struct tcp_conn* c = accept_peer(p);
  ASSERT_NE(nullptr, c);
  TcpSeg rst = p.seg(TCP_RST);
  rst.seq = p.snd + 7;
  for (unsigned i = 0; i < NET_TCP_CHALLENGE_ACKS + 2; i++) p.send_raw(rst);
  EXPECT_EQ(NET_TCP_CHALLENGE_ACKS, take_tcp().size());
  p.send(TCP_RST);  // exact: the connection ends, its slot is free
  ASSERT_EQ(TCP_CLOSED, c->state);
  Peer q;  // the next connection takes the same slot within the second
  q.port = 40001;
  struct tcp_conn* c2 = accept_peer(q);
  ASSERT_EQ(c, c2);
  rst = q.seg(TCP_RST);
  rst.seq = q.snd + 7;
  q.send_raw(rst);
  EXPECT_EQ(1u, take_tcp().size());
}

// ---- impossible sources ------------------------------------------------------

TEST_F(Harden, LandAttackAndImpossibleSourcesDropped) {
  // SYN from our own address and port to ourselves (land).
  TcpSeg land;
  land.sport = 80;
  land.dport = 80;
  land.seq = 1;
  land.flags = TCP_SYN;
  inject(peer_ip_frame(6, tcp_segment(kOurIp, kOurIp, land), IpOpt(), kOurIp));
  inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {}), IpOpt(), kOurIp));
  EXPECT_EQ(2u, net_stats.ip.drop_land);
  // 0.0.0.0, loopback, limited and directed broadcast, multicast, class E.
  for (uint32_t src : {0u, NET_IP4(127, 0, 0, 1), 0xffffffffu, NET_IP4(10, 0, 0, 255), NET_IP4(224, 0, 0, 1),
                       NET_IP4(240, 0, 0, 1)}) {
    inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {}), IpOpt(), src));
  }
  EXPECT_EQ(6u, net_stats.ip.drop_src);
  // A group bit in the Ethernet source (broadcast or multicast MAC).
  const uint8_t mcast[6] = {0x01, 0x00, 0x5e, 0, 0, 1};
  inject(eth_frame(kOurMac, kBcastMac, 0x0800, ip_packet(kPeerIp, kOurIp, 1, icmp_echo(8, 1, 1, {}))));
  inject(eth_frame(kOurMac, mcast, 0x0806, arp_pkt(1, kPeerMac, kPeerIp, kZeroMac, kOurIp)));
  EXPECT_EQ(2u, net_stats.eth.drop_bad_src);
  EXPECT_TRUE(tx.empty());
  EXPECT_EQ(0u, net_stats.icmp.rx);
  for (auto& c : tcp_conns) EXPECT_EQ(TCP_CLOSED, c.state);
  // A real ping still works.
  inject(peer_ip_frame(1, icmp_echo(8, 1, 1, {})));
  EXPECT_EQ(1u, tx.size());
}

// An ARP packet whose sender address is ours (land-style): not answered,
// not learnt, counted like IPv4 from our own address.
TEST_F(Harden, ArpClaimingOurOwnAddressIsDroppedAndCounted) {
  // A request to us from "us" (another MAC), a reply to us, a request for
  // the peer's address.
  uint32_t replies = net_stats.arp.reply_tx;
  inject(eth_frame(kBcastMac, kOtherMac, 0x0806, arp_pkt(1, kOtherMac, kOurIp, kZeroMac, kOurIp)));
  inject(eth_frame(kOurMac, kOtherMac, 0x0806, arp_pkt(2, kOtherMac, kOurIp, kOurMac, kOurIp)));
  inject(eth_frame(kBcastMac, kOtherMac, 0x0806, arp_pkt(1, kOtherMac, kOurIp, kZeroMac, kPeerIp)));
  EXPECT_TRUE(tx.empty());
  EXPECT_EQ(3u, net_stats.arp.drop_land);
  EXPECT_EQ(0u, net_stats.arp.drop_not_for_us);
  EXPECT_EQ(replies, net_stats.arp.reply_tx);
  EXPECT_EQ(nullptr, arp_lookup(kOurIp));
  // The real peer's requests are still answered.
  inject(eth_frame(kBcastMac, kPeerMac, 0x0806, arp_pkt(1, kPeerMac, kPeerIp, kZeroMac, kOurIp)));
  EXPECT_EQ(1u, tx.size());
  EXPECT_EQ(replies + 1, net_stats.arp.reply_tx);
}

// ---- ARP conflicts -----------------------------------------------------------

TEST_F(Harden, GratuitousArpDoesNotReplaceAnEntryWhoseOwnerAnswers) {
  // Someone announces another MAC for the peer's address.
  inject(eth_frame(kBcastMac, kOtherMac, 0x0806, arp_pkt(1, kOtherMac, kPeerIp, kZeroMac, kPeerIp)));
  ASSERT_NE(nullptr, arp_lookup(kPeerIp));
  EXPECT_EQ(0, memcmp(arp_lookup(kPeerIp), kPeerMac, 6));  // kept
  EXPECT_EQ(1u, net_stats.arp.conflict);
  // At the next tick, a unicast request asks the old MAC.
  advance(10);
  ASSERT_EQ(1u, tx.size());
  EXPECT_TRUE(std::equal(kPeerMac, kPeerMac + 6, tx[0].begin()));
  EXPECT_EQ(1, get16(tx[0], 14 + 6));
  EXPECT_EQ(kPeerIp, get32(tx[0], 14 + 24));
  tx.clear();
  // The same claim again (also by an IPv4 frame) sends nothing more.
  inject(eth_frame(kBcastMac, kOtherMac, 0x0806, arp_pkt(2, kOtherMac, kPeerIp, kZeroMac, kOurIp)));
  inject(eth_frame(kOurMac, kOtherMac, 0x0800,
                   ip_packet(kPeerIp, kOurIp, 17, udp_datagram(kPeerIp, kOurIp, 1, 9, {1}))));
  advance(10);
  EXPECT_TRUE(tx.empty());
  EXPECT_EQ(3u, net_stats.arp.conflict);
  // The owner answers: the entry stays, and keeps working.
  inject(eth_frame(kOurMac, kPeerMac, 0x0806, arp_pkt(2, kPeerMac, kPeerIp, kOurMac, kOurIp)));
  EXPECT_EQ(1u, net_stats.arp.conflict_kept);
  advance(NET_ARP_REQUEST_MS * 2);
  ASSERT_NE(nullptr, arp_lookup(kPeerIp));
  EXPECT_EQ(0, memcmp(arp_lookup(kPeerIp), kPeerMac, 6));
  EXPECT_EQ(0u, net_stats.arp.conflict_dropped);
}

TEST_F(Harden, ArpEntryOfASilentOwnerIsDroppedAndResolvedAfresh) {
  inject(eth_frame(kBcastMac, kOtherMac, 0x0806, arp_pkt(2, kOtherMac, kPeerIp, kZeroMac, kOurIp)));
  advance(10);
  tx.clear();  // the probe
  advance(NET_ARP_REQUEST_MS);
  EXPECT_EQ(nullptr, arp_lookup(kPeerIp));
  EXPECT_EQ(1u, net_stats.arp.conflict_dropped);
  // The next datagram asks by broadcast; the answer is believed.
  struct udp_ep* ep = udp_bind(
      5000, [](struct udp_ep*, uint32_t, uint16_t, const uint8_t*, unsigned) {}, nullptr, nullptr);
  EXPECT_EQ(NET_ERR_ARP, udp_sendto(ep, kPeerIp, 7, "x", 1));
  ASSERT_EQ(1u, tx.size());
  EXPECT_TRUE(std::equal(kBcastMac, kBcastMac + 6, tx[0].begin()));
  tx.clear();
  inject(eth_frame(kOurMac, kOtherMac, 0x0806, arp_pkt(2, kOtherMac, kPeerIp, kOurMac, kOurIp)));
  ASSERT_EQ(1u, tx.size());  // the queued datagram, to the new MAC
  EXPECT_TRUE(std::equal(kOtherMac, kOtherMac + 6, tx[0].begin()));
}

// ---- default gateway ---------------------------------------------------------

TEST_F(Harden, OffLinkGoesToTheGatewayAndFailsWithoutOne) {
  const uint8_t gw_mac[6] = {0x02, 0, 0, 0, 0, 0xfe};
  prime_arp(kGwIp, gw_mac);
  struct udp_ep* ep = udp_bind(
      5000, [](struct udp_ep*, uint32_t, uint16_t, const uint8_t*, unsigned) {}, nullptr, nullptr);
  // A ping from off-link arrives through the router; the reply goes back
  // to the gateway's MAC, with no ARP for the off-link address.
  const uint32_t far = NET_IP4(192, 168, 9, 9);
  inject(eth_frame(kOurMac, gw_mac, 0x0800, ip_packet(far, kOurIp, 1, icmp_echo(8, 1, 1, {}))));
  ASSERT_EQ(1u, tx.size());
  EXPECT_TRUE(std::equal(gw_mac, gw_mac + 6, tx[0].begin()));
  EXPECT_EQ(far, parse(tx[0]).dst);
  tx.clear();
  EXPECT_EQ(NET_OK, udp_sendto(ep, far, 7, "x", 1));
  ASSERT_EQ(1u, tx.size());
  EXPECT_TRUE(std::equal(gw_mac, gw_mac + 6, tx[0].begin()));
  tx.clear();
  // No gateway: off-link sends fail, counted, nothing on the wire (no ARP
  // for 0.0.0.0 or for the far address); the ping from far gets no reply.
  nif_.gw = 0;
  EXPECT_EQ(NET_ERR_RTE, udp_sendto(ep, far, 7, "x", 1));
  inject(eth_frame(kOurMac, gw_mac, 0x0800, ip_packet(far, kOurIp, 1, icmp_echo(8, 1, 1, {}))));
  EXPECT_TRUE(tx.empty());
  EXPECT_EQ(2u, net_stats.ip.drop_no_route);
  EXPECT_EQ(0u, net_stats.arp.req_tx);
  // A gateway that is itself off-link is no route either.
  nif_.gw = NET_IP4(10, 9, 9, 9);
  EXPECT_EQ(NET_ERR_RTE, udp_sendto(ep, far, 7, "x", 1));
  EXPECT_TRUE(tx.empty());
  // On-link traffic is unaffected.
  EXPECT_EQ(NET_OK, udp_sendto(ep, kPeerIp, 7, "x", 1));
  EXPECT_EQ(1u, tx.size());
}

// ---- port 0 ------------------------------------------------------------------

TEST_F(Harden, SegmentsToOrFromPortZeroAreDroppedWithoutRst) {
  Peer to0;
  to0.lport = 0;
  to0.send(TCP_SYN);
  Peer from0;
  from0.port = 0;
  from0.send(TCP_SYN);
  EXPECT_TRUE(take_tcp().empty());
  EXPECT_EQ(2u, net_stats.tcp.drop_no_conn);
  EXPECT_EQ(0u, net_stats.tcp.rst_tx);
  for (auto& c : tcp_conns) EXPECT_EQ(TCP_CLOSED, c.state);
}

}  // namespace
