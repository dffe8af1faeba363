#include "config.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

namespace l3vp {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& key, const std::string& why) {
  throw ConfigError("key '" + key + "': " + why);
}

bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

std::string size_str(uint64_t v) {
  if (v % (1ull << 30) == 0) return std::to_string(v >> 30) + " GiB";
  if (v % (1ull << 20) == 0) return std::to_string(v >> 20) + " MiB";
  return std::to_string(v >> 10) + " KiB";
}

// An object whose keys must all be in `known`.
const json& object(const json& j, const std::string& key, const std::set<std::string>& known) {
  if (!j.is_object()) {
    if (key.empty()) throw ConfigError("top level must be a JSON object");
    bad(key, "must be an object");
  }
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!known.count(it.key())) {
      const std::string full = key.empty() ? it.key() : key + "." + it.key();
      throw ConfigError("unknown key '" + full + "'");
    }
  return j;
}

uint64_t get_uint(const json& j, const std::string& key) {
  if (!j.is_number_integer() || (j.is_number_integer() && !j.is_number_unsigned() && j.get<int64_t>() < 0))
    bad(key, "must be a non-negative integer");
  return j.get<uint64_t>();
}

std::string get_string(const json& j, const std::string& key) {
  if (!j.is_string()) bad(key, "must be a string");
  return j.get<std::string>();
}

bool get_bool(const json& j, const std::string& key) {
  if (!j.is_boolean()) bad(key, "must be true or false");
  return j.get<bool>();
}

}  // namespace

void PlatformConfig::validate() const {
  if (clock_hz == 0) bad("clock_hz", "must be greater than 0");
  if (clock_hz > 1000000000000ull || 1000000000000ull % clock_hz != 0)
    bad("clock_hz",
        "clock period must be a whole number of picoseconds (got " + std::to_string(clock_hz) + " Hz)");
  if (nwin < 2 || nwin > 32) bad("nwin", "must be 2..32 (got " + std::to_string(nwin) + ")");
  if (!pow2(prom_size) || prom_size < kMinMemSize || prom_size > kMaxPromSize)
    bad("memory.prom_size", "must be a power of two from 4 KiB to " + size_str(kMaxPromSize) + " (got " +
                                std::to_string(prom_size) + ")");
  if (!pow2(sdram_size) || sdram_size < kMinMemSize || sdram_size > kMaxSdramSize)
    bad("memory.sdram_size", "must be a power of two from 4 KiB to " + size_str(kMaxSdramSize) + " (got " +
                                 std::to_string(sdram_size) + ")");
  if (quantum_ns > kMaxQuantumNs)
    bad("quantum_ns", "must be at most 10 s (got " + std::to_string(quantum_ns) + ")");
}

PlatformConfig PlatformConfig::from_json(const json& j) {
  PlatformConfig c;
  object(j, "", {"clock_hz", "nwin", "memory", "uart", "quantum_ns", "dmi"});
  if (j.contains("clock_hz")) c.clock_hz = get_uint(j["clock_hz"], "clock_hz");
  if (j.contains("nwin")) {
    const uint64_t n = get_uint(j["nwin"], "nwin");
    if (n > 1000) bad("nwin", "must be 2..32 (got " + std::to_string(n) + ")");
    c.nwin = static_cast<unsigned>(n);
  }
  if (j.contains("memory")) {
    const json& m = object(j["memory"], "memory", {"prom_size", "sdram_size"});
    if (m.contains("prom_size")) c.prom_size = get_uint(m["prom_size"], "memory.prom_size");
    if (m.contains("sdram_size")) c.sdram_size = get_uint(m["sdram_size"], "memory.sdram_size");
  }
  if (j.contains("uart")) {
    const json& u = object(j["uart"], "uart", {"out", "in"});
    if (u.contains("out")) c.uart_out = get_string(u["out"], "uart.out");
    if (u.contains("in")) c.uart_in = get_string(u["in"], "uart.in");
  }
  if (j.contains("quantum_ns")) c.quantum_ns = get_uint(j["quantum_ns"], "quantum_ns");
  if (j.contains("dmi")) c.dmi = get_bool(j["dmi"], "dmi");
  c.validate();
  return c;
}

PlatformConfig PlatformConfig::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open config file");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    // nlohmann's message is one line: "[json.exception.parse_error.101] parse error at line 3, ..."
    std::string m = e.what();
    const auto p = m.find("] ");
    throw ConfigError(path + ": malformed JSON: " + (p == std::string::npos ? m : m.substr(p + 2)));
  }
  try {
    return from_json(j);
  } catch (const ConfigError& e) {
    throw ConfigError(path + ": " + e.what());
  }
}

bool PlatformConfig::is_preset(const std::string& name) { return name == "gr-xc3s-1500"; }

PlatformConfig PlatformConfig::preset(const std::string& name) {
  if (!is_preset(name)) throw ConfigError("unknown preset '" + name + "' (known: gr-xc3s-1500)");
  return PlatformConfig();  // the defaults are the GR-XC3S-1500 template
}

json PlatformConfig::to_json() const {
  return json{{"clock_hz", clock_hz},
              {"nwin", nwin},
              {"memory", {{"prom_size", prom_size}, {"sdram_size", sdram_size}}},
              {"uart", {{"out", uart_out}, {"in", uart_in}}},
              {"quantum_ns", quantum_ns},
              {"dmi", dmi}};
}

}  // namespace l3vp
