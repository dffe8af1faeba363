#include "log.h"

#include <array>
#include <cstdio>

namespace l3vp {
namespace {
std::array<uint64_t, static_cast<unsigned>(LogCat::Count)> g_counts{};
// Guest errors and unimplemented features are reported by default.
std::array<bool, static_cast<unsigned>(LogCat::Count)> g_enabled{true, true, false};
const char* const kNames[] = {"guest-error", "unimp", "info"};
}  // namespace

void Log::msg(LogCat cat, const std::string& who, const std::string& text) {
  const unsigned c = static_cast<unsigned>(cat);
  ++g_counts[c];
  if (g_enabled[c]) std::fprintf(stderr, "leon3vp: %s: %s: %s\n", kNames[c], who.c_str(), text.c_str());
}
uint64_t Log::count(LogCat cat) { return g_counts[static_cast<unsigned>(cat)]; }
void Log::enable(LogCat cat, bool on) { g_enabled[static_cast<unsigned>(cat)] = on; }
void Log::reset_counts() { g_counts.fill(0); }

}  // namespace l3vp
