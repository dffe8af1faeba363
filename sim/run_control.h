// How leon3vp drives sc_start(): in slices of simulated time, so that between
// two slices it can notice a signal (SIGINT/SIGTERM), a starved simulation
// and the end of the run, and show progress on a terminal.
//
// Slicing never changes results: sc_start(t) only returns control to the
// caller at a time boundary; every process keeps its state and its pending
// events, and no model looks at where sc_start() will return (the CPU limits
// its runs by its own end time and the events actually pending). The CPU's
// SC_THREAD only suspends between instructions (quantum syncs, power-down),
// so a stop between slices is at an instruction boundary.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>

namespace l3vp::sim {

// Why run_slices() returned.
enum class RunEnd {
  Stopped,   // sc_stop() was called (the CPU halted: error mode or exit)
  EndTime,   // simulated time reached `end`
  Starved,   // nothing left to simulate (no limit; the CPU powered down for good);
             // sc_time_stamp() is then a slice boundary, not the last activity
  Signalled  // SIGINT or SIGTERM (signal_number() says which)
};

// Installs the SIGINT/SIGTERM handlers: the first signal asks run_slices()
// to stop after the current slice; a second one restores the default
// action and re-raises it (the process dies at once).
void install_signal_handlers();
// The signal that stopped the run (0 when none).
int signal_number();

struct ProgressOptions {
  bool enabled = false;                    // stderr is a terminal and not -q
  std::function<uint64_t()> instructions;  // retired instructions so far (for MIPS)
};

// The text of one progress update (without "\r" and the erase sequence):
// "leon3vp: <sim> simulated, <mips> MIPS" and, when the end is known
// (end_ps != 0: --max-time or a scenario's duration), ", <pct>% of <end>,
// <sim left> simulated left, ~<host left> host left". The host figures
// (wall_s, MIPS, the host estimate) are only printed; nothing here feeds
// back into the simulation.
std::string progress_text(uint64_t now_ps, uint64_t end_ps, double wall_s, uint64_t instructions);

// Runs the simulation until `end` (sc_max_time(): no limit), a halt, a
// signal or starvation. With `progress.enabled`, rewrites one stderr line
// (progress_text(): simulated time, host MIPS and, with a known end, the
// percentage and what is left) at most four times a second and erases it
// at the end.
RunEnd run_slices(const sc_core::sc_time& end, const ProgressOptions& progress);

}  // namespace l3vp::sim
