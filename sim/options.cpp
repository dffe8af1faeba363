#include "options.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "fw_params.h"
#include "log.h"
#include "messages.h"
#include "report.h"
#include "version.h"

namespace l3vp::sim {

namespace {

// The order of --help (the order of the manual), whichever part added the
// option; an option not listed here follows them in the order added.
const char* const kHelpOrder[] = {
    "--help",        "--version",   "--print-config", "--list-params",  "--config",    "--max-time",
    "--uart-out",    "--uart-in",   "--stats",        "--energy",       "--trace",     "--set",
    "--quantum",     "--no-dmi",    "--boot",         "--mode",         "--profile",   "--profile-out",
    "--profile-pc",  "--scenario",  "--tap",          "--pcap",         "--pcap-at",   "--vcd",
    "--vcd-signals", "--vcd-start", "--vcd-end",      "--vcd-max-size", "--rtl",       "--rtl-trace",
    "--net-results", "--fw-param",  "--list-stats",   "--probe",        "--probe-out", "--list-probes",
    "--probe-all",   "--gdb",       "--gdb-wait",     "--quiet"};

size_t help_rank(const CLI::Option* opt) {
  const std::string name = opt->get_name();
  const auto* end = std::end(kHelpOrder);
  return size_t(std::find_if(std::begin(kHelpOrder), end, [&name](const char* n) { return name == n; }) -
                std::begin(kHelpOrder));
}

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_group(std::string group, bool is_positional,
                         std::vector<const CLI::Option*> opts) const override {
    std::stable_sort(opts.begin(), opts.end(),
                     [](const CLI::Option* a, const CLI::Option* b) { return help_rank(a) < help_rank(b); });
    return CLI::Formatter::make_group(std::move(group), is_positional, std::move(opts));
  }
};

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

}  // namespace

// What a failed parse prints: --help and --version on stdout (exit 0),
// unknown options as one line naming only them, anything else as CLI11
// says it; exit 2.
void parse_failure(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  if (dynamic_cast<const CLI::CallForVersion*>(&e)) {
    std::printf("%s\n", e.what());
    done_early(0);
  }
  if (e.get_exit_code() == 0) {  // --help
    std::fputs(app.help().c_str(), stdout);
    done_early(0);
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::vector<std::string> unknown = unknown_options(app, argc, argv);
    if (!unknown.empty()) {
      std::string names;
      for (const std::string& n : unknown) names += (names.empty() ? "'" : ", '") + n + "'";
      bad_input(std::string(unknown.size() > 1 ? "unknown options " : "unknown option ") + names +
                " (see --help)");
    }
  }
  bad_input(e.what());
}

CommandLine::CommandLine()
    : app_(std::make_unique<CLI::App>("leon3vp: LEON3 (SPARC V8) GR-XC3S-1500 virtual platform", "leon3vp")) {
  app_->formatter(std::make_shared<HelpFormatter>());
  app_->set_version_flag("--version", std::string("leon3vp ") + leon3vp_version(),
                         "Print the version (as --stats version.leon3vp) and exit");
}

CLI::Option* CommandLine::refuse_empty(CLI::Option* opt) {
  refuse_empty_.push_back(opt);
  return opt;
}

void CommandLine::add_run_options(Options& o) {
  CLI::App& app = *app_;
  firmware_ =
      app.add_option("firmware", o.firmware, "Firmware ELF (SPARC V8, big-endian, statically linked)");
  app.add_flag("--print-config", o.print_config,
               "Print the effective configuration (preset or -c file, then --set and the options "
               "below) as JSON and exit; the shipped preset is this output without options");
  app.add_flag(
      "--list-params", o.list_params,
      "Print the configuration keys (type, valid values, default, meaning) as a Markdown table and exit");
  app.add_option("-c,--config", o.config,
                 "Platform configuration: a JSON file or a preset name (gr-xc3s-1500)");
  max_time_ = refuse_empty(
      app.add_option("--max-time", o.max_time,
                     "Simulated time limit, e.g. 10s, 500ms, 20us (default: the scenario's duration, "
                     "else none: run until the firmware exits, enters error mode or is interrupted)"));
  uart_out_ = app.add_option("--uart-out", o.uart_out, "UART output file ('-' = stdout, the default)");
  uart_in_ = app.add_option("--uart-in", o.uart_in, "UART input file ('-' = stdin; not deterministic)");
  refuse_empty(
      app.add_option("--energy", o.energy,
                     "Energy model: a shipped profile (leon3-90nm-estimate, flat) or a JSON profile file "
                     "(= --set energy.profile=PROFILE; figures in --stats energy.*, regions[], --profile; "
                     "docs/energy.md)"))
      ->type_name("PROFILE");
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
}

void CommandLine::add_late_options(Options& o) {
  CLI::App& app = *app_;
  refuse_empty(
      app.add_option("--rtl", o.rtl,
                     "Put the RTL model of BLOCK in its slot (Verilator co-simulation; = --set "
                     "BLOCK.model=rtl; blocks: gptimer, chksum (implies chksum.enable); repeatable or "
                     "a comma list; docs/rtl.md)"))
      ->type_name("BLOCK")
      ->allow_extra_args(false);  // a comma list is split by apply_rtl()
  app.add_option("--fw-param", o.fw_params,
                 "Firmware parameter KEY=VALUE written into the ELF's fw_params block before the start "
                 "(repeatable; keys: " +
                     fw_param_names() + "; overrides the scenario's board.params)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one KEY=VALUE per --fw-param (the ELF stays positional)
  app.add_flag("--list-stats", o.list_stats,
               "Print the --stats schema (key, type, unit, invariance, meaning) as Markdown and exit");
  auto* gdb_opt =
      app.add_option("--gdb", o.gdb_port,
                     "Serve the GDB remote protocol on 127.0.0.1:PORT (0 = pick a free port; the port is "
                     "printed on stderr). The program runs until gdb attaches (it then stops), or from the "
                     "start halted with --gdb-wait")
          ->type_name("PORT");
  app.add_flag("--gdb-wait", o.gdb_wait,
               "With --gdb: wait for gdb to connect before the first instruction (start halted)")
      ->needs(gdb_opt);
  app.add_flag("-q,--quiet", o.quiet,
               "Do not print model diagnostics (guest errors, unimplemented features)");
}

void CommandLine::parse(int argc, char** argv, Options& o) {
  try {
    app_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    parse_failure(*app_, e, argc, argv);
  }
  if (o.list_stats) done_early(print_stats_schema());
  for (const auto& f : on_parsed_) f();
  if (o.list_params) {
    std::fputs(PlatformConfig::params_markdown().c_str(), stdout);
    done_early(0);
  }
  if (firmware_->count() == 0 && !o.print_config) bad_input("firmware is required");
  for (const CLI::Option* opt : refuse_empty_)
    for (const std::string& r : opt->results())
      if (r.empty()) bad_input(opt->get_name() + ": empty value (leave the option out instead)");
  o.uart_out_set = uart_out_->count() > 0;
  o.max_time_set = max_time_->count() > 0;
  o.uart_in_set = uart_in_->count() > 0;
  set_systemc_quiet(o.quiet);
  if (o.quiet) {
    Log::enable(LogCat::GuestError, false);
    Log::enable(LogCat::Unimp, false);
  }
}

}  // namespace l3vp::sim
