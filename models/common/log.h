// Diagnostics for models, in the manner of QEMU's LOG_GUEST_ERROR / LOG_UNIMP:
// a firmware mistake or an unmodelled feature never aborts the simulator; it is
// counted (so nothing is silently lost; the counts go into --stats) and printed
// to stderr when that category is enabled.
#pragma once
#include <cstdint>
#include <string>

namespace l3vp {

enum class LogCat : unsigned { GuestError = 0, Unimp = 1, Info = 2, Count = 3 };

class Log {
 public:
  static void msg(LogCat cat, const std::string& who, const std::string& text);
  static void guest_error(const std::string& who, const std::string& text) {
    msg(LogCat::GuestError, who, text);
  }
  static void unimp(const std::string& who, const std::string& text) {
    msg(LogCat::Unimp, who, text);
  }
  static uint64_t count(LogCat cat);
  static void enable(LogCat cat, bool on);
  static void reset_counts();
};

}  // namespace l3vp
