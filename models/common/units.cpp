#include "units.h"

#include <cstdio>

namespace l3vp {
namespace {

using u128 = unsigned __int128;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

[[noreturn]] void bad_duration(const std::string& s, const std::string& why) {
  throw UnitsError("'" + s + "' is not a duration: " + why);
}

}  // namespace

uint64_t parse_duration_ps(const std::string& s, bool bare_zero) {
  // Mantissa digits as one integer m and a decimal exponent e: value = m * 10^e.
  // Trailing zeros of the fraction are not accumulated, so "1.500000000000000000000s"
  // is as exact as "1.5s"; 36 significant digits are more than any ps count needs.
  constexpr u128 kMaxMantissa = u128(1000000000000000000ull) * 1000000000000000000ull;  // 1e36
  size_t i = 0;
  u128 m = 0;
  int e = 0;
  bool digits = false;
  unsigned pending_zeros = 0;  // zeros of the fraction not yet multiplied into m
  auto add_digit = [&](char c) {
    if (m > kMaxMantissa) bad_duration(s, "too many digits");
    m = m * 10 + unsigned(c - '0');
    digits = true;
  };
  while (i < s.size() && is_digit(s[i])) add_digit(s[i++]);
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) {
      digits = true;
      if (s[i] == '0') {
        ++pending_zeros;  // only matters if a non-zero digit follows
      } else {
        for (; pending_zeros; --pending_zeros) {
          add_digit('0');
          --e;
        }
        add_digit(s[i]);
        --e;
      }
      ++i;
    }
  }
  if (!digits) bad_duration(s, "expected <number><unit>, e.g. 10s, 2.5ms, 40us");
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    if (i >= s.size() || !is_digit(s[i])) bad_duration(s, "exponent without digits");
    int x = 0;
    while (i < s.size() && is_digit(s[i])) {
      if (x < 10000) x = x * 10 + (s[i] - '0');
      ++i;
    }
    e += neg ? -x : x;
  }
  while (i < s.size() && s[i] == ' ') ++i;
  const std::string unit = s.substr(i);
  int scale;  // ps per unit = 10^scale
  if (unit == "ps")
    scale = 0;
  else if (unit == "ns")
    scale = 3;
  else if (unit == "us")
    scale = 6;
  else if (unit == "ms")
    scale = 9;
  else if (unit == "s")
    scale = 12;
  else if (unit.empty() && bare_zero && m == 0 && s.find_first_not_of("0.") == std::string::npos)
    return 0;
  else if (unit.empty())
    bad_duration(s, "unit missing (ps, ns, us, ms or s)");
  else
    bad_duration(s, "unit must be ps, ns, us, ms or s");
  if (m == 0) return 0;
  e += scale;
  if (e >= 0) {
    for (; e > 0; --e) {
      m *= 10;
      if (m > kMaxDurationPs) break;
    }
  } else {
    u128 div = 1;
    for (; e < 0; ++e) {
      div *= 10;
      if (div > m) bad_duration(s, "not a whole number of picoseconds");
    }
    if (m % div) bad_duration(s, "not a whole number of picoseconds");
    m /= div;
  }
  if (m > kMaxDurationPs) bad_duration(s, "too large (at most 2^62 ps, about 53 days)");
  return static_cast<uint64_t>(m);
}

std::string format_duration(uint64_t ps) {
  static const char* const kUnits[] = {"ps", "ns", "us", "ms", "s"};
  unsigned u = 0;
  while (u < 4 && ps != 0 && ps % 1000 == 0) {
    ps /= 1000;
    ++u;
  }
  if (ps == 0) u = 4;
  return std::to_string(ps) + kUnits[u];
}

uint64_t parse_size_bytes(const std::string& s) {
  static const struct {
    const char* name;
    uint64_t bytes;
  } kUnits[] = {{"", 1},
                {"K", 1ull << 10},
                {"M", 1ull << 20},
                {"G", 1ull << 30},
                {"T", 1ull << 40},
                {"KiB", 1ull << 10},
                {"MiB", 1ull << 20},
                {"GiB", 1ull << 30},
                {"TiB", 1ull << 40},
                {"kB", 1000ull},
                {"KB", 1000ull},
                {"MB", 1000000ull},
                {"GB", 1000000000ull},
                {"TB", 1000000000000ull}};
  size_t i = 0;
  u128 n = 0;
  while (i < s.size() && is_digit(s[i]) && n <= (u128(1) << 62)) n = n * 10 + unsigned(s[i++] - '0');
  if (i == 0)
    throw UnitsError("'" + s + "' is not a size: expected <digits>[K|M|G|T|kB|MB|GB|TB], e.g. 100M, 2G");
  if (i < s.size() && is_digit(s[i])) throw UnitsError("'" + s + "' is too large (at most 2^62 bytes)");
  const std::string unit = s.substr(i);
  for (const auto& u : kUnits)
    if (unit == u.name) {
      const u128 v = n * u.bytes;
      if (v == 0) throw UnitsError("'" + s + "' is not a positive size");
      if (v > (u128(1) << 62)) throw UnitsError("'" + s + "' is too large (at most 2^62 bytes)");
      return uint64_t(v);
    }
  throw UnitsError("'" + s + "' is not a size: unknown unit '" + unit +
                   "' (K, M, G, T or KiB..TiB: powers of 1024; kB, MB, GB, TB: powers of 1000)");
}

std::string format_size(uint64_t bytes) {
  static const char* kNames[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  unsigned k = 0;
  uint64_t scale = 1;
  while (k + 1 < sizeof kNames / sizeof *kNames && bytes / scale >= 1000) {
    scale *= 1000;
    ++k;
  }
  if (k == 0) return std::to_string(bytes) + " bytes";
  const uint64_t tenths = (bytes + scale / 20) / (scale / 10);  // rounded to a tenth
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " " + kNames[k];
}

bool parse_mac(const std::string& s, uint8_t out[6]) {
  if (s.size() != 17) return false;
  uint8_t b[6];
  for (unsigned i = 0; i < 6; ++i) {
    if (i && s[3 * i - 1] != ':') return false;
    const int hi = hex_value(s[3 * i]), lo = hex_value(s[3 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    b[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  for (unsigned i = 0; i < 6; ++i) out[i] = b[i];
  return true;
}

std::string format_mac(const uint8_t m[6]) {
  char b[18];
  std::snprintf(b, sizeof b, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
  return b;
}

bool parse_ip4(const std::string& s, uint32_t& out) {
  uint32_t ip = 0;
  size_t i = 0;
  for (unsigned part = 0; part < 4; ++part) {
    if (part) {
      if (i >= s.size() || s[i] != '.') return false;
      ++i;
    }
    unsigned v = 0, n = 0;
    while (i < s.size() && is_digit(s[i]) && n < 4) {
      v = v * 10 + unsigned(s[i++] - '0');
      ++n;
    }
    if (n == 0 || n > 3 || v > 255) return false;
    ip = ip << 8 | v;
  }
  if (i != s.size()) return false;
  out = ip;
  return true;
}

}  // namespace l3vp
