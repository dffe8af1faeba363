// Network (models/network): boards, hosts and cables built from a topology
// in one kernel. Two board/host pairs run the same firmware and the same
// experiments, each board answers its own host only and its statistics and
// UART output are its own; two hosts joined by a cable of the network's own
// talk to each other; the run ends when every board has halted. (That a
// board in a network measures exactly what it measures alone is checked by
// testbenches/network against a single-board leon3vp run.)
//
// usage: test_network FIRMWARE_DIR [gtest options]
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "network.h"
#include "topology.h"

using namespace l3vp;
using nlohmann::json;

namespace {

std::string g_fw_dir;
std::unique_ptr<net::Network> g_net;
std::map<std::string, std::vector<std::string>> g_uart;  // board -> its UART lines

// Two independent pairs (b0-pc0, b1-pc1) pinging with the same schedule,
// and two hosts (pc2 pings pc3) on a cable that is no board's link.
json topology() {
  const json ping = {{"type", "ping"}, {"count", 5u}, {"size", 256u}, {"interval", "2ms"}, {"start", "10ms"}};
  json t = {
      {"boards",
       {{{"name", "b0"}, {"elf", g_fw_dir + "/net_ping.elf"}, {"params", {{"count", 5u}}}},
        {{"name", "b1"}, {"elf", g_fw_dir + "/net_ping.elf"}, {"params", {{"count", 5u}}}}}},
      {"hosts",
       {{{"name", "pc0"}, {"peer", "b0"}, {"experiments", {ping}}},
        {{"name", "pc1"}, {"peer", "b1"}, {"experiments", {ping}}},
        {{"name", "pc2"},
         {"experiments", {{{"type", "ping"}, {"count", 3u}, {"dst", "192.168.0.203"}, {"interval", "1ms"}}}}},
        {{"name", "pc3"}}}},
      {"links",
       {{{"a", "b0"}, {"b", "pc0"}, {"prop_delay", "50ns"}},
        {{"a", "pc1"}, {"b", "b1"}, {"prop_delay", "50ns"}},  // the board at end b
        {{"a", "pc2"}, {"b", "pc3"}}}},
  };
  return t;
}

void run_once() {
  static bool done = false;
  if (done) return;
  done = true;
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_SEC));
}

TEST(Network, EveryBoardHaltsAndEndsTheRun) {
  run_once();
  EXPECT_TRUE(g_net->all_halted());
  EXPECT_LT(sc_core::sc_time_stamp(), sc_core::sc_time(2, sc_core::SC_SEC));  // stopped by the halts
  for (size_t i = 0; i < g_net->boards(); ++i) {
    EXPECT_TRUE(g_net->board(i).halt().halted);
    EXPECT_EQ(g_net->board(i).halt().o0, 0u);
  }
  EXPECT_TRUE(g_net->experiments_done());
}

// The board is not up yet at 10 ms: the host's first ARP request goes
// unanswered, its retry 1 s later (arp_retry) is answered, then the 5 pings.
TEST(Network, EachBoardAnswersItsOwnHost) {
  run_once();
  json s = g_net->stats();
  for (const char* b : {"b0", "b1"}) {
    const json& g = s["boards"][b]["net"]["greth"];
    EXPECT_EQ(g["rx_frames"], 6) << b << ": " << g;  // the answered ARP request + 5 echo requests
    EXPECT_EQ(g["tx_frames"], 6) << b << ": " << g;
    EXPECT_GT(s["boards"][b]["instructions"]["total"].get<uint64_t>(), 100000u);
  }
  for (const char* h : {"pc0", "pc1"}) {
    const json& e = s["hosts"][h]["experiments"][0];
    EXPECT_EQ(e["transmitted"], 5) << h;
    EXPECT_EQ(e["received"], 5) << h;
  }
  EXPECT_EQ(s["hosts"]["pc0"]["experiments"][0]["dst"], "192.168.0.10");
  EXPECT_EQ(s["hosts"]["pc1"]["experiments"][0]["dst"], "192.168.0.11");
}

TEST(Network, EachLinkReportsBothDirectionsFromItsEnds) {
  run_once();
  const json links = g_net->stats()["links"];
  ASSERT_EQ(links.size(), 3u);
  EXPECT_EQ(links[0]["a"], "b0");
  EXPECT_EQ(links[0]["cable"], "b0.eth");
  EXPECT_EQ(links[1]["cable"], "b1.eth");  // b1's own link although it is end b
  EXPECT_EQ(links[2]["cable"], "cable-2");
  // pc0 -> b0 and pc1 -> b1: 2 ARP requests + 5 echo requests; back: the
  // ARP reply and 5 echo replies. The board at end b counts the other way.
  EXPECT_EQ(links[0]["b_to_a"]["delivered"], 7);
  EXPECT_EQ(links[0]["a_to_b"]["delivered"], 6);
  EXPECT_EQ(links[1]["a_to_b"]["delivered"], 7);
  EXPECT_EQ(links[1]["b_to_a"]["delivered"], 6);
}

TEST(Network, TwoHostsOnACableOfTheirOwnPingEachOther) {
  run_once();
  const json s = g_net->stats();
  const json& e = s["hosts"]["pc2"]["experiments"][0];
  EXPECT_EQ(e["transmitted"], 3);
  EXPECT_EQ(e["received"], 3);
  EXPECT_EQ(s["links"][2]["a_to_b"]["delivered"], 4);  // ARP request + 3 echo requests
}

TEST(Network, EachBoardsUartLinesAreItsOwn) {
  run_once();
  ASSERT_EQ(g_uart.size(), 2u);
  for (const char* b : {"b0", "b1"}) {
    ASSERT_FALSE(g_uart[b].empty()) << b;
    const json start = json::parse(g_uart[b].front());
    EXPECT_EQ(start["type"], "start") << b;
    EXPECT_EQ(start["ip"], b[1] == '0' ? "192.168.0.10" : "192.168.0.11");  // its own address
    const json result = json::parse(g_uart[b][1]);
    EXPECT_EQ(result["echo_tx"], 5) << b;
  }
}

TEST(Network, ABadBoardIsAOneLineErrorNamingIt) {
  json t = topology();
  t["boards"][0]["set"] = {{"cpu.nwin", 99u}};
  try {
    // The first board's configuration is checked before anything is built.
    net::Network n(host::parse_topology(t), PlatformConfig::preset("gr-xc3s-1500"));
    FAIL() << "no error";
  } catch (const net::NetworkError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("board b0: config: ", 0), 0u) << e.what();
  }
}

}  // namespace

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: test_network FIRMWARE_DIR [gtest options]\n");
    return 2;
  }
  g_fw_dir = argv[1];
  g_net = std::make_unique<net::Network>(
      host::parse_topology(topology()), PlatformConfig::preset("gr-xc3s-1500"),
      [](const std::string& b, const std::string& l) { g_uart[b].push_back(l); });
  g_net->start();
  return RUN_ALL_TESTS();
}
