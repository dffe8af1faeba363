// One run of leon3vp (sim/README.md): options -> configuration -> far end
// -> board -> outputs -> run loop -> report and exit status. Run holds the
// state the parts share (RunState), the registered far ends and outputs
// and calls their hooks in order; execute() is the one place where the
// exit policy turns an early end (Exit: bad input, --help, ...) into the
// exit status.
#pragma once
#include <memory>
#include <vector>

#include "far_end.h"
#include "gdb_stub.h"
#include "options.h"
#include "output.h"
#include "report.h"
#include "run_state.h"

namespace l3vp::sim {

class Run {
 public:
  Run();
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // The whole run; returns the process exit status.
  int execute(int argc, char** argv);

 private:
  void parse_options(int argc, char** argv);
  void configure();
  void prepare();
  void build();
  int finish();

  // Calls `hook` of every output / every far end, in the registry's order.
  template <typename Hook>
  void each_output(Hook hook) {
    for (auto& o : outputs_) ((*o).*hook)(state_);
  }
  template <typename Hook>
  void each_far_end(Hook hook) {
    for (auto& f : far_ends_) ((*f).*hook)(state_);
  }

  RunState state_;  // first: its CreatedOutputs is destroyed last
  CommandLine command_line_;
  Report report_;
  std::vector<std::unique_ptr<FarEnd>> far_ends_;
  std::vector<std::unique_ptr<Output>> outputs_;
  std::unique_ptr<gdb::GdbStub> gdb_;
};

}  // namespace l3vp::sim
