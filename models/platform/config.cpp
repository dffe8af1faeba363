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

// An unsigned integer in [lo, hi].
unsigned get_range(const json& j, const std::string& key, uint64_t lo, uint64_t hi) {
  const uint64_t v = get_uint(j, key);
  if (v < lo || v > hi)
    bad(key, "must be " + std::to_string(lo) + ".." + std::to_string(hi) + " (got " + std::to_string(v) + ")");
  return static_cast<unsigned>(v);
}

const char* mul_name(leon3::MulType m) {
  switch (m) {
    case leon3::MulType::Iter16x16: return "16x16_4cycle";
    case leon3::MulType::Pipelined16x16: return "16x16_5cycle";
    default: return "32x32_2cycle";
  }
}

const char* repl_name(leon3::CacheRepl r) {
  switch (r) {
    case leon3::CacheRepl::Lrr: return "lrr";
    case leon3::CacheRepl::Random: return "random";
    default: return "lru";
  }
}

void validate_cache(const leon3::CacheConfig& c, const std::string& key) {
  if (c.ways < 1 || c.ways > 4) bad(key + ".ways", "must be 1..4 (got " + std::to_string(c.ways) + ")");
  if (!pow2(c.way_kib) || c.way_kib > 256)
    bad(key + ".way_kib", "must be a power of two from 1 to 256 (got " + std::to_string(c.way_kib) + ")");
  if (c.line_bytes != 16 && c.line_bytes != 32)
    bad(key + ".line_bytes", "must be 16 or 32 (got " + std::to_string(c.line_bytes) + ")");
  if (c.repl == leon3::CacheRepl::Lrr && c.ways != 2) bad(key + ".repl", "\"lrr\" needs exactly 2 ways");
}

void parse_cache(const json& j, const std::string& key, leon3::CacheConfig& c, bool dcache) {
  std::set<std::string> known{"ways", "way_kib", "line_bytes", "repl", "seed"};
  if (dcache) known.insert("snoop");
  object(j, key, known);
  if (j.contains("ways")) c.ways = get_range(j["ways"], key + ".ways", 1, 4);
  if (j.contains("way_kib")) c.way_kib = get_range(j["way_kib"], key + ".way_kib", 1, 256);
  if (j.contains("line_bytes")) c.line_bytes = get_range(j["line_bytes"], key + ".line_bytes", 16, 32);
  if (j.contains("repl")) {
    const std::string r = get_string(j["repl"], key + ".repl");
    if (r == "lru")
      c.repl = leon3::CacheRepl::Lru;
    else if (r == "lrr")
      c.repl = leon3::CacheRepl::Lrr;
    else if (r == "random")
      c.repl = leon3::CacheRepl::Random;
    else
      bad(key + ".repl", "must be \"lru\", \"lrr\" or \"random\" (got \"" + r + "\")");
  }
  if (j.contains("seed")) c.seed = get_range(j["seed"], key + ".seed", 0, 0xFFFFFFFFull);
  if (j.contains("snoop")) c.snoop = get_bool(j["snoop"], key + ".snoop");
}

void parse_ws(const json& j, const std::string& key, PlatformConfig::WaitStates& w) {
  object(j, key, {"read_ws", "write_ws"});
  if (j.contains("read_ws")) w.read_ws = get_range(j["read_ws"], key + ".read_ws", 0, 255);
  if (j.contains("write_ws")) w.write_ws = get_range(j["write_ws"], key + ".write_ws", 0, 255);
}

double get_prob(const json& j, const std::string& key) {
  if (!j.is_number()) bad(key, "must be a number from 0 to 1");
  const double v = j.get<double>();
  if (!(v >= 0.0 && v <= 1.0)) bad(key, "must be a number from 0 to 1 (got " + j.dump() + ")");
  return v;
}

void parse_imp(const json& j, const std::string& key, PlatformConfig::NetImpairments& m) {
  object(j, key, {"loss", "corrupt", "duplicate", "reorder", "extra_delay_ns", "jitter_ns", "seed"});
  if (j.contains("loss")) m.loss = get_prob(j["loss"], key + ".loss");
  if (j.contains("corrupt")) m.corrupt = get_prob(j["corrupt"], key + ".corrupt");
  if (j.contains("duplicate")) m.duplicate = get_prob(j["duplicate"], key + ".duplicate");
  if (j.contains("reorder")) m.reorder = get_prob(j["reorder"], key + ".reorder");
  if (j.contains("extra_delay_ns")) m.extra_delay_ns = get_uint(j["extra_delay_ns"], key + ".extra_delay_ns");
  if (j.contains("jitter_ns")) m.jitter_ns = get_uint(j["jitter_ns"], key + ".jitter_ns");
  if (j.contains("seed")) m.seed = get_uint(j["seed"], key + ".seed");
}

