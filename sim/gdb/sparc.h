// SPARC V8 facts the GDB stub needs, without SystemC (unit-tested in
// testbenches/unit/gdb): which memory a load/store touches, and which signal
// gdb should see for a trap type.
#pragma once
#include <cstdint>
#include <optional>

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

// The data access of a load/store instruction word (format 3, op = 3):
// `base` = r[rs1], `index` = r[rs2] (ignored when the i bit is set).
struct MemAccess {
  uint32_t addr;
  unsigned size;  // bytes: 1, 2, 4 or 8
  bool read, write;
};
std::optional<MemAccess> decode_mem_access(uint32_t word, uint32_t base, uint32_t index);

inline unsigned rs1_of(uint32_t word) { return (word >> 14) & 31; }
inline unsigned rs2_of(uint32_t word) { return word & 31; }

}  // namespace l3vp::gdb
