#include "probe_print.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <set>

#include "leon3mp.h"
#include "output_file.h"

namespace l3vp::sim {

namespace {
constexpr size_t kFlushAt = 1 << 16;  // bytes of text buffered before a write
}

ProbePrint::~ProbePrint() {
  for (auto& d : detach_) d();
  if (out_ && out_ != stderr) std::fclose(out_);
}

void ProbePrint::add_options(CLI::App& app) {
  auto* p =
      app.add_option("--probe", names_,
                     "Print every event of probe NAME on stderr, one line each (\"<ps> ps NAME "
                     "key=value ...\"); repeatable; a trailing * selects by prefix (greth.*, '*' = all); "
                     "names: --list-probes")
          ->type_name("NAME")
          ->allow_extra_args(false);
  out_opt_ =
      app.add_option("--probe-out", out_path_, "Write the --probe lines to this file instead of stderr")
          ->type_name("FILE")
          ->needs(p);
  app.add_flag("--list-probes", list_,
               "Print the probe names (instance.probe) with their event fields and exit (every optional "
               "device on, as --list-stats; -c/--set do not change the listing)");
  app.add_flag("--probe-all", all_, "Debug: listen to every probe of the platform (results must not change)")
      ->group("");
}

int ProbePrint::list_probes() {
  PlatformConfig cfg = PlatformConfig::preset("gr-xc3s-1500");
  board_slots::enable_all(cfg);  // and the probes of the optional devices (chksum.enable, ...)
  Leon3mp board("leon3mp", cfg);
  std::fputs(board.probes().listing().c_str(), stdout);
  return 0;
}

std::string ProbePrint::attach(Leon3mp& board, const std::function<void(const std::string&)>& note_output) {
  const ProbeRegistry& reg = board.probes();
  if (out_opt_ && out_opt_->count() > 0 && out_path_.empty())
    return "--probe-out: empty value (leave the option out instead)";
  std::vector<const ProbeRegistry::Entry*> sel;
  std::set<std::string> seen;
  for (const std::string& n : names_) {
    const auto m = reg.match(n);
    if (m.empty())
      return "--probe: unknown probe '" + n + "' (known prefixes: " + reg.prefixes() +
             "; leon3vp --list-probes names them)";
    for (const auto* e : m)
      if (seen.insert(e->name).second) sel.push_back(e);
  }
  if (!sel.empty()) {
    if (out_path_.empty()) {
      out_ = stderr;
    } else {
      note_output(out_path_);
      out_ = std::fopen(out_path_.c_str(), "w");
      if (!out_) return "--probe-out: cannot open '" + out_path_ + "': " + std::strerror(errno);
    }
    for (const auto* e : sel) detach_.push_back(e->text([this](const std::string& l) { write(l); }));
  }
  if (all_) board.listen_all_probes();
  attached_ = !sel.empty() || all_;
  return "";
}

void ProbePrint::write(const std::string& line) {
  buf_ += line;
  buf_ += '\n';
  if (buf_.size() >= kFlushAt) flush();
}

void ProbePrint::flush() {
  if (out_ && !buf_.empty()) std::fwrite(buf_.data(), 1, buf_.size(), out_);
  buf_.clear();
}

std::string ProbePrint::finish(Leon3mp& board) {
  if (!attached_) return "";
  // Like the waveform writer at its end: the GPTIMER publishes its free-
  // running underflows up to one clock before now (changes no result).
  const sc_core::sc_time now = sc_core::sc_time_stamp(), clk = board.config().period();
  if (now > clk) board.timer_slot().catch_up(now - clk);
  for (auto& d : detach_) d();
  detach_.clear();
  flush();
  std::string why;
  if (out_ && out_ != stderr) why = finish_output(out_, true);
  out_ = nullptr;
  if (all_) {
    std::string s = "leon3vp: probe-all:";
    const auto& entries = board.probes().entries();
    const auto& n = board.probe_counts();
    for (size_t i = 0; i < entries.size() && i < n.size(); ++i)
      s += " " + entries[i].name + "=" + std::to_string(n[i]);
    std::fprintf(stderr, "%s\n", s.c_str());
  }
  return why.empty() ? "" : output_failure("--probe-out", out_path_, why);
}

}  // namespace l3vp::sim
