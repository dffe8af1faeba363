// Network: several boards, simulated Linux hosts and Ethernet switches in
// one SystemC kernel, built from a Topology (models/net/host/topology.h).
// See README.md: what it models, how the cables map onto the boards' own
// links, how a run ends.
#pragma once
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "config.h"
#include "eth_link.h"
#include "eth_switch.h"
#include "leon3mp.h"
#include "scenario.h"
#include "sim_host.h"
#include "tap.h"
#include "stats.h"
#include "topology.h"

namespace l3vp::net {

// A node that cannot be built: one line naming the node and the problem
// ("board b1: config: cpu.mul_latency: ...", "board b0: fw_params: ...").
class NetworkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Network {
 public:
  // Every board's configuration starts from `base` (the preset and what the
  // command line sets for every board: mode, quantum, DMI), then its own
  // "set" keys, its energy profile and its cable's link parameters apply.
  // uart_line(board, line): where a board's UART lines go when its uart.out
  // is "-" (the default); null: stdout, each line prefixed "<board>: ".
  using UartLine = std::function<void(const std::string& board, const std::string& line)>;
  Network(const host::Topology& t, const PlatformConfig& base, UartLine uart_line = nullptr);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // At time 0: boots every board (its entry in RAM: loader state, else at
  // the entry) and starts every host's experiments.
  void start();
  // The CPU of every board never runs past `t`.
  void set_end_time(const sc_core::sc_time& t);

  size_t boards() const { return boards_.size(); }
  Leon3mp& board(size_t i) { return *boards_.at(i); }
  size_t hosts() const { return hosts_.size(); }
  host::SimHost& host(size_t i) { return *hosts_.at(i); }
  size_t switches() const { return switches_.size(); }
  EthSwitch& eth_switch(size_t i) { return *switches_.at(i); }
  // How often the network is looked at after the last halt (drain()).
  static sc_core::sc_time drain_step() { return sc_core::sc_time(1, sc_core::SC_US); }
  // Every board halted (exit or error mode): the kernel stops once no frame
  // is left on a cable or in a switch.
  bool all_halted() const { return halted_ == boards_.size(); }
  // Every host's planned experiments are done (receivers count as done).
  bool experiments_done() const;
  const host::Topology& topology() const { return t_; }

  // {"boards": {NAME: the board's statistics, taken at its halt when it
  // halted}, "hosts": {NAME: the
  // scenario results}, "switches": {NAME: ports[] and the switch-wide
  // counters}, "taps": {NAME: its counters} (with TAP devices), "links":
  // [{"a", "b", "cable", "a_to_b", "b_to_a"}]}.
  nlohmann::json stats();
  // The cable at node `end` ("b0", "pc", "sw0:3": docs/network.md), or null.
  EthLink* cable_at(const std::string& end);
  // The UART files of the boards that write one (uart.out), for write checks.
  std::vector<std::FILE*> uart_files() const;

 private:
  struct Cable;
  PlatformConfig board_config(size_t i, const PlatformConfig& base) const;
  void build_board(size_t i, const PlatformConfig& base);
  void route_uart(size_t i);
  void drain();
  bool quiet() const;
  void wire(size_t link_index);
  void attach_end(const host::TopoEnd& e, EthLink& cable, unsigned side);
  // The link index whose cable is board i's own link, and whether the board
  // is its end b (the directions then swap), or -1.
  long own_cable(size_t board, bool& is_b) const;

  host::Topology t_;
  UartLine uart_line_;
  std::vector<std::unique_ptr<Leon3mp>> boards_;
  std::vector<std::string> uart_pending_;  // per board: the line being received
  std::vector<nlohmann::json> at_halt_;    // per board: its statistics at its halt (null: running)
  std::vector<std::unique_ptr<host::SimHost>> hosts_;
  std::vector<std::unique_ptr<host::ScenarioRunner>> runners_;
  std::vector<std::unique_ptr<EthSwitch>> switches_;
  StatsRegistry switch_stats_;  // every switch's counters, by name
  std::vector<std::unique_ptr<TapEndpoint>> taps_;
  StatsRegistry tap_stats_;                          // every TAP device's counters, by name
  std::vector<EthLink*> cables_;                     // per topology link
  std::vector<std::unique_ptr<EthLink>> own_links_;  // cables that are no board's link
  size_t halted_ = 0;
};

}  // namespace l3vp::net
