// --vcd FILE (--vcd-signals, --vcd-start, --vcd-end, --vcd-max-size): the
// board's waveform at exact simulated times (sim/vcd, docs/waveforms.md); a
// name ending in .fst is converted with vcd2fst at the end.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <tuple>

#include "far_end.h"
#include "format.h"
#include "messages.h"
#include "output.h"
#include "units.h"
#include "vcd/board_waves.h"
#include "vcd/tools.h"
#include "version.h"

namespace l3vp::sim {

namespace {

// One warning line before the run when the file is expected to pass 1 GB:
// the selection's measured peak rate (vcd::peak_bytes_per_ms,
// docs/waveforms.md "File size") times the window [start, end] (end:
// --vcd-end or the time limit, kForever if neither), unless --vcd-max-size
// keeps it below that.
void warn_vcd_size(const vcd::Selection& sel, uint64_t start_ps, uint64_t end_ps, uint64_t cap) {
  constexpr uint64_t kWarnBytes = 1000000000;  // 1 GB
  const uint64_t per_ms = vcd::peak_bytes_per_ms(sel);
  const std::string what = "--vcd: the signals " + vcd::to_string(sel) + " write up to about " +
                           format_size(per_ms) + " per simulated ms";
  const char* how =
      "; limit it with --vcd-start/--vcd-end, fewer --vcd-signals or --vcd-max-size "
      "(docs/waveforms.md)";
  if (cap && cap <= kWarnBytes) return;
  if (end_ps == vcd::Writer::kForever) {
    if (per_ms * 1000 > kWarnBytes)
      std::fprintf(stderr,
                   "leon3vp: warning: %s, %s per simulated second, and the run has no end set "
                   "(--max-time, --vcd-end)%s\n",
                   what.c_str(), format_size(per_ms * 1000).c_str(), how);
    return;
  }
  const uint64_t len_ps = end_ps > start_ps ? end_ps - start_ps : 0;
  const unsigned __int128 est = (unsigned __int128)per_ms * len_ps / 1000000000u;
  const uint64_t bytes = est > UINT64_MAX ? UINT64_MAX : uint64_t(est);
  if (std::min(bytes, cap ? cap : bytes) > kWarnBytes)
    std::fprintf(stderr, "leon3vp: warning: %s: about %s for the %s written%s\n", what.c_str(),
                 format_size(bytes).c_str(), format_duration(len_ps).c_str(), how);
}

class VcdOutput : public Output {
 public:
  void add_options(CommandLine& cl) override;
  // Everything checked before the run starts.
  void check(RunState& run) override;
  void start(RunState& run) override;
  void finish(RunState& run) override;
  void release_board() override { waves_.reset(); }

 private:
  void check_window(RunState& run);
  std::vector<std::string> comments(const RunState& run) const;

