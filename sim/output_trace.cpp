// --trace FILE: one line per instruction (write_trace_line, models/cpu/leon3).
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "messages.h"
#include "output.h"
#include "output_file.h"

namespace l3vp::sim {

namespace {

class TraceOutput : public Output {
 public:
  void add_options(CommandLine& cl) override {
    cl.app().add_option("--trace", path_, "Write a per-instruction trace to this file");
  }
  void open(RunState& run) override {
    if (path_.empty()) return;
    run.created.note(path_);
    file_.reset(std::fopen(path_.c_str(), "w"));
    if (!file_) bad_input("--trace: cannot open '" + path_ + "': " + std::strerror(errno));
  }
  void start(RunState& run) override { run.plat->set_trace(file_.get()); }
  void finish(RunState& run) override {
    if (!file_) return;
    run.plat->set_trace(nullptr);  // the core keeps no pointer to the closed file
    run.check_output("--trace", path_, finish_output(file_.release(), true));
  }

 private:
  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_{nullptr, &std::fclose};
};

}  // namespace

std::unique_ptr<Output> make_trace_output() { return std::make_unique<TraceOutput>(); }

}  // namespace l3vp::sim
