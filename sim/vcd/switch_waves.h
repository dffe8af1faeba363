// A switch's waveform (leon3vp --scenario TOPOLOGY --vcd SWITCH=FILE): per
// port, listeners on the switch's probes turn its forwarding and drops into
// value changes at their exact simulated times (README, docs/network.md).
//
//   vcd::SwitchWaves w(sw, "sw0");   // declares, attaches
//   w.open("sw0.vcd", {"topology: ..."});
//   sc_start(...);
//   std::string err = w.close();     // detaches, writes the rest
#pragma once
#include <string>
#include <vector>

#include "eth_switch.h"
#include "vcd_writer.h"

namespace l3vp::vcd {

class SwitchWaves {
 public:
  // Signals of every port p under scope SCOPE.pP: queue_frames (frames in
  // the output queue: from their entry, after the forwarding latency, to
  // their last bit on the egress wire), tx (1 while a frame is on the
  // egress wire), forwarded and drops (running counts: frames handed to the
  // port's wire, frames dropped and counted at the port).
  SwitchWaves(EthSwitch& sw, const std::string& scope);
  ~SwitchWaves();
  SwitchWaves(const SwitchWaves&) = delete;
  SwitchWaves& operator=(const SwitchWaves&) = delete;

  // Creates the file (throws std::runtime_error).
  void open(const std::string& path, const std::vector<std::string>& comments);
  // Detaches, writes everything recorded up to now; "" or the reason the file is incomplete.
  std::string close();

 private:
  struct PortSigs {
    Writer::Sig queue, tx, forwarded, drops;
  };
  void forward(const EthSwitchForwardEvent& e);
  void drop(const EthSwitchDropEvent& e);

  EthSwitch& sw_;
  Writer w_;
  std::vector<PortSigs> ports_;
  Probe<EthSwitchForwardEvent>::Id fwd_id_ = 0;
  Probe<EthSwitchDropEvent>::Id drop_id_ = 0;
  bool attached_ = false;
};

}  // namespace l3vp::vcd
