#include "network_run.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <unistd.h>

#include "configuration.h"
#include "format.h"
#include "log.h"
#include "messages.h"
#include "network.h"
#include "options.h"
#include "output_file.h"
#include "pcap_writer.h"
#include "tap.h"
#include "vcd/board_waves.h"
#include "vcd/switch_waves.h"
#include "run_control.h"
#include "run_loop.h"
#include "run_state.h"
#include "stats.h"
#include "topology.h"
#include "units.h"
#include "version.h"

namespace l3vp::sim {

namespace {

// The value of --scenario in argv ("" when absent).
std::string scenario_arg(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    if (a == "--scenario" && i + 1 < argc) return argv[i + 1];
    if (a.rfind("--scenario=", 0) == 0) return a.substr(11);
  }
  return "";
}

struct NetOptions {
  std::string scenario, stats, results, firmware, fw_dir;
  std::vector<std::string> uart_out;  // BOARD=FILE
  std::vector<std::string> pcap;      // NODE=FILE
  std::vector<std::string> vcd;       // BOARD=FILE
  std::vector<std::string> profile;   // BOARD=FILE
};

class NetworkRun {
 public:
  int execute(int argc, char** argv);

 private:
  void parse(int argc, char** argv);
  void load_topology();
  void apply_uart_out();
  void open_outputs();
  void run();
  void decide_exit();
  void write_outputs();
  void attach_pcaps();
  void attach_waves();
  bool attach_switch_waves(const std::string& name, const std::string& file);
  Leon3mp& board_named(const std::string& name, const char* option);
  void start_profiles();

  RunState state_;  // options, configuration, created files, time limit, exit
  NetOptions n_;
  host::Topology topo_;
  std::unique_ptr<net::Network> net_;
  std::ofstream stats_out_, results_out_;
  std::vector<std::pair<std::string, std::unique_ptr<PcapWriter>>> pcaps_;       // path, writer
  std::vector<std::pair<std::string, std::unique_ptr<vcd::BoardWaves>>> waves_;  // path, writer
  std::vector<std::pair<std::string, std::unique_ptr<vcd::SwitchWaves>>> switch_waves_;
  std::vector<std::pair<std::string, Leon3mp*>> profiles_;  // path, board
  bool planned_end_ = false;
};

void NetworkRun::parse(int argc, char** argv) {
  setup_systemc_reports();
  Options& o = state_.opt;
  CLI::App app("leon3vp: several boards, hosts and switches of a topology scenario (docs/network.md)",
               "leon3vp");
  app.add_option("--scenario", n_.scenario, "Topology scenario file (JSON with \"boards\")")->required();
  app.add_option("firmware", n_.firmware, "(none: the topology names each board's firmware)");
  app.add_option("--fw-dir", n_.fw_dir,
                 "Look the boards' relative ELF paths up in this directory (default: the scenario's)")
      ->check(CLI::ExistingDirectory);
  app.add_option("-c,--config", o.config, "Configuration file or preset every board starts from");
  app.add_option("--set", o.sets, "KEY=VALUE for every board (before each board's own \"set\")")
      ->type_name("KEY=VALUE");
  app.add_option("--mode", o.mode, "timed or functional, every board")
      ->check(CLI::IsMember({"timed", "functional"}));
  app.add_option("--quantum", o.quantum, "TLM quantum of every board's CPU (e.g. 100us)");
  app.add_flag("--no-dmi", o.no_dmi, "No direct memory interface, every board");
  app.add_option("--energy", o.energy, "Energy profile of every board (a board's \"energy\" wins)");
  app.add_option("--max-time", o.max_time,
                 "Stop after this much simulated time (default: the scenario's duration)");
  app.add_option("--stats", n_.stats, "Write the statistics of every board, host and link (JSON)");
  app.add_option("--net-results", n_.results, "Write the hosts' experiment results (JSON)");
  app.add_option("--uart-out", n_.uart_out, "BOARD=FILE: that board's UART output to FILE (repeatable)");
  app.add_option("--pcap", n_.pcap,
                 "NODE=FILE: the frames on the cable at NODE (a board, a host or switch:port) to a pcap "
                 "file, both directions as delivered (repeatable)");
  app.add_option("--vcd", n_.vcd,
                 "BOARD=FILE: that board's waveform (the default signals, under a scope of the board's "
                 "name) to a VCD file; SWITCH=FILE: the switch's per-port queue, wire and counts "
                 "(repeatable)");
  app.add_option("--profile", n_.profile,
                 "BOARD=FILE: that board's per-function profile and region table to FILE (repeatable)");
  app.add_flag("-q,--quiet", o.quiet, "Do not print model diagnostics");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    parse_failure(app, e, argc, argv);
  }
  if (!n_.firmware.empty())
    bad_input("--scenario: a topology names each board's firmware (.boards[].elf): leave '" + n_.firmware +
              "' out");
  o.max_time_set = !o.max_time.empty();
  set_systemc_quiet(o.quiet);
  if (o.quiet) {
    Log::enable(LogCat::GuestError, false);
    Log::enable(LogCat::Unimp, false);
  }
}

