// The simulation itself (sim/run_control.h): the time limit, the debugger
// (--gdb), and the run in slices until the firmware exits, the limit, a
// signal or starvation.
#pragma once
#include <memory>

#include "gdb_stub.h"
#include "run_state.h"

namespace l3vp::sim {

// --max-time, or the scenario's duration (run.opt.max_time), as
// run.max_ps / run.max_time; none: 0 / sc_max_time().
void set_time_limit(RunState& run);
// Sets the CPU's end time and starts the GDB stub (--gdb) as the CPU's
// debug agent; null without --gdb.
std::unique_ptr<gdb::GdbStub> attach_debugger(RunState& run);
// Runs the simulation (run.run_end, run.wall). `start` is called at time 0
// right before it (the far end's experiments).
void run_simulation(RunState& run, const std::function<void()>& start);

}  // namespace l3vp::sim
