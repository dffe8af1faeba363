// Network topologies: a scenario file that describes several boards,
// simulated Linux hosts and Ethernet switches and the links between them
// (docs/network.md "Topologies"), parsed strictly into a Topology: every
// name resolved, every switch port assigned, every address unique, the
// switches loop-free. Errors are ScenarioErrors naming the JSON path, as
// for single-board scenarios (scenario.h).
//
// A document is a topology when it has a "boards" array; without one it is
// a single-board scenario (parse_scenario) and means what it always meant.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

#include "eth_link.h"
#include "eth_switch.h"
#include "scenario.h"
#include "wire.h"

namespace l3vp::host {

// Limits checked when a topology is loaded (docs/network.md "Scenario limits").
constexpr size_t kMaxBoards = 64;
constexpr size_t kMaxHosts = 64;
constexpr size_t kMaxSwitches = 16;
constexpr size_t kMaxTaps = 4;

struct TopoBoard {
  std::string name;  // also its statistics section (boards.NAME) and waveform scope
  std::string elf;   // firmware ELF, a relative path resolved (parse_topology's elf_dir or base_dir)
  Mac mac;           // default 02:00:00:00:01:<index + 1>
  uint32_t ip = 0;   // default 192.168.0.<10 + index>
  // Configuration overlay, "KEY=VALUE" by key (as --set; the keys are distinct).
  std::vector<std::string> sets;
  // Firmware parameters (fw_params block) with board_ip and mac filled in
  // from `ip` and `mac`; params_given: the file gave some (a program
  // without a fw_params block then is an error; without any, such a
  // program runs as it is and its addresses are its own).
  nlohmann::json params;
  bool params_given = false;
  std::string energy;  // energy.profile ("" = none)
};

struct TopoHost {
  std::string name;
  std::string peer;  // the board its experiments address by default
  // Its host section, TCP parameters and experiments; s.board_mac/board_ip
  // are the peer's (the experiments' default destination).
  Scenario s;
};

struct TopoSwitch {
  std::string name;
  // Its other keys are the switch model's parameter rows (ports,
  // latency_ns, queue_frames, ...: models/net/switch/README.md), each
  // checked by its row.
  EthSwitchParams p;
};

// A TAP device in the network namespace of the same name (scripts/netns-tap
// up NAME): a real Linux kernel on the simulated network, paced to the
// wall clock (the run is then not deterministic).
struct TopoTap {
  std::string name;
  std::string device;  // the TAP device and its namespace
};

// One end of a link: a board, a host, a TAP device or port `port` of a switch.
struct TopoEnd {
  enum class Kind { kBoard, kHost, kSwitch, kTap } kind = Kind::kBoard;
  size_t index = 0;   // into boards, hosts, switches or taps
  unsigned port = 0;  // switch port (0 for a board or host)
};

struct TopoLink {
  TopoEnd a, b;
  // imp[0]: frames from a to b ("a_to_b"), imp[1]: from b to a ("b_to_a").
  EthLinkParams p;
};

struct Topology {
  std::vector<TopoBoard> boards;
  std::vector<TopoHost> hosts;
  std::vector<TopoSwitch> switches;
  std::vector<TopoTap> taps;
  std::vector<TopoLink> links;
  sc_core::sc_time duration = sc_core::SC_ZERO_TIME;  // 0: until every host's experiments are done
  // "sw0:3", "b1", "pc" for messages and statistics.
  std::string end_name(const TopoEnd& e) const;
};

bool is_topology(const nlohmann::json& j);
// `base_dir`: where relative paths of the file are looked up (its
// directory; "" = the working directory); `elf_dir`, when not empty, where
// the boards' relative ELF paths are looked up instead (leon3vp --fw-dir).
Topology parse_topology(const nlohmann::json& j, const std::string& base_dir = "",
                        const std::string& elf_dir = "");

}  // namespace l3vp::host
