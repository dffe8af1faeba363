// TAP backend: brings up a private network namespace with scripts/netns-tap
// (TAP device holding 192.168.0.55/24), attaches a TapEndpoint to one end of
// an EthLink, sends an ARP request for 192.168.0.55 from the simulated board
// side and expects the kernel's ARP reply within a bounded time (real-time
// pacing on). Skips when the machine does not allow TAP/namespaces; the
// namespace is always removed again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <systemc>

#include "eth_link.h"
#include "tap.h"
#include "wire.h"

#ifndef L3VP_NETNS_TAP
#error "L3VP_NETNS_TAP must name scripts/netns-tap"
#endif

namespace l3vp::test {
namespace {

using namespace l3vp::host;
using sc_core::SC_MS;
using sc_core::sc_time;

struct Recorder : EthPort {
  std::vector<EthFrame> rx;
  void frame_in(const EthFrame& f) override { rx.push_back(f); }
};

// Removes the namespace whatever happens in the test.
struct NetnsGuard {
  std::string name;
  bool up = false;
  ~NetnsGuard() {
    if (up) std::system((std::string(L3VP_NETNS_TAP) + " down " + name + " >/dev/null 2>&1").c_str());
  }
};

TEST(Tap, KernelAnswersArpThroughNamespacedTap) {
  const std::string why = TapEndpoint::unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << "TAP not permitted here: " << why;
  if (std::system("ip netns list >/dev/null 2>&1") != 0) GTEST_SKIP() << "'ip netns' not available";
  NetnsGuard g;
  g.name = "l3vpt" + std::to_string(::getpid() % 100000);
  std::system((std::string(L3VP_NETNS_TAP) + " down " + g.name + " >/dev/null 2>&1").c_str());
  g.up = true;  // tear down even if "up" fails half-way
  if (std::system((std::string(L3VP_NETNS_TAP) + " up " + g.name + " 2>&1").c_str()) != 0)
    GTEST_SKIP() << "scripts/netns-tap up failed: namespaces/TAP not permitted here";

  TapParams tp;
  tp.ifname = g.name;
  tp.netns = g.name;
  tp.poll_interval = sc_time(100, sc_core::SC_US);
  tp.realtime = true;
  EthLink link("link");
  TapEndpoint tap("tap", tp);
  Recorder board;
  link.attach(0, &board);
  link.attach(1, &tap);
  tap.connect(&link.port(1));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);

  const Mac mine = {0x02, 0x00, 0x00, 0x00, 0x00, 0x53};
  const uint32_t board_ip = 0xC0A80035, host_ip = 0xC0A80037;
  Bytes req = arp_packet(1, mine, board_ip, Mac{}, host_ip);
  EthFrame f;
  f.data = eth_frame(kBroadcast, mine, kEtherArp, req.data(), req.size());

  // Bounded wait: at most 3 s of simulated time, paced to the wall clock.
  // The request is repeated every 100 ms, as an ARP client does: the
  // kernel may not take frames in the first moments after the TAP's
  // carrier comes up.
  bool got = false;
  ArpView reply;
  unsigned sent = 0;
  for (int step = 0; step < 300 && !got; ++step) {
    if (step % 10 == 0) {
      link.port(0).send(f);
      ++sent;
    }
    sc_core::sc_start(sc_time(10, SC_MS));
    for (const EthFrame& r : board.rx) {
      EthView e;
      ArpView a;
      if (parse_eth(r.data.data(), r.data.size(), e) && e.type == kEtherArp &&
          parse_arp(e.payload, e.len, a) && a.op == 2 && a.spa == host_ip && a.tpa == board_ip &&
          a.tha == mine && e.dst == mine) {
        got = true;
        reply = a;
      }
    }
  }
  tap.stop();
  ASSERT_TRUE(got) << "no ARP reply from the namespace's kernel; frames from TAP: " << tap.stats().from_tap;
  EXPECT_EQ(tap.stats().to_tap, sent);
  EXPECT_EQ(tap.stats().write_errors, 0u);
  EXPECT_NE(reply.sha, Mac{});
  // Real-time pacing kept simulated time from running ahead of the wall clock.
  EXPECT_GT(tap.stats().polls, 0u);
}

TEST(Tap, BadParametersAreRejected) {
  TapParams tp;
  tp.ifname = "";
  EXPECT_THROW(TapEndpoint::validate(tp), TapError);
  tp.ifname = "this-name-is-far-too-long";
  EXPECT_THROW(TapEndpoint::validate(tp), TapError);
  tp.ifname = "x";
  tp.netns = "../etc";
  EXPECT_THROW(TapEndpoint::validate(tp), TapError);
  tp.netns = "ok";
  tp.poll_interval = sc_time();
  EXPECT_THROW(TapEndpoint::validate(tp), TapError);
  tp.poll_interval = sc_time(1, SC_MS);
  EXPECT_NO_THROW(TapEndpoint::validate(tp));
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
