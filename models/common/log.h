// Diagnostics for models, in the manner of QEMU's LOG_GUEST_ERROR / LOG_UNIMP:
// a firmware mistake or an unmodelled feature never aborts the simulator; it is
// counted (so nothing is silently lost; the counts go into --stats) and printed
// to stderr when that category is enabled.
//
// Printing is bounded, so a firmware that makes the same mistake millions of
// times cannot flood the terminal or fill a disk: per "kind" of message (the
// category, the model and the text with its numbers blanked, e.g. "write to
// empty APB slot at offset #") the first kLinesPerKind lines are printed, the
// last of them saying so; the rest are only counted, and report_suppressed()
// prints one summary line per category at the end of the run. At most
// kMaxKinds kinds are told apart (bounded memory); further kinds share one.
//
// Counts are kept for the whole process and per scope: the first component
// of `who` ("b0" of "b0.greth"), the board a model belongs to when several
// boards share one process. At most kMaxScopes scopes are told apart;
// further scopes are counted in the process totals only.
#pragma once
#include <cstdint>
#include <string>

namespace l3vp {

enum class LogCat : unsigned { GuestError = 0, Unimp = 1, Info = 2, Count = 3 };

class Log {
 public:
  static constexpr unsigned kLinesPerKind = 10;
  static constexpr unsigned kMaxKinds = 256;
  static constexpr unsigned kMaxScopes = 64;

  static void msg(LogCat cat, const std::string& who, const std::string& text);
  static void guest_error(const std::string& who, const std::string& text) {
    msg(LogCat::GuestError, who, text);
  }
  static void unimp(const std::string& who, const std::string& text) { msg(LogCat::Unimp, who, text); }
  static uint64_t count(LogCat cat);
  // The messages whose `who` is `scope` or starts with `scope` + '.'.
  static uint64_t count(LogCat cat, const std::string& scope);
  // Messages of an enabled category that were counted but not printed.
  static uint64_t suppressed(LogCat cat);
  static uint64_t suppressed(LogCat cat, const std::string& scope);
  static void enable(LogCat cat, bool on);
  // One line per category with suppressed messages ("leon3vp: guest-error:
  // 999990 more messages not shown ..."); nothing when none were.
  static void report_suppressed();
  static void reset_counts();
};

}  // namespace l3vp
