// leon3vp: run a firmware ELF on the GR-XC3S-1500 leon3mp virtual platform.
//
//   leon3vp [options] FIRMWARE.elf
//
// stdout carries only the UART output (unless --uart-out redirects it).
// Exit status (docs/user-guide.md "Exit status"): the firmware's exit code
// (error mode with tt 0x80, i.e. "ta 0" with traps disabled: %o0 & 0xFF);
// 0 = a scenario reached its planned end with every experiment done;
// 3 = any other error mode; 4 = --max-time reached; 5 = idle for good (the
// CPU powered down and nothing left that could wake it); 2 = bad input
// (files, options, configuration); 1 = internal error; 128 + signal number
// after SIGINT (130) or SIGTERM (143); 137 = killed by gdb (--gdb). Every
// failure is one line on stderr.
#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <tuple>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <unistd.h>
#include <vector>

#include "format.h"
#include "gdb_stub.h"
#include "config.h"
#include "elf_loader.h"
#include "fw_params.h"
#include "input_file.h"
#include "leon3mp.h"
#include "log.h"
#include "output_file.h"
#include "pcap_writer.h"
#include "probe_print.h"
#include "run_control.h"
#include "scenario.h"
#include "stats.h"
#include "tap.h"
#include "trap_names.h"
#include "units.h"
#include "gptimer_rtl.h"  // rtl/adapters: --rtl, --rtl-trace
#include "vcd/board_waves.h"
#include "vcd/tools.h"
#include "version.h"

namespace {

using l3vp::ConfigError;
using l3vp::hex;
using l3vp::ElfError;
using l3vp::PlatformConfig;

constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitErrorMode = 3;
constexpr int kExitMaxTime = 4;
constexpr int kExitIdle = 5;
constexpr int kExitKilled = 137;  // gdb "kill" (128 + SIGKILL)
constexpr unsigned kExitTrap = 0x80;  // "ta 0" with ET = 0

// Bad input: reported as "leon3vp: error: <what>", exit 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

int fail(int code, const std::string& what) {
  std::fflush(stdout);
  std::fprintf(stderr, "leon3vp: %s%s\n",
               code == kExitInternal ? "internal error: " : "error: ", one_line(what).c_str());
  return code;
}

// SystemC reports: infos are dropped ("simulation stopped by user"),
// warnings go to stderr, errors and fatals become exceptions that the
// top level turns into one "internal error" line (never abort()).
bool g_quiet = false;
void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
  if ((actions & sc_core::SC_DISPLAY) && !g_quiet)
    std::fprintf(stderr, "leon3vp: systemc: %s%s%s\n", rep.get_msg_type(), *rep.get_msg() ? ": " : "", one_line(rep.get_msg()).c_str());
  if (actions & sc_core::SC_THROW) throw rep;
}

void setup_systemc_reports() {
  using namespace sc_core;
  sc_report_handler::set_handler(report_handler);
  sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
  sc_report_handler::set_actions(SC_WARNING, SC_DISPLAY);
  sc_report_handler::set_actions(SC_ERROR, SC_THROW);
  sc_report_handler::set_actions(SC_FATAL, SC_THROW);
}

// What the run adds to --stats besides the platform's statistics (docs/
// stats-schema.md): registered once with register_run_stats(), filled in as
// the run goes, read when the file is written. Null pointers = that part
// does not exist in this run (its keys are left out).
struct RunStats {
  std::string firmware, boot = "entry";
  uint32_t entry = 0;
  uint64_t max_time_ps = 0;
  const PlatformConfig* cfg = nullptr;
  const l3vp::FwParams* fw_params = nullptr;
  std::string reason;
  int status = 0;
  const l3vp::Leon3mp::Halt* halt = nullptr;
  std::string far_end = "none";
  const l3vp::EthLink* link = nullptr;
  const nlohmann::json* net_results = nullptr;
  const l3vp::TapEndpoint* tap = nullptr;
  const l3vp::PcapWriter* pcap = nullptr;
  double wall = 0;
  uint64_t instructions = 0;
  std::string firmware_hash;
};

void register_run_stats(const l3vp::StatsGroup& root, const RunStats& r) {
  using l3vp::StatInv;
  using l3vp::StatUnit;
  using nlohmann::json;
  const auto Y = StatInv::Yes;
  const auto N = StatInv::No;
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
  const l3vp::StatsGroup stop = root.sub("stop");
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
  const l3vp::StatsGroup halted = stop.only_if([&r] { return r.halt && r.halt->halted; });
  halted.value("tt", "int", StatUnit::Id, Y, "Only when the CPU halted: trap type.", [&r] { return r.halt->tt; });
  halted.value("trap", "string", StatUnit::Text, Y, "Only when the CPU halted: the trap's name "
               "(e.g. `\"data_access_exception\"`).", [&r] { return l3vp::trap_name(r.halt->tt); });
  halted.value("pc", "int", StatUnit::Id, Y, "Only when the CPU halted: PC of the trapping instruction.",
               [&r] { return r.halt->pc; });
  halted.value("o0", "int", StatUnit::Id, Y, "Only when the CPU halted: `%o0`.", [&r] { return r.halt->o0; });
  const l3vp::StatsGroup net = root.sub("net");
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
  l3vp::TapEndpoint::register_stats(net.sub("tap"), r.tap);
  const l3vp::StatsGroup host = root.sub("host");
  host.value("wall_time_s", "number", StatUnit::Seconds, N,
             "Host wall-clock time of `sc_start()` (never feeds back into simulated time).",
             [&r] { return r.wall; });
  host.value("mips", "number", StatUnit::Mips, N, "`instructions.total / wall_time_s / 1e6`.",
             [&r] { return r.wall > 0 ? double(r.instructions) / r.wall / 1e6 : 0.0; });
  const l3vp::StatsGroup ver = root.sub("version");
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
              return l3vp::hex64(l3vp::fnv1a64(c.data(), c.size()));
            });
  ver.value("firmware_hash", "string", StatUnit::Text, N,
            "FNV-1a-64 (16 hex digits) of the firmware ELF file's bytes (before `fw_params` are written "
            "into the loaded image).",
            [&r] { return r.firmware_hash; });
}

