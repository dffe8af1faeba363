// The outputs of a run (sim/README.md): files and reports that observe the
// board without changing its results (--trace, --profile*, --pcap,
// --rtl-trace, --vcd, the UART output, --probe-all). --stats is written by
// the report (sim/report.cpp), --net-results by the scenario far end.
//
// A new output is a class derived from Output in its own file and one line
// in the registry, make_outputs() in output.cpp. The run calls each hook of
// every registered output in the registry's order; an output overrides
// only the hooks it needs. A hook refuses bad input with bad_input().
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <vector>

#include "options.h"
#include "run_state.h"

namespace l3vp::sim {

class Output {
 public:
  virtual ~Output() = default;
  // Adds its options (cl.refuse_empty() for those whose empty value would
  // silently mean "none").
  virtual void add_options(CommandLine& cl) { (void)cl; }
  // After the configuration overlay (--set, --rtl, ...), before --quantum
  // and the configuration's validation: checks its options.
  virtual void check(RunState& run) { (void)run; }
  // After the far ends are configured: options that need a far end.
  virtual void check_far_end(RunState& run) { (void)run; }
  // Before the board is built: creates its files (run.created.note() first).
  virtual void open(RunState& run) { (void)run; }
  // The board and the far end exist, before the boot.
  virtual void attach(RunState& run) { (void)run; }
  // The board has booted; the run starts next.
  virtual void start(RunState& run) { (void)run; }
  // After the run: flush and close, each write failure through
  // run.check_output().
  virtual void finish(RunState& run) { (void)run; }
  // After the exit status and --stats.
  virtual void report(RunState& run) { (void)run; }
  // Before the board is destroyed: drop what listens to it.
  virtual void release_board() {}
};

// The registry: every output, in the order of their hooks.
std::vector<std::unique_ptr<Output>> make_outputs();

}  // namespace l3vp::sim