void NetworkRun::load_topology() {
  try {
    topo_ = host::parse_topology(host::read_scenario_json(n_.scenario), host::scenario_dir(n_.scenario),
                                 n_.fw_dir);
  } catch (const host::ScenarioError& e) {
    bad_input("--scenario: " + std::string(e.what()));
  }
  if (!topo_.taps.empty()) {
    const std::string why = TapEndpoint::unavailable_reason();
    if (!why.empty()) bad_input("--scenario: taps: " + why);
  }
  Options& o = state_.opt;
  planned_end_ = !o.max_time_set && topo_.duration > sc_core::SC_ZERO_TIME;
  if (planned_end_) o.max_time = format_duration(topo_.duration.value());
  set_time_limit(state_);
}

// "NAME=FILE" of `option` (bad_input() unless both are there).
std::pair<std::string, std::string> name_file(const std::string& kv, const char* option, const char* name) {
  const size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
    bad_input(std::string(option) + ": '" + kv + "' is not " + name + "=FILE");
  return {kv.substr(0, eq), kv.substr(eq + 1)};
}

// --uart-out BOARD=FILE: the board's uart.out, after its own "set" keys.
void NetworkRun::apply_uart_out() {
  for (const std::string& kv : n_.uart_out) {
    const auto [name, file] = name_file(kv, "--uart-out", "BOARD");
    host::TopoBoard* b = nullptr;
    std::string known;
    for (host::TopoBoard& x : topo_.boards) {
      if (x.name == name) b = &x;
      known += (known.empty() ? "" : ", ") + x.name;
    }
    if (!b) bad_input("--uart-out: '" + name + "' is not a board (" + known + ")");
    b->sets.push_back("uart.out=" + file);
    state_.created.note(file);
  }
}

void NetworkRun::open_outputs() {
  auto open = [this](std::ofstream& f, const std::string& path, const char* option) {
    if (path.empty()) return;
    state_.created.note(path);
    f.open(path);
    if (!f) bad_input(std::string(option) + ": cannot open '" + path + "': " + std::strerror(errno));
  };
  open(stats_out_, n_.stats, "--stats");
  open(results_out_, n_.results, "--net-results");
}

