// SPARC V8 facts the GDB stub needs, without SystemC (unit-tested in
// testbenches/unit/gdb): which signal
// gdb should see for a trap type.
#pragma once
#include <cstdint>

namespace l3vp::gdb {

// gdb's signal numbers (the same as Linux's for these).
enum Signal : int {
  kSigInt = 2,
  kSigIll = 4,
  kSigTrap = 5,
  kSigFpe = 8,
  kSigKill = 9,
  kSigBus = 10,
  kSigSegv = 11,
};

// The signal for trap type tt: SIGSEGV for instruction/data access
// exceptions and errors, SIGILL for illegal/privileged instructions and
// disabled FPU/coprocessor, SIGBUS for misalignment, SIGFPE for division by
// zero and FP exceptions, SIGTRAP for everything else (window traps,
// software traps, interrupts).
int signal_of_trap(unsigned tt);

}  // namespace l3vp::gdb
