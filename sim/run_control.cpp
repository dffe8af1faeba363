#include "run_control.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>

#include "units.h"

namespace l3vp::sim {

namespace {

volatile std::sig_atomic_t g_signal = 0;

void on_signal(int sig) {
  if (g_signal != 0) {  // second signal: die now, as without a handler
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_signal = sig;
}

// Simulated time per sc_start() call: short enough that a signal or the
// progress line is handled within a few ms of host time at any speed
// (40 000 CPU cycles at 40 MHz), long enough that the calls cost nothing.
const sc_core::sc_time kSlice(1, sc_core::SC_MS);

}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // SA_RESTART: a write blocked on a full pipe (UART output, trace) goes on
  // after the handler instead of failing with EINTR and losing output.
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int signal_number() { return g_signal; }

namespace {
// A rounded time for the eye ("1h05m", "59m56s", "2.5s", "310.0ms",
// "12.0us"), unlike
// format_duration(), which is exact.
std::string approx_time(double s) {
  char b[32];
  if (s >= 3600)
    std::snprintf(b, sizeof b, "%.0fh%02.0fm", std::floor(s / 3600), std::floor(std::fmod(s, 3600) / 60));
  else if (s >= 60)
    std::snprintf(b, sizeof b, "%.0fm%02.0fs", std::floor(s / 60), std::floor(std::fmod(s, 60)));
  else if (s >= 1)
    std::snprintf(b, sizeof b, "%.1fs", s);
  else if (s >= 1e-3)
    std::snprintf(b, sizeof b, "%.1fms", s * 1e3);
  else
    std::snprintf(b, sizeof b, "%.1fus", s * 1e6);
  return b;
}
}  // namespace

std::string progress_text(uint64_t now_ps, uint64_t end_ps, double wall_s, uint64_t instructions) {
  const double mips = wall_s > 0 ? double(instructions) / wall_s / 1e6 : 0.0;
  char b[256];
  std::snprintf(b, sizeof b, "leon3vp: %s simulated, %.1f MIPS", format_duration(now_ps).c_str(), mips);
  std::string s = b;
  if (end_ps == 0 || now_ps > end_ps) return s;
  const uint64_t left_ps = end_ps - now_ps;
  std::snprintf(b, sizeof b, ", %.1f%% of %s, %s simulated left", 100.0 * double(now_ps) / double(end_ps),
                format_duration(end_ps).c_str(), approx_time(double(left_ps) * 1e-12).c_str());
  s += b;
  // Host estimate: the rate so far (simulated per host second) continued.
  if (now_ps > 0 && wall_s > 0)
    s += ", ~" + approx_time(wall_s * double(left_ps) / double(now_ps)) + " host left";
  return s;
}

RunEnd run_slices(const sc_core::sc_time& end, const ProgressOptions& progress) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto next_print = t0 + std::chrono::milliseconds(250);
  bool printed = false;
  RunEnd why;
  for (;;) {
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || sc_core::sc_end_of_simulation_invoked()) {
      why = RunEnd::Stopped;
      break;
    }
    if (g_signal != 0) {
      why = RunEnd::Signalled;
      break;
    }
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (now >= end) {
      why = RunEnd::EndTime;
      break;
    }
    // Nothing pending (after elaboration: the first call always runs): no
    // process can ever run again. Checked before each slice, so a starved
    // run ends at a slice boundary (k ms); the caller reports the CPU's
    // own time for it, which does not depend on the slicing.
    if (now > sc_core::SC_ZERO_TIME && !sc_core::sc_pending_activity()) {
      why = RunEnd::Starved;
      break;
    }
    sc_core::sc_start(std::min(kSlice, end - now));
    if (progress.enabled) {
      const auto t = clock::now();
      if (t >= next_print) {
        next_print = t + std::chrono::milliseconds(250);
        const double wall = std::chrono::duration<double>(t - t0).count();
        const uint64_t end_ps = end == sc_core::sc_max_time() ? 0 : end.value();
        const std::string text = progress_text(sc_core::sc_time_stamp().value(), end_ps, wall,
                                               progress.instructions ? progress.instructions() : 0);
        std::fprintf(stderr, "\r%s\033[K", text.c_str());
        std::fflush(stderr);
        printed = true;
      }
    }
  }
  if (printed) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  return why;
}

}  // namespace l3vp::sim
