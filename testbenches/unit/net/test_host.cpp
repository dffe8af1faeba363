// Simulated-host tests against the minimal responder board (responder.h):
// ARP resolution, ping RTT equal to the analytic value to the picosecond,
// the host answering the board's pings, UDP generator timing and receiver
// verification, TCP bulk transfer (MSS/window rules, RTO retransmission
// after a forced loss, 10 concurrent connections) and the TCP server's
// delayed-ACK behaviour.
//
// One SystemC elaboration per process: every host/board pair the tests
// need is built up front; each test uses its own pair and only times
// relative to its own start.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <systemc>

#include "apps.h"
#include "eth_link.h"
#include "responder.h"
#include "sim_host.h"

namespace l3vp::test {
namespace {

using sc_core::SC_MS;
using sc_core::SC_NS;
using sc_core::SC_SEC;
using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_US;

constexpr uint32_t kBoard = 0xC0A80035, kHost = 0xC0A80037;

struct Pair {
  std::unique_ptr<EthLink> link;  // end 0: board, end 1: host
  std::unique_ptr<host::SimHost> host;
  std::unique_ptr<Responder> board;
};

struct PairCfg {
  EthLinkParams link;
  host::HostConfig host;
  host::TcpParams tcp;
  sc_time board_latency;
  uint16_t window = 300, mss = 1460;
};

struct Bench {
  std::map<std::string, Pair> pairs;
  void add(const std::string& n, const PairCfg& c) {
    Pair p;
    p.link = std::make_unique<EthLink>((n + "_link").c_str(), c.link);
    p.host = std::make_unique<host::SimHost>((n + "_host").c_str(), c.host, c.tcp);
    p.board = std::make_unique<Responder>((n + "_board").c_str());
    p.board->latency = c.board_latency;
    p.board->tcp_window = c.window;
    p.board->tcp_mss = c.mss;
    p.link->attach(0, p.board.get());
    p.board->connect(&p.link->port(0));
    p.link->attach(1, p.host.get());
    p.host->connect(&p.link->port(1));
    pairs[n] = std::move(p);
  }
  Bench() {
    PairCfg lat;  // every latency term non-zero and distinct
    lat.link.prop_delay = sc_time(250, SC_NS);
    lat.host.rx_latency = sc_time(7, SC_US);
    lat.host.tx_latency = sc_time(5, SC_US);
    lat.board_latency = sc_time(13, SC_US) + sc_time(1, sc_core::SC_PS);
    add("arp", lat);
    add("ping", lat);
    add("pinged", lat);
    add("udp_slow", lat);
    add("udp_fast", lat);
    add("udp_rx", lat);
    PairCfg queue = lat;  // a transmit queue of 4 frames
    queue.host.tx_queue = 4;
    add("tx_queue", queue);
    PairCfg t;
    t.window = 300;
    add("tcp300", t);
    add("tcploss", t);
    t.window = 1000;
    add("tcp1000", t);
    t.window = 8192;
    t.mss = 1000;
    add("tcp8k", t);
    t.mss = 1460;
    add("tcp10", t);
    add("server", t);
    add("rst", t);
    add_request_pair();
  }
  Pair& pair(const std::string& n) { return pairs.at(n); }
  // Two simulated hosts back to back, for the request/response client: the
  // "server" host (192.168.0.60) answers through its TcpStack directly.
  std::unique_ptr<EthLink> req_link;
  std::unique_ptr<host::SimHost> req_client, req_server;
  void add_request_pair() {
    req_link = std::make_unique<EthLink>("req_link", EthLinkParams{});
    host::HostConfig cc, sc;
    sc.mac = {0x02, 0x00, 0x00, 0x00, 0x00, 0x60};
    sc.ip = 0xC0A8003C;
    req_client = std::make_unique<host::SimHost>("req_client", cc, host::TcpParams{});
    req_server = std::make_unique<host::SimHost>("req_server", sc, host::TcpParams{});
    req_link->attach(0, req_server.get());
    req_server->connect(&req_link->port(0));
    req_link->attach(1, req_client.get());
    req_client->connect(&req_link->port(1));
  }
};

Bench& bench() {
  static Bench* b = [] {
    auto* x = new Bench();
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return x;
  }();
  return *b;
}
void run(const sc_time& dt) { sc_core::sc_start(dt); }
uint64_t ps(const sc_time& t) { return host::ps_of(t); }
sc_time wire(size_t len) { return eth::frame_time(len, 100); }

TEST(HostArp, ResolvesBoardAndAnswersForItself) {
  Pair& p = bench().pair("arp");
  EXPECT_EQ(p.host->arp_lookup(kBoard), nullptr);
  host::PingParams pp;
  pp.count = 1;
  host::PingApp ping(*p.host, pp);
  ping.start();
  run(sc_time(10, SC_MS));
  ASSERT_NE(p.host->arp_lookup(kBoard), nullptr);
  EXPECT_EQ(*p.host->arp_lookup(kBoard), p.board->mac);
  EXPECT_EQ(p.board->arp_requests, 1u);
  EXPECT_EQ(p.host->stats().arp_requests_sent, 1u);
  EXPECT_EQ(p.host->stats().arp_replies_rcvd, 1u);
  EXPECT_EQ(ping.received(), 1u);
  // The host's reply to an ARP request for 192.168.0.55 carries its MAC.
  EXPECT_EQ(p.board->host_mac, p.host->config().mac);
}

TEST(HostPing, RttEqualsAnalyticValue) {
  Pair& p = bench().pair("ping");
  const sc_time tx = sc_time(5, SC_US), rx = sc_time(7, SC_US), prop = sc_time(250, SC_NS);
  const sc_time resp = sc_time(13, SC_US) + sc_time(1, sc_core::SC_PS);
  host::PingParams pp;
  pp.count = 5;
  pp.size = 56;
  pp.interval = sc_time(1, SC_MS);
  pp.start = sc_time(3, SC_US);
  host::PingApp ping(*p.host, pp);
  const sc_time t0 = sc_time_stamp();
  ping.start();
  run(sc_time(2, SC_SEC));
  ASSERT_TRUE(ping.done());
  ASSERT_EQ(ping.received(), 5u);
  // Echo request/reply: 14 + 20 + 8 + 56 = 98 bytes -> (8 + 98 + 4) * 80 ns.
  const sc_time w = wire(98);
  EXPECT_EQ(w, sc_time(8800, SC_NS));
  const sc_time rtt = tx + w + prop + resp + w + prop + rx;
  // The first probe waits for ARP: request + reply (60 bytes on the wire
  // after padding) through the same latencies, then its own tx latency.
  const sc_time arp = tx + wire(42) + prop + resp + wire(42) + prop + rx;
  const auto& pr = ping.probes();
  EXPECT_EQ(pr[0].rtt, arp + rtt);
  for (unsigned k = 1; k < 5; ++k) {
    EXPECT_EQ(pr[k].rtt, rtt) << "probe " << k;
    EXPECT_EQ(pr[k].sent, t0 + pp.start + sc_time(k, SC_MS));
    EXPECT_FALSE(pr[k].corrupt);
  }
  EXPECT_EQ(ping.rtt_min_ps(), ps(rtt));
  EXPECT_EQ(ping.rtt_max_ps(), ps(arp + rtt));
  EXPECT_EQ(ping.rtt_avg_ps(), (ps(arp + rtt) + 4 * ps(rtt)) / 5);
  // mdev: one outlier d above four equal values -> d * sqrt(4) / 5.
  EXPECT_EQ(ping.rtt_mdev_ps(), ps(arp) * 2 / 5);
  const auto j = ping.to_json();
  EXPECT_EQ(j["received"], 5);
  EXPECT_EQ(j["packets"][1]["rtt_ps"], ps(rtt));
}

TEST(HostPing, AnswersTheBoardsEchoRequests) {
  Pair& p = bench().pair("pinged");
  p.host->arp_add(kBoard, p.board->mac);
  p.board->host_mac = p.host->config().mac;
  const sc_time t0 = sc_time_stamp();
  p.board->ping_host(kHost, 1);
  run(sc_time(1, SC_MS));
  ASSERT_EQ(p.board->echo_reply_times.size(), 1u);
  // 32 data bytes: 74-byte frames. Host turnaround = rx + tx latency.
  const sc_time w = wire(74);
  EXPECT_EQ(p.board->echo_reply_times[0] - t0,
            w + sc_time(250, SC_NS) + sc_time(12, SC_US) + w + sc_time(250, SC_NS));
  EXPECT_EQ(p.host->stats().icmp_echo_rep_sent, 1u);
}

void udp_timing(const std::string& name, sc_time delay, bool wire_limited) {
  Pair& p = bench().pair(name);
  p.host->arp_add(kBoard, p.board->mac);
  auto starts = std::make_shared<std::vector<sc_time>>();
  const auto id = p.link->on_send.listen([starts](const EthWireEvent& e) {
    const EthFrame& f = e.frame;
    if (e.dir == 1 && f.data.size() > 23 && f.data[23] == host::kProtoUdp) starts->push_back(e.start);
  });
  host::UdpSendParams up;
  up.size = 1000;
  up.count = 20;
  up.delay = delay;
  up.start = sc_time(1, SC_US);
  host::UdpSender gen(*p.host, up);
  host::UdpRecvParams rp;
  rp.port = up.sport;  // the board echoes back to the source port
  rp.expect = up.count;
  host::UdpReceiver echo(*p.host, rp);
  echo.start();
  const sc_time t0 = sc_time_stamp() + up.start + sc_time(5, SC_US);  // + host tx latency
  gen.start();
  run(sc_time(100, SC_MS));
  ASSERT_EQ(starts->size(), 20u);
  const sc_time w = wire(14 + 20 + 8 + 1000), ifg = eth::ifg_time(100);
  for (unsigned k = 0; k < 20; ++k) {
    const sc_time want = wire_limited ? t0 + sc_time::from_value((w + ifg).value() * k)
                                      : t0 + sc_time::from_value(delay.value() * k);
    EXPECT_EQ((*starts)[k], want) << "datagram " << k;
  }
  EXPECT_EQ(p.board->udp_rx.size(), 20u);
  EXPECT_EQ(echo.received(), 20u);
  EXPECT_EQ(echo.bad(), 0u);
  EXPECT_EQ(echo.to_json()["lost"], 0);
  EXPECT_TRUE(gen.done());
  p.link->on_send.unlisten(id);
}

TEST(HostUdp, GeneratorLeavesAtT0PlusKDelay) { udp_timing("udp_slow", sc_time(200, SC_US), false); }
TEST(HostUdp, GeneratorIsWireLimitedForShortDelays) { udp_timing("udp_fast", sc_time(1, SC_US), true); }

// The transmit queue holds a frame from the moment the stack hands it over
// (inside the 5 us transmit latency too) until its last bit has left the
// wire: 20 datagrams 1 us apart into a queue of 4 send the first 4 and drop
// 16; once the first frame has left, the next one goes again.
TEST(HostTxQueue, DropsAndCountsWhatTheQueueCannotHold) {
  Pair& p = bench().pair("tx_queue");
  p.host->arp_add(kBoard, p.board->mac);
  host::UdpSendParams up;
  up.size = 1000;
  up.count = 20;
  up.delay = sc_time(1, SC_US);
  host::UdpSender gen(*p.host, up);
  const sc_time t0 = sc_time_stamp();
  gen.start();
  run(sc_time(50, SC_US));  // every datagram offered; the first still on the wire
  EXPECT_EQ(p.host->stats().tx_queue_drops, 16u);
  EXPECT_EQ(p.host->stats_json()["tx_queue_drops"], 16);
  const sc_time first_end = t0 + sc_time(5, SC_US) + wire(14 + 20 + 8 + 1000);
  run(first_end - sc_time_stamp() - sc_time(1, sc_core::SC_PS));
  EXPECT_FALSE(p.host->send_frame(host::Bytes(100, 0))) << "a slot freed before the last bit left";
  run(sc_time(1, sc_core::SC_PS));
  EXPECT_TRUE(p.host->send_frame(host::Bytes(100, 0))) << "the first frame's slot is free at its end";
  EXPECT_EQ(p.host->stats().tx_queue_drops, 17u);
  run(sc_time(10, SC_MS));
  EXPECT_EQ(p.board->udp_rx.size(), 4u);
  EXPECT_EQ(p.host->stats().tx_frames, 5u);
}

TEST(HostUdp, ReceiverVerifiesPatternAndCountsLoss) {
  Pair& p = bench().pair("udp_rx");
  p.host->arp_add(kBoard, p.board->mac);
  host::UdpRecvParams rp;
  rp.port = 6000;
  rp.expect = 4;
  host::UdpReceiver r(*p.host, rp);
  r.start();
  // Datagrams 0, 1, 1 (duplicate), 3 and one corrupted, echoed by the board.
  p.host->udp_send(kBoard, 6000, 7, host::udp_pattern(0, 100));
  p.host->udp_send(kBoard, 6000, 7, host::udp_pattern(1, 100));
  p.host->udp_send(kBoard, 6000, 7, host::udp_pattern(1, 100));
  p.host->udp_send(kBoard, 6000, 7, host::udp_pattern(3, 100));
  host::Bytes bad = host::udp_pattern(2, 100);
  bad[50] ^= 1;
  p.host->udp_send(kBoard, 6000, 7, bad);
  run(sc_time(5, SC_MS));
  EXPECT_EQ(r.received(), 5u);
  EXPECT_EQ(r.bad(), 1u);
  EXPECT_EQ(r.duplicates(), 1u);
  EXPECT_EQ(r.unique(), 3u);
  EXPECT_EQ(r.to_json()["lost"], 1);
}

struct TcpRun {
  host::TcpClientApp app;
  TcpRun(Pair& p, uint64_t bytes, unsigned conns) : app(*p.host, params(bytes, conns)) {}
  static host::TcpClientParams params(uint64_t bytes, unsigned conns) {
    host::TcpClientParams t;
    t.bytes = bytes;
    t.connections = conns;
    return t;
  }
};

TEST(HostTcp, SmallWindowBoundsSegmentsAndDataIsVerified) {
  Pair& p = bench().pair("tcp300");
  TcpRun r(p, 20000, 1);
  r.app.start();
  run(sc_time(2, SC_SEC));
  ASSERT_TRUE(r.app.done());
  ASSERT_EQ(r.app.conns().size(), 1u);
  const host::TcpConn& c = *r.app.conns()[0];
  EXPECT_EQ(c.stats().bytes_acked, 20000u);
  EXPECT_EQ(c.stats().mss_now, 300u);  // window 300 <= 536: bounded to the whole window
  EXPECT_EQ(c.stats().max_seg_out, 300u);
  EXPECT_EQ(c.stats().retransmits, 0u);
  ASSERT_EQ(p.board->sink.size(), 1u);
  const Responder::SinkConn& s = p.board->sink.begin()->second;
  EXPECT_EQ(s.bytes, 20000u);
  EXPECT_EQ(s.bad, 0u);
  EXPECT_EQ(s.max_len, 300u);
  EXPECT_TRUE(s.fin);
  for (const auto& g : s.segs) EXPECT_LE(g.len, 300u);
  // 20000 / 300: 66 full segments and a 200-byte tail carrying the FIN.
  EXPECT_EQ(c.stats().data_segs_out, 67u);
  EXPECT_EQ(c.stats().min_seg_out, 200u);
  EXPECT_NE(c.stats().data_acked, sc_time());
  EXPECT_EQ(c.state(), host::TcpState::kClosed);
  EXPECT_TRUE(r.app.to_json().contains("completion_ps"));
}

TEST(HostTcp, HalfWindowRuleAboveDefaultMss) {
  Pair& p = bench().pair("tcp1000");
  TcpRun r(p, 10000, 1);
  r.app.start();
  run(sc_time(2, SC_SEC));
  ASSERT_TRUE(r.app.done());
  // Window 1000 > 536: Linux bounds segments to half of it.
  EXPECT_EQ(r.app.conns()[0]->stats().mss_now, 500u);
  EXPECT_EQ(p.board->sink.begin()->second.max_len, 500u);
  EXPECT_EQ(p.board->sink.begin()->second.bytes, 10000u);
  EXPECT_EQ(p.board->sink.begin()->second.bad, 0u);
}

TEST(HostTcp, RetransmitsAfterLossOnRtoSchedule) {
  Pair& p = bench().pair("tcploss");
  p.board->drop_offset = 3000;  // the segment covering byte 3000 vanishes once
  TcpRun r(p, 6000, 1);
  r.app.start();
  run(sc_time(3, SC_SEC));
  ASSERT_TRUE(r.app.done());
  const host::TcpConn& c = *r.app.conns()[0];
  EXPECT_EQ(p.board->dropped, 1u);
  EXPECT_EQ(c.stats().timeouts, 1u);  // one segment in flight: no dupacks, RTO
  EXPECT_EQ(c.stats().retransmits, 1u);
  EXPECT_EQ(c.stats().bytes_acked, 6000u);
  const Responder::SinkConn& s = p.board->sink.begin()->second;
  EXPECT_EQ(s.bytes, 6000u);
  EXPECT_EQ(s.bad, 0u);
  // The copy arrives exactly one RTO after the lost one: RTTs are
  // microseconds, so RTO = srtt + 4 rttvar is clamped to rto_min (200 ms).
  sc_time lost, again;
  for (const auto& g : s.segs) {
    if ((g.flags & 0x80) && lost == sc_time())
      lost = g.t;
    else if (lost != sc_time() && g.off == 3000 && g.len > 0 && again == sc_time())
      again = g.t;
  }
  ASSERT_NE(lost, sc_time());
  ASSERT_NE(again, sc_time());
  EXPECT_EQ(again - lost, sc_time(200, SC_MS));
}

TEST(HostTcp, TenConcurrentConnections) {
  Pair& p = bench().pair("tcp10");
  TcpRun r(p, 50000, 10);
  r.app.start();
  run(sc_time(5, SC_SEC));
  ASSERT_TRUE(r.app.done());
  ASSERT_EQ(p.board->sink.size(), 10u);  // ten distinct source ports
  for (const auto& [port, s] : p.board->sink) {
    EXPECT_EQ(s.bytes, 50000u) << port;
    EXPECT_EQ(s.bad, 0u) << port;
    EXPECT_TRUE(s.fin) << port;
    EXPECT_LE(s.max_len, 1460u);
  }
  for (const host::TcpConn* c : r.app.conns()) {
    EXPECT_EQ(c->stats().bytes_acked, 50000u);
    EXPECT_EQ(c->stats().mss_now, 1460u);  // min(1460, 8192 / 2)
  }
  // The connections really overlapped: each started before any finished.
  sc_time first_done = sc_time(1000, SC_SEC), last_open;
  for (const host::TcpConn* c : r.app.conns()) {
    first_done = std::min(first_done, c->stats().data_acked);
    last_open = std::max(last_open, c->stats().established);
  }
  EXPECT_LT(last_open, first_done);
  EXPECT_EQ(r.app.to_json()["completed"], 10);
}

TEST(HostTcp, PeerMssIsRespected) {
  Pair& p = bench().pair("tcp8k");
  TcpRun r(p, 30000, 1);
  r.app.start();
  run(sc_time(2, SC_SEC));
  ASSERT_TRUE(r.app.done());
  EXPECT_EQ(r.app.conns()[0]->stats().peer_mss, 1000u);
  EXPECT_EQ(r.app.conns()[0]->stats().max_seg_out, 1000u);
  EXPECT_EQ(p.board->sink.begin()->second.max_len, 1000u);
  EXPECT_EQ(p.board->sink.begin()->second.bytes, 30000u);
}

TEST(HostTcpServer, QuickAckThenEverySecondSegmentThenDelayedAck) {
  Pair& p = bench().pair("server");
  p.host->arp_add(kBoard, p.board->mac);
  p.board->host_mac = p.host->config().mac;
  host::TcpServerParams sp;
  sp.port = 5001;
  host::TcpServerApp srv(*p.host, sp);
  srv.start();
  Responder& b = *p.board;
  b.client_connect(kHost, 5001);
  run(sc_time(1, SC_MS));
  ASSERT_TRUE(b.client_established);
  const size_t base = b.client_rx.size();  // the SYN-ACK
  // 20 full segments, 1 ms apart, then one more alone, then FIN.
  const sc_time t0 = sc_time_stamp();
  for (unsigned k = 0; k < 20; ++k) {
    b.sched.at(t0 + sc_time(k, SC_MS), [&b, k] { b.client_send(uint64_t(k) * 1460, 1460); });
  }
  b.sched.at(t0 + sc_time(100, SC_MS), [&b] { b.client_send(20 * 1460, 1460); });
  b.sched.at(t0 + sc_time(300, SC_MS), [&b] { b.client_fin(21 * 1460); });
  run(sc_time(400, SC_MS));
  std::vector<Responder::Seg> acks(b.client_rx.begin() + base, b.client_rx.end());
  const sc_time seg_wire = wire(14 + 20 + 20 + 1460);
  // Quick-ACK mode: min(16, 64240 / (2 * 536)) = 16 immediate ACKs.
  ASSERT_GE(acks.size(), 16u + 2u + 1u);
  for (unsigned k = 0; k < 16; ++k) {
    EXPECT_EQ(acks[k].ack, b.client_iss + 1 + (k + 1) * 1460) << k;
    EXPECT_EQ(acks[k].t - t0, sc_time(k, SC_MS) + seg_wire + wire(54)) << k;
  }
  // Then one ACK per two full segments (segments 17+18, 19+20).
  EXPECT_EQ(acks[16].ack, b.client_iss + 1 + 18 * 1460);
  EXPECT_EQ(acks[16].t - t0, sc_time(17, SC_MS) + seg_wire + wire(54));
  EXPECT_EQ(acks[17].ack, b.client_iss + 1 + 20 * 1460);
  // A lone segment is acknowledged by the delayed-ACK timer, 40 ms later.
  EXPECT_EQ(acks[18].ack, b.client_iss + 1 + 21 * 1460);
  EXPECT_EQ(acks[18].t - t0, sc_time(100, SC_MS) + seg_wire + sc_time(40, SC_MS) + wire(54));
  // FIN: immediate ACK and the server's own FIN (it closes with the peer).
  bool fin = false;
  for (size_t i = 19; i < acks.size(); ++i) fin |= (acks[i].flags & host::kFin) != 0;
  EXPECT_TRUE(fin);
  ASSERT_EQ(srv.conns().size(), 1u);
  EXPECT_EQ(srv.conns()[0]->stats().bytes_received, 21u * 1460);
  EXPECT_EQ(srv.conns()[0]->stats().bad_bytes, 0u);
  EXPECT_EQ(srv.conns()[0]->stats().delayed_acks, 1u);
  EXPECT_EQ(srv.conns()[0]->stats().quick_acks, 16u);
}

TEST(HostTcp, ResetForClosedPort) {
  Pair& p = bench().pair("rst");
  p.host->arp_add(kBoard, p.board->mac);
  p.board->host_mac = p.host->config().mac;
  p.board->client_connect(kHost, 4444);
  run(sc_time(1, SC_MS));
  ASSERT_EQ(p.board->client_rx.size(), 1u);
  EXPECT_EQ(p.board->client_rx[0].flags, host::kRst | host::kAck);
  EXPECT_EQ(p.board->client_rx[0].ack, p.board->client_iss + 1);
  EXPECT_EQ(p.host->tcp().rst_sent(), 1u);
}

// tcp_request: the request goes out as given (not the stream pattern), the
// reply is kept byte for byte, the client closes after the server's FIN,
// and only a connection that got exactly `expect` matches.
TEST(HostTcpRequest, SendsRequestKeepsReplyAndMatchesIt) {
  Bench& b = bench();
  std::vector<host::TcpConn*> served;
  const std::string reply = "greeting\nHello bob\n";
  b.req_server->tcp().listen(4242, [&](host::TcpConn& c) {
    c.capture_rx();
    c.send_data(host::Bytes(reply.begin(), reply.end()), true);  // answer and close
    served.push_back(&c);
  });
  host::TcpRequestParams ok;
  ok.dst = 0xC0A8003C;
  ok.dport = 4242;
  ok.request = "bob\n";
  ok.expect = reply;
  ok.connections = 2;
  ok.stagger = sc_time(10, SC_MS);
  host::TcpRequestParams bad = ok;
  bad.connections = 1;
  bad.expect = "greeting\nHello alice\n";
  host::TcpRequestParams wait = ok;  // answers only after the prompt arrived
  wait.connections = 1;
  wait.prompt = "greeting\n";
  host::TcpRequestApp a(*b.req_client, ok), x(*b.req_client, bad), w(*b.req_client, wait);
  a.start();
  x.start();
  w.start();
  run(sc_time(500, SC_MS));
  ASSERT_TRUE(a.done());
  ASSERT_TRUE(x.done());
  EXPECT_EQ(a.matched(), 2u);
  EXPECT_EQ(x.matched(), 0u);  // same reply, other expectation
  const auto j = a.to_json();
  EXPECT_EQ(j["completed"], 2);
  EXPECT_EQ(j["bytes_received"], 2 * reply.size());
  EXPECT_EQ(j["conns"][0]["received"], reply);
  EXPECT_EQ(j["conns"][0]["bad_bytes"], 0);
  EXPECT_TRUE(j.contains("completion_ps"));
  EXPECT_EQ(x.to_json()["conns"][0]["match"], false);
  ASSERT_TRUE(w.done());
  EXPECT_EQ(w.matched(), 1u);
  ASSERT_EQ(served.size(), 4u);
  // The prompted request left only after the reply's first byte arrived.
  const host::TcpConn* wc = w.conns()[0];
  const host::TcpConn* ws = nullptr;
  for (const host::TcpConn* c : served)
    if (c->remote_port() == wc->local_port()) ws = c;
  ASSERT_NE(ws, nullptr);
  EXPECT_GT(ws->stats().first_rx, wc->stats().first_rx);
  for (const host::TcpConn* c : served) {
    EXPECT_EQ(std::string(c->rx_data().begin(), c->rx_data().end()), "bob\n");
    EXPECT_EQ(c->state(), host::TcpState::kClosed);
  }
}

// tcp_request with an interval: the request's bytes leave one at a time,
// `interval` apart (a trickling client), and the connection stays open.
TEST(HostTcpRequest, IntervalTricklesTheRequestByteByByte) {
  Bench& b = bench();
  host::TcpConn* srv = nullptr;
  std::vector<sc_time> at;
  b.req_server->tcp().listen(4243, [&](host::TcpConn& c) {
    c.capture_rx();
    c.on_data = [&](host::TcpConn&) { at.push_back(sc_core::sc_time_stamp()); };
    srv = &c;
  });
  host::TcpRequestParams t;
  t.dst = 0xC0A8003C;
  t.dport = 4243;
  t.request = "abcd";
  t.interval = sc_time(200, SC_MS);
  host::TcpRequestApp a(*b.req_client, t);
  a.start();
  run(sc_time(1, SC_SEC));
  ASSERT_NE(srv, nullptr);
  EXPECT_EQ(std::string(srv->rx_data().begin(), srv->rx_data().end()), "abcd");
  ASSERT_EQ(at.size(), 4u);
  EXPECT_LE(at[1] - at[0], sc_time(200, SC_MS));  // the first waited for the handshake
  for (size_t i = 2; i < at.size(); ++i) EXPECT_EQ(at[i] - at[i - 1], sc_time(200, SC_MS)) << i;
  EXPECT_FALSE(a.done());  // still open: the server has not closed
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
