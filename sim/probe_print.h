// leon3vp's probe options (docs/user-guide.md "Probes"):
//
//   --probe NAME      print every event of probe NAME (repeatable; a trailing
//                     '*' selects by prefix: greth.*, cpu.t*, '*' = all), one
//                     line each: "<ps> ps <name> key=value ..."
//   --probe-out FILE  those lines go to FILE instead of stderr
//   --list-probes     print the probe names and their event fields, exit
//   --probe-all       (hidden, debug) a counting listener on every probe;
//                     the counts are printed on stderr at the end
//                     (testbenches/cli cli.probes.*: listening changes nothing)
//
// The listeners attach by name through the board's probe registry
// (Leon3mp::probes(), models/common/probe_registry.h).
#pragma once
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace l3vp {
class Leon3mp;
}

namespace l3vp::sim {

class ProbePrint {
 public:
  ProbePrint() = default;
  ProbePrint(const ProbePrint&) = delete;
  ProbePrint& operator=(const ProbePrint&) = delete;
  ~ProbePrint();

  // Declares the options above on `app`.
  void add_options(CLI::App& app);
  // --list-probes was given.
  bool list_requested() const { return list_; }
  // Prints the list (the probes of the default board with the checksum
  // engine on) on stdout; returns the exit status.
  static int list_probes();

  // Attaches the listeners the options ask for to `board` (before the run).
  // `note_output` is called with the --probe-out path before it is created.
  // Returns "" or a one-line error (an unknown probe name, a file that
  // cannot be opened): the caller exits with status 2.
  std::string attach(Leon3mp& board, const std::function<void(const std::string&)>& note_output);
  // After the run: publishes what the GPTIMER still holds back (its free-
  // running underflows), writes the remaining lines and the --probe-all
  // counts, closes --probe-out. Returns "" or the output failure message.
  std::string finish(Leon3mp& board);

 private:
  void write(const std::string& line);
  void flush();

  std::vector<std::string> names_;
  std::string out_path_;
  const CLI::Option* out_opt_ = nullptr;
  bool list_ = false;
  bool all_ = false;
  bool attached_ = false;
  std::FILE* out_ = nullptr;  // stderr or the --probe-out file
  std::string buf_;
  std::vector<std::function<void()>> detach_;
};

}  // namespace l3vp::sim
