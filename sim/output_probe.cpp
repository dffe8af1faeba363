// The probe options (sim/probe_print.h): --probe NAME, --probe-out FILE,
// --list-probes and the hidden --probe-all (testbenches/cli cli.probes.*).
// Listeners attach by name through the board's probe registry; listening
// changes no result.
#include "messages.h"
#include "output.h"
#include "probe_print.h"

namespace l3vp::sim {

namespace {

class ProbeOutput : public Output {
 public:
  void add_options(CommandLine& cl) override {
    probes_.add_options(cl.app());
    cl.on_parsed([this] {
      if (probes_.list_requested()) done_early(ProbePrint::list_probes());
    });
  }
  void start(RunState& run) override {
    const std::string e = probes_.attach(*run.plat, [&run](const std::string& f) { run.created.note(f); });
    if (!e.empty()) bad_input(e);
  }
  void finish(RunState& run) override {
    const std::string e = probes_.finish(*run.plat);
    if (!e.empty()) run.output_errors.push_back(e);
  }

 private:
  ProbePrint probes_;
};

}  // namespace

std::unique_ptr<Output> make_probe_output() { return std::make_unique<ProbeOutput>(); }

}  // namespace l3vp::sim
