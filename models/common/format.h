// Small formatting helpers for diagnostics.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace l3vp {

// "0x" followed by at least `digits` lowercase hex digits: hex(0x1f, 8) == "0x0000001f".
inline std::string hex(uint64_t v, int digits = 8) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return b;
}

}  // namespace l3vp
