#include "log.h"

#include <array>
#include <cstdio>
#include <unordered_map>

namespace l3vp {
namespace {
constexpr unsigned kCats = static_cast<unsigned>(LogCat::Count);
struct Counts {
  std::array<uint64_t, kCats> counted{};
  std::array<uint64_t, kCats> suppressed{};
};
Counts g_total;
// Per scope (log.h): the first component of `who`; at most Log::kMaxScopes.
std::unordered_map<std::string, Counts> g_scopes;
// Guest errors and unimplemented features are reported by default.
std::array<bool, kCats> g_enabled{true, true, false};
const char* const kNames[] = {"guest-error", "unimp", "info"};
// Lines printed per kind (see log.h); the "" key is the shared overflow kind.
std::unordered_map<std::string, unsigned> g_kinds;

std::string scope_of(const std::string& who) { return who.substr(0, who.find('.')); }

// The scope's counts, or nullptr when the table is full and it is new.
Counts* scope_counts(const std::string& who) {
  std::string s = scope_of(who);
  auto it = g_scopes.find(s);
  if (it != g_scopes.end()) return &it->second;
  if (g_scopes.size() >= Log::kMaxScopes) return nullptr;
  return &g_scopes.emplace(std::move(s), Counts{}).first->second;
}

const Counts* find_scope(const std::string& scope) {
  auto it = g_scopes.find(scope);
  return it == g_scopes.end() ? nullptr : &it->second;
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The message's kind: category, model and text with every number ("42",
// "0x80000d00") replaced by '#', so the same mistake at other addresses is
// the same kind.
std::string kind_of(unsigned c, const std::string& who, const std::string& text) {
  std::string k = std::to_string(c) + '\0' + who + '\0';
  for (size_t i = 0; i < text.size();) {
    if (text[i] >= '0' && text[i] <= '9') {
      ++i;
      if (i < text.size() && (text[i] == 'x' || text[i] == 'X')) ++i;
      while (i < text.size() && is_hex(text[i])) ++i;
      k += '#';
    } else {
      k += text[i++];
    }
  }
  return k;
}
}  // namespace

void Log::msg(LogCat cat, const std::string& who, const std::string& text) {
  const unsigned c = static_cast<unsigned>(cat);
  Counts* scope = scope_counts(who);
  ++g_total.counted[c];
  if (scope) ++scope->counted[c];
  if (!g_enabled[c]) return;
  std::string k = kind_of(c, who, text);
  auto it = g_kinds.find(k);
  if (it == g_kinds.end()) it = g_kinds.emplace(g_kinds.size() < kMaxKinds ? std::move(k) : "", 0).first;
  if (it->second >= kLinesPerKind) {
    ++g_total.suppressed[c];
    if (scope) ++scope->suppressed[c];
    return;
  }
  ++it->second;
  const bool last = it->second == kLinesPerKind;
  std::fprintf(stderr, "leon3vp: %s: %s: %s%s\n", kNames[c], who.c_str(), text.c_str(),
               last ? " (further messages like this are counted, not shown)" : "");
}
uint64_t Log::count(LogCat cat) { return g_total.counted[static_cast<unsigned>(cat)]; }
uint64_t Log::count(LogCat cat, const std::string& scope) {
  const Counts* s = find_scope(scope);
  return s ? s->counted[static_cast<unsigned>(cat)] : 0;
}
uint64_t Log::suppressed(LogCat cat) { return g_total.suppressed[static_cast<unsigned>(cat)]; }
uint64_t Log::suppressed(LogCat cat, const std::string& scope) {
  const Counts* s = find_scope(scope);
  return s ? s->suppressed[static_cast<unsigned>(cat)] : 0;
}
void Log::enable(LogCat cat, bool on) { g_enabled[static_cast<unsigned>(cat)] = on; }
void Log::report_suppressed() {
  for (unsigned c = 0; c < kCats; ++c)
    if (g_total.suppressed[c])
      std::fprintf(stderr, "leon3vp: %s: %llu more messages not shown (at most %u of each kind are)\n",
                   kNames[c], (unsigned long long)g_total.suppressed[c], kLinesPerKind);
}
void Log::reset_counts() {
  g_total = Counts{};
  g_scopes.clear();
  g_kinds.clear();
}

}  // namespace l3vp
