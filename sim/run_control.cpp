#include "run_control.h"

#include <algorithm>
#include <chrono>
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
        const double mips = progress.instructions && wall > 0
                                ? double(progress.instructions()) / wall / 1e6 : 0.0;
        std::fprintf(stderr, "\rleon3vp: %s simulated, %.1f MIPS\033[K",
                     format_duration(sc_core::sc_time_stamp().value()).c_str(), mips);
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
