// The UART output (--uart-out, config uart.out; stdout by default): the
// platform writes it; at the end it is flushed and checked like every file.
#include "output.h"
#include "output_file.h"

namespace l3vp::sim {

namespace {

class UartOutput : public Output {
 public:
  void finish(RunState& run) override {
    const std::string& path = run.cfg.get<std::string>("uart.out");
    const char* option = run.opt.uart_out_set ? "--uart-out"
                         : path == "-"        ? "UART output"
                                              : "config: uart.out";
    if (path == "-") run.check_output(option, "-", finish_output(stdout, false));
    run.check_output(option, path, finish_output(run.plat->uart_out_file(), false));
  }
};

}  // namespace

std::unique_ptr<Output> make_uart_output() { return std::make_unique<UartOutput>(); }

}  // namespace l3vp::sim
