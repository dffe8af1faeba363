// Platform configuration: every user-settable parameter of the leon3mp
// platform, its JSON form and its strict validation.
//
// JSON (all keys optional, defaults = the GR-XC3S-1500 preset):
//   {
//     "clock_hz":   40000000,            // CPU/AMBA clock; period must be whole ps
//     "nwin":       8,                   // register windows, 2..32
//     "memory":     { "prom_size": 8388608, "sdram_size": 67108864 },
//     "uart":       { "out": "-", "in": "" },   // "-" = stdout / stdin, "" = none
//     "quantum_ns": 100000,              // CPU global quantum, 0..10 s
//     "dmi":        true
//   }
// Unknown keys, wrong types and out-of-range values are rejected with a
// ConfigError whose one-line message names the key.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <systemc>

namespace l3vp {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PlatformConfig {
  uint64_t clock_hz = 40000000;
  unsigned nwin = 8;
  uint64_t prom_size = 8ull << 20;    // board flash: 8 MiB
  uint64_t sdram_size = 64ull << 20;  // board SDRAM: 64 MiB
  std::string uart_out = "-";         // "-" stdout, "" discard, else a file path
  std::string uart_in;                // "" none, "-" stdin, else a file path
  uint64_t quantum_ns = 100000;       // 100 us
  bool dmi = true;

  // Limits enforced by validate().
  static constexpr uint64_t kMinMemSize = 4096;
  static constexpr uint64_t kMaxPromSize = 512ull << 20;  // PROM bar 0x000/0xE00
  static constexpr uint64_t kMaxSdramSize = 1ull << 30;   // RAM bar 0x400/0xC00
  static constexpr uint64_t kMaxQuantumNs = 10000000000ull;

  // Clock period in picoseconds (exact after validate()).
  uint64_t period_ps() const { return 1000000000000ull / clock_hz; }
  sc_core::sc_time period() const { return sc_core::sc_time::from_value(period_ps()); }
  sc_core::sc_time quantum() const { return sc_core::sc_time(double(quantum_ns), sc_core::SC_NS); }

  // Throws ConfigError naming the first invalid key.
  void validate() const;

  // Parses a JSON object (merged over the defaults) and validates it.
  static PlatformConfig from_json(const nlohmann::json& j);
  // Reads a JSON file; messages are prefixed with the file name.
  static PlatformConfig from_file(const std::string& path);
  // Built-in presets ("gr-xc3s-1500"); throws ConfigError for unknown names.
  static PlatformConfig preset(const std::string& name);
  static bool is_preset(const std::string& name);

  nlohmann::json to_json() const;
};

}  // namespace l3vp
