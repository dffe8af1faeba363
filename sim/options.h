// The command line (sim/README.md): the run's own options (firmware,
// configuration overrides, time limit, boot, gdb, -q), parsing and what a
// refused command line prints. The far ends and the outputs add their own
// options to the same CLI::App (FarEnd::add_options, Output::add_options).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <vector>

#include "run_state.h"

namespace l3vp::sim {

// What a failed parse of `app` prints: --help and --version on stdout
// (done_early(0)), unknown options as one line naming only them, anything
// else as CLI11 says it (bad_input()).
[[noreturn]] void parse_failure(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv);

class CommandLine {
 public:
  CommandLine();
  CLI::App& app() { return *app_; }

  // The run's options shown before the far ends' and the outputs'.
  void add_run_options(Options& o);
  // The run's options after them (--rtl, --fw-param, --list-stats, --gdb, -q).
  void add_late_options(Options& o);
  // An option whose empty value would silently mean "none" (no time limit,
  // no waveform, no energy model): an empty value is a mistake (a shell
  // variable left unset), refused like any other bad value.
  CLI::Option* refuse_empty(CLI::Option* opt);
  // Runs `f` right after parsing, before the firmware is required (an option
  // that prints a listing and exits, as --list-probes, calls done_early()).
  void on_parsed(std::function<void()> f) { on_parsed_.push_back(std::move(f)); }

  // Parses argv into the options; handles --help, --version, --list-stats,
  // --list-params (done_early()), refuses a bad command line (bad_input())
  // and applies -q.
  void parse(int argc, char** argv, Options& o);

 private:
  std::unique_ptr<CLI::App> app_;
  std::vector<CLI::Option*> refuse_empty_;
  std::vector<std::function<void()>> on_parsed_;
  CLI::Option* firmware_ = nullptr;
  CLI::Option* max_time_ = nullptr;
  CLI::Option* uart_out_ = nullptr;
  CLI::Option* uart_in_ = nullptr;
};

}  // namespace l3vp::sim
