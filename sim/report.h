// The end of a run (sim/README.md): the exit status and its reason
// (docs/user-guide.md "Exit status"), the --stats file (the platform's
// statistics plus what the run adds, RunStats; docs/stats-schema.md) and
// the closing message on stderr.
#pragma once
#include <CLI/CLI.hpp>
#include <fstream>
#include <string>

#include "run_state.h"

namespace l3vp::sim {

// --list-stats: the schema of a default platform plus the run's own
// statistics (docs/stats-schema.md is generated from it). Returns 0.
int print_stats_schema();

class Report {
 public:
  void add_options(CLI::App& app);
  // Before the board is built: creates the --stats file.
  void open(RunState& run);
  // The board and the far end exist: fills in the run's part of the
  // statistics and registers it with the platform's.
  void attach(RunState& run);
  // After the run and the outputs' finish(): the stop reason and the exit
  // status (run.reason, run.status).
  void decide_exit(RunState& run) const;
  // Writes --stats (if asked for).
  void write_stats(RunState& run);
  // The closing message of the stop reason, the output errors; returns the
  // process exit status.
  int close(RunState& run) const;

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace l3vp::sim