struct Options {
  std::string firmware;
  std::string config;
  std::string max_time;  // empty: the scenario's duration, else no limit
  std::string uart_out, uart_in;
  std::string energy;  // --energy (energy.profile)
  std::string stats, trace;
  std::string quantum;
  bool no_dmi = false;
  std::string boot;  // loader | entry | reset; empty = loader for an entry in RAM, else entry
  std::string mode;
  bool profile = false;
  std::string profile_out, profile_pc;
  bool quiet = false;
  bool uart_out_set = false, uart_in_set = false;
  // Network far end and capture (docs/network.md).
  std::string scenario, tap, pcap, net_results;
  std::string pcap_at = "board";  // --pcap-at: board (the wire at the GRETH) | host (the PC's card)
  std::string vcd, vcd_signals, vcd_start, vcd_end, vcd_max_size;  // --vcd*
  std::vector<std::string> rtl;  // --rtl BLOCK (rtl/README.md)
  std::string rtl_trace;         // --rtl-trace FILE
  bool max_time_set = false;
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

// --list-stats: the schema comes from the registry of a default platform
// plus the run's own statistics (docs/stats-schema.md is generated from it).
int list_stats() {
  PlatformConfig cfg = PlatformConfig::preset("gr-xc3s-1500");
  cfg.set("energy.profile", "flat");  // so that the energy.* and regions[].energy* rows are listed too
  cfg.set("chksum.enable", "true");    // and the devices.chksum.* rows (the engine is off by default)
  l3vp::Leon3mp plat("leon3mp", cfg);
  RunStats r;
  register_run_stats(plat.stats_registry().root(), r);
  std::fputs(plat.stats_registry().markdown().c_str(), stdout);
  return 0;
}

// Options whose empty value would silently mean "none" (no time limit, no
// waveform, no energy model): an empty value is a mistake (a shell variable
// left unset), refused like any other bad value. Returns the option or "".
std::string empty_value_option(const CLI::App& app) {
  for (const char* name : {"--max-time", "--energy", "--vcd", "--vcd-signals", "--vcd-start", "--vcd-end",
                           "--vcd-max-size", "--rtl-trace", "--rtl"}) {
    for (const std::string& r : app.get_option(name)->results())
      if (r.empty()) return name;
  }
  return "";
}

// --vcd: one warning line before the run when the file is expected to pass
// 1 GB: the selection's measured peak rate (vcd::peak_bytes_per_ms,
// docs/waveforms.md "File size") times the window [start, end] (end:
// --vcd-end or the time limit, kForever if neither), unless --vcd-max-size
// keeps it below that.
void warn_vcd_size(const l3vp::vcd::Selection& sel, uint64_t start_ps, uint64_t end_ps, uint64_t cap) {
  constexpr uint64_t kWarnBytes = 1000000000;  // 1 GB
  const uint64_t per_ms = l3vp::vcd::peak_bytes_per_ms(sel);
  const std::string what = "--vcd: the signals " + l3vp::vcd::to_string(sel) + " write up to about " +
                           l3vp::format_size(per_ms) + " per simulated ms";
  const char* how = "; limit it with --vcd-start/--vcd-end, fewer --vcd-signals or --vcd-max-size "
                    "(docs/waveforms.md)";
  if (cap && cap <= kWarnBytes) return;
  if (end_ps == l3vp::vcd::Writer::kForever) {
    if (per_ms * 1000 > kWarnBytes)
      std::fprintf(stderr, "leon3vp: warning: %s, %s per simulated second, and the run has no end set "
                   "(--max-time, --vcd-end)%s\n", what.c_str(), l3vp::format_size(per_ms * 1000).c_str(), how);
    return;
  }
  const uint64_t len_ps = end_ps > start_ps ? end_ps - start_ps : 0;
  const unsigned __int128 est = (unsigned __int128)per_ms * len_ps / 1000000000u;
  const uint64_t bytes = est > UINT64_MAX ? UINT64_MAX : uint64_t(est);
  if (std::min(bytes, cap ? cap : bytes) > kWarnBytes)
    std::fprintf(stderr, "leon3vp: warning: %s: about %s for the %s written%s\n", what.c_str(),
                 l3vp::format_size(bytes).c_str(), l3vp::format_duration(len_ps).c_str(), how);
}

// --rtl BLOCK[,BLOCK...] (repeatable): the RTL variants in the blocks' slots.
// Empty names (",,", "gptimer,") are refused, not skipped.
int apply_rtl(const std::vector<std::string>& args, PlatformConfig& cfg) {
  for (const std::string& arg : args) {
    std::vector<std::string> blocks(1);
    for (char c : arg) {
      if (c == ',')
        blocks.emplace_back();
      else
        blocks.back() += c;
    }
    for (const std::string& b : blocks) {
      if (b.empty()) return fail(kExitBadInput, "--rtl: empty block name in '" + arg + "' (known: " + l3vp::rtl_block_names() + ")");
      const std::string key = l3vp::rtl_slot_key(b);
      if (key.empty()) return fail(kExitBadInput, "--rtl: unknown block '" + b + "' (known: " + l3vp::rtl_block_names() + ")");
      cfg.set(key, "rtl");
      if (b == "chksum") cfg.set("chksum.enable", "true");  // the engine on the board, as RTL
    }
  }
  return 0;
}

// The options of argv that `app` does not know ("--vcdd", "--max-tim=1s"
// is "--max-tim"), in order; values of known options and everything after
// "--" are skipped. CLI11's own message for them lists every argument left
// over, the firmware too; this names only the unknown options.
std::vector<std::string> unknown_options(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> unknown;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;
    const bool has_value = arg.find('=') != std::string::npos;
    const std::string name = arg[1] == '-' ? arg.substr(0, arg.find('=')) : arg.substr(0, 2);
    const CLI::Option* opt = app.get_option_no_throw(name);
    if (!opt) {
      unknown.push_back(name);
      continue;
    }
    // "--max-time 10s": the next word is the value, even if it starts with '-'.
    if (!has_value && name.size() == arg.size() && opt->get_items_expected_max() > 0) ++i;
  }
  return unknown;
}

