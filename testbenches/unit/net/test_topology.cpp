// Topologies (models/net/host/topology.h): boards, hosts, switches and links
// parsed strictly: defaults, names resolved, switch ports assigned, addresses
// unique, loops refused, and every error naming its JSON path.
#include <gtest/gtest.h>

#include <string>

#include "topology.h"
#include "units.h"

namespace l3vp::test {
namespace {

using host::parse_topology;
using host::ScenarioError;
using host::TopoEnd;
using host::Topology;
using nlohmann::json;

// Two boards and a PC on one switch, as the incast and board-to-board studies.
json two_boards() {
  return json::parse(R"({
    "boards": [ {"name": "b0", "elf": "net_ping.elf"},
                {"name": "b1", "elf": "/abs/net_ping.elf", "ip": "10.0.0.2", "mac": "02:aa:00:00:00:02",
                 "set": {"cpu.mul_latency": 5, "chksum.enable": true, "uart.out": "b1.txt"},
                 "params": {"window": 500}, "energy": "leon3-90nm-estimate"} ],
    "hosts": [ {"name": "pc", "peer": "b1", "experiments": [ {"type": "ping", "count": 3} ]} ],
    "switches": [ {"name": "sw0", "ports": 4, "latency_ns": 2000} ],
    "links": [ {"a": "b0", "b": "sw0"}, {"a": "b1", "b": "sw0:3", "mbps": 10, "prop_delay": "50ns",
                "a_to_b": {"loss": 0.5, "seed": 7}},
               {"a": "pc", "b": "sw0"} ],
    "duration": "1s"
  })");
}

// The message of the ScenarioError parsing `j` throws ("" if none).
std::string error_of(const json& j) {
  try {
    parse_topology(j, "/dir");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(Topology, ADocumentWithBoardsIsATopology) {
  EXPECT_TRUE(host::is_topology(two_boards()));
  EXPECT_FALSE(host::is_topology(json::parse(R"({"host": {}, "experiments": []})")));
}

TEST(Topology, BoardsGetDefaultsAndTheirAddressesInTheirParameters) {
  const Topology t = parse_topology(two_boards(), "/dir");
  ASSERT_EQ(t.boards.size(), 2u);
  EXPECT_EQ(t.boards[0].elf, "/dir/net_ping.elf");  // relative to the file's directory
  EXPECT_EQ(t.boards[1].elf, "/abs/net_ping.elf");
  EXPECT_EQ(format_mac(t.boards[0].mac.data()), "02:00:00:00:01:01");
  EXPECT_EQ(t.boards[0].ip, 0xC0A8000Au);  // 192.168.0.10
  EXPECT_EQ(t.boards[0].params, json({{"board_ip", "192.168.0.10"}, {"mac", "02:00:00:00:01:01"}}));
  EXPECT_EQ(t.boards[1].params,
            json({{"window", 500}, {"board_ip", "10.0.0.2"}, {"mac", "02:aa:00:00:00:02"}}));
  EXPECT_EQ(t.boards[1].sets,
            (std::vector<std::string>{"chksum.enable=true", "cpu.mul_latency=5", "uart.out=b1.txt"}));
  EXPECT_EQ(t.boards[1].energy, "leon3-90nm-estimate");
  EXPECT_TRUE(t.boards[0].sets.empty());
}

TEST(Topology, AHostAddressesItsPeerBoardByDefault) {
  const Topology t = parse_topology(two_boards(), "/dir");
  ASSERT_EQ(t.hosts.size(), 1u);
  const auto& s = t.hosts[0].s;
  EXPECT_EQ(t.hosts[0].peer, "b1");
  EXPECT_EQ(s.board_ip, 0x0A000002u);
  ASSERT_EQ(s.experiments.size(), 1u);
  EXPECT_EQ(s.experiments[0].ping.dst, 0x0A000002u);
  EXPECT_EQ(s.host.ip, 0xC0A800C8u);  // 192.168.0.200
  EXPECT_EQ(format_mac(s.host.mac.data()), "02:00:00:00:02:01");
}

TEST(Topology, SwitchPortsAreAssignedInOrderOrAsGiven) {
  const Topology t = parse_topology(two_boards(), "/dir");
  ASSERT_EQ(t.links.size(), 3u);
  EXPECT_EQ(t.end_name(t.links[0].a), "b0");
  EXPECT_EQ(t.end_name(t.links[0].b), "sw0:0");
  EXPECT_EQ(t.end_name(t.links[1].b), "sw0:3");
  EXPECT_EQ(t.end_name(t.links[2].a), "pc");
  EXPECT_EQ(t.end_name(t.links[2].b), "sw0:1");  // the lowest free port
  EXPECT_EQ(t.links[1].p.mbps, 10u);
  EXPECT_EQ(t.links[1].p.prop_delay, sc_core::sc_time(50, sc_core::SC_NS));
  EXPECT_EQ(t.links[1].p.imp[0].loss, 0.5);
  EXPECT_EQ(t.links[1].p.imp[0].seed, 7u);
  EXPECT_EQ(t.links[1].p.imp[1].loss, 0.0);
  EXPECT_EQ(t.switches[0].p.ports, 4u);
  EXPECT_EQ(t.switches[0].p.latency, sc_core::sc_time(2, sc_core::SC_US));
  EXPECT_EQ(t.switches[0].p.queue_frames, 64u);  // the model's default
  EXPECT_EQ(t.duration, sc_core::sc_time(1, sc_core::SC_SEC));
}

TEST(Topology, TwoBoardsBackToBackNeedNoSwitch) {
  const Topology t = parse_topology(json::parse(R"({
    "boards": [ {"name": "a", "elf": "x.elf"}, {"name": "b", "elf": "x.elf"} ],
    "links": [ {"a": "a", "b": "b"} ] })"));
  ASSERT_EQ(t.links.size(), 1u);
  EXPECT_EQ(t.links[0].a.kind, TopoEnd::Kind::kBoard);
  EXPECT_EQ(t.links[0].b.index, 1u);
  EXPECT_EQ(t.boards[1].ip, 0xC0A8000Bu);
}

// Each edit of the two-board document and the start of the error it must give.
struct BadCase {
  const char* patch;  // a JSON merge patch (RFC 7386) of two_boards()
  const char* error;
};

const BadCase kBad[] = {
    {R"({"boards": []})", "scenario .boards: needs at least one board"},
    {R"({"boards": 3})", "scenario .boards: must be an array"},
    {R"({"nodes": []})", "scenario .nodes: unknown key"},
    {R"({"hosts": [ {"name": "b0"} ]})", "scenario .hosts[0].name: 'b0' names two nodes"},
    {R"({"hosts": [ {"name": "0pc"} ]})", "scenario .hosts[0].name: '0pc' is not a name"},
    {R"({"hosts": [ {"name": "pc", "peer": "nobody"} ]})",
     "scenario .hosts[0].peer: 'nobody' is not a board"},
    {R"({"hosts": [ {"name": "pc", "experiments": [ {"type": "ping", "count": -1} ]} ]})",
     "scenario .hosts[0].experiments[0].count: must be an integer"},
    {R"({"hosts": [ {"name": "pc", "host": {"ip": "10.0.0.2"}} ]})",
     "scenario .hosts[0].host.ip: is also the address of .boards[1]"},
    {R"({"hosts": [ {"name": "pc", "host": 5} ]})", "scenario .hosts[0].host: must be an object"},
    {R"({"switches": [ {"name": "sw0", "ports": 1} ]})", "scenario .switches[0].ports: "},
    {R"({"switches": [ {"name": "sw0", "speed": 1} ]})",
     "scenario .switches[0].speed: unknown key (name, ports, latency_ns, queue_frames"},
    {R"({"switches": [ {"name": "sw0", "latency_ns": "2us"} ]})",
     "scenario .switches[0].latency_ns: must be a non-negative integer"},
    {R"({"switches": [ {"name": "sw0", "ports": 65} ]})", "scenario .switches[0].ports: "},
    {R"({"switches": [ {"name": "sw0", "ports": 2} ], "links": [ {"a": "b0", "b": "sw0"}, {"a": "b1", "b": "sw0"},
        {"a": "pc", "b": "sw0"} ]})",
     "scenario .links[2].b: 'sw0' has no free port (ports: 2)"},
    {R"({"links": [ {"a": "b0", "b": "sw0"}, {"a": "b1", "b": "sw0:0"}, {"a": "pc", "b": "sw0"} ]})",
     "scenario .links[1].b: port 0 of 'sw0' is taken"},
    {R"({"links": [ {"a": "b0", "b": "sw0:4"} ]})",
     "scenario .links[0].b: port '4' is not a port of the switch (0..3)"},
    {R"({"links": [ {"a": "b0", "b": "sw0:x"} ]})", "scenario .links[0].b: port 'x' is not a port"},
    {R"({"links": [ {"a": "b0:1", "b": "sw0"} ]})", "scenario .links[0].a: only a switch has ports"},
    {R"({"links": [ {"a": "b0", "b": "b0"} ]})", "scenario .links[0].b: 'b0' is already linked"},
    {R"({"links": [ {"a": "sw0", "b": "sw0"} ]})", "scenario .links[0]: links a node to itself"},
    {R"({"links": [ {"a": "b0", "b": "mars"} ]})", "scenario .links[0].b: 'mars' is not a node"},
    {R"({"links": [ {"a": "b0", "b": "sw0", "mbps": 1000} ]})", "scenario .links[0].mbps: must be 10 or 100"},
    {R"({"links": [ {"a": "b0", "b": "sw0", "a_to_b": {"loss": 2}} ]})",
     "scenario .links[0].a_to_b.loss: must be a probability"},
    {R"({"links": [ {"a": "b0", "b": "sw0"}, {"a": "b1", "b": "sw0"} ]})",
     "scenario .hosts[0]: 'pc' is on no link"},
    {R"({"links": [ {"a": "pc", "b": "sw0"}, {"a": "b1", "b": "sw0"} ]})",
     "scenario .boards[0]: 'b0' is on no link"},
    {R"({"boards": [ {"name": "b0"} ]})", "scenario .boards[0]: needs an \"elf\""},
    {R"({"boards": [ {"name": "b0", "elf": "a", "params": {"board_ip": "1.2.3.4"}} ]})",
     "scenario .boards[0].params.board_ip: give the board's address as .boards[0].ip"},
    {R"({"boards": [ {"name": "b0", "elf": "a", "set": {"x": [1]}} ]})",
     "scenario .boards[0].set.x: must be a string"},
    {R"({"boards": [ {"name": "b0", "elf": "a", "mac": "01:00:00:00:00:01"} ], "hosts": []})",
     "scenario .boards[0].mac: must be a unicast"},
    {R"({"boards": [ {"name": "b0", "elf": "a"}, {"name": "b1", "elf": "a", "ip": "192.168.0.10"} ]})",
     "scenario .boards[1].ip: is also the address of .boards[0]"},
    {R"({"duration": "7200s"})", "scenario .duration: at most"},
    {R"({"taps": [ {"name": "t", "device": "no spaces"} ]})",
     "scenario .taps[0].device: 'no spaces' is not a device"},
    {R"({"taps": [ {"name": "t"} ]})", "scenario .taps[0]: 't' is on no link"},
};

