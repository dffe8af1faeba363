// Platform configuration: every user-settable parameter of the leon3mp
// platform. Each parameter is one row (models/common/params.h: key, type,
// range or names, default, one-line doc, the field it fills) of the table
// config.cpp assembles from the platform's own rows (mode, clock_hz, cpu.*,
// icache.*, dcache.*, memory.*, ahb.*, apb.*, quantum_ns, dmi: the members
// below) and the rows each device model declares beside its code, under its
// instance prefix (uart.*: ApbuartParams, gptimer.*, chksum.*, greth.*,
// energy.*, net.*: EthLinkParams and the GRETH's station address). The
// values of instance rows are kept generically (values(), by full key) and
// reach a model's Params through fill() with the instance prefix. That table
// alone drives the JSON parsing, the validation (one-line ConfigError naming
// the key), `to_json()` (the echo into `--stats`), the `--set KEY=VALUE`
// overlay of leon3vp and the key table of models/platform/README.md
// (generated from it: `leon3vp --list-params`). The members below carry no
// initialisers: the defaults (the GR-XC3S-1500 preset) are the table's,
// applied by the constructor.
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
#include "params.h"  // ConfigError, param::

namespace l3vp {

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
  uint64_t quantum_ns;
  bool dmi;

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

  // --- the values of instance rows (uart.*, gptimer.*, chksum.*, greth.*,
  // energy.*, net.*), by full key ---
  const param::Values& values() const { return values_; }
  // One value: T = std::string (String, MAC), bool, double (number) or
  // uint64_t (integer, ns, enum index). std::logic_error for a key that is no
  // instance row or a wrong T.
  template <typename T>
  const T& get(const std::string& key) const {
    const T* v = std::get_if<T>(&values_.get(key));
    if (!v) throw std::logic_error("PlatformConfig::get: key '" + key + "' holds another type");
    return *v;
  }
  // A model's Params from the rows under `prefix` (e.g. "greth"): each value
  // checked by its row (ConfigError naming the full key).
  template <typename P>
  void fill(const std::string& prefix, const param::Rows<P>& rows, P& p) const {
    param::fill(values_, prefix, rows, p);
  }
  // The reverse (a scenario's link section): the values under `prefix` from
  // `p`; validate() checks them.
  template <typename P>
  void put(const std::string& prefix, const param::Rows<P>& rows, const P& p) {
    param::put(values_, prefix, rows, p);
  }

  // Parses a JSON object (merged over the defaults) and validates it.
  static PlatformConfig from_json(const nlohmann::json& j);
  // Reads a JSON file; messages are prefixed with the file name.
  static PlatformConfig from_file(const std::string& path);
  // Built-in presets ("gr-xc3s-1500"); throws ConfigError for unknown names.
  static PlatformConfig preset(const std::string& name);
  static bool is_preset(const std::string& name);

  nlohmann::json to_json() const;

  // The descriptor table as text (full keys, table order), for
  // documentation and tests.
  using ParamInfo = param::Info;
  static std::vector<ParamInfo> params();
  // The Markdown key table of models/platform/README.md (leon3vp --list-params).
  static std::string params_markdown();

 private:
  param::Values values_;
};

}  // namespace l3vp
