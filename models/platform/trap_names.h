// SPARC V8 / LEON3 trap type names (hw-reference §7.2), for messages and stats.
#pragma once
#include <string>

namespace l3vp {

// "illegal_instruction", "interrupt_level_10", "trap_instruction", ...;
// "reset" for 0 and "unknown" for unassigned types.
std::string trap_name(unsigned tt);

}  // namespace l3vp