TEST(Topology, BadDocumentsGiveAnErrorNamingThePath) {
  for (const BadCase& c : kBad) {
    json j = two_boards();
    j.merge_patch(json::parse(c.patch));
    const std::string e = error_of(j);
    EXPECT_EQ(e.rfind(c.error, 0), 0u) << c.patch << "\n  gave: " << e;
  }
}

TEST(Topology, ATapDeviceIsANodeOnOneLink) {
  json j = two_boards();
  j["taps"] = json::parse(R"([ {"name": "linux", "device": "l3vpns1"} ])");
  j["links"].push_back({{"a", "linux"}, {"b", "sw0"}});
  const Topology t = parse_topology(j, "/dir");
  ASSERT_EQ(t.taps.size(), 1u);
  EXPECT_EQ(t.taps[0].device, "l3vpns1");
  EXPECT_EQ(t.links[3].a.kind, TopoEnd::Kind::kTap);
  EXPECT_EQ(t.end_name(t.links[3].b), "sw0:2");
}

TEST(Topology, LoopsOfSwitchesAreRefused) {
  const json j = json::parse(R"({
    "boards": [ {"name": "b0", "elf": "x.elf"} ],
    "switches": [ {"name": "s1"}, {"name": "s2"}, {"name": "s3"} ],
    "links": [ {"a": "b0", "b": "s1"}, {"a": "s1", "b": "s2"}, {"a": "s2", "b": "s3"}, {"a": "s3", "b": "s1"} ] })");
  EXPECT_EQ(error_of(j), "scenario .links[3]: closes a loop of switches (no spanning tree is modelled)");
  json chain = j;
  chain["links"].erase(3);
  EXPECT_EQ(error_of(chain), "");  // a chain of switches is fine
}

TEST(Topology, TooManyBoardsAreRefused) {
  json j = {{"boards", json::array()}};
  for (size_t i = 0; i <= host::kMaxBoards; ++i)
    j["boards"].push_back({{"name", "b" + std::to_string(i)}, {"elf", "x"}});
  EXPECT_EQ(error_of(j), "scenario .boards: at most 64 (got 65)");
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
