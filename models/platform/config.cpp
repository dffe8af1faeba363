#include "config.h"

#include <nlohmann/json.hpp>

#include "apbuart.h"
#include "board_slots.h"
#include "energy_model.h"
#include "eth_link.h"
#include "gptimer.h"
#include "greth.h"
#include "input_file.h"

namespace l3vp {
namespace {

using nlohmann::json;
using PC = PlatformConfig;

// ---------------------------------------------------------------- the table

using param::Check;
using param::kNoMax;
using param::kOneSecondNs;
using param::Ref;
using param::Show;
using param::Spec;
using param::Type;

#define AT(member) [](PC& c) -> Ref { return &c.member; }
#define AT_ENUM(member) [](PC& c) -> Ref { return param::enum_ref(&c.member); }

// The platform's own rows, kept in the members of PlatformConfig: those
// before the instances' rows, then those after them (table order is the
// README's order).
// clang-format off
const param::Rows<PC>& platform_rows() {
  static const param::Rows<PC> r = {
    {{"mode", Type::Enum, Check::Range, 0, 0, Show::Plain, "timed|functional", "timed",
      "timed: cycle-approximate pipeline, caches and bus costs; functional: 1 cycle per instruction, no bus costs (docs/timing.md)"},
      AT_ENUM(mode)},
    {{"clock_hz", Type::UInt, Check::Range, 1, 1000000000000ull, Show::Plain, nullptr, "40000000",
      "CPU/AMBA clock in Hz; its period must be a whole number of picoseconds"},
      AT(clock_hz)},
    {{"cpu.nwin", Type::UInt, Check::Range, 2, 32, Show::Plain, nullptr, "8",
      "register windows (the top-level `nwin` of schema 1 is an alias)"},
      AT(nwin)},
    {{"cpu.mul", Type::Enum, Check::Range, 0, 0, Show::Plain, "32x32_2cycle|16x16_4cycle|16x16_5cycle",
      "32x32_2cycle", "multiplier option (hw-reference §7.3)"},
      AT_ENUM(mul)},
    {{"cpu.lddel", Type::UInt, Check::Either, 1, 2, Show::Plain, nullptr, "1",
      "load delay: cycles before a loaded register can be used"},
      AT(lddel)},
    {{"cpu.branch_prediction", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "true",
      "branch prediction (taken branches cost no extra cycle)"},
      AT(branch_prediction)},
    {{"cpu.trap_cycles", Type::UInt, Check::Range, 1, 255, Show::Plain, nullptr, "5",
      "cycles of taking a trap"},
      AT(trap_cycles)},
    {{"cpu.div_cycles", Type::UInt, Check::Range, 1, 255, Show::Plain, nullptr, "35",
      "cycles of UDIV/SDIV"},
      AT(div_cycles)},
    {{"icache.ways", Type::UInt, Check::Range, 1, 4, Show::Plain, nullptr, "2", "I-cache ways"},
      AT(icache.ways)},
    {{"icache.way_kib", Type::UInt, Check::Pow2, 1, 256, Show::Plain, nullptr, "4", "I-cache KiB per way"},
      AT(icache.way_kib)},
    {{"icache.line_bytes", Type::UInt, Check::Either, 16, 32, Show::Plain, nullptr, "32", "I-cache line size"},
      AT(icache.line_bytes)},
    {{"icache.repl", Type::Enum, Check::Range, 0, 0, Show::Plain, "lru|lrr|random", "lru",
      "I-cache replacement (`lrr` needs exactly 2 ways)"},
      AT_ENUM(icache.repl)},
    {{"icache.seed", Type::UInt, Check::Range, 0, 0xFFFFFFFFull, Show::Plain, nullptr, "1",
      "I-cache seed of the deterministic generators of `random` replacement and of `force_miss_rate`"},
      AT(icache.seed)},
    {{"icache.force_miss_rate", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",
      "fraction of I-cache fetch hits turned into misses (seeded from `icache.seed`; non-zero slows the simulation)"},
      AT(icache.force_miss_rate)},
    {{"dcache.ways", Type::UInt, Check::Range, 1, 4, Show::Plain, nullptr, "1", "D-cache ways"},
      AT(dcache.ways)},
    {{"dcache.way_kib", Type::UInt, Check::Pow2, 1, 256, Show::Plain, nullptr, "4", "D-cache KiB per way"},
      AT(dcache.way_kib)},
    {{"dcache.line_bytes", Type::UInt, Check::Either, 16, 32, Show::Plain, nullptr, "16", "D-cache line size"},
      AT(dcache.line_bytes)},
    {{"dcache.repl", Type::Enum, Check::Range, 0, 0, Show::Plain, "lru|lrr|random", "lru",
      "D-cache replacement (`lrr` needs exactly 2 ways)"},
      AT_ENUM(dcache.repl)},
    {{"dcache.seed", Type::UInt, Check::Range, 0, 0xFFFFFFFFull, Show::Plain, nullptr, "1",
      "D-cache seed of the deterministic generators of `random` replacement and of `force_miss_rate`"},
      AT(dcache.seed)},
    {{"dcache.force_miss_rate", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",
      "fraction of D-cache read hits turned into misses (seeded from `dcache.seed`; non-zero slows the simulation)"},
      AT(dcache.force_miss_rate)},
    {{"dcache.snoop", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "true",
      "D-cache snooping implemented (active when CCR.DS = 1)"},
      AT(dcache.snoop)},
    {{"memory.prom_size", Type::UInt, Check::Pow2, 4096, 512ull << 20, Show::Bytes, nullptr, "8388608",
      "PROM bytes (the board's 8 MiB flash; the PROM bar allows 512 MiB)"},
      AT(prom_size)},
    {{"memory.sdram_size", Type::UInt, Check::Pow2, 4096, 1ull << 30, Show::Bytes, nullptr, "67108864",
      "SDRAM bytes at 0x40000000 (the board's 64 MiB; the RAM bar allows 1 GiB)"},
      AT(sdram_size)},
    {{"memory.prom.read_ws", Type::UInt, Check::Range, 0, 255, Show::Plain, nullptr, "19",
      "PROM read wait states (from MCFG1, docs/timing.md)"},
      AT(prom_ws.read_ws)},
    {{"memory.prom.write_ws", Type::UInt, Check::Range, 0, 255, Show::Plain, nullptr, "19",
      "PROM write wait states"},
      AT(prom_ws.write_ws)},
    {{"memory.sdram.read_ws", Type::UInt, Check::Range, 0, 255, Show::Plain, nullptr, "7",
      "SDRAM read wait states (from MCFG2, docs/timing.md)"},
      AT(sdram_ws.read_ws)},
    {{"memory.sdram.write_ws", Type::UInt, Check::Range, 0, 255, Show::Plain, nullptr, "4",
      "SDRAM write wait states"},
      AT(sdram_ws.write_ws)},
    {{"ahb.transfer_cycles", Type::UInt, Check::Range, 0, 16, Show::Plain, nullptr, "1",
      "AHB cycles of a single transfer or the first beat of a burst"},
      AT(ahb_transfer_cycles)},
    {{"ahb.burst_cycles_per_word", Type::UInt, Check::Range, 0, 16, Show::Plain, nullptr, "1",
      "AHB cycles of each further burst beat (DMI bursts cost the same)"},
      AT(ahb_burst_cycles_per_word)},
    {{"ahb.arbitration", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "true",
      "masters wait for each other on the AHB"},
      AT(ahb_arbitration)},
    {{"apb.access_cycles", Type::UInt, Check::Range, 0, 64, Show::Plain, nullptr, "3",
      "cycles of an APB register access through the bridge"},
      AT(apb_access_cycles)},
  };
  return r;
}

const param::Rows<PC>& platform_late_rows() {
  static const param::Rows<PC> r = {
    {{"quantum_ns", Type::Ns, Check::Range, 0, 10 * kOneSecondNs, Show::Time, nullptr, "100000",
      "CPU global quantum (0 = synchronise after every instruction; results do not depend on it)"},
      AT(quantum_ns)},
    {{"dmi", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "true",
      "direct memory access for the CPU (results do not depend on it)"},
      AT(dmi)},
  };
  return r;
}
// clang-format on
#undef AT
#undef AT_ENUM

// One key of the assembled table: its full name, its row and, for the
// platform's rows, its member (null: an instance row, kept in values_).
struct Entry {
  std::string key;
  const Spec* spec;
  Ref (*member)(PC&);
};

void add_platform(std::vector<Entry>& t, const param::Rows<PC>& rows) {
  for (const param::Row<PC>& r : rows) t.push_back({r.key, &r, r.field});
}
void add_instance(std::vector<Entry>& t, const std::string& prefix, const std::vector<const Spec*>& rows) {
  for (const Spec* r : rows) t.push_back({param::join(prefix, r->key), r, nullptr});
}
template <typename P>
void add_instance(std::vector<Entry>& t, const char* prefix, const param::Rows<P>& rows) {
  add_instance(t, prefix, slot_rows(rows));
}

// The table: the platform's rows and each instance's rows under its prefix
// (the prefixes Leon3mp fills its devices' Params from).
const std::vector<Entry>& table() {
  static const std::vector<Entry> t = [] {
    std::vector<Entry> t;
    add_platform(t, platform_rows());
    add_instance(t, "uart", ApbuartParams::rows());
    for (const SlotRow& slot : board_slots::table()) add_instance(t, slot.name, slot.rows);  // by APB slot
    add_instance(t, "greth", GrethParams::rows());
    add_instance(t, "energy", energy::EnergyParams::rows());
    add_platform(t, platform_late_rows());
    add_instance(t, "net", GrethParams::station_rows());  // the board's station address
    add_instance(t, "net", EthLinkParams::rows());
    return t;
  }();
  return t;
}

// Older spellings still read from JSON files and --set.
const std::pair<const char*, const char*> kAliases[] = {{"nwin", "cpu.nwin"}};

const Entry* find_entry(const std::string& key) {
  for (const Entry& e : table())
    if (key == e.key) return &e;
  return nullptr;
}

[[noreturn]] void bad(const std::string& key, const std::string& why) {
  throw ConfigError("key '" + key + "': " + why);
}

// Rules that involve more than one key's own range, checked after every key.
struct Rule {
  const char* name;
  void (*check)(const PC& c);
};
void check_repl(const leon3::CacheConfig& c, const std::string& cache) {
  if (c.repl == leon3::CacheRepl::Lrr && c.ways != 2) bad(cache + ".repl", "\"lrr\" needs exactly 2 ways");
}
const Rule kRules[] = {
    {"clock period is a whole number of picoseconds",
     [](const PC& c) {
       if (1000000000000ull % c.clock_hz != 0)
         bad("clock_hz", "clock period must be a whole number of picoseconds (got " +
                             std::to_string(c.clock_hz) + " Hz)");
     }},
    {"LRR replacement needs exactly 2 ways",
     [](const PC& c) {
       check_repl(c.icache, "icache");
       check_repl(c.dcache, "dcache");
     }},
    {"the I-cache does not snoop",
     [](const PC& c) {
       if (c.icache.snoop) bad("icache.snoop", "the I-cache does not snoop");
     }},
};

// ---------------------------------------------------------------- values

// The table only reads through refs of a const config.
param::Value value_of(const Entry& e, const PC& c) {
  if (!e.member) return c.values().get(e.key);
  return param::load(*e.spec, e.member(const_cast<PC&>(c)));
}

void assign(const Entry& e, PC& c, param::Values& values, const param::Value& v) {
  if (e.member)
    param::store(e.member(c), v);
  else
    values.set(e.key, v);
}

// ---------------------------------------------------------------- JSON walk

// True if some key lies below `prefix` (then `prefix` names an object).
bool is_group(const std::string& prefix) {
  const std::string dot = prefix + ".";
  for (const Entry& e : table())
    if (e.key.compare(0, dot.size(), dot) == 0) return true;
  return false;
}

void parse_object(const json& j, const std::string& prefix, PC& c, param::Values& values) {
  if (!j.is_object()) {
    if (prefix.empty()) throw ConfigError("top level must be a JSON object");
    bad(prefix, "must be an object");
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (const Entry* e = find_entry(key)) {
      assign(*e, c, values, param::parse_json(*e->spec, it.value(), key));
      continue;
    }
    if (is_group(key)) {
      parse_object(it.value(), key, c, values);
      continue;
    }
    bool alias = false;
    for (auto [old_key, new_key] : kAliases)
      if (key == old_key) {
        // The alias and its key in one file: which one is meant?
        const std::string nk = new_key;
        const auto dot = nk.rfind('.');
        const json* sub = &j;
        if (dot != std::string::npos && j.contains(nk.substr(0, dot))) sub = &j[nk.substr(0, dot)];
        if (sub != &j && sub->is_object() && sub->contains(nk.substr(dot + 1)))
          bad(key, "give either '" + key + "' or '" + nk + "', not both");
        const Entry* e = find_entry(nk);
        assign(*e, c, values, param::parse_json(*e->spec, it.value(), key));
        alias = true;
      }
    if (!alias) throw ConfigError("unknown key '" + key + "'");
  }
}

}  // namespace

PlatformConfig::PlatformConfig() : icache(), dcache(), prom_ws(), sdram_ws() {
  for (const Entry& e : table()) {
    if (e.member)
      param::store(e.member(*this), param::default_value(*e.spec));
    else
      values_.declare(e.key, *e.spec);
  }
}

void PlatformConfig::validate() const {
  for (const Entry& e : table()) param::check(*e.spec, value_of(e, *this), e.key);
  for (const Rule& r : kRules) r.check(*this);
}

void PlatformConfig::set(const std::string& key, const std::string& value) {
  std::string k = key;
  for (auto [old_key, new_key] : kAliases)
    if (k == old_key) k = new_key;
  const Entry* e = find_entry(k);
  if (!e) throw ConfigError("unknown key '" + key + "' (leon3vp --list-params lists the keys)");
  assign(*e, *this, values_, param::parse_text(*e->spec, value, key));
}

void PlatformConfig::set_arg(const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError("'" + kv + "' is not KEY=VALUE");
  set(kv.substr(0, eq), kv.substr(eq + 1));
}

PlatformConfig PlatformConfig::from_json(const json& j) {
  PlatformConfig c;
  parse_object(j, "", c, c.values_);
  c.validate();
  return c;
}

PlatformConfig PlatformConfig::from_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, kMaxJsonBytes, "config file");
  } catch (const InputFileError& e) {
    throw ConfigError(e.what());
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::out_of_range& e) {
    // A number beyond double's range (1e400): nlohmann refuses it while parsing.
    std::string m = e.what();
    const auto p = m.find("] ");
    throw ConfigError(path + ": number out of range: " + (p == std::string::npos ? m : m.substr(p + 2)));
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
  json j = json::object();
  for (const Entry& e : table()) {
    std::string ptr = "/" + e.key;
    for (char& ch : ptr)
      if (ch == '.') ch = '/';
    j[json::json_pointer(ptr)] = param::to_json(*e.spec, value_of(e, *this));
  }
  return j;
}

std::vector<PlatformConfig::ParamInfo> PlatformConfig::params() {
  std::vector<ParamInfo> v;
  for (const Entry& e : table()) v.push_back(param::info(*e.spec, e.key));
  return v;
}

std::string PlatformConfig::params_markdown() {
  std::string s = "| Key | Type | Valid values | Default | Meaning |\n|---|---|---|---|---|\n";
  for (const ParamInfo& i : params()) {
    const std::string def = i.def.empty() ? "(empty)" : "`" + i.def + "`";
    s += "| `" + i.key + "` | " + i.type + " | " + i.range + " | " + def + " | " + i.doc + " |\n";
  }
  s += "\nRules across keys (checked after every key's own range):\n\n";
  for (const Rule& r : kRules) s += "* " + std::string(r.name) + "\n";
  return s;
}

}  // namespace l3vp