void NetworkRun::run() {
  try {
    net_ = std::make_unique<net::Network>(topo_, state_.cfg);
  } catch (const net::NetworkError& e) {
    bad_input(e.what());
  }
  attach_pcaps();
  attach_waves();
  start_profiles();
  net_->set_end_time(state_.max_time);
  state_.created.keep();
  const auto t0 = std::chrono::steady_clock::now();
  net_->start();
  install_signal_handlers();
  ProgressOptions progress;
  progress.enabled = !state_.opt.quiet && isatty(fileno(stderr));
  progress.instructions = [this] {
    uint64_t n = 0;
    for (size_t i = 0; i < net_->boards(); ++i) n += net_->board(i).cpu.core().counters().instructions;
    return n;
  };
  state_.run_end = run_slices(state_.max_time, progress);
  if (state_.run_end != RunEnd::Starved)
    for (size_t i = 0; i < net_->boards(); ++i) net_->board(i).cpu.finish();
  state_.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// --pcap NODE=FILE: a capture of the cable at NODE (both directions, as delivered).
void NetworkRun::attach_pcaps() {
  for (const std::string& kv : n_.pcap) {
    const auto [node, file] = name_file(kv, "--pcap", "NODE");
    EthLink* cable = net_->cable_at(node);
    if (!cable) bad_input("--pcap: '" + node + "' is no end of a link (a board, a host or switch:port)");
    state_.created.note(file);
    auto w = std::make_unique<PcapWriter>();
    try {
      w->open(file);
    } catch (const std::runtime_error& e) {
      bad_input("--pcap: " + std::string(e.what()));
    }
    w->attach(*cable, PcapWriter::Point::kDeliver);
    pcaps_.emplace_back(file, std::move(w));
  }
}

// The board of that name (bad_input() naming `option` if there is none).
Leon3mp& NetworkRun::board_named(const std::string& name, const char* option) {
  for (size_t i = 0; i < net_->boards(); ++i)
    if (topo_.boards[i].name == name) return net_->board(i);
  bad_input(std::string(option) + ": '" + name + "' is not a board");
}

// --vcd SWITCH=FILE: the switch's per-port signals; false if `name` is no switch.
bool NetworkRun::attach_switch_waves(const std::string& name, const std::string& file) {
  for (size_t i = 0; i < net_->switches(); ++i) {
    if (topo_.switches[i].name != name) continue;
    state_.created.note(file);
    auto w = std::make_unique<vcd::SwitchWaves>(net_->eth_switch(i), name);
    try {
      w->open(file, {"topology: " + n_.scenario, "switch: " + name});
    } catch (const std::runtime_error& e) {
      bad_input("--vcd: " + std::string(e.what()));
    }
    switch_waves_.emplace_back(file, std::move(w));
    return true;
  }
  return false;
}

// --vcd BOARD=FILE: the board's default signals under a scope of its name
// (or a switch's: attach_switch_waves).
void NetworkRun::attach_waves() {
  for (const std::string& kv : n_.vcd) {
    const auto [name, file] = name_file(kv, "--vcd", "BOARD");
    if (attach_switch_waves(name, file)) continue;
    Leon3mp& plat = board_named(name, "--vcd");
    state_.created.note(file);
    auto w = std::make_unique<vcd::BoardWaves>(plat, vcd::default_signals(), plat.image().region_names, name);
    try {
      w->open(file, {"topology: " + n_.scenario, "board: " + name});
    } catch (const std::runtime_error& e) {
      bad_input("--vcd: " + std::string(e.what()));
    }
    waves_.emplace_back(file, std::move(w));
  }
}

// --profile BOARD=FILE: the board's per-function profile, written at the end.
void NetworkRun::start_profiles() {
  for (const std::string& kv : n_.profile) {
    const auto [name, file] = name_file(kv, "--profile", "BOARD");
    Leon3mp& plat = board_named(name, "--profile");
    if (!plat.profiling()) plat.enable_profile(false);
    profiles_.emplace_back(file, &plat);
  }
}

// As one board's run (docs/user-guide.md "Exit status"), over every board:
// every board halted: an error mode (3) or else the first non-zero exit
// code; the scenario's planned end with every experiment done: 0.
void NetworkRun::decide_exit() {
  std::string& reason = state_.reason;
  int& status = state_.status;
  if (state_.run_end == RunEnd::Signalled) {
    reason = "signal";
    status = 128 + signal_number();
  } else if (net_->all_halted()) {
    reason = "exit";
    status = 0;
    for (size_t i = 0; i < net_->boards(); ++i) {
      const Leon3mp::Halt& h = net_->board(i).halt();
      if (h.tt != kExitTrap) {
        reason = "error_mode";
        status = kExitErrorMode;
        std::fprintf(stderr, "leon3vp: %s: error mode: trap tt=%s at pc=%s\n", topo_.boards[i].name.c_str(),
                     hex(h.tt, 2).c_str(), hex(h.pc, 8).c_str());
        return;
      }
      if (status == 0) status = static_cast<int>(h.o0 & 0xFF);
    }
  } else if (state_.run_end == RunEnd::Starved) {
    reason = "idle";
    status = kExitIdle;
  } else if (planned_end_ && net_->experiments_done()) {
    reason = "scenario_end";
    status = 0;
  } else {
    reason = "max_time";
    status = kExitMaxTime;
    std::fprintf(stderr, "leon3vp: max-time reached: stopped after %s simulated%s\n",
                 state_.opt.max_time.c_str(),
                 planned_end_ ? " (the scenario's duration) with experiments unfinished" : "");
  }
}

void NetworkRun::write_outputs() {
  if (stats_out_.is_open()) {
    nlohmann::json j = net_->stats();
    j["run"] = {{"reason", state_.reason},
                {"status", state_.status},
                {"sim_time_ps", sc_core::sc_time_stamp().value()},
                {"scenario", n_.scenario}};
    j["version"] = {{"leon3vp", leon3vp_version()},
                    {"hash", "fnv1a64"},
                    {"scenario_hash", hex64(fnv1a64_file(n_.scenario))}};
    for (const host::TopoBoard& b : topo_.boards)
      j["version"]["firmware_hash"][b.name] = hex64(fnv1a64_file(b.elf));
    stats_out_ << stats_text(j, 2) << '\n';
    state_.check_output("--stats", n_.stats, finish_output(stats_out_));
  }
  if (results_out_.is_open()) {
    results_out_ << net_->stats()["hosts"].dump(2) << '\n';
    state_.check_output("--net-results", n_.results, finish_output(results_out_));
  }
  for (auto& [path, w] : pcaps_) state_.check_output("--pcap", path, w->close());
  for (auto& [path, w] : waves_) state_.check_output("--vcd", path, w->close());
  for (auto& [path, w] : switch_waves_) state_.check_output("--vcd", path, w->close());
  for (auto& [path, plat] : profiles_) {
    std::ofstream f(path);
    f << plat->profile_report();
    state_.check_output("--profile", path, f ? finish_output(f) : std::string(std::strerror(errno)));
  }
  std::fflush(stdout);
  for (size_t i = 0; i < net_->boards(); ++i)
    if (std::FILE* f = net_->board(i).uart_out_file())
      state_.check_output("--uart-out", net_->board(i).config().get<std::string>("uart.out"),
                          finish_output(f, false));
}

int NetworkRun::execute(int argc, char** argv) {
  try {
    parse(argc, argv);
    load_configuration(state_);
    finish_configuration(state_);
    load_topology();
    apply_uart_out();
    open_outputs();
    run();
    decide_exit();
    write_outputs();
  } catch (const Exit& e) {
    return e.message.empty() ? e.code : fail(e.code, e.message);
  }
  Log::report_suppressed();
  for (const std::string& e : state_.output_errors) fail(kExitBadInput, e);
  return state_.output_errors.empty() ? state_.status : kExitBadInput;
}

}  // namespace

bool is_network_run(int argc, char** argv) {
  const std::string path = scenario_arg(argc, argv);
  if (path.empty()) return false;
  try {
    return host::is_topology(host::read_scenario_json(path));
  } catch (const host::ScenarioError&) {
    return false;
  }
}

int run_network(int argc, char** argv) { return NetworkRun().execute(argc, argv); }

}  // namespace l3vp::sim
