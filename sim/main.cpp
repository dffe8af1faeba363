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
//
// This file is only the entry point: a run is sim::Run (sim/run.h), a
// sequence of parts in their own files (sim/README.md). Here an exception
// that escapes the run becomes the one "internal error" line.
#include <cstdlib>
#include <string>
#include <systemc>

#include "messages.h"
#include "network_run.h"
#include "run.h"

int sc_main(int argc, char** argv) {
  using l3vp::sim::fail;
  using l3vp::sim::kExitInternal;
  try {
    // A topology scenario (several boards): its own run (sim/network_run.h).
    if (l3vp::sim::is_network_run(argc, argv)) return l3vp::sim::run_network(argc, argv);
    return l3vp::sim::Run().execute(argc, argv);
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
