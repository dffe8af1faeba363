// --profile, --profile-out FILE, --profile-pc FILE: the flat per-function
// profile and region table (stderr or a file) and the per-PC histogram.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "messages.h"
#include "output.h"
#include "output_file.h"

namespace l3vp::sim {

namespace {

class ProfileOutput : public Output {
 public:
  void add_options(CommandLine& cl) override {
    CLI::App& app = cl.app();
    app.add_flag("--profile", on_,
                 "Print a flat per-function profile and the region table on stderr at the end");
    app.add_option("--profile-out", out_path_, "Write the --profile report to this file instead");
    app.add_option("--profile-pc", pc_path_, "Write a per-PC histogram (text) to this file");
  }
  void open(RunState& run) override {
    open_file(run, "--profile-out", out_path_, out_);
    open_file(run, "--profile-pc", pc_path_, pc_);
  }
  void start(RunState& run) override {
    if (profiling()) run.plat->enable_profile(!pc_path_.empty());
  }
  void report(RunState& run) override {
    if (!profiling()) return;
    const std::string report = run.plat->profile_report();
    if (out_.is_open())
      out_ << report;
    else
      std::fputs(report.c_str(), stderr);
    if (pc_.is_open()) pc_ << run.plat->pc_histogram();
    run.check_output("--profile-out", out_path_, finish_output(out_));
    run.check_output("--profile-pc", pc_path_, finish_output(pc_));
  }

 private:
  bool profiling() const { return on_ || !out_path_.empty() || !pc_path_.empty(); }
  static void open_file(RunState& run, const char* option, const std::string& path, std::ofstream& f) {
    if (path.empty()) return;
    run.created.note(path);
    f.open(path);
    if (!f) bad_input(std::string(option) + ": cannot open '" + path + "': " + std::strerror(errno));
  }

  bool on_ = false;
  std::string out_path_, pc_path_;
  std::ofstream out_, pc_;
};

}  // namespace

std::unique_ptr<Output> make_profile_output() { return std::make_unique<ProfileOutput>(); }

}  // namespace l3vp::sim