  std::string path_, signals_, start_, end_, max_size_;
  vcd::Selection sel_ = vcd::default_signals();
  uint64_t max_bytes_ = 0;
  bool fst_ = false;
  std::string file_;  // what BoardWaves writes: the VCD itself, or a temporary VCD for vcd2fst
  std::unique_ptr<vcd::BoardWaves> waves_;
};

void VcdOutput::add_options(CommandLine& cl) {
  CLI::App& app = cl.app();
  cl.refuse_empty(
      app.add_option("--vcd", path_,
                     "Write a waveform of the board (VCD; a name ending in .fst: FST through vcd2fst) "
                     "at exact simulated times (docs/waveforms.md)"));
  cl.refuse_empty(
      app.add_option("--vcd-signals", signals_,
                     "Signal groups of --vcd: cpu,irq,timer,uart,greth,link,regions (= default); ahb "
                     "(every bus transaction), cpu.pc, cpu.class (every instruction): heavy, add them "
                     "by name; all"));
  cl.refuse_empty(
      app.add_option("--vcd-start", start_, "--vcd: write changes from this simulated time on (e.g. 10ms)"));
  cl.refuse_empty(app.add_option("--vcd-end", end_, "--vcd: write changes up to this simulated time"));
  cl.refuse_empty(
        app.add_option("--vcd-max-size", max_size_,
                       "--vcd: end the file cleanly before it passes SIZE (100M, 2G: powers of 1024; "
                       "500MB: of 1000), at a time step, with a $comment saying so; the run goes on, its "
                       "results unchanged"))
      ->type_name("SIZE");
}

void VcdOutput::check(RunState& run) {
  if (path_.empty()) {
    for (const auto& [opt, val] : {std::pair<const char*, const std::string*>{"--vcd-signals", &signals_},
                                   {"--vcd-start", &start_},
                                   {"--vcd-end", &end_},
                                   {"--vcd-max-size", &max_size_}})
      if (!val->empty()) bad_input(std::string(opt) + " needs --vcd FILE");
    return;
  }
  if (!signals_.empty()) {
    try {
      sel_ = vcd::parse_signals(signals_);
    } catch (const std::invalid_argument& e) {
      bad_input("--vcd-signals: " + std::string(e.what()));
    }
  }
  check_window(run);
  try {
    if (!max_size_.empty()) max_bytes_ = parse_size_bytes(max_size_);
  } catch (const UnitsError& e) {
    bad_input("--vcd-max-size: " + std::string(e.what()));
  }
  fst_ = path_.size() > 4 && path_.compare(path_.size() - 4, 4, ".fst") == 0;
  if (fst_ && vcd::find_program("vcd2fst").empty())
    bad_input("--vcd: FST output needs vcd2fst on PATH (Debian package gtkwave)");
  file_ = fst_ ? path_ + ".tmp.vcd" : path_;
}

// --vcd-start/--vcd-end: the window of the waveforms (run.window_*_ps).
void VcdOutput::check_window(RunState& run) {
  for (const auto& [opt, val, out] :
       {std::tuple<const char*, const std::string*, uint64_t*>{"--vcd-start", &start_, &run.window_start_ps},
        {"--vcd-end", &end_, &run.window_end_ps}}) {
    if (val->empty()) continue;
    try {
      *out = parse_duration_ps(*val, true);
    } catch (const UnitsError& e) {
      bad_input(std::string(opt) + ": " + e.what());
    }
  }
  if (run.window_end_ps < run.window_start_ps)
    bad_input("--vcd-end: " + end_ + " is before --vcd-start " + start_);
}

std::vector<std::string> VcdOutput::comments(const RunState& run) const {
  std::vector<std::string> c = {std::string("leon3vp ") + leon3vp_version(),
                                "firmware: " + std::filesystem::path(run.opt.firmware).filename().string(),
                                "signals: " + vcd::to_string(sel_),
                                std::string("view: ") + (run.far_end ? "net" : "board")};
  if (run.far_end)
    for (const std::string& line : run.far_end->vcd_comments()) c.push_back(line);
  return c;
}

void VcdOutput::start(RunState& run) {
  if (path_.empty()) return;
  Leon3mp& plat = *run.plat;
  if (sel_.timer && !plat.gptimer())
    std::fprintf(stderr,
                 "leon3vp: warning: --vcd: the GPTIMER slot holds gptimer.model=%s, which has no "
                 "timer probes: the timer group stays empty\n",
                 run.cfg.get<std::string>("gptimer.model").c_str());
  const uint64_t end_ps = run.window_end_ps;
  warn_vcd_size(sel_, run.window_start_ps, std::min(end_ps, run.max_ps ? run.max_ps : end_ps), max_bytes_);
  waves_ = std::make_unique<vcd::BoardWaves>(plat, sel_, plat.image().region_names);
  waves_->set_window(run.window_start_ps, run.window_end_ps);
  waves_->set_max_bytes(max_bytes_);
  const std::vector<std::string> header = comments(run);
  run.created.note(file_);
  run.created.note(path_);
  try {
    waves_->open(file_, header);
  } catch (const std::exception& e) {
    bad_input("--vcd: " + std::string(e.what()));
  }
}

void VcdOutput::finish(RunState& run) {
  if (!waves_) return;
  std::string why = waves_->close();
  if (waves_->late())
    std::fprintf(stderr, "leon3vp: warning: --vcd: %llu changes arrived after their time was written\n",
                 (unsigned long long)waves_->late());
  if (waves_->truncated())
    std::fprintf(stderr,
                 "leon3vp: warning: --vcd: the file reached --vcd-max-size %s and ends at %s "
                 "simulated (a $comment in it says so); the run went on\n",
                 max_size_.c_str(), format_duration(waves_->truncated_at_ps()).c_str());
  if (why.empty() && fst_) {
    why = vcd::run_program({"vcd2fst", file_, path_});
    std::remove(file_.c_str());
  }
  run.check_output("--vcd", path_, why);
}

}  // namespace

std::unique_ptr<Output> make_vcd_output() { return std::make_unique<VcdOutput>(); }

}  // namespace l3vp::sim
