// --rtl-trace FILE: a VCD of the RTL GPTIMER's internal signals (Verilator
// tracing; rtl/adapters), in --vcd's window.
#include <fstream>

#include "gptimer_rtl.h"
#include "messages.h"
#include "output.h"

namespace l3vp::sim {

namespace {

class RtlTraceOutput : public Output {
 public:
  void add_options(CommandLine& cl) override {
    cl.refuse_empty(
          cl.app().add_option("--rtl-trace", path_,
                              "Write a VCD of the RTL block's internal signals (Verilator tracing, ps like "
                              "--vcd; --vcd-start/--vcd-end apply to it too)"))
        ->type_name("FILE");
  }
  void check(RunState& run) override {
    if (path_.empty()) return;
    if (run.cfg.get<std::string>("gptimer.model") != "rtl")
      bad_input("--rtl-trace: needs an RTL block (--rtl gptimer)");
    run.created.note(path_);
    if (!std::ofstream(path_)) bad_input("--rtl-trace: cannot write '" + path_ + "'");
    GptimerRtl::set_trace_file(path_);
  }
  void open(RunState& run) override {
    GptimerRtl::set_trace_window(run.window_start_ps,
                                 run.window_end_ps);  // --rtl-trace follows --vcd's window
  }
  void finish(RunState& run) override {
    auto* rtl_timer = dynamic_cast<GptimerRtl*>(&run.plat->timer_slot());
    if (rtl_timer && !path_.empty()) run.check_output("--rtl-trace", path_, rtl_timer->close_trace());
  }

 private:
  std::string path_;
};

}  // namespace

std::unique_ptr<Output> make_rtl_trace_output() { return std::make_unique<RtlTraceOutput>(); }

}  // namespace l3vp::sim
