// --probe-all (hidden, a debug option; testbenches/cli cli.probes.*): a
// listener on every probe of the platform, whose counts are one stderr line
// at the end. Results must not change.
#include <cstdio>

#include "output.h"

namespace l3vp::sim {

namespace {

class ProbeAllOutput : public Output {
 public:
  void add_options(CommandLine& cl) override {
    cl.app()
        .add_flag("--probe-all", on_, "Debug: listen to every probe of the platform (results must not change)")
        ->group("");
  }
  void start(RunState& run) override {
    if (on_) run.plat->listen_all_probes();
  }
  void finish(RunState& run) override {
    if (!on_) return;
    const auto& n = run.plat->probe_counts();
    using ull = unsigned long long;
    std::fprintf(stderr,
                 "leon3vp: probe-all: step=%llu execute=%llu power=%llu trap=%llu psr=%llu halt=%llu ahb=%llu "
                 "ahb_dmi=%llu marks=%llu link=%llu irq=%llu timer=%llu uart=%llu greth=%llu\n",
                 ull(n.step), ull(n.execute), ull(n.power), ull(n.trap), ull(n.psr), ull(n.halt), ull(n.ahb),
                 ull(n.ahb_dmi), ull(n.marks), ull(n.link), ull(n.irq), ull(n.timer), ull(n.uart), ull(n.greth));
  }

 private:
  bool on_ = false;
};

}  // namespace

std::unique_ptr<Output> make_probe_all_output() { return std::make_unique<ProbeAllOutput>(); }

}  // namespace l3vp::sim
