#include "report.h"

#include <csignal>
#include <cstdio>
#include <cstring>

#include "board_slots.h"
#include "far_end.h"
#include "format.h"
#include "log.h"
#include "messages.h"
#include "output_file.h"
#include "pcap_writer.h"
#include "stats.h"
#include "tap.h"
#include "trap_names.h"
#include "units.h"
#include "version.h"

namespace l3vp::sim {

namespace {

using nlohmann::json;
constexpr StatInv Y = StatInv::Yes;
constexpr StatInv N = StatInv::No;

void register_run_keys(const StatsGroup& root, const RunStats& r) {
  root.value("schema_version", "int", StatUnit::Id, N,
             "`2`. Incremented on incompatible changes; new keys may be added without a bump.",
             [] { return 2; });
  root.value("firmware", "string", StatUnit::Text, N, "The firmware path as given on the command line.",
             [&r] { return r.firmware; });
  root.value("config", "object", StatUnit::Object, N,
             "The effective platform configuration, same keys as the JSON config file "
             "(`models/platform/README.md`), after command-line overrides and a scenario's `link` section.",
             [&r] { return r.cfg ? r.cfg->to_json() : json::object(); });
  root.value("boot.mode", "string", StatUnit::Text, N,
             "`\"loader\"` (the state a boot loader leaves; the default for an entry in RAM), "
             "`\"entry\"` (reset state, PC = ELF entry) or `\"reset\"` (PC 0); docs/user-guide.md "
             "\"Boot modes\".",
             [&r] { return r.boot; });
  root.value("boot.entry", "int", StatUnit::Id, N, "ELF entry point.", [&r] { return r.entry; });
  root.value("max_time_ps", "int", StatUnit::Ps, N,
             "The simulated time limit: `--max-time`, else the scenario's `duration`; 0 = none.",
             [&r] { return r.max_time_ps; });
  root.only_if([&r] { return r.fw_params && !r.fw_params->empty(); })
      .value("fw_params", "object", StatUnit::Object, N,
             "Only when firmware parameters were given (scenario `board.params`, `--fw-param`; "
             "docs/network.md \"Firmware parameters\"): the fields written into the `fw_params` block "
             "(addresses as strings, everything else as numbers).",
             [&r] { return r.fw_params->to_json(); });
}

void register_stop_keys(const StatsGroup& root, const RunStats& r) {
  const StatsGroup stop = root.sub("stop");
  stop.value("reason", "string", StatUnit::Text, Y,
             "`\"exit\"` (error mode with tt 0x80: the firmware exit convention), `\"error_mode\"` (any "
             "other trap with ET = 0), `\"scenario_end\"` (the scenario's duration reached with every "
             "experiment done), `\"max_time\"` (the time limit reached otherwise), `\"idle\"` (no limit; "
             "the CPU powered down with nothing left that could wake it), `\"signal\"` (SIGINT/SIGTERM), "
             "`\"killed\"` (gdb's `kill`).",
             [&r] { return r.reason; });
  stop.value("exit_status", "int", StatUnit::Id, Y,
             "The process exit status: `%o0 & 0xFF` for `\"exit\"`, 0 for `\"scenario_end\"`, 3 for "
             "`\"error_mode\"`, 4 for `\"max_time\"`, 5 for `\"idle\"`, 128 + the signal number for "
             "`\"signal\"`, 137 for `\"killed\"` (docs/user-guide.md \"Exit status\").",
             [&r] { return r.status; });
  const StatsGroup halted = stop.only_if([&r] { return r.halt && r.halt->halted; });
  halted.value("tt", "int", StatUnit::Id, Y, "Only when the CPU halted: trap type.",
               [&r] { return r.halt->tt; });
  halted.value("trap", "string", StatUnit::Text, Y,
               "Only when the CPU halted: the trap's name "
               "(e.g. `\"data_access_exception\"`).",
               [&r] { return trap_name(r.halt->tt); });
  halted.value("pc", "int", StatUnit::Id, Y, "Only when the CPU halted: PC of the trapping instruction.",
               [&r] { return r.halt->pc; });
  halted.value("o0", "int", StatUnit::Id, Y, "Only when the CPU halted: `%o0`.", [&r] { return r.halt->o0; });
}

void register_net_keys(const StatsGroup& root, const RunStats& r) {
  const StatsGroup net = root.sub("net");
  net.value("far_end", "string", StatUnit::Text, N,
            "`\"none\"`, `\"sim_host\"` (`--scenario`) or `\"tap\"` (`--tap`).", [&r] { return r.far_end; });
  net.value("unattached_frames", "int", StatUnit::Count, Y,
            "Frames the GRETH sent while nothing was attached (0 otherwise).", [&r]() -> json {
              if (r.far_end == "none" && r.link) return r.link->stats(0).delivered;
              return 0;
            });
  net.only_if([&r] { return r.net_results != nullptr; })
      .value("results", "object", StatUnit::Object, Y,
             "Only with `--scenario`: the scenario results (docs/network.md \"Results JSON\"), the same "
             "object `--net-results` writes.",
             [&r] { return *r.net_results; });
  net.only_if([&r] { return r.pcap != nullptr; })
      .value("pcap_frames", "int", StatUnit::Count, Y, "Only with `--pcap`: frames recorded.",
             [&r] { return r.pcap->frames(); });
  TapEndpoint::register_stats(net.sub("tap"), r.tap);
}

void register_host_keys(const StatsGroup& root, const RunStats& r) {
  const StatsGroup host = root.sub("host");
  host.value("wall_time_s", "number", StatUnit::Seconds, N,
             "Host wall-clock time of `sc_start()` (never feeds back into simulated time).",
             [&r] { return r.wall; });
  host.value("mips", "number", StatUnit::Mips, N, "`instructions.total / wall_time_s / 1e6`.",
             [&r] { return r.wall > 0 ? double(r.instructions) / r.wall / 1e6 : 0.0; });
  const StatsGroup ver = root.sub("version");
  ver.value("leon3vp", "string", StatUnit::Text, N,
            "The simulator's version: `git describe --always --dirty` at build time (the project version "
            "outside a git checkout).",
            [] { return leon3vp_version(); });
  ver.value("hash", "string", StatUnit::Text, N, "`\"fnv1a64\"`: the algorithm of the two hashes below.",
            [] { return "fnv1a64"; });
  ver.value("config_hash", "string", StatUnit::Text, N,
            "FNV-1a-64 (16 hex digits) of the compact dump of `config` (sorted keys): equal hashes, equal "
            "configurations.",
            [&r] {
              const std::string c = r.cfg ? r.cfg->to_json().dump() : std::string();
              return hex64(fnv1a64(c.data(), c.size()));
            });
  ver.value("firmware_hash", "string", StatUnit::Text, N,
            "FNV-1a-64 (16 hex digits) of the firmware ELF file's bytes (before `fw_params` are written "
            "into the loaded image).",
            [&r] { return r.firmware_hash; });
}

// What the run adds to --stats besides the platform's statistics:
// registered once, read when the file is written.
void register_run_stats(const StatsGroup& root, const RunStats& r) {
  register_run_keys(root, r);
  register_stop_keys(root, r);
  register_net_keys(root, r);
  register_host_keys(root, r);
}

}  // namespace

int print_stats_schema() {
  PlatformConfig cfg = PlatformConfig::preset("gr-xc3s-1500");
  cfg.set("energy.profile", "flat");  // so that the energy.* and regions[].energy* rows are listed too
  board_slots::enable_all(cfg);       // and the rows of the optional devices (devices.chksum.*, ...)
  Leon3mp plat("leon3mp", cfg);
  RunStats r;
  register_run_stats(plat.stats_registry().root(), r);
  std::fputs(plat.stats_registry().markdown().c_str(), stdout);
  return 0;
}

void Report::add_options(CLI::App& app) {
  app.add_option("--stats", path_, "Write run statistics as JSON to this file");
}

void Report::open(RunState& run) {
  if (path_.empty()) return;
  run.created.note(path_);
  out_.open(path_);
  if (!out_) bad_input("--stats: cannot open '" + path_ + "': " + std::strerror(errno));
}

void Report::attach(RunState& run) {
  RunStats& s = run.stats;
  Leon3mp& plat = *run.plat;
  s.firmware = run.opt.firmware;
  s.boot = run.opt.boot;
  s.entry = plat.image().entry;
  s.max_time_ps = run.max_ps;
  s.cfg = &run.cfg;
  s.fw_params = &run.fw_params;
  s.halt = &plat.halt();
  s.far_end = run.far_end ? run.far_end->kind() : "none";
  s.link = &plat.link;
  if (out_.is_open()) {
    try {
      s.firmware_hash = hex64(fnv1a64_file(run.opt.firmware));
    } catch (const std::exception& e) {
      bad_input(run.opt.firmware + ": " + e.what());
    }
  }
  register_run_stats(plat.stats_registry().root(), s);
}

void Report::decide_exit(RunState& run) const {
  const Leon3mp& plat = *run.plat;
  const auto& h = plat.halt();
  std::string& reason = run.reason;
  int& status = run.status;
  if (h.halted && h.tt == kExitTrap) {
    reason = "exit";
    status = static_cast<int>(h.o0 & 0xFF);
  } else if (h.halted) {
    reason = "error_mode";
    status = kExitErrorMode;
  } else if (run.plat->cpu.stop() == Leon3::Stop::Killed) {
    reason = "killed";  // gdb's kill
    status = kExitKilled;
  } else if (run.run_end == RunEnd::Signalled) {
    reason = "signal";
    status = 128 + signal_number();
  } else if (run.run_end == RunEnd::Starved) {
    reason = "idle";
    status = kExitIdle;
  } else if (run.scenario_end_planned && run.far_end->experiments_done()) {
    reason = "scenario_end";
    status = 0;
  } else {
    reason = "max_time";
    status = kExitMaxTime;
  }
}

void Report::write_stats(RunState& run) {
  if (!out_.is_open()) return;
  RunStats& s = run.stats;
  s.reason = run.reason;
  s.status = run.status;
  if (run.far_end) s.net_results = run.far_end->results();
  s.wall = run.wall;
  s.instructions = run.plat->cpu.core().counters().instructions;
  out_ << stats_text(run.plat->stats(), 2) << '\n';
  run.check_output("--stats", path_, finish_output(out_));
}

int Report::close(RunState& run) const {
  Log::report_suppressed();
  Leon3mp& plat = *run.plat;
  const auto& h = plat.halt();
  const std::string pc = hex(plat.cpu.core().pc(), 8);
  const std::string now = format_duration(plat.cpu.cpu_time().value());
  if (run.reason == "error_mode") {
    const std::string note = plat.trap_handler_note(h.tt, h.pc);
    std::fprintf(stderr, "leon3vp: error mode: trap tt=%s (%s) at pc=%s%s\n", hex(h.tt, 2).c_str(),
                 trap_name(h.tt).c_str(), hex(h.pc, 8).c_str(),
                 note.empty() ? "" : (" (" + note + ")").c_str());
  } else if (run.reason == "max_time") {
    std::fprintf(
        stderr, "leon3vp: max-time reached: stopped after %s simulated%s (pc=%s)\n", run.opt.max_time.c_str(),
        run.scenario_end_planned ? " (the scenario's duration) with experiments unfinished" : "", pc.c_str());
  } else if (run.reason == "idle") {
    std::fprintf(stderr,
                 "leon3vp: idle: the CPU is powered down and nothing is left that could wake it "
                 "(at %s simulated, pc=%s)\n",
                 now.c_str(), pc.c_str());
  } else if (run.reason == "signal") {
    std::fprintf(stderr, "leon3vp: interrupted by %s after %s simulated (pc=%s); outputs written\n",
                 signal_number() == SIGINT ? "SIGINT" : "SIGTERM", now.c_str(), pc.c_str());
  }
  for (const std::string& e : run.output_errors) fail(kExitBadInput, e);
  if (!run.output_errors.empty()) return kExitBadInput;
  return run.status;
}

}  // namespace l3vp::sim
