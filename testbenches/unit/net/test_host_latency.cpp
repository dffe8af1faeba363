// The simulated PC's latency model (models/net/README.md "Host latency
// model") against the responder board: ping RTT grows by exactly the fixed
// and per-byte terms computed from the frame sizes; the wake-up latency
// applies only after the host was idle longer than the threshold (10 ms vs
// 500 us ping intervals, and the boundary: idle exactly the threshold does
// not wake); a short frame never overtakes a long one in either direction;
// a capture at the PC's stack boundary (`--pcap-at host`) differs from the
// board-side capture by exactly the modelled latencies, frame for frame.
//
// One SystemC elaboration per process: every pair is built up front and
// each test uses its own pairs and only times relative to its own start.
#include <gtest/gtest.h>
#include <pcap/pcap.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <systemc>

#include "apps.h"
#include "eth_link.h"
#include "pcap_writer.h"
#include "responder.h"
#include "sim_host.h"

namespace l3vp::test {
namespace {

using sc_core::SC_MS;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::SC_SEC;
using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_US;

constexpr uint32_t kBoard = 0xC0A80035;
const sc_time kProp = sc_time(250, SC_NS), kBoardLatency = sc_time(13, SC_US);
const sc_time kRx = sc_time(7, SC_US), kTx = sc_time(5, SC_US);
const sc_time kRxPerByte = sc_time(8, SC_NS) + sc_time(3, SC_PS), kTxPerByte = sc_time(2, SC_NS);
const sc_time kWake = sc_time(100, SC_US), kIdle = sc_time(1, SC_MS);

struct Pair {
  std::unique_ptr<EthLink> link;  // end 0: board, end 1: host
  std::unique_ptr<host::SimHost> host;
  std::unique_ptr<Responder> board;
};

host::HostConfig fixed_only() {
  host::HostConfig h;
  h.rx_latency = kRx;
  h.tx_latency = kTx;
  return h;
}
host::HostConfig per_byte() {
  host::HostConfig h = fixed_only();
  h.rx_per_byte = kRxPerByte;
  h.tx_per_byte = kTxPerByte;
  return h;
}
host::HostConfig waking() {
  host::HostConfig h = fixed_only();
  h.wake_latency = kWake;
  h.idle_threshold = kIdle;
  return h;
}

struct Bench {
  std::map<std::string, Pair> pairs;
  void add(const std::string& n, const host::HostConfig& h) {
    EthLinkParams lp;
    lp.prop_delay = kProp;
    Pair p;
    p.link = std::make_unique<EthLink>((n + "_link").c_str(), lp);
    p.host = std::make_unique<host::SimHost>((n + "_host").c_str(), h);
    p.board = std::make_unique<Responder>((n + "_board").c_str());
    p.board->latency = kBoardLatency;
    p.link->attach(0, p.board.get());
    p.board->connect(&p.link->port(0));
    p.link->attach(1, p.host.get());
    p.host->connect(&p.link->port(1));
    p.host->arp_add(kBoard, p.board->mac);  // no ARP exchange in the RTTs
    pairs[n] = std::move(p);
  }
  Bench() {
    add("zero", host::HostConfig());
    add("fixed", fixed_only());
    add("per_byte", per_byte());
    add("wake_slow", waking());
    add("wake_fast", waking());
    add("wake_edge", waking());
    host::HostConfig big;  // per-byte terms large enough to reorder without the FIFO rule
    big.rx_per_byte = sc_time(1, SC_US);
    big.tx_per_byte = sc_time(1, SC_US);
    add("fifo", big);
    host::HostConfig all = per_byte();
    all.wake_latency = kWake;
    all.idle_threshold = kIdle;
    all.rx_per_byte = sc_time(8, SC_NS);  // whole ns: pcap stamps are ns
    add("pcap", all);
  }
  Pair& pair(const std::string& n) { return pairs.at(n); }
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
sc_time wire(size_t len) { return eth::frame_time(len, 100); }
sc_time times(const sc_time& t, uint64_t n) { return sc_time::from_value(t.value() * n); }
// An echo request/reply of `size` data bytes: 14 + 20 + 8 + size frame bytes.
size_t echo_frame(size_t size) { return 42 + size; }
// RTT with no host latency: both wire times, both propagation delays, the board.
sc_time bare_rtt(size_t size) {
  return wire(echo_frame(size)) + kProp + kBoardLatency + wire(echo_frame(size)) + kProp;
}

std::vector<sc_time> ping_rtts(Pair& p, size_t size, unsigned count, const sc_time& interval,
                               const sc_time& start = sc_time(3, SC_US)) {
  host::PingParams pp;
  pp.count = count;
  pp.size = size;
  pp.interval = interval;
  pp.start = start;
  pp.timeout = sc_time(10, SC_MS);
  host::PingApp ping(*p.host, pp);
  ping.start();
  run(start + times(interval, count) + sc_time(20, SC_MS));
  EXPECT_TRUE(ping.done());
  std::vector<sc_time> r;
  for (const auto& pr : ping.probes()) {
    EXPECT_TRUE(pr.replied) << "seq " << pr.seq;
    r.push_back(pr.rtt);
  }
  return r;
}

TEST(HostLatency, RttGrowsByFixedAndPerByteTerms) {
  for (size_t size : {56u, 1000u, 10u}) {
    const auto zero = ping_rtts(bench().pair("zero"), size, 3, sc_time(1, SC_MS));
    const auto fixed = ping_rtts(bench().pair("fixed"), size, 3, sc_time(1, SC_MS));
    const auto pb = ping_rtts(bench().pair("per_byte"), size, 3, sc_time(1, SC_MS));
    // The host receives the reply as delivered: padded to 60 bytes on the
    // wire; it sends the request as built (its card pads it).
    const size_t sent = echo_frame(size), got = std::max<size_t>(echo_frame(size), 60);
    for (unsigned k = 0; k < 3; ++k) {
      EXPECT_EQ(zero[k], bare_rtt(size)) << "size " << size << " probe " << k;
      EXPECT_EQ(fixed[k], bare_rtt(size) + kTx + kRx) << "size " << size << " probe " << k;
      EXPECT_EQ(pb[k], bare_rtt(size) + kTx + times(kTxPerByte, sent) + kRx + times(kRxPerByte, got))
          << "size " << size << " probe " << k;
    }
  }
  // No wake-up configured: none counted, and the results JSON stays as before.
  EXPECT_EQ(bench().pair("per_byte").host->stats().wakeups, 0u);
  EXPECT_FALSE(bench().pair("per_byte").host->stats_json().contains("wakeups"));
}

TEST(HostLatency, WakeUpOnlyAfterIdleLongerThanThreshold) {
  const sc_time rtt = bare_rtt(56) + kTx + kRx;
  // Started 2 ms from now: the host has been idle longer than 1 ms, so the
  // first probe of both runs pays the wake-up.
  const auto slow = ping_rtts(bench().pair("wake_slow"), 56, 5, sc_time(10, SC_MS), sc_time(2, SC_MS));
  const auto fast = ping_rtts(bench().pair("wake_fast"), 56, 5, sc_time(500, SC_US), sc_time(2, SC_MS));
  for (unsigned k = 0; k < 5; ++k) {
    EXPECT_EQ(slow[k], rtt + kWake) << "10 ms interval, probe " << k;
    EXPECT_EQ(fast[k], k == 0 ? rtt + kWake : rtt) << "500 us interval, probe " << k;
  }
  EXPECT_EQ(bench().pair("wake_slow").host->stats().wakeups, 5u);
  EXPECT_EQ(bench().pair("wake_fast").host->stats().wakeups, 1u);
  EXPECT_EQ(bench().pair("wake_slow").host->stats_json()["wakeups"], 5);
}

TEST(HostLatency, IdleExactlyTheThresholdDoesNotWake) {
  // A woken probe keeps the host busy until its reply was handled, rtt +
  // wake after it was sent; the next one then finds it idle for exactly the
  // threshold (no wake-up), the one after that for threshold + wake (wake).
  const sc_time rtt = bare_rtt(56) + kTx + kRx;
  const auto r = ping_rtts(bench().pair("wake_edge"), 56, 6, kIdle + rtt + kWake, sc_time(2, SC_MS));
  for (unsigned k = 0; k < 6; ++k) EXPECT_EQ(r[k], k % 2 == 0 ? rtt + kWake : rtt) << "probe " << k;
  EXPECT_EQ(bench().pair("wake_edge").host->stats().wakeups, 3u);
}

TEST(HostLatency, ShortFrameNeverOvertakesLongOne) {
  Pair& p = bench().pair("fifo");
  struct Seen {
    bool tx;
    sc_time t, latency;
    size_t bytes;
  };
  auto stack = std::make_shared<std::vector<Seen>>();
  auto sid = p.host->on_stack.listen([stack](const host::HostFrameEvent& e) {
    stack->push_back({e.tx, e.t, e.latency, e.frame.data.size()});
  });
  auto wire_tx = std::make_shared<std::vector<std::pair<sc_time, size_t>>>();
  auto lid = p.link->on_send.listen([wire_tx](const EthWireEvent& e) {
    if (e.dir == 1) wire_tx->push_back({e.start, e.bytes});
  });
  std::vector<size_t> got;  // datagram sizes as the board echoes them back
  ASSERT_TRUE(p.host->udp_bind(
      5000, [&got](uint32_t, uint16_t, uint16_t, const uint8_t*, size_t n) { got.push_back(n); }));
  const sc_time t0 = sc_time_stamp();
  p.host->udp_send(kBoard, 5000, 7, host::udp_pattern(0, 1000));  // 1042-byte frame
  p.host->udp_send(kBoard, 5000, 7, host::udp_pattern(1, 10));    // 52-byte frame
  run(sc_time(20, SC_MS));
  // Transmit: the short one (52 us of per-byte delay) waits for the long one
  // (1042 us) and follows it on the wire one IFG after its end.
  const sc_time long_ready = t0 + times(sc_time(1, SC_US), 1042);
  ASSERT_EQ(wire_tx->size(), 2u);
  EXPECT_EQ((*wire_tx)[0], std::make_pair(long_ready, size_t(1042)));
  EXPECT_EQ((*wire_tx)[1], std::make_pair(long_ready + wire(1042) + eth::ifg_time(100), size_t(60)));
  // Receive: the echoes arrive in the same order; the short one's 60 us would
  // let it overtake, but the stack gets it right after the long one.
  ASSERT_EQ(got, (std::vector<size_t>{1000, 10}));
  ASSERT_EQ(stack->size(), 4u);
  EXPECT_TRUE((*stack)[0].tx && (*stack)[1].tx);
  EXPECT_EQ((*stack)[0].bytes, 1042u);
  EXPECT_EQ((*stack)[1].bytes, 52u);
  EXPECT_EQ((*stack)[0].latency, times(sc_time(1, SC_US), 1042));
  EXPECT_EQ((*stack)[1].latency, times(sc_time(1, SC_US), 1042));  // waits for the long one
  const Seen &rl = (*stack)[2], &rs = (*stack)[3];
  EXPECT_FALSE(rl.tx || rs.tx);
  EXPECT_EQ(rl.bytes, 1042u);
  EXPECT_EQ(rs.bytes, 60u);
  EXPECT_EQ(rl.latency, times(sc_time(1, SC_US), 1042));
  EXPECT_EQ(rs.t, rl.t);  // same instant, after it
  // The short echo's last bit came one IFG + its wire time after the long one's.
  EXPECT_EQ(rs.latency, rl.latency - eth::ifg_time(100) - wire(60));
  EXPECT_GT(rs.latency, times(sc_time(1, SC_US), 60));
  p.host->on_stack.unlisten(sid);
  p.link->on_send.unlisten(lid);
  p.host->udp_unbind(5000);
}

struct Record {
  uint64_t ns;
  std::vector<uint8_t> data;
};
std::vector<Record> read_pcap(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* pd = pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, err);
  EXPECT_NE(pd, nullptr) << err;
  std::vector<Record> r;
  if (!pd) return r;
  pcap_pkthdr* h;
  const u_char* d;
  while (pcap_next_ex(pd, &h, &d) == 1)
    r.push_back({uint64_t(h->ts.tv_sec) * 1000000000u + uint64_t(h->ts.tv_usec),
                 std::vector<uint8_t>(d, d + h->caplen)});
  pcap_close(pd);
  return r;
}
uint64_t ns(const sc_time& t) { return PcapWriter::to_ns(t); }

TEST(HostLatency, HostCaptureDiffersFromBoardCaptureByTheLatencies) {
  Pair& p = bench().pair("pcap");
  const std::string tag = "/tmp/l3vp_test_hostlat_" + std::to_string(::getpid());
  PcapWriter board(tag + "_board.pcap"), pc(tag + "_host.pcap");
  board.attach(*p.link, PcapWriter::Point::kDeliver);
  auto id = p.host->on_stack.listen([&pc](const host::HostFrameEvent& e) { pc.write(e.frame, e.t); });
  // 10 ms apart (every request wakes the host), 500 us apart (none does).
  ping_rtts(p, 200, 3, sc_time(10, SC_MS), sc_time(2, SC_MS));
  ping_rtts(p, 1000, 3, sc_time(500, SC_US), sc_time(100, SC_US));
  p.host->on_stack.unlisten(id);
  board.detach();
  ASSERT_EQ(board.close(), "");
  ASSERT_EQ(pc.close(), "");
  const auto b = read_pcap(tag + "_board.pcap"), h = read_pcap(tag + "_host.pcap");
  std::remove((tag + "_board.pcap").c_str());
  std::remove((tag + "_host.pcap").c_str());
  ASSERT_EQ(b.size(), 12u);
  ASSERT_EQ(h.size(), 12u);
  // Split by direction (source MAC): frame order is kept in each.
  const Mac hm = p.host->config().mac;
  auto from_host = [&hm](const Record& r) { return std::equal(hm.begin(), hm.end(), r.data.begin() + 6); };
  std::vector<Record> b_up, b_down, h_up, h_down;  // up: board -> host
  for (const auto& r : b) (from_host(r) ? b_down : b_up).push_back(r);
  for (const auto& r : h) (from_host(r) ? h_down : h_up).push_back(r);
  ASSERT_EQ(b_up.size(), 6u);
  ASSERT_EQ(h_up.size(), 6u);
  ASSERT_EQ(b_down.size(), 6u);
  ASSERT_EQ(h_down.size(), 6u);
  for (unsigned k = 0; k < 6; ++k) {
    // Woken: the 10 ms run's requests, and the first of the 500 us run (the host idled since the last).
    const bool woke = k <= 3;
    // Board -> host (echo replies): the PC's stack sees them after the
    // receive latency of the frame as delivered (same bytes, padded).
    EXPECT_EQ(h_up[k].data, b_up[k].data) << "reply " << k;
    EXPECT_EQ(h_up[k].ns - b_up[k].ns, ns(kRx + times(sc_time(8, SC_NS), b_up[k].data.size())))
        << "reply " << k;
    // Host -> board (echo requests): handed to the card before the transmit
    // latency (of the unpadded frame) and the wire; the board's capture
    // stamps the last bit's arrival.
    const size_t n = h_down[k].data.size();
    EXPECT_TRUE(std::equal(h_down[k].data.begin(), h_down[k].data.end(), b_down[k].data.begin()))
        << "request " << k;
    EXPECT_EQ(b_down[k].ns - h_down[k].ns,
              ns(kTx + times(kTxPerByte, n) + (woke ? kWake : sc_time()) + wire(n) + kProp))
        << "request " << k;
  }
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
