// Cycle costs of the LEON3 core: the one place a timing model plugs in.
//
// Functional timing (current): every executed instruction costs 1 cycle plus
// the latency the bus reports for its fetch and data accesses. The cost of an
// instruction is looked up once, at decode time, from kClassCycles and kept in
// the decoded entry, so a per-class timing model only has to change this table;
// interlock rules (load-use, MUL result, branch after icc write) would hook in
// the run loop where Decoded::cost is added (Cpu::retire()).
#pragma once
#include <cstdint>

#include "core.h"

namespace l3vp::leon3::timing {

// Cycles per executed instruction, by class (hw-reference §7.3 lists the real
// LEON3 costs: JMPL/RETT 3, LDD 2, ST 2, STD 3, atomics 3, DIV 35, ...).
constexpr uint8_t kClassCycles[static_cast<unsigned>(InsnClass::Count)] = {
    1,  // Alu
    1,  // Load
    1,  // Store
    1,  // Branch
    1,  // CallJmpl
    1,  // Mul
    1,  // Div
    1,  // SaveRestore
    1,  // Trap
    1,  // Other
};

// An annulled delay slot still occupies one pipeline slot.
constexpr uint64_t kAnnulledCycles = 1;
// Trap entry (synchronous, interrupt, fetch error) on top of the trapping
// instruction's own cost. LEON3 needs about 5 cycles; functional mode charges 1.
constexpr uint64_t kTrapEntryCycles = 1;

}  // namespace l3vp::leon3::timing
