// ARP (RFC 826): request/reply, merge rules, ageing, queueing while
// resolving, request retries and giving up.
#include "net_harness.h"

using namespace nh;

namespace {

const uint8_t kZeroMac[6] = {0};
const uint8_t kOtherMac[6] = {0x02, 0, 0, 0, 0, 0x33};

class Arp : public NetTest {};

TEST_F(Arp, RequestForUsIsAnsweredAndSenderLearned) {
  inject(eth_frame(kBcastMac, kPeerMac, 0x0806, arp_pkt(1, kPeerMac, kPeerIp, kZeroMac, kOurIp)));
  ASSERT_EQ(1u, tx.size());
  const Bytes& r = tx[0];
  ASSERT_GE(r.size(), 42u);
  EXPECT_TRUE(std::equal(kPeerMac, kPeerMac + 6, r.begin()));    // eth dst
  EXPECT_TRUE(std::equal(kOurMac, kOurMac + 6, r.begin() + 6));  // eth src
  EXPECT_EQ(0x0806, get16(r, 12));
  EXPECT_EQ(2, get16(r, 14 + 6));                                     // reply
  EXPECT_TRUE(std::equal(kOurMac, kOurMac + 6, r.begin() + 14 + 8));  // sha
  EXPECT_EQ(kOurIp, get32(r, 14 + 14));
  EXPECT_TRUE(std::equal(kPeerMac, kPeerMac + 6, r.begin() + 14 + 18));
  EXPECT_EQ(kPeerIp, get32(r, 14 + 24));
  ASSERT_NE(nullptr, arp_lookup(kPeerIp));
  EXPECT_EQ(0, memcmp(arp_lookup(kPeerIp), kPeerMac, 6));
  EXPECT_EQ(1u, net_stats.arp.req_rx);
  EXPECT_EQ(1u, net_stats.arp.reply_tx);
}

TEST_F(Arp, RequestForSomeoneElseIsIgnoredAndNotLearned) {
  inject(
      eth_frame(kBcastMac, kPeerMac, 0x0806, arp_pkt(1, kPeerMac, kPeerIp, kZeroMac, NET_IP4(10, 0, 0, 77))));
  EXPECT_TRUE(tx.empty());
  EXPECT_EQ(nullptr, arp_lookup(kPeerIp));
  EXPECT_EQ(1u, net_stats.arp.drop_not_for_us);
}

TEST_F(Arp, KnownSenderIsRefreshedByAnyArp) {
  prime_arp();
  advance(NET_ARP_MAXAGE_MS - 1000, 1000);
  // The peer announces its (unchanged) MAC in a request for another host:
  // the entry is refreshed, nothing is sent.
  inject(
      eth_frame(kBcastMac, kPeerMac, 0x0806, arp_pkt(1, kPeerMac, kPeerIp, kZeroMac, NET_IP4(10, 0, 0, 77))));
  EXPECT_TRUE(tx.empty());
  advance(2000, 1000);
  ASSERT_NE(nullptr, arp_lookup(kPeerIp));
  EXPECT_EQ(0, memcmp(arp_lookup(kPeerIp), kPeerMac, 6));
  EXPECT_EQ(0u, net_stats.arp.conflict);
}

TEST_F(Arp, EntriesAgeOut) {
  prime_arp();
  advance(NET_ARP_MAXAGE_MS - 1000, 1000);
  EXPECT_NE(nullptr, arp_lookup(kPeerIp));
  advance(1000, 1000);
  EXPECT_EQ(nullptr, arp_lookup(kPeerIp));
  EXPECT_EQ(1u, net_stats.arp.expired);
}

TEST_F(Arp, TrafficRefreshesEntryFromIp) {
  prime_arp();
  advance(NET_ARP_MAXAGE_MS - 1000, 1000);
  inject(peer_ip_frame(17, udp_datagram(kPeerIp, kOurIp, 1, 9, {1, 2, 3})));  // no port: dropped
  advance(2000, 1000);
  EXPECT_NE(nullptr, arp_lookup(kPeerIp));  // refreshed by the IP frame
}

// arp_timer() walks the table only when an entry is due (expiry, retry,
// probe): an idle valid entry costs one scan at its expiry, not one per tick.
TEST_F(Arp, TimerScansOnlyWhenAnEntryIsDue) {
  prime_arp();
  uint32_t scans = net_stats.arp.timer_scans;
  advance(NET_ARP_MAXAGE_MS / 2, 1);  // 150 000 ticks of 1 ms
  EXPECT_LE(net_stats.arp.timer_scans - scans, 1u);
  EXPECT_NE(nullptr, arp_lookup(kPeerIp));
  advance(NET_ARP_MAXAGE_MS / 2, 1);  // the expiry itself is on time
  EXPECT_EQ(nullptr, arp_lookup(kPeerIp));
  EXPECT_EQ(1u, net_stats.arp.expired);
  EXPECT_LE(net_stats.arp.timer_scans - scans, 2u);
}

// A deadline earlier than the one arp_timer() waits for (a resolution
// started while a valid entry expires much later) is not missed.
TEST_F(Arp, EarlierDeadlineWakesTheTimer) {
  prime_arp();
  advance(10, 1);
  struct udp_ep* ep = udp_bind(
      5000, [](struct udp_ep*, uint32_t, uint16_t, const uint8_t*, unsigned) {}, nullptr, nullptr);
  udp_sendto(ep, NET_IP4(10, 0, 0, 3), 7, "a", 1);
  EXPECT_EQ(1u, net_stats.arp.req_tx);
  advance(NET_ARP_REQUEST_MS, 1);
  EXPECT_EQ(2u, net_stats.arp.req_tx);  // retried on time
}

// Frames from the sender learned last (valid entry, same MAC) take the
// learning fast path: only the entry's time is set, and it still refreshes.
TEST_F(Arp, RepeatedSenderTakesLearnFastPath) {
  prime_arp();
  inject(peer_ip_frame(17, udp_datagram(kPeerIp, kOurIp, 1, 9, {1})));
  uint32_t fast = net_stats.arp.learn_fast;
  advance(NET_ARP_MAXAGE_MS - 1000, 1000);
  inject(peer_ip_frame(17, udp_datagram(kPeerIp, kOurIp, 1, 9, {2})));
  EXPECT_EQ(fast + 1, net_stats.arp.learn_fast);
  advance(2000, 1000);
  EXPECT_NE(nullptr, arp_lookup(kPeerIp));  // refreshed by the fast path
  // Another MAC for the address is no fast path: a conflict.
  inject(eth_frame(kOurMac, kOtherMac, 0x0800,
                   ip_packet(kPeerIp, kOurIp, 17, udp_datagram(kPeerIp, kOurIp, 1, 9, {3}))));
  EXPECT_EQ(fast + 1, net_stats.arp.learn_fast);
  EXPECT_EQ(1u, net_stats.arp.conflict);
}

// MACs are copied and the IP header written inline (halfwords when
// 2-aligned, else bytes): a frame at an odd address (read in place in the
// zero-copy build, where the echo reply is also built there) must still
// learn and address every byte.
TEST_F(Arp, LearnsAndAddressesFromFrameAtOddAddress) {
  const uint8_t mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
  Bytes f = peer_ip_frame(1, icmp_echo(8, 7, 1, pattern(8)));
  std::copy(mac, mac + 6, f.begin() + 6);
  std::unique_ptr<uint8_t[]> buf(new uint8_t[f.size() + 1]);
  memcpy(buf.get() + 1, f.data(), f.size());
  size_t ntx0 = tx.size();
  net_input(buf.get() + 1, (unsigned)f.size());
  const uint8_t* got = arp_lookup(kPeerIp);
  ASSERT_NE(nullptr, got);
  EXPECT_TRUE(std::equal(mac, mac + 6, got));
  ASSERT_EQ(ntx0 + 1, tx.size());  // the echo reply
  EXPECT_TRUE(std::equal(mac, mac + 6, tx.back().begin()));
  EXPECT_TRUE(std::equal(kOurMac, kOurMac + 6, tx.back().begin() + 6));
  // ... and the IP header, written bytewise there (ip_output_frame()).
  Pkt r = parse(tx.back());
  EXPECT_TRUE(r.ip_ok);
  EXPECT_EQ(kOurIp, r.src);
  EXPECT_EQ(kPeerIp, r.dst);
  EXPECT_EQ(1u, r.proto);
}

TEST_F(Arp, PacketQueuedWhileResolvingAndSentOnReply) {
  struct udp_ep* ep = udp_bind(
      5000, [](struct udp_ep*, uint32_t, uint16_t, const uint8_t*, unsigned) {}, nullptr, nullptr);
  ASSERT_NE(nullptr, ep);
  Bytes msg = pattern(100);
  EXPECT_EQ(NET_ERR_ARP, udp_sendto(ep, kPeerIp, 7, msg.data(), (unsigned)msg.size()));
  ASSERT_EQ(1u, tx.size());  // only the ARP request
  EXPECT_EQ(0x0806, get16(tx[0], 12));
  EXPECT_TRUE(std::equal(kBcastMac, kBcastMac + 6, tx[0].begin()));
  EXPECT_EQ(1, get16(tx[0], 14 + 6));
  EXPECT_EQ(kPeerIp, get32(tx[0], 14 + 24));
  tx.clear();
  inject(eth_frame(kOurMac, kPeerMac, 0x0806, arp_pkt(2, kPeerMac, kPeerIp, kOurMac, kOurIp)));
  ASSERT_EQ(1u, tx.size());  // the queued datagram, now addressed
  EXPECT_TRUE(std::equal(kPeerMac, kPeerMac + 6, tx[0].begin()));
  Pkt p = parse(tx[0]);
  ASSERT_TRUE(p.ip_ok);
  EXPECT_TRUE(p.l4_ok);
  EXPECT_EQ(msg, p.data);
  EXPECT_EQ(1u, net_stats.arp.queued);
  EXPECT_EQ(1u, net_stats.arp.queue_sent);
}

TEST_F(Arp, OffLinkDestinationResolvesGateway) {
  struct udp_ep* ep = udp_bind(
      5000, [](struct udp_ep*, uint32_t, uint16_t, const uint8_t*, unsigned) {}, nullptr, nullptr);
  udp_sendto(ep, NET_IP4(192, 168, 9, 9), 7, "x", 1);
  ASSERT_EQ(1u, tx.size());
  EXPECT_EQ(kGwIp, get32(tx[0], 14 + 24));
}

TEST_F(Arp, SecondPacketToOtherHostWhileQueueBusyIsDroppedAndCounted) {
  struct udp_ep* ep = udp_bind(
      5000, [](struct udp_ep*, uint32_t, uint16_t, const uint8_t*, unsigned) {}, nullptr, nullptr);
  udp_sendto(ep, kPeerIp, 7, "a", 1);
  udp_sendto(ep, NET_IP4(10, 0, 0, 3), 7, "b", 1);
  EXPECT_EQ(1u, net_stats.arp.queued);
  EXPECT_EQ(1u, net_stats.arp.drop_queue_full);
  EXPECT_EQ(2u, net_stats.arp.req_tx);  // both addresses are still requested
}

TEST_F(Arp, RequestsRetriedThenGivenUp) {
  struct udp_ep* ep = udp_bind(
      5000, [](struct udp_ep*, uint32_t, uint16_t, const uint8_t*, unsigned) {}, nullptr, nullptr);
  udp_sendto(ep, kPeerIp, 7, "a", 1);
  EXPECT_EQ(1u, net_stats.arp.req_tx);
  advance(NET_ARP_REQUEST_MS - 10);
  EXPECT_EQ(1u, net_stats.arp.req_tx);
  advance(10);
  EXPECT_EQ(2u, net_stats.arp.req_tx);
  advance(NET_ARP_REQUEST_MS * (NET_ARP_MAX_TRIES + 1));
  EXPECT_EQ((uint32_t)NET_ARP_MAX_TRIES, net_stats.arp.req_tx);
  EXPECT_EQ(1u, net_stats.arp.drop_unresolved);
  // A late reply no longer sends anything.
  tx.clear();
  inject(eth_frame(kOurMac, kPeerMac, 0x0806, arp_pkt(2, kPeerMac, kPeerIp, kOurMac, kOurIp)));
  EXPECT_TRUE(tx.empty());
}

TEST_F(Arp, FullTableEvictsOldestValidEntry) {
  for (unsigned i = 0; i < NET_ARP_TABLE_SIZE; i++) {
    uint8_t mac[6] = {0x02, 0, 0, 0, 1, (uint8_t)i};
    prime_arp(NET_IP4(10, 0, 0, 10 + i), mac);
    advance(10);
  }
  EXPECT_NE(nullptr, arp_lookup(NET_IP4(10, 0, 0, 10)));
  prime_arp(NET_IP4(10, 0, 0, 100), kOtherMac);
  EXPECT_EQ(nullptr, arp_lookup(NET_IP4(10, 0, 0, 10)));  // oldest went
  EXPECT_NE(nullptr, arp_lookup(NET_IP4(10, 0, 0, 11)));
  EXPECT_NE(nullptr, arp_lookup(NET_IP4(10, 0, 0, 100)));
  EXPECT_EQ(1u, net_stats.arp.evicted);
}

TEST_F(Arp, MalformedArpDropped) {
  Bytes a = arp_pkt(1, kPeerMac, kPeerIp, kZeroMac, kOurIp);
  Bytes bad_hlen = a;
  bad_hlen[4] = 8;
  inject(eth_frame(kBcastMac, kPeerMac, 0x0806, bad_hlen));
  Bytes truncated(a.begin(), a.begin() + 27);
  inject(eth_frame(kBcastMac, kPeerMac, 0x0806, truncated));
  Bytes bad_op = a;
  put16(bad_op, 6, 9);
  inject(eth_frame(kBcastMac, kPeerMac, 0x0806, bad_op));
  EXPECT_EQ(2u, net_stats.arp.drop_malformed);
  EXPECT_EQ(1u, net_stats.arp.drop_op);
  EXPECT_TRUE(tx.empty());
  EXPECT_EQ(nullptr, arp_lookup(kPeerIp));
}

}  // namespace
