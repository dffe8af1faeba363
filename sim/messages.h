// leon3vp's exit statuses and one-line messages (docs/user-guide.md "Exit
// status"): every failure is one line on stderr, "leon3vp: error: ..." for
// bad input (exit 2) and "leon3vp: internal error: ..." (exit 1).
#pragma once
#include <string>

namespace l3vp::sim {

constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitErrorMode = 3;
constexpr int kExitMaxTime = 4;
constexpr int kExitIdle = 5;
constexpr int kExitKilled = 137;      // gdb "kill" (128 + SIGKILL)
constexpr unsigned kExitTrap = 0x80;  // "ta 0" with ET = 0

// The run ends before the simulation: with `code`, after printing
// `message` as one line through fail() (nothing when it is empty: --help,
// --print-config and the like printed their output already). Thrown by
// the parts of a run (bad_input(), done_early()) and caught once, by
// Run::execute(). Deliberately not a std::exception, so that a part's
// `catch (const std::exception&)` around a library call never swallows it.
struct Exit {
  int code;
  std::string message;
};
// Bad input: "leon3vp: error: <what>", exit 2.
[[noreturn]] void bad_input(const std::string& what);
// A successful early end (--help, --list-params, --print-config): exit `code`.
[[noreturn]] void done_early(int code);

// `s` on one line: line breaks become spaces, trailing spaces are dropped.
std::string one_line(std::string s);
// Prints "leon3vp: error: <what>" (or "internal error: " for kExitInternal)
// after flushing stdout, and returns `code`.
int fail(int code, const std::string& what);

// SystemC reports: infos are dropped ("simulation stopped by user"),
// warnings go to stderr (unless quiet), errors and fatals become exceptions
// that the top level turns into one "internal error" line (never abort()).
void setup_systemc_reports();
// -q: no SystemC warnings.
void set_systemc_quiet(bool quiet);

}  // namespace l3vp::sim
