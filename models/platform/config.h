// Platform configuration: every user-settable parameter of the leon3mp
// platform. Each parameter is one row of the descriptor table in config.cpp
// (key path, type, range or names, default, one-line doc, the member it
// fills). That table alone drives the JSON parsing, the validation (one-line
// ConfigError naming the key), `to_json()` (the echo into `--stats`), the
// `--set KEY=VALUE` overlay of leon3vp and the key table of
// models/platform/README.md (generated from it: `leon3vp --list-params`).
// The members below carry no initialisers: the defaults (the GR-XC3S-1500
// preset) are the table's, applied by the constructor.
//
// JSON form: nested objects following the key path, e.g.
//   {"mode": "timed", "cpu": {"lddel": 1}, "dcache": {"way_kib": 4},
//    "net": {"to_host": {"loss": 0.1}}}
// All keys are optional and merge over the defaults. The top-level "nwin" of
// schema 1 is still accepted as an alias of cpu.nwin. Unknown keys, wrong
// types and out-of-range values are rejected.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

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
    unsigned read_ws, write_ws;
  };

  // The documentation of each member is its row in config.cpp (key in
  // brackets where it differs from the member name).
  Mode mode;
  uint64_t clock_hz;
  unsigned nwin;  // [cpu.*]
  leon3::MulType mul;
  unsigned lddel;
  bool branch_prediction;
  unsigned trap_cycles;
  unsigned div_cycles;
  leon3::CacheConfig icache, dcache;  // [icache.*], [dcache.*]
  WaitStates prom_ws, sdram_ws;       // [memory.prom.*], [memory.sdram.*]
  unsigned ahb_transfer_cycles;       // [ahb.*]
  unsigned ahb_burst_cycles_per_word;
  bool ahb_arbitration;
  unsigned apb_access_cycles;  // [apb.access_cycles]
  uint64_t prom_size;          // [memory.*_size]
  uint64_t sdram_size;
  std::string uart_out;  // [uart.out]
  std::string uart_in;   // [uart.in]
  std::string gptimer_model;  // [gptimer.model] the model in the GPTIMER slot (Leon3mp)
  bool chksum_enable;         // [chksum.enable] the checksum engine at APB slot 5 / AHB master 5
  std::string chksum_model;   // [chksum.model] the model in the checksum slot (Leon3mp)
  bool greth_csum_offload;    // [greth.csum_offload] GRETH_GBIT checksum offload (GrethParams::csum_offload)
  std::string energy_profile;  // [energy.profile] energy model profile (shipped name or file), "" = off
  uint64_t quantum_ns;
  bool dmi;

  // net.*: the GRETH's station address at boot and the Ethernet link between
  // the board (end 0) and the PC (end 1). docs/network.md.
  struct NetImpairments {
    double loss, corrupt, duplicate, reorder;  // probabilities 0..1 per frame
    uint64_t extra_delay_ns, jitter_ns;
    uint64_t seed;
    bool operator==(const NetImpairments& o) const {
      return loss == o.loss && corrupt == o.corrupt && duplicate == o.duplicate && reorder == o.reorder &&
             extra_delay_ns == o.extra_delay_ns && jitter_ns == o.jitter_ns && seed == o.seed;
    }
  };
  struct NetConfig {
    std::string mac;  // "" = MAC registers keep their reset value 0
    unsigned speed_mbps;
    uint64_t propagation_ns;
    bool switch_enabled;  // [net.switch.enabled]
    uint64_t switch_latency_ns;
    uint64_t reorder_timeout_ns;
    NetImpairments to_host, to_board;  // link direction 0 / 1
  } net;

  // Every member set to the table's default (the GR-XC3S-1500 template).
  PlatformConfig();

  bool timed() const { return mode == Mode::Timed; }
  static const char* mode_name(Mode m) { return m == Mode::Timed ? "timed" : "functional"; }

  // Clock period in picoseconds (exact after validate()).
  uint64_t period_ps() const { return 1000000000000ull / clock_hz; }
  sc_core::sc_time period() const { return sc_core::sc_time::from_value(period_ps()); }
  sc_core::sc_time quantum() const { return sc_core::sc_time(double(quantum_ns), sc_core::SC_NS); }

  // Throws ConfigError naming the first invalid key: each key's own range,
  // then the rules that involve several keys.
  void validate() const;

  // One assignment in command-line form, the value parsed by the key's type:
  // integers (decimal or 0x-hex), true/false, enum names, strings as given,
  // probabilities as decimals, *_ns keys as an integer number of ns or a
  // duration ("250us", docs/user-guide.md). Checks the key's own range; the
  // rules across keys wait for validate(). Throws ConfigError naming the key.
  void set(const std::string& key, const std::string& value);
  // "KEY=VALUE" (leon3vp --set).
  void set_arg(const std::string& key_equals_value);

  // Parses a JSON object (merged over the defaults) and validates it.
  static PlatformConfig from_json(const nlohmann::json& j);
  // Reads a JSON file; messages are prefixed with the file name.
  static PlatformConfig from_file(const std::string& path);
  // Built-in presets ("gr-xc3s-1500"); throws ConfigError for unknown names.
  static PlatformConfig preset(const std::string& name);
  static bool is_preset(const std::string& name);

  nlohmann::json to_json() const;

  // The descriptor table as text, for documentation and tests.
  struct ParamInfo {
    std::string key, type, range, def, doc;
  };
  static std::vector<ParamInfo> params();
  // The Markdown key table of models/platform/README.md (leon3vp --list-params).
  static std::string params_markdown();
};

}  // namespace l3vp