// What a failed parse prints: --help and --version on stdout (exit 0),
// unknown options as one line naming only them, anything else as CLI11
// says it; exit 2.
int parse_failure(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  if (dynamic_cast<const CLI::CallForVersion*>(&e)) {
    std::printf("%s\n", e.what());
    return 0;
  }
  if (e.get_exit_code() == 0) {  // --help
    std::fputs(app.help().c_str(), stdout);
    return 0;
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::vector<std::string> unknown = unknown_options(app, argc, argv);
    if (!unknown.empty()) {
      std::string names;
      for (const std::string& n : unknown) names += (names.empty() ? "'" : ", '") + n + "'";
      return fail(kExitBadInput, std::string(unknown.size() > 1 ? "unknown options " : "unknown option ") +
                                     names + " (see --help)");
    }
  }
  return fail(kExitBadInput, e.what());
}

// Output files a run creates: those that did not exist before are removed
// again when the run ends before the simulation started (a check failed
// after the file was opened), so a refused command line leaves no empty or
// partial file behind. Declared before every stream and writer of run(), so
// it is destroyed after they closed their files.
class CreatedOutputs {
 public:
  // Call before the file is opened or created. A dangling symbolic link
  // counts as existing (it is not ours to remove).
  void note(const std::string& path) {
    std::error_code ec;
    if (!path.empty() && path != "-" && !std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
      paths_.push_back(path);
  }
  // The simulation starts: from now on every output is the run's result.
  void keep() { paths_.clear(); }
  ~CreatedOutputs() {
    for (const std::string& p : paths_) std::remove(p.c_str());
  }

 private:
  std::vector<std::string> paths_;
};

// A position-independent firmware (PIE: ET_DYN, a dynamic section, a
// program interpreter) runs, but nothing applies its relocations: pointers
// loaded from its GOT stay unrelocated (wrong strings, blank numbers).
void warn_position_independent(const l3vp::ElfImage& img, const std::string& path) {
  if (!img.position_independent) return;
  std::fprintf(stderr, "leon3vp: warning: %s is position-independent (%s); its relocations are not applied, "
               "so addresses may be wrong: build with -fno-pic and link with -no-pie -static\n",
               path.c_str(), img.pie_reason.c_str());
}

int run(int argc, char** argv) {
  setup_systemc_reports();
  l3vp::register_rtl_variants();  // the "rtl" variants of the slots (gptimer.model=rtl)

  Options o;
  CreatedOutputs created;  // before every output stream: closes them first
  CLI::App app{"leon3vp: LEON3 (SPARC V8) GR-XC3S-1500 virtual platform", "leon3vp"};
  app.set_version_flag("--version", std::string("leon3vp ") + leon3vp_version(),
                       "Print the version (as --stats version.leon3vp) and exit");
  auto* fw = app.add_option("firmware", o.firmware, "Firmware ELF (SPARC V8, big-endian, statically linked)");
  app.add_flag("--print-config", o.print_config,
               "Print the effective configuration (preset or -c file, then --set and the options "
               "below) as JSON and exit; the shipped preset is this output without options");
  app.add_flag("--list-params", o.list_params,
               "Print the configuration keys (type, valid values, default, meaning) as a Markdown table and exit");
  app.add_option("-c,--config", o.config,
                 "Platform configuration: a JSON file or a preset name (gr-xc3s-1500)");
  auto* mt = app.add_option("--max-time", o.max_time,
                            "Simulated time limit, e.g. 10s, 500ms, 20us (default: the scenario's duration, "
                            "else none: run until the firmware exits, enters error mode or is interrupted)");
  auto* uo = app.add_option("--uart-out", o.uart_out, "UART output file ('-' = stdout, the default)");
  auto* ui = app.add_option("--uart-in", o.uart_in, "UART input file ('-' = stdin; not deterministic)");
  app.add_option("--stats", o.stats, "Write run statistics as JSON to this file");
  app.add_option("--energy", o.energy,
                 "Energy model: a shipped profile (leon3-90nm-estimate, flat) or a JSON profile file "
                 "(= --set energy.profile=PROFILE; figures in --stats energy.*, regions[], --profile; "
                 "docs/energy.md)")
      ->type_name("PROFILE");
  app.add_option("--trace", o.trace, "Write a per-instruction trace to this file");
  app.add_option("--set", o.sets,
                 "Set one configuration key, e.g. --set dcache.way_kib=8 --set cpu.lddel=2 (repeatable; "
                 "applied in order after -c, before the options below; keys: --list-params)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  app.add_option("--quantum", o.quantum, "CPU global quantum, e.g. 100us (results do not depend on it)");
  app.add_flag("--no-dmi", o.no_dmi, "Disable direct memory access (every access goes through the bus)");
  app.add_option("--boot", o.boot,
                 "loader: the state a boot loader leaves (UART and timer running, caches on, stack set, "
                 "traps off until the program installs its trap table; "
                 "the default for an ELF entry in RAM); entry: reset state at the ELF entry (the "
                 "default otherwise); reset: reset state at PC 0 (docs/user-guide.md \"Boot modes\")")
      ->check(CLI::IsMember({"loader", "entry", "reset"}));
  app.add_option("--mode", o.mode,
                 "timed: cycle-approximate pipeline, caches and bus costs (the preset's default); "
                 "functional: 1 cycle per instruction, no bus costs")
      ->check(CLI::IsMember({"timed", "functional"}));
  app.add_flag("--profile", o.profile,
               "Print a flat per-function profile and the region table on stderr at the end");
  app.add_option("--profile-out", o.profile_out, "Write the --profile report to this file instead");
  app.add_option("--profile-pc", o.profile_pc, "Write a per-PC histogram (text) to this file");
  auto* sc = app.add_option("--scenario", o.scenario,
                            "Network: the simulated Linux PC runs this scenario file (JSON) at the far end of the link");
  auto* tp = app.add_option("--tap", o.tap,
                            "Network: the far end of the link is TAP device NAME in network namespace NAME "
                            "(scripts/netns-tap up NAME; real-time pacing; not deterministic)");
  sc->excludes(tp);
  auto* pcap_opt = app.add_option("--pcap", o.pcap,
                                  "Network: record every frame on the link (both directions) to this pcap file");
  app.add_option("--pcap-at", o.pcap_at,
                 "Network: where --pcap captures: board (the board's side of the wire, the default) or host "
                 "(the simulated PC's network card, as a Wireshark on the PC sees it; needs --scenario)")
      ->check(CLI::IsMember({"board", "host"}))
      ->needs(pcap_opt);
  app.add_option("--vcd", o.vcd,
                 "Write a waveform of the board (VCD; a name ending in .fst: FST through vcd2fst) at exact "
                 "simulated times (docs/waveforms.md)");
  app.add_option("--vcd-signals", o.vcd_signals,
                 "Signal groups of --vcd: cpu,irq,timer,uart,greth,link,regions (= default); ahb (every "
                 "bus transaction), cpu.pc, cpu.class (every instruction): heavy, add them by name; all");
  app.add_option("--vcd-start", o.vcd_start, "--vcd: write changes from this simulated time on (e.g. 10ms)");
  app.add_option("--vcd-end", o.vcd_end, "--vcd: write changes up to this simulated time");
  app.add_option("--vcd-max-size", o.vcd_max_size,
                 "--vcd: end the file cleanly before it passes SIZE (100M, 2G: powers of 1024; 500MB: of 1000), "
                 "at a time step, with a $comment saying so; the run goes on, its results unchanged")
      ->type_name("SIZE");
  app.add_option("--rtl", o.rtl,
                 "Put the RTL model of BLOCK in its slot (Verilator co-simulation; = --set BLOCK.model=rtl; "
                 "blocks: gptimer, chksum (implies chksum.enable); repeatable or a comma list; docs/rtl.md)")
      ->type_name("BLOCK")
      ->allow_extra_args(false);  // a comma list is split by apply_rtl()
  app.add_option("--rtl-trace", o.rtl_trace,
                 "Write a VCD of the RTL block's internal signals (Verilator tracing, ps like --vcd; "
                 "--vcd-start/--vcd-end apply to it too)")
      ->type_name("FILE");
  app.add_option("--net-results", o.net_results, "Network: write the scenario results (JSON) to this file");
  app.add_option("--fw-param", o.fw_params,
                 "Firmware parameter KEY=VALUE written into the ELF's fw_params block before the start "
                 "(repeatable; keys: " + l3vp::fw_param_names() + "; overrides the scenario's board.params)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one KEY=VALUE per --fw-param (the ELF stays positional)
  app.add_flag("--list-stats", o.list_stats,
               "Print the --stats schema (key, type, unit, invariance, meaning) as Markdown and exit");
  l3vp::sim::ProbePrint probes;  // --probe, --probe-out, --list-probes, --probe-all (probe_print.h)
  probes.add_options(app);
  auto* gdb_opt = app.add_option("--gdb", o.gdb_port,
                 "Serve the GDB remote protocol on 127.0.0.1:PORT (0 = pick a free port; the port is "
                 "printed on stderr). The program runs until gdb attaches (it then stops), or from the "
                 "start halted with --gdb-wait")
      ->type_name("PORT");
  app.add_flag("--gdb-wait", o.gdb_wait,
               "With --gdb: wait for gdb to connect before the first instruction (start halted)")
      ->needs(gdb_opt);
  app.add_flag("-q,--quiet", o.quiet,
               "Do not print model diagnostics (guest errors, unimplemented features)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parse_failure(app, e, argc, argv);
  }
  if (o.list_stats) return list_stats();
  if (probes.list_requested()) return l3vp::sim::ProbePrint::list_probes();
  if (o.list_params) {
    std::fputs(PlatformConfig::params_markdown().c_str(), stdout);
    return 0;
  }
  if (fw->count() == 0 && !o.print_config) return fail(kExitBadInput, "firmware is required");
  if (const std::string opt = empty_value_option(app); !opt.empty())
    return fail(kExitBadInput, opt + ": empty value (leave the option out instead)");
  o.uart_out_set = uo->count() > 0;
  o.max_time_set = mt->count() > 0;
  o.uart_in_set = ui->count() > 0;
  g_quiet = o.quiet;
  if (o.quiet) {
    l3vp::Log::enable(l3vp::LogCat::GuestError, false);
    l3vp::Log::enable(l3vp::LogCat::Unimp, false);
  }

  // Configuration: preset or file, then command-line overrides.
  PlatformConfig cfg;
  try {
    if (o.config.empty())
      cfg = PlatformConfig::preset("gr-xc3s-1500");
    else if (PlatformConfig::is_preset(o.config))
      cfg = PlatformConfig::preset(o.config);
    else
      cfg = PlatformConfig::from_file(o.config);
  } catch (const ConfigError& e) {
    return fail(kExitBadInput, std::string("config: ") + e.what());
  }
  // --set in order, then the dedicated options (they win over both).
  for (const std::string& kv : o.sets) {
    try {
      cfg.set_arg(kv);
    } catch (const ConfigError& e) {
      return fail(kExitBadInput, std::string("--set: ") + e.what());
    }
  }
  if (const int rc = apply_rtl(o.rtl, cfg)) return rc;
  if (!o.rtl_trace.empty()) {
    if (cfg.get<std::string>("gptimer.model") != "rtl")
      return fail(kExitBadInput, "--rtl-trace: needs an RTL block (--rtl gptimer)");
    created.note(o.rtl_trace);
    if (!std::ofstream(o.rtl_trace)) return fail(kExitBadInput, "--rtl-trace: cannot write '" + o.rtl_trace + "'");
    l3vp::GptimerRtl::set_trace_file(o.rtl_trace);
  }
  if (o.uart_out_set) cfg.set("uart.out", o.uart_out);
  if (o.uart_in_set) cfg.set("uart.in", o.uart_in);
  if (!o.energy.empty()) cfg.set("energy.profile", o.energy);
  if (o.no_dmi) cfg.dmi = false;
  if (!o.mode.empty()) cfg.set("mode", o.mode);  // CLI::IsMember checked the name
  // --vcd: everything checked before the run starts.
  l3vp::vcd::Selection vcd_sel = l3vp::vcd::default_signals();
  uint64_t vcd_start_ps = 0, vcd_end_ps = l3vp::vcd::Writer::kForever, vcd_max_bytes = 0;
  bool vcd_fst = false;
  if (o.vcd.empty()) {
    for (const auto& [opt, val] : {std::pair<const char*, const std::string*>{"--vcd-signals", &o.vcd_signals},
                                   {"--vcd-start", &o.vcd_start}, {"--vcd-end", &o.vcd_end},
                                   {"--vcd-max-size", &o.vcd_max_size}})
      if (!val->empty()) return fail(kExitBadInput, std::string(opt) + " needs --vcd FILE");
  } else {
    if (!o.vcd_signals.empty()) {
      try {
        vcd_sel = l3vp::vcd::parse_signals(o.vcd_signals);
      } catch (const std::invalid_argument& e) {
        return fail(kExitBadInput, "--vcd-signals: " + std::string(e.what()));
      }
    }
    for (const auto& [opt, val, out] :
         {std::tuple<const char*, const std::string*, uint64_t*>{"--vcd-start", &o.vcd_start, &vcd_start_ps},
          {"--vcd-end", &o.vcd_end, &vcd_end_ps}}) {
      if (val->empty()) continue;
      try {
        *out = l3vp::parse_duration_ps(*val, true);
      } catch (const l3vp::UnitsError& e) {
        return fail(kExitBadInput, std::string(opt) + ": " + e.what());
      }
    }
    if (vcd_end_ps < vcd_start_ps)
      return fail(kExitBadInput, "--vcd-end: " + o.vcd_end + " is before --vcd-start " + o.vcd_start);
    try {
      if (!o.vcd_max_size.empty()) vcd_max_bytes = l3vp::parse_size_bytes(o.vcd_max_size);
    } catch (const l3vp::UnitsError& e) {
      return fail(kExitBadInput, "--vcd-max-size: " + std::string(e.what()));
    }
    vcd_fst = o.vcd.size() > 4 && o.vcd.compare(o.vcd.size() - 4, 4, ".fst") == 0;
    if (vcd_fst && l3vp::vcd::find_program("vcd2fst").empty())
      return fail(kExitBadInput, "--vcd: FST output needs vcd2fst on PATH (Debian package gtkwave)");
  }
  l3vp::GptimerRtl::set_trace_window(vcd_start_ps, vcd_end_ps);  // --rtl-trace follows --vcd's window
  if (!o.quantum.empty()) {
    try {
      const uint64_t ps = l3vp::parse_duration_ps(o.quantum);
      if (ps % 1000)
        return fail(kExitBadInput, "--quantum: '" + o.quantum + "' is not a time in whole ns (e.g. 100us, 250ns)");
      cfg.set("quantum_ns", std::to_string(ps / 1000));
    } catch (const l3vp::UnitsError& e) {
      return fail(kExitBadInput, "--quantum: " + std::string(e.what()));
    } catch (const ConfigError& e) {
      return fail(kExitBadInput, "--quantum: " + std::string(e.what()));
    }
  }
  try {
    cfg.validate();
  } catch (const ConfigError& e) {
    return fail(kExitBadInput, std::string("config: ") + e.what());
  }
  if (o.print_config) {
    std::fputs((cfg.to_json().dump(2) + "\n").c_str(), stdout);
    return 0;
  }

  // Network far end: a scenario (simulated PC) or a TAP device.
  std::optional<l3vp::host::Scenario> scenario;
  bool scenario_end_planned = false;
  if (!o.scenario.empty()) {
    try {
      scenario = l3vp::host::load_scenario(o.scenario);
    } catch (const std::exception& e) {
      return fail(kExitBadInput, "--scenario: " + std::string(e.what()));
    }
    // A scenario with a "link" section sets the link (replacing net.*
    // except net.mac); without one the configuration's link is used.
    if (scenario->has_link) {
      cfg.put("net", l3vp::EthLinkParams::rows(), scenario->link);
      try {
        cfg.validate();
      } catch (const ConfigError& e) {
        return fail(kExitBadInput, "--scenario: link: " + std::string(e.what()));
      }
    }
    if (!o.max_time_set && scenario->duration > sc_core::SC_ZERO_TIME)
      o.max_time = l3vp::format_duration(scenario->duration.value());  // ps
    // Its end is planned: reaching it with every experiment done is success.
    scenario_end_planned = !o.max_time_set && scenario->duration > sc_core::SC_ZERO_TIME;
  }
  if (!o.net_results.empty() && !scenario)
    return fail(kExitBadInput, "--net-results: needs --scenario");
  if (o.pcap_at == "host" && !scenario)
    return fail(kExitBadInput, "--pcap-at host: needs --scenario (the simulated PC)");
  if (!o.tap.empty()) {
    const std::string why = l3vp::TapEndpoint::unavailable_reason();
    if (!why.empty()) return fail(kExitBadInput, "--tap: " + why);
  }
  // Firmware parameters: the scenario's board.params, then --fw-param.
  l3vp::FwParams fw_params;
  try {
    if (scenario && !scenario->board_params.is_null())
      fw_params.set_json(scenario->board_params, "--scenario: .board.params");
    for (const std::string& kv : o.fw_params) fw_params.set_arg(kv);
  } catch (const l3vp::FwParamError& e) {
    return fail(kExitBadInput, e.what());
  }
  // The time limit: none (sc_max_time()) unless given or planned.
  uint64_t max_ps = 0;
  if (!o.max_time.empty()) {
    try {
      max_ps = l3vp::parse_duration_ps(o.max_time);
    } catch (const l3vp::UnitsError& e) {
      return fail(kExitBadInput, "--max-time: " + std::string(e.what()));
    }
    if (max_ps == 0)
      return fail(kExitBadInput, "--max-time: '" + o.max_time + "' is not a positive time (e.g. 10s, 500ms, 20us)");
  }
  const sc_core::sc_time max_time = max_ps ? sc_core::sc_time::from_value(max_ps) : sc_core::sc_max_time();

  // UART input from a file is read whole at the start (stdin, "-", is read
  // on demand): it must be a regular file (docs/user-guide.md "Input limits
  // and errors").
  if (!cfg.get<std::string>("uart.in").empty() && cfg.get<std::string>("uart.in") != "-") {
    try {
      l3vp::check_input_file(cfg.get<std::string>("uart.in"), l3vp::kMaxUartInBytes, "UART input");
    } catch (const l3vp::InputFileError& e) {
      return fail(kExitBadInput, std::string(o.uart_in_set ? "--uart-in: " : "config: uart.in: ") + e.what());
    }
  }
  // Validate the firmware before building anything.
  try {
    warn_position_independent(l3vp::read_elf(o.firmware), o.firmware);
  } catch (const ElfError& e) {
    return fail(kExitBadInput, e.what());
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> trace(nullptr, &std::fclose);
  if (!o.trace.empty()) {
    created.note(o.trace);
    trace.reset(std::fopen(o.trace.c_str(), "w"));
    if (!trace) return fail(kExitBadInput, "--trace: cannot open '" + o.trace + "': " + std::strerror(errno));
  }
  const bool profiling = o.profile || !o.profile_out.empty() || !o.profile_pc.empty();
  std::ofstream profile_out, profile_pc;
  if (!o.profile_out.empty()) {
    created.note(o.profile_out);
    profile_out.open(o.profile_out);
    if (!profile_out)
      return fail(kExitBadInput,
                  "--profile-out: cannot open '" + o.profile_out + "': " + std::strerror(errno));
  }
  if (!o.profile_pc.empty()) {
    created.note(o.profile_pc);
    profile_pc.open(o.profile_pc);
    if (!profile_pc)
      return fail(kExitBadInput, "--profile-pc: cannot open '" + o.profile_pc + "': " + std::strerror(errno));
  }
  std::ofstream net_results_out;
  if (!o.net_results.empty()) {
    created.note(o.net_results);
    net_results_out.open(o.net_results);
    if (!net_results_out)
      return fail(kExitBadInput, "--net-results: cannot open '" + o.net_results + "': " + std::strerror(errno));
  }
  std::ofstream stats_out;
  if (!o.stats.empty()) {
    created.note(o.stats);
    stats_out.open(o.stats);
    if (!stats_out)
      return fail(kExitBadInput, "--stats: cannot open '" + o.stats + "': " + std::strerror(errno));
  }

  created.note(cfg.get<std::string>("uart.out"));  // the platform opens it
  std::unique_ptr<l3vp::Leon3mp> plat;
  try {
    plat = std::make_unique<l3vp::Leon3mp>("leon3mp", cfg);
    plat->load_elf(o.firmware);
    if (!fw_params.empty()) l3vp::write_fw_params(plat->image(), plat->load_regions(), fw_params);
  } catch (const l3vp::FwParamError& e) {
    return fail(kExitBadInput, o.firmware + ": " + e.what());
  } catch (const ConfigError& e) {
    return fail(kExitBadInput, std::string("config: ") + e.what());
  } catch (const l3vp::energy::ProfileError& e) {
    return fail(kExitBadInput, (!o.energy.empty() ? "--energy: " : "config: energy.profile: ") + std::string(e.what()));
  } catch (const ElfError& e) {
    return fail(kExitBadInput, e.what());
  }
  // The link's far end (end 1) and the capture.
  std::unique_ptr<l3vp::host::SimHost> pc;
  std::unique_ptr<l3vp::host::ScenarioRunner> runner;
  std::unique_ptr<l3vp::TapEndpoint> tap;
  std::unique_ptr<l3vp::PcapWriter> pcap;
  const char* far_end = "none";
  if (scenario) {
    pc = std::make_unique<l3vp::host::SimHost>("pc", scenario->host, scenario->tcp);
    plat->link.attach(1, pc.get());
    pc->connect(&plat->link.port(1));
    runner = std::make_unique<l3vp::host::ScenarioRunner>(*pc, *scenario);
    far_end = "sim_host";
  } else if (!o.tap.empty()) {
    try {
      l3vp::TapParams tp;
      tp.ifname = o.tap;
      tp.netns = o.tap;
      tp.realtime = true;
      tap = std::make_unique<l3vp::TapEndpoint>("tap", tp);
    } catch (const std::exception& e) {
      return fail(kExitBadInput, "--tap: " + std::string(e.what()));
    }
    plat->link.attach(1, tap.get());
    tap->connect(&plat->link.port(1));
    far_end = "tap";
  }
  if (!o.pcap.empty()) {
    created.note(o.pcap);
    try {
      pcap = std::make_unique<l3vp::PcapWriter>(o.pcap);
    } catch (const std::exception& e) {
      return fail(kExitBadInput, "--pcap: " + std::string(e.what()));
    }
    if (o.pcap_at == "host")  // the PC's stack boundary (models/net/README.md "Host latency model")
      pc->on_stack.listen([p = pcap.get()](const l3vp::host::HostFrameEvent& e) { p->write(e.frame, e.t); });
    else
      pcap->attach(plat->link, l3vp::PcapWriter::Point::kDeliver);
  }

  // --stats: what the run adds to the platform's statistics.
  RunStats run_stats;
  run_stats.firmware = o.firmware;
  if (o.boot.empty()) o.boot = plat->in_ram(plat->image().entry) ? "loader" : "entry";
  run_stats.boot = o.boot;
  run_stats.entry = plat->image().entry;
  run_stats.max_time_ps = max_ps;
  run_stats.cfg = &cfg;
  run_stats.fw_params = &fw_params;
  run_stats.halt = &plat->halt();
  run_stats.far_end = far_end;
  run_stats.link = &plat->link;
  run_stats.tap = tap.get();
  run_stats.pcap = pcap.get();
  if (stats_out.is_open()) {
    try {
      run_stats.firmware_hash = l3vp::hex64(l3vp::fnv1a64_file(o.firmware));
    } catch (const std::exception& e) {
      return fail(kExitBadInput, o.firmware + ": " + e.what());
    }
  }
  register_run_stats(plat->stats_registry().root(), run_stats);

  if (o.boot == "reset")
    plat->boot_reset();
  else if (o.boot == "loader")
    plat->boot_loader(plat->image().entry);
  else
    plat->boot_at(plat->image().entry);
  plat->set_trace(trace.get());
  if (profiling) plat->enable_profile(!o.profile_pc.empty());
  if (const std::string e = probes.attach(*plat, [&](const std::string& f) { created.note(f); }); !e.empty())
    return fail(kExitBadInput, e);
  std::unique_ptr<l3vp::vcd::BoardWaves> waves;
  const std::string vcd_file = vcd_fst ? o.vcd + ".tmp.vcd" : o.vcd;
  if (!o.vcd.empty()) {
    if (vcd_sel.timer && !plat->gptimer())
      std::fprintf(stderr, "leon3vp: warning: --vcd: the GPTIMER slot holds gptimer.model=%s, which has no "
                   "timer probes: the timer group stays empty\n",
                   cfg.get<std::string>("gptimer.model").c_str());
    warn_vcd_size(vcd_sel, vcd_start_ps, std::min(vcd_end_ps, max_ps ? max_ps : vcd_end_ps), vcd_max_bytes);
    waves = std::make_unique<l3vp::vcd::BoardWaves>(*plat, vcd_sel, plat->image().region_names);
    waves->set_window(vcd_start_ps, vcd_end_ps);
    waves->set_max_bytes(vcd_max_bytes);
    std::vector<std::string> comments = {
        std::string("leon3vp ") + leon3vp_version(),
        "firmware: " + std::filesystem::path(o.firmware).filename().string(),
        "signals: " + l3vp::vcd::to_string(vcd_sel),
        std::string("view: ") + (scenario || !o.tap.empty() ? "net" : "board")};
    if (scenario) comments.push_back("scenario: " + std::filesystem::path(o.scenario).filename().string());
    created.note(vcd_file);
    created.note(o.vcd);
    try {
      waves->open(vcd_file, comments);
    } catch (const std::exception& e) {
      return fail(kExitBadInput, "--vcd: " + std::string(e.what()));
    }
  }
  plat->set_end_time(max_time);
  std::unique_ptr<l3vp::gdb::GdbStub> gdb;
  if (o.gdb_port) {
    try {
      gdb = std::make_unique<l3vp::gdb::GdbStub>(plat->cpu, l3vp::gdb::GdbStub::Options{*o.gdb_port, o.gdb_wait});
    } catch (const std::runtime_error& e) {
      return fail(kExitBadInput, e.what());
    }
    plat->cpu.set_debug_agent(gdb.get());
  }

  // Host wall time is measured only for the report; it never feeds back
  // into the simulation.
  created.keep();  // every check passed: the outputs are the run's
  const auto t0 = std::chrono::steady_clock::now();
  if (runner) runner->start();  // experiment times are relative to time 0
  l3vp::sim::install_signal_handlers();
  l3vp::sim::ProgressOptions progress;
  progress.enabled = !o.quiet && isatty(fileno(stderr));
  progress.instructions = [&plat] { return plat->cpu.core().counters().instructions; };
  const l3vp::sim::RunEnd run_end = l3vp::sim::run_slices(max_time, progress);
  // A starved run: the CPU powered down for good; its cycles stay at its
  // last activity (the kernel's time is only the slice boundary after it).
  if (run_end != l3vp::sim::RunEnd::Starved) plat->cpu.finish();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Output files: every one is flushed and checked; a failed write (full
  // disk, /dev/full) is one error line each at the end and exit 2, after the
  // other outputs were still written.
  std::vector<std::string> output_errors;
  auto check_output = [&output_errors](const char* option, const std::string& path, const std::string& why) {
    if (!why.empty()) output_errors.push_back(l3vp::output_failure(option, path, why));
  };
  const std::string& uart_out = cfg.get<std::string>("uart.out");
  const char* uart_opt = o.uart_out_set ? "--uart-out" : uart_out == "-" ? "UART output" : "config: uart.out";
  if (uart_out == "-") check_output(uart_opt, "-", l3vp::finish_output(stdout, false));
  check_output(uart_opt, uart_out, l3vp::finish_output(plat->uart_out_file(), false));
  if (trace) {
    plat->set_trace(nullptr);  // the core keeps no pointer to the closed file
    check_output("--trace", o.trace, l3vp::finish_output(trace.release(), true));
  }
  if (pcap) check_output("--pcap", o.pcap, pcap->close());
  if (auto* rtl_timer = dynamic_cast<l3vp::GptimerRtl*>(&plat->timer_slot()); rtl_timer && !o.rtl_trace.empty())
    check_output("--rtl-trace", o.rtl_trace, rtl_timer->close_trace());
  if (waves) {
    std::string why = waves->close();
    if (waves->late())
      std::fprintf(stderr, "leon3vp: warning: --vcd: %llu changes arrived after their time was written\n",
                   (unsigned long long)waves->late());
    if (waves->truncated())
      std::fprintf(stderr, "leon3vp: warning: --vcd: the file reached --vcd-max-size %s and ends at %s "
                   "simulated (a $comment in it says so); the run went on\n", o.vcd_max_size.c_str(),
                   l3vp::format_duration(waves->truncated_at_ps()).c_str());
    if (why.empty() && vcd_fst) {
      why = l3vp::vcd::run_program({"vcd2fst", vcd_file, o.vcd});
      std::remove(vcd_file.c_str());
    }
    check_output("--vcd", o.vcd, why);
  }
  if (const std::string e = probes.finish(*plat); !e.empty()) output_errors.push_back(e);
  nlohmann::json net_results;
  if (runner) {
    net_results = runner->results();
    net_results_out << net_results.dump(2) << '\n';
    check_output("--net-results", o.net_results, l3vp::finish_output(net_results_out));
  }

  const auto& h = plat->halt();
  std::string reason;
  int status;
  if (h.halted && h.tt == kExitTrap) {
    reason = "exit";
    status = static_cast<int>(h.o0 & 0xFF);
  } else if (h.halted) {
    reason = "error_mode";
    status = kExitErrorMode;
  } else if (plat->cpu.stop() == l3vp::Leon3::Stop::Killed) {
    reason = "killed";  // gdb's kill
    status = kExitKilled;
  } else if (run_end == l3vp::sim::RunEnd::Signalled) {
    reason = "signal";
    status = 128 + l3vp::sim::signal_number();
  } else if (run_end == l3vp::sim::RunEnd::Starved) {
    reason = "idle";
    status = kExitIdle;
  } else if (scenario_end_planned && runner->done()) {
    reason = "scenario_end";
    status = 0;
  } else {
    reason = "max_time";
    status = kExitMaxTime;
  }
  if (gdb) gdb->finish(h.halted, h.tt, status);  // gdb sees the end ("W"/"X")

  if (stats_out.is_open()) {
    run_stats.reason = reason;
    run_stats.status = status;
    if (runner) run_stats.net_results = &net_results;
    run_stats.wall = wall;
    run_stats.instructions = plat->cpu.core().counters().instructions;
    stats_out << l3vp::stats_text(plat->stats(), 2) << '\n';
    check_output("--stats", o.stats, l3vp::finish_output(stats_out));
  }

  if (profiling) {
    const std::string report = plat->profile_report();
    if (profile_out.is_open())
      profile_out << report;
    else
      std::fputs(report.c_str(), stderr);
    if (profile_pc.is_open()) profile_pc << plat->pc_histogram();
    check_output("--profile-out", o.profile_out, l3vp::finish_output(profile_out));
    check_output("--profile-pc", o.profile_pc, l3vp::finish_output(profile_pc));
  }

  l3vp::Log::report_suppressed();
  if (reason == "error_mode") {
    const std::string note = plat->trap_handler_note(h.tt, h.pc);
    std::fprintf(stderr, "leon3vp: error mode: trap tt=%s (%s) at pc=%s%s\n", hex(h.tt, 2).c_str(),
                 l3vp::trap_name(h.tt).c_str(), hex(h.pc, 8).c_str(),
                 note.empty() ? "" : (" (" + note + ")").c_str());
  }
  else if (reason == "max_time")
    std::fprintf(stderr, "leon3vp: max-time reached: stopped after %s simulated%s (pc=%s)\n",
                 o.max_time.c_str(),
                 scenario_end_planned ? " (the scenario's duration) with experiments unfinished" : "",
                 hex(plat->cpu.core().pc(), 8).c_str());
  else if (reason == "idle")
    std::fprintf(stderr,
                 "leon3vp: idle: the CPU is powered down and nothing is left that could wake it "
                 "(at %s simulated, pc=%s)\n",
                 l3vp::format_duration(plat->cpu.cpu_time().value()).c_str(),
                 hex(plat->cpu.core().pc(), 8).c_str());
  else if (reason == "signal")
    std::fprintf(stderr, "leon3vp: interrupted by %s after %s simulated (pc=%s); outputs written\n",
                 l3vp::sim::signal_number() == SIGINT ? "SIGINT" : "SIGTERM",
                 l3vp::format_duration(plat->cpu.cpu_time().value()).c_str(),
                 hex(plat->cpu.core().pc(), 8).c_str());
  for (const std::string& e : output_errors) fail(kExitBadInput, e);
  if (!output_errors.empty()) return kExitBadInput;
  return status;
}

}  // namespace

int sc_main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const InputError& e) {
    return fail(kExitBadInput, e.what());
  } catch (const sc_core::sc_report& r) {
    return fail(kExitInternal, std::string("systemc: ") + r.get_msg());
  } catch (const std::exception& e) {
    return fail(kExitInternal, e.what());
  } catch (...) {
    return fail(kExitInternal, "unknown exception");
  }
}

// Our own main(): the banner switch must be set before SystemC initialises.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