void validate_imp(const PlatformConfig::NetImpairments& m, const std::string& key) {
  for (auto [v, k] : {std::pair{m.loss, "loss"}, std::pair{m.corrupt, "corrupt"},
                      std::pair{m.duplicate, "duplicate"}, std::pair{m.reorder, "reorder"}})
    if (!(v >= 0.0 && v <= 1.0)) bad(key + "." + k, "must be a number from 0 to 1");
  if (m.extra_delay_ns > PlatformConfig::kMaxNetDelayNs) bad(key + ".extra_delay_ns", "must be at most 1 s");
  if (m.jitter_ns > PlatformConfig::kMaxNetDelayNs) bad(key + ".jitter_ns", "must be at most 1 s");
}

json imp_json(const PlatformConfig::NetImpairments& m) {
  return json{{"loss", m.loss},
              {"corrupt", m.corrupt},
              {"duplicate", m.duplicate},
              {"reorder", m.reorder},
              {"extra_delay_ns", m.extra_delay_ns},
              {"jitter_ns", m.jitter_ns},
              {"seed", m.seed}};
}

json cache_json(const leon3::CacheConfig& c, bool dcache) {
  json j{{"ways", c.ways},
         {"way_kib", c.way_kib},
         {"line_bytes", c.line_bytes},
         {"repl", repl_name(c.repl)},
         {"seed", c.seed}};
  if (dcache) j["snoop"] = c.snoop;
  return j;
}

}  // namespace

bool PlatformConfig::parse_mac(const std::string& s, uint8_t out[6]) {
  if (s.size() != 17) return false;
  for (unsigned i = 0; i < 6; ++i) {
    if (i && s[3 * i - 1] != ':') return false;
    unsigned v = 0;
    for (unsigned k = 0; k < 2; ++k) {
      const char c = s[3 * i + k];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= unsigned(c - 'A' + 10);
      else
        return false;
    }
    out[i] = static_cast<uint8_t>(v);
  }
  return true;
}

bool PlatformConfig::parse_mode(const std::string& s, Mode& m) {
  if (s == "timed")
    m = Mode::Timed;
  else if (s == "functional")
    m = Mode::Functional;
  else
    return false;
  return true;
}

void PlatformConfig::validate() const {
  if (clock_hz == 0) bad("clock_hz", "must be greater than 0");
  if (clock_hz > 1000000000000ull || 1000000000000ull % clock_hz != 0)
    bad("clock_hz",
        "clock period must be a whole number of picoseconds (got " + std::to_string(clock_hz) + " Hz)");
  if (nwin < 2 || nwin > 32) bad("cpu.nwin", "must be 2..32 (got " + std::to_string(nwin) + ")");
  if (lddel < 1 || lddel > 2) bad("cpu.lddel", "must be 1 or 2 (got " + std::to_string(lddel) + ")");
  if (trap_cycles < 1 || trap_cycles > 255)
    bad("cpu.trap_cycles", "must be 1..255 (got " + std::to_string(trap_cycles) + ")");
  if (div_cycles < 1 || div_cycles > 255)
    bad("cpu.div_cycles", "must be 1..255 (got " + std::to_string(div_cycles) + ")");
  validate_cache(icache, "icache");
  validate_cache(dcache, "dcache");
  if (icache.snoop) bad("icache.snoop", "the I-cache does not snoop");
  for (auto [w, key] : {std::pair{prom_ws, "memory.prom"}, std::pair{sdram_ws, "memory.sdram"}}) {
    if (w.read_ws > 255) bad(std::string(key) + ".read_ws", "must be 0..255");
    if (w.write_ws > 255) bad(std::string(key) + ".write_ws", "must be 0..255");
  }
  if (ahb_transfer_cycles > 16) bad("ahb.transfer_cycles", "must be 0..16");
  if (ahb_burst_cycles_per_word > 16) bad("ahb.burst_cycles_per_word", "must be 0..16");
  if (apb_access_cycles > 64) bad("apb.access_cycles", "must be 0..64");
  if (!pow2(prom_size) || prom_size < kMinMemSize || prom_size > kMaxPromSize)
    bad("memory.prom_size", "must be a power of two from 4 KiB to " + size_str(kMaxPromSize) + " (got " +
                                std::to_string(prom_size) + ")");
  if (!pow2(sdram_size) || sdram_size < kMinMemSize || sdram_size > kMaxSdramSize)
    bad("memory.sdram_size", "must be a power of two from 4 KiB to " + size_str(kMaxSdramSize) + " (got " +
                                 std::to_string(sdram_size) + ")");
  if (quantum_ns > kMaxQuantumNs)
    bad("quantum_ns", "must be at most 10 s (got " + std::to_string(quantum_ns) + ")");
  uint8_t mac[6];
  if (!net.mac.empty() && !parse_mac(net.mac, mac))
    bad("net.mac", "must be \"\" or six hex bytes like \"02:00:00:00:00:53\" (got \"" + net.mac + "\")");
  if (!net.mac.empty() && (mac[0] & 1)) bad("net.mac", "must be a unicast address (got \"" + net.mac + "\")");
  if (net.speed_mbps != 10 && net.speed_mbps != 100)
    bad("net.speed_mbps", "must be 10 or 100 (got " + std::to_string(net.speed_mbps) + ")");
  if (net.propagation_ns > kMaxNetDelayNs) bad("net.propagation_ns", "must be at most 1 s");
  if (net.switch_latency_ns > kMaxNetDelayNs) bad("net.switch.latency_ns", "must be at most 1 s");
  if (net.reorder_timeout_ns > kMaxNetDelayNs) bad("net.reorder_timeout_ns", "must be at most 1 s");
  validate_imp(net.to_host, "net.to_host");
  validate_imp(net.to_board, "net.to_board");
}

