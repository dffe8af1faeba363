#include "run_loop.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "messages.h"
#include "units.h"

namespace l3vp::sim {

void set_time_limit(RunState& run) {
  const std::string& text = run.opt.max_time;
  run.max_ps = 0;
  if (!text.empty()) {
    try {
      run.max_ps = parse_duration_ps(text);
    } catch (const UnitsError& e) {
      bad_input("--max-time: " + std::string(e.what()));
    }
    if (run.max_ps == 0)
      bad_input("--max-time: '" + text + "' is not a positive time (e.g. 10s, 500ms, 20us)");
  }
  run.max_time = run.max_ps ? sc_core::sc_time::from_value(run.max_ps) : sc_core::sc_max_time();
}

std::unique_ptr<gdb::GdbStub> attach_debugger(RunState& run) {
  run.plat->set_end_time(run.max_time);
  if (!run.opt.gdb_port) return nullptr;
  std::unique_ptr<gdb::GdbStub> stub;
  try {
    stub = std::make_unique<gdb::GdbStub>(run.plat->cpu,
                                          gdb::GdbStub::Options{*run.opt.gdb_port, run.opt.gdb_wait});
  } catch (const std::runtime_error& e) {
    bad_input(e.what());
  }
  run.plat->cpu.set_debug_agent(stub.get());
  return stub;
}

void run_simulation(RunState& run, const std::function<void()>& start) {
  Leon3mp& plat = *run.plat;
  // Host wall time is measured only for the report; it never feeds back
  // into the simulation.
  run.created.keep();  // every check passed: the outputs are the run's
  const auto t0 = std::chrono::steady_clock::now();
  start();
  install_signal_handlers();
  ProgressOptions progress;
  progress.enabled = !run.opt.quiet && isatty(fileno(stderr));
  progress.instructions = [&plat] { return plat.cpu.core().counters().instructions; };
  run.run_end = run_slices(run.max_time, progress);
  // A starved run: the CPU powered down for good; its cycles stay at its
  // last activity (the kernel's time is only the slice boundary after it).
  if (run.run_end != RunEnd::Starved) plat.cpu.finish();
  run.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace l3vp::sim
