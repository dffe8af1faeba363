// Platform configuration: every user-settable parameter of the leon3mp
// platform, its JSON form and its strict validation.
//
// JSON (all keys optional, defaults = the GR-XC3S-1500 preset; the full list
// with ranges is in models/platform/README.md, the reasoning behind the timing
// defaults in docs/timing.md):
//   {
//     "mode":       "timed",             // or "functional" (1 cycle/insn, no bus costs)
//     "clock_hz":   40000000,            // CPU/AMBA clock; period must be whole ps
//     "cpu":        { "nwin": 8, "mul": "32x32_2cycle", "lddel": 1,
//                     "branch_prediction": true, "trap_cycles": 5, "div_cycles": 35 },
//     "icache":     { "ways": 2, "way_kib": 4, "line_bytes": 32, "repl": "lru", "seed": 1 },
//     "dcache":     { "ways": 1, "way_kib": 4, "line_bytes": 16, "repl": "lru", "seed": 1,
//                     "snoop": true },
//     "memory":     { "prom_size": 8388608, "sdram_size": 67108864,
//                     "prom":  { "read_ws": 19, "write_ws": 19 },
//                     "sdram": { "read_ws": 7, "write_ws": 4 } },
//     "ahb":        { "transfer_cycles": 1, "burst_cycles_per_word": 1, "arbitration": true },
//     "apb":        { "access_cycles": 3 },
//     "uart":       { "out": "-", "in": "" },   // "-" = stdout / stdin, "" = none
//     "quantum_ns": 100000,              // CPU global quantum, 0..10 s
//     "dmi":        true,
//     "net":        { "mac": "02:00:00:00:00:53", "speed_mbps": 100, "propagation_ns": 0,
//                     "switch": { "enabled": false, "latency_ns": 0 }, "reorder_timeout_ns": 1000000,
//                     "to_host":  { "loss": 0, "corrupt": 0, "duplicate": 0, "reorder": 0,
//                                   "extra_delay_ns": 0, "jitter_ns": 0, "seed": 1 },
//                     "to_board": { ... same ... } }
//   }
// The top-level "nwin" of schema 1 is still accepted as an alias of cpu.nwin.
// Unknown keys, wrong types and out-of-range values are rejected with a
// ConfigError whose one-line message names the key.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <systemc>

#include "core.h"

namespace l3vp {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PlatformConfig {
  enum class Mode { Timed, Functional };
  // Wait states of one memory area (cycles beyond the AHB transfer cost of
  // the first word; further words of a burst cost ahb_burst_cycles_per_word).
  struct WaitStates {
    unsigned read_ws = 0, write_ws = 0;
  };

  Mode mode = Mode::Timed;
  uint64_t clock_hz = 40000000;
  // cpu.*
  unsigned nwin = 8;
  leon3::MulType mul = leon3::MulType::Pipelined32x32;
  unsigned lddel = 1;
  bool branch_prediction = true;
  unsigned trap_cycles = 5;
  unsigned div_cycles = 35;
  // icache.* / dcache.* (template: 2 x 4 KiB, 32 B lines, LRU / 1 x 4 KiB, 16 B, snooping)
  leon3::CacheConfig icache{2, 4, 32, leon3::CacheRepl::Lru, 1, false};
  leon3::CacheConfig dcache{1, 4, 16, leon3::CacheRepl::Lru, 1, true};
  // memory.prom / memory.sdram wait states (docs/timing.md explains the values)
  WaitStates prom_ws{19, 19};
  WaitStates sdram_ws{7, 4};
  // ahb.* / apb.*
  unsigned ahb_transfer_cycles = 1;
  unsigned ahb_burst_cycles_per_word = 1;
  bool ahb_arbitration = true;
  unsigned apb_access_cycles = 3;

  uint64_t prom_size = 8ull << 20;    // board flash: 8 MiB
  uint64_t sdram_size = 64ull << 20;  // board SDRAM: 64 MiB
  std::string uart_out = "-";         // "-" stdout, "" discard, else a file path
  std::string uart_in;                // "" none, "-" stdin, else a file path
  uint64_t quantum_ns = 100000;       // 100 us
  bool dmi = true;

  // net.*: the GRETH's station address at boot and the Ethernet link between
  // the board (end 0) and the PC (end 1). docs/network.md.
  struct NetImpairments {
    double loss = 0, corrupt = 0, duplicate = 0, reorder = 0;  // probabilities 0..1 per frame
    uint64_t extra_delay_ns = 0, jitter_ns = 0;
    uint64_t seed = 1;
    bool operator==(const NetImpairments& o) const {
      return loss == o.loss && corrupt == o.corrupt && duplicate == o.duplicate && reorder == o.reorder &&
             extra_delay_ns == o.extra_delay_ns && jitter_ns == o.jitter_ns && seed == o.seed;
    }
  };
  struct NetConfig {
    std::string mac = "02:00:00:00:00:53";  // "" = MAC registers keep their reset value 0
    unsigned speed_mbps = 100;              // 10 | 100
    uint64_t propagation_ns = 0;            // per cable segment
    bool switch_enabled = false;            // store-and-forward switch hop
    uint64_t switch_latency_ns = 0;
    uint64_t reorder_timeout_ns = 1000000;  // a held (reordered) frame is released after this
    NetImpairments to_host, to_board;       // link direction 0 / 1
  } net;
  static constexpr uint64_t kMaxNetDelayNs = 1000000000ull;  // 1 s

  // "aa:bb:cc:dd:ee:ff" -> 6 bytes; false if malformed.
  static bool parse_mac(const std::string& s, uint8_t out[6]);

  // Limits enforced by validate().
  static constexpr uint64_t kMinMemSize = 4096;
  static constexpr uint64_t kMaxPromSize = 512ull << 20;  // PROM bar 0x000/0xE00
  static constexpr uint64_t kMaxSdramSize = 1ull << 30;   // RAM bar 0x400/0xC00
  static constexpr uint64_t kMaxQuantumNs = 10000000000ull;

  bool timed() const { return mode == Mode::Timed; }
  static const char* mode_name(Mode m) { return m == Mode::Timed ? "timed" : "functional"; }
  // "timed" / "functional" -> mode; false for anything else.
  static bool parse_mode(const std::string& s, Mode& m);

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