PlatformConfig PlatformConfig::from_json(const json& j) {
  PlatformConfig c;
  object(j, "", {"mode", "clock_hz", "nwin", "cpu", "icache", "dcache", "memory", "ahb", "apb", "uart",
                 "quantum_ns", "dmi", "net"});
  if (j.contains("mode")) {
    const std::string m = get_string(j["mode"], "mode");
    if (!parse_mode(m, c.mode)) bad("mode", "must be \"timed\" or \"functional\" (got \"" + m + "\")");
  }
  if (j.contains("clock_hz")) c.clock_hz = get_uint(j["clock_hz"], "clock_hz");
  if (j.contains("nwin")) {  // schema-1 alias of cpu.nwin
    if (j.contains("cpu") && j["cpu"].is_object() && j["cpu"].contains("nwin"))
      bad("nwin", "give either 'nwin' or 'cpu.nwin', not both");
    c.nwin = get_range(j["nwin"], "nwin", 2, 32);
  }
  if (j.contains("cpu")) {
    const json& p = object(j["cpu"], "cpu", {"nwin", "mul", "lddel", "branch_prediction", "trap_cycles",
                                             "div_cycles"});
    if (p.contains("nwin")) c.nwin = get_range(p["nwin"], "cpu.nwin", 2, 32);
    if (p.contains("mul")) {
      const std::string m = get_string(p["mul"], "cpu.mul");
      if (m == "32x32_2cycle")
        c.mul = leon3::MulType::Pipelined32x32;
      else if (m == "16x16_4cycle")
        c.mul = leon3::MulType::Iter16x16;
      else if (m == "16x16_5cycle")
        c.mul = leon3::MulType::Pipelined16x16;
      else
        bad("cpu.mul", "must be \"32x32_2cycle\", \"16x16_4cycle\" or \"16x16_5cycle\" (got \"" + m + "\")");
    }
    if (p.contains("lddel")) c.lddel = get_range(p["lddel"], "cpu.lddel", 1, 2);
    if (p.contains("branch_prediction"))
      c.branch_prediction = get_bool(p["branch_prediction"], "cpu.branch_prediction");
    if (p.contains("trap_cycles")) c.trap_cycles = get_range(p["trap_cycles"], "cpu.trap_cycles", 1, 255);
    if (p.contains("div_cycles")) c.div_cycles = get_range(p["div_cycles"], "cpu.div_cycles", 1, 255);
  }
  if (j.contains("icache")) parse_cache(j["icache"], "icache", c.icache, false);
  if (j.contains("dcache")) parse_cache(j["dcache"], "dcache", c.dcache, true);
  if (j.contains("memory")) {
    const json& m = object(j["memory"], "memory", {"prom_size", "sdram_size", "prom", "sdram"});
    if (m.contains("prom_size")) c.prom_size = get_uint(m["prom_size"], "memory.prom_size");
    if (m.contains("sdram_size")) c.sdram_size = get_uint(m["sdram_size"], "memory.sdram_size");
    if (m.contains("prom")) parse_ws(m["prom"], "memory.prom", c.prom_ws);
    if (m.contains("sdram")) parse_ws(m["sdram"], "memory.sdram", c.sdram_ws);
  }
  if (j.contains("ahb")) {
    const json& a = object(j["ahb"], "ahb", {"transfer_cycles", "burst_cycles_per_word", "arbitration"});
    if (a.contains("transfer_cycles"))
      c.ahb_transfer_cycles = get_range(a["transfer_cycles"], "ahb.transfer_cycles", 0, 16);
    if (a.contains("burst_cycles_per_word"))
      c.ahb_burst_cycles_per_word = get_range(a["burst_cycles_per_word"], "ahb.burst_cycles_per_word", 0, 16);
    if (a.contains("arbitration")) c.ahb_arbitration = get_bool(a["arbitration"], "ahb.arbitration");
  }
  if (j.contains("apb")) {
    const json& a = object(j["apb"], "apb", {"access_cycles"});
    if (a.contains("access_cycles")) c.apb_access_cycles = get_range(a["access_cycles"], "apb.access_cycles", 0, 64);
  }
  if (j.contains("uart")) {
    const json& u = object(j["uart"], "uart", {"out", "in"});
    if (u.contains("out")) c.uart_out = get_string(u["out"], "uart.out");
    if (u.contains("in")) c.uart_in = get_string(u["in"], "uart.in");
  }
  if (j.contains("quantum_ns")) c.quantum_ns = get_uint(j["quantum_ns"], "quantum_ns");
  if (j.contains("dmi")) c.dmi = get_bool(j["dmi"], "dmi");
  if (j.contains("net")) {
    const json& n = object(j["net"], "net", {"mac", "speed_mbps", "propagation_ns", "switch", "to_host",
                                             "to_board", "reorder_timeout_ns"});
    if (n.contains("reorder_timeout_ns"))
      c.net.reorder_timeout_ns = get_uint(n["reorder_timeout_ns"], "net.reorder_timeout_ns");
    if (n.contains("mac")) c.net.mac = get_string(n["mac"], "net.mac");
    if (n.contains("speed_mbps")) c.net.speed_mbps = get_range(n["speed_mbps"], "net.speed_mbps", 0, 1000000);
    if (n.contains("propagation_ns")) c.net.propagation_ns = get_uint(n["propagation_ns"], "net.propagation_ns");
    if (n.contains("switch")) {
      const json& w = object(n["switch"], "net.switch", {"enabled", "latency_ns"});
      if (w.contains("enabled")) c.net.switch_enabled = get_bool(w["enabled"], "net.switch.enabled");
      if (w.contains("latency_ns")) c.net.switch_latency_ns = get_uint(w["latency_ns"], "net.switch.latency_ns");
    }
    if (n.contains("to_host")) parse_imp(n["to_host"], "net.to_host", c.net.to_host);
    if (n.contains("to_board")) parse_imp(n["to_board"], "net.to_board", c.net.to_board);
  }
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
  return json{{"mode", mode_name(mode)},
              {"clock_hz", clock_hz},
              {"cpu",
               {{"nwin", nwin},
                {"mul", mul_name(mul)},
                {"lddel", lddel},
                {"branch_prediction", branch_prediction},
                {"trap_cycles", trap_cycles},
                {"div_cycles", div_cycles}}},
              {"icache", cache_json(icache, false)},
              {"dcache", cache_json(dcache, true)},
              {"memory",
               {{"prom_size", prom_size},
                {"sdram_size", sdram_size},
                {"prom", {{"read_ws", prom_ws.read_ws}, {"write_ws", prom_ws.write_ws}}},
                {"sdram", {{"read_ws", sdram_ws.read_ws}, {"write_ws", sdram_ws.write_ws}}}}},
              {"ahb",
               {{"transfer_cycles", ahb_transfer_cycles},
                {"burst_cycles_per_word", ahb_burst_cycles_per_word},
                {"arbitration", ahb_arbitration}}},
              {"apb", {{"access_cycles", apb_access_cycles}}},
              {"uart", {{"out", uart_out}, {"in", uart_in}}},
              {"quantum_ns", quantum_ns},
              {"dmi", dmi},
              {"net",
               {{"mac", net.mac},
                {"speed_mbps", net.speed_mbps},
                {"propagation_ns", net.propagation_ns},
                {"switch", {{"enabled", net.switch_enabled}, {"latency_ns", net.switch_latency_ns}}},
                {"reorder_timeout_ns", net.reorder_timeout_ns},
                {"to_host", imp_json(net.to_host)},
                {"to_board", imp_json(net.to_board)}}}};
}

}  // namespace l3vp
