// The far end of the board's Ethernet link (docs/network.md, sim/README.md):
// what end 1 of the link is attached to. At most one far end is selected
// by the command line; without one nothing is attached (the GRETH's frames
// are counted as unattached).
//
// A new kind of far end is a class derived from FarEnd in its own file and
// one line in the registry, make_far_ends() in far_end.cpp. The run calls
// the hooks of every registered far end in the registry's order (the
// selected one does the work; the others check that their options were
// not given without them).
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_state.h"

namespace l3vp::host {
class SimHost;
}

namespace l3vp::sim {

class FarEnd {
 public:
  virtual ~FarEnd() = default;
  // Adds its options; returns the option that selects it (the far ends'
  // options exclude each other).
  virtual CLI::Option* add_options(CLI::App& app) = 0;
  // Whether the command line selected this far end.
  virtual bool selected() const = 0;
  // After the configuration: load and check what it needs, adjust the
  // configuration (a scenario's link) and the time limit. Called for every
  // far end (bad_input() on an option given without this far end).
  virtual void configure(RunState& run) { (void)run; }
  // After the outputs checked their needs of a far end: whether this host
  // can provide it (bad_input() if not).
  virtual void check_available(RunState& run) { (void)run; }
  // Its firmware parameters (the scenario's board.params), before --fw-param.
  virtual void add_fw_params(FwParams& params) const { (void)params; }
  // Before the board is built: creates its output files.
  virtual void open(RunState& run) { (void)run; }
  // The board exists: build the far end and attach it to end 1 of the link.
  virtual void attach(RunState& run) = 0;
  // At time 0, right before the simulation starts.
  virtual void start() {}
  // After the run and the outputs' finish(): collect and write its results.
  virtual void finish(RunState& run) { (void)run; }
  // Before the board is destroyed.
  virtual void release_board() {}

  // --stats net.far_end: "sim_host", "tap".
  virtual const char* kind() const = 0;
  // The simulated PC (--pcap-at host), or null.
  virtual host::SimHost* sim_host() { return nullptr; }
  virtual bool has_sim_host() const { return false; }
  // Lines of the waveform header (--vcd) that name it.
  virtual std::vector<std::string> vcd_comments() const { return {}; }
  // Every planned experiment done (the end of a scenario counts as success).
  virtual bool experiments_done() const { return false; }
  // Its results (--stats net.results), after finish(); null: none.
  virtual const nlohmann::json* results() const { return nullptr; }
};

// The registry: every kind of far end, in the order of their hooks.
std::vector<std::unique_ptr<FarEnd>> make_far_ends();

}  // namespace l3vp::sim
