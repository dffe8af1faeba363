#include "output.h"

namespace l3vp::sim {

// Each defined in its own file (output_<name>.cpp).
std::unique_ptr<Output> make_uart_output();       // the UART output's end-of-run check
std::unique_ptr<Output> make_trace_output();      // --trace
std::unique_ptr<Output> make_profile_output();    // --profile, --profile-out, --profile-pc
std::unique_ptr<Output> make_pcap_output();       // --pcap, --pcap-at
std::unique_ptr<Output> make_rtl_trace_output();  // --rtl-trace
std::unique_ptr<Output> make_vcd_output();        // --vcd, --vcd-*
std::unique_ptr<Output> make_probe_output();      // --probe, --probe-out, --list-probes, --probe-all

std::vector<std::unique_ptr<Output>> make_outputs() {
  std::vector<std::unique_ptr<Output>> v;
  for (auto* make : {&make_uart_output, &make_trace_output, &make_profile_output, &make_pcap_output,
                     &make_rtl_trace_output, &make_vcd_output, &make_probe_output})
    v.push_back(make());
  return v;
}

}  // namespace l3vp::sim
