// What the parts of one leon3vp run share (sim/README.md): the core
// options, the configuration, the board, the selected far end, the time
// limit, the statistics the run adds, the outputs' write errors. Each part
// (options, configuration, board, far end, outputs, run loop, report) reads
// what the parts before it left here and adds its own.
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "config.h"
#include "fw_params.h"
#include "leon3mp.h"
#include "run_control.h"
#include "vcd/vcd_writer.h"

namespace l3vp {
class EthLink;
class TapEndpoint;
class PcapWriter;
}  // namespace l3vp

namespace l3vp::sim {

class FarEnd;

// Output files a run creates: those that did not exist before are removed
// again when the run ends before the simulation started (a check failed
// after the file was opened), so a refused command line leaves no empty or
// partial file behind. The first member of RunState, which Run destroys
// last: after every stream and writer closed its file.
class CreatedOutputs {
 public:
  // Call before the file is opened or created. A dangling symbolic link
  // counts as existing (it is not ours to remove).
  void note(const std::string& path);
  // The simulation starts: from now on every output is the run's result.
  void keep() { paths_.clear(); }
  ~CreatedOutputs();

 private:
  std::vector<std::string> paths_;
};

// The options of the run itself (sim/options.cpp); the far ends and the
// outputs hold their own.
struct Options {
  std::string firmware;
  std::string config;
  std::string max_time;  // empty: the scenario's duration, else no limit
  std::string uart_out, uart_in;
  std::string energy;  // --energy (energy.profile)
  std::string quantum;
  bool no_dmi = false;
  std::string boot;  // loader | entry | reset; empty = loader for an entry in RAM, else entry
  std::string mode;
  bool quiet = false;
  bool uart_out_set = false, uart_in_set = false, max_time_set = false;
  std::vector<std::string> rtl;  // --rtl BLOCK (rtl/README.md)
  // Per-run firmware parameters (fw_params block), KEY=VALUE in order.
  std::vector<std::string> fw_params;
  // Configuration overlay, KEY=VALUE in order (after the file, before validation).
  std::vector<std::string> sets;
  bool list_params = false;
  bool list_stats = false;
  bool print_config = false;
  // GDB remote debugging (sim/gdb/README.md).
  std::optional<unsigned> gdb_port;
  bool gdb_wait = false;
};

// What the run adds to --stats besides the platform's statistics (docs/
// stats-schema.md, sim/report.cpp): filled in as the run goes, read when
// the file is written. Null pointers = that part does not exist in this
// run (its keys are left out).
struct RunStats {
  std::string firmware, boot = "entry";
  uint32_t entry = 0;
  uint64_t max_time_ps = 0;
  const PlatformConfig* cfg = nullptr;
  const FwParams* fw_params = nullptr;
  std::string reason;
  int status = 0;
  const Leon3mp::Halt* halt = nullptr;
  std::string far_end = "none";
  const EthLink* link = nullptr;
  const nlohmann::json* net_results = nullptr;
  const TapEndpoint* tap = nullptr;
  const PcapWriter* pcap = nullptr;
  double wall = 0;
  uint64_t instructions = 0;
  std::string firmware_hash;
};

struct RunState {
  CreatedOutputs created;  // first: destroyed last
  Options opt;
  PlatformConfig cfg;
  // The window of the waveforms (--vcd-start/--vcd-end, simulated ps);
  // --rtl-trace follows it.
  uint64_t window_start_ps = 0, window_end_ps = vcd::Writer::kForever;
  // A scenario's duration is the time limit: reaching it with every
  // experiment done is success.
  bool scenario_end_planned = false;
  FwParams fw_params;
  // The time limit: 0 / sc_max_time() = none.
  uint64_t max_ps = 0;
  sc_core::sc_time max_time = sc_core::SC_ZERO_TIME;
  FarEnd* far_end = nullptr;  // the selected far end; null: nothing attached
  std::unique_ptr<Leon3mp> plat;
  RunStats stats;
  // The run (sim/run_loop.cpp).
  RunEnd run_end = RunEnd::EndTime;
  double wall = 0;
  // The exit (sim/report.cpp).
  std::string reason;
  int status = 0;
  // Output files whose write failed: one error line each at the end, exit 2.
  std::vector<std::string> output_errors;

  // Notes a write failure of `option`'s file `path` (`why` empty: none).
  void check_output(const char* option, const std::string& path, const std::string& why);
};

}  // namespace l3vp::sim
