#include "config.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <variant>

#include "input_file.h"
#include "units.h"

namespace l3vp {
namespace {

using nlohmann::json;
using PC = PlatformConfig;

// ---------------------------------------------------------------- the table

enum class Type { UInt, Bool, Enum, String, Prob, Ns, Mac };
// Range of a UInt or Ns key: lo..hi; lo or hi; a power of two in lo..hi.
enum class Check { Range, Either, Pow2 };
// How a range is written in messages and in the README.
enum class Show { Plain, Bytes, Time };

// Where a parameter's value lives (uint32_t members are `unsigned` here).
// names (index = enum value); a new enum type is one more alternative here.
using Ref = std::variant<unsigned*, uint64_t*, bool*, double*, std::string*, PC::Mode*,
                         leon3::MulType*, leon3::CacheRepl*>;

struct Param {
  const char* key;    // JSON path, dots between levels; also the --set key
  Type type;
  Check check;        // UInt / Ns only
  uint64_t lo, hi;    // UInt / Ns only
  Show show;
  const char* names;  // Enum: the names in enum order, '|' between
  const char* def;    // the default, spelled as on --set
  const char* doc;    // one line, for the README table
  Ref (*ref)(PC&);
};

#define AT(member) [](PC& c) -> Ref { return &c.member; }
constexpr uint64_t kNoMax = UINT64_MAX;
constexpr uint64_t kOneSecondNs = 1000000000ull;

// clang-format off
const Param kParams[] = {
  {"mode", Type::Enum, Check::Range, 0, 0, Show::Plain, "timed|functional", "timed",
   "timed: cycle-approximate pipeline, caches and bus costs; functional: 1 cycle per instruction, no bus costs (docs/timing.md)",
   AT(mode)},
  {"clock_hz", Type::UInt, Check::Range, 1, 1000000000000ull, Show::Plain, nullptr, "40000000",
   "CPU/AMBA clock in Hz; its period must be a whole number of picoseconds", AT(clock_hz)},
  {"cpu.nwin", Type::UInt, Check::Range, 2, 32, Show::Plain, nullptr, "8",
   "register windows (the top-level `nwin` of schema 1 is an alias)", AT(nwin)},
  {"cpu.mul", Type::Enum, Check::Range, 0, 0, Show::Plain, "32x32_2cycle|16x16_4cycle|16x16_5cycle",
   "32x32_2cycle", "multiplier option (hw-reference §7.3)", AT(mul)},
  {"cpu.lddel", Type::UInt, Check::Either, 1, 2, Show::Plain, nullptr, "1",
   "load delay: cycles before a loaded register can be used", AT(lddel)},
  {"cpu.branch_prediction", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "true",
   "branch prediction (taken branches cost no extra cycle)", AT(branch_prediction)},
  {"cpu.trap_cycles", Type::UInt, Check::Range, 1, 255, Show::Plain, nullptr, "5",
   "cycles of taking a trap", AT(trap_cycles)},
  {"cpu.div_cycles", Type::UInt, Check::Range, 1, 255, Show::Plain, nullptr, "35",
   "cycles of UDIV/SDIV", AT(div_cycles)},
  {"icache.ways", Type::UInt, Check::Range, 1, 4, Show::Plain, nullptr, "2", "I-cache ways", AT(icache.ways)},
  {"icache.way_kib", Type::UInt, Check::Pow2, 1, 256, Show::Plain, nullptr, "4", "I-cache KiB per way",
   AT(icache.way_kib)},
  {"icache.line_bytes", Type::UInt, Check::Either, 16, 32, Show::Plain, nullptr, "32", "I-cache line size",
   AT(icache.line_bytes)},
  {"icache.repl", Type::Enum, Check::Range, 0, 0, Show::Plain, "lru|lrr|random", "lru",
   "I-cache replacement (`lrr` needs exactly 2 ways)", AT(icache.repl)},
  {"icache.seed", Type::UInt, Check::Range, 0, 0xFFFFFFFFull, Show::Plain, nullptr, "1",
   "I-cache seed of the deterministic generators of `random` replacement and of `force_miss_rate`", AT(icache.seed)},
  {"icache.force_miss_rate", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",
   "fraction of I-cache fetch hits turned into misses (seeded from `icache.seed`; non-zero slows the simulation)",
   AT(icache.force_miss_rate)},
  {"dcache.ways", Type::UInt, Check::Range, 1, 4, Show::Plain, nullptr, "1", "D-cache ways", AT(dcache.ways)},
  {"dcache.way_kib", Type::UInt, Check::Pow2, 1, 256, Show::Plain, nullptr, "4", "D-cache KiB per way",
   AT(dcache.way_kib)},
  {"dcache.line_bytes", Type::UInt, Check::Either, 16, 32, Show::Plain, nullptr, "16", "D-cache line size",
   AT(dcache.line_bytes)},
  {"dcache.repl", Type::Enum, Check::Range, 0, 0, Show::Plain, "lru|lrr|random", "lru",
   "D-cache replacement (`lrr` needs exactly 2 ways)", AT(dcache.repl)},
  {"dcache.seed", Type::UInt, Check::Range, 0, 0xFFFFFFFFull, Show::Plain, nullptr, "1",
   "D-cache seed of the deterministic generators of `random` replacement and of `force_miss_rate`", AT(dcache.seed)},
  {"dcache.force_miss_rate", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",
   "fraction of D-cache read hits turned into misses (seeded from `dcache.seed`; non-zero slows the simulation)",
   AT(dcache.force_miss_rate)},
  {"dcache.snoop", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "true",
   "D-cache snooping implemented (active when CCR.DS = 1)", AT(dcache.snoop)},
  {"memory.prom_size", Type::UInt, Check::Pow2, 4096, 512ull << 20, Show::Bytes, nullptr, "8388608",
   "PROM bytes (the board's 8 MiB flash; the PROM bar allows 512 MiB)", AT(prom_size)},
  {"memory.sdram_size", Type::UInt, Check::Pow2, 4096, 1ull << 30, Show::Bytes, nullptr, "67108864",
   "SDRAM bytes at 0x40000000 (the board's 64 MiB; the RAM bar allows 1 GiB)", AT(sdram_size)},
  {"memory.prom.read_ws", Type::UInt, Check::Range, 0, 255, Show::Plain, nullptr, "19",
   "PROM read wait states (from MCFG1, docs/timing.md)", AT(prom_ws.read_ws)},
  {"memory.prom.write_ws", Type::UInt, Check::Range, 0, 255, Show::Plain, nullptr, "19",
   "PROM write wait states", AT(prom_ws.write_ws)},
  {"memory.sdram.read_ws", Type::UInt, Check::Range, 0, 255, Show::Plain, nullptr, "7",
   "SDRAM read wait states (from MCFG2, docs/timing.md)", AT(sdram_ws.read_ws)},
  {"memory.sdram.write_ws", Type::UInt, Check::Range, 0, 255, Show::Plain, nullptr, "4",
   "SDRAM write wait states", AT(sdram_ws.write_ws)},
  {"ahb.transfer_cycles", Type::UInt, Check::Range, 0, 16, Show::Plain, nullptr, "1",
   "AHB cycles of a single transfer or the first beat of a burst", AT(ahb_transfer_cycles)},
  {"ahb.burst_cycles_per_word", Type::UInt, Check::Range, 0, 16, Show::Plain, nullptr, "1",
   "AHB cycles of each further burst beat (DMI bursts cost the same)", AT(ahb_burst_cycles_per_word)},
  {"ahb.arbitration", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "true",
   "masters wait for each other on the AHB", AT(ahb_arbitration)},
  {"apb.access_cycles", Type::UInt, Check::Range, 0, 64, Show::Plain, nullptr, "3",
   "cycles of an APB register access through the bridge", AT(apb_access_cycles)},
  {"uart.out", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "-",
   "UART output: `-` stdout, empty = discard, else a file", AT(uart_out)},
  {"uart.in", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "",
   "UART input: empty = none, `-` stdin (not reproducible), else a file queued for the receiver",
   AT(uart_in)},
  {"gptimer.model", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "tlm",
   "model in the GPTIMER slot (APB slot 3, IRQ 8/9): `tlm` (built in) or a registered variant "
   "(`SlotVariants`, e.g. an RTL co-simulation)",
   AT(gptimer_model)},
  {"chksum.enable", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "false",
   "the Internet checksum engine (rtl/chksum/README.md; TLM model models/periph/chksum) at APB slot 5 "
   "(0x80000500, IRQ 10) and AHB master 5, with its plug&play records",
   AT(chksum_enable)},
  {"chksum.model", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "tlm",
   "model in the checksum slot (with `chksum.enable`): `tlm` (built in) or a registered variant "
   "(`rtl`: the verilated RTL behind APB/AHB adapters, `--rtl chksum`)",
   AT(chksum_model)},
  {"greth.csum_offload", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "false",
   "GRETH_GBIT checksum offload at 100 Mbit/s: CTRL.GA reads 1, RX descriptors report IPv4/UDP/TCP "
   "checksum results (ID IR UD UR TD TR IF), TX descriptors' IC/TC/UC insert checksums",
   AT(greth_csum_offload)},
  {"energy.profile", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "",
   "energy model profile (`--energy`): a shipped name (`leon3-90nm-estimate`, `flat`) or a JSON file; "
   "empty = no energy model (docs/energy.md)",
   AT(energy_profile)},
  {"quantum_ns", Type::Ns, Check::Range, 0, 10 * kOneSecondNs, Show::Time, nullptr, "100000",
   "CPU global quantum (0 = synchronise after every instruction; results do not depend on it)",
   AT(quantum_ns)},
  {"dmi", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "true",
   "direct memory access for the CPU (results do not depend on it)", AT(dmi)},
  {"net.mac", Type::Mac, Check::Range, 0, 0, Show::Plain, nullptr, "02:00:00:00:00:53",
   "GRETH station address loaded at construction (unicast), or empty: the registers stay 0", AT(net.mac)},
  {"net.speed_mbps", Type::UInt, Check::Either, 10, 100, Show::Plain, nullptr, "100",
   "link speed in Mbit/s", AT(net.speed_mbps)},
  {"net.propagation_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "0",
   "propagation delay of each cable segment", AT(net.propagation_ns)},
  {"net.switch.enabled", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "false",
   "a store-and-forward switch hop between board and PC", AT(net.switch_enabled)},
  {"net.switch.latency_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "0",
   "switch forwarding latency", AT(net.switch_latency_ns)},
  {"net.reorder_timeout_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "1000000",
   "a held (reordered) frame is released this long after its ready time", AT(net.reorder_timeout_ns)},
#define L3VP_NET_DIR(dir, what)                                                                          \
  {"net." #dir ".loss", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",                       \
   what ": probability that a frame is lost", AT(net.dir.loss)},                                       \
  {"net." #dir ".corrupt", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",                    \
   what ": probability that a frame is corrupted (bad FCS)", AT(net.dir.corrupt)},                     \
  {"net." #dir ".duplicate", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",                  \
   what ": probability that a frame is delivered twice", AT(net.dir.duplicate)},                       \
  {"net." #dir ".reorder", Type::Prob, Check::Range, 0, 0, Show::Plain, nullptr, "0",                    \
   what ": probability that a frame is held back behind the next", AT(net.dir.reorder)},               \
  {"net." #dir ".extra_delay_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "0",     \
   what ": delay added to every frame", AT(net.dir.extra_delay_ns)},                                   \
  {"net." #dir ".jitter_ns", Type::Ns, Check::Range, 0, kOneSecondNs, Show::Time, nullptr, "0",          \
   what ": random extra delay, uniform in 0..jitter", AT(net.dir.jitter_ns)},                          \
  {"net." #dir ".seed", Type::UInt, Check::Range, 0, kNoMax, Show::Plain, nullptr, "1",                  \
   what ": seed of the impairment generator", AT(net.dir.seed)}
  L3VP_NET_DIR(to_host, "board to PC (link direction 0)"),
  L3VP_NET_DIR(to_board, "PC to board (link direction 1)"),
#undef L3VP_NET_DIR
};
// clang-format on
#undef AT

// Older spellings still read from JSON files and --set.
const std::pair<const char*, const char*> kAliases[] = {{"nwin", "cpu.nwin"}};

const Param* find_param(const std::string& key) {
  for (const Param& p : kParams)
    if (key == p.key) return &p;
  return nullptr;
}

// ---------------------------------------------------------------- checks

[[noreturn]] void bad(const std::string& key, const std::string& why) {
  throw ConfigError("key '" + key + "': " + why);
}

bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

std::string size_str(uint64_t v) {
  if (v % (1ull << 30) == 0) return std::to_string(v >> 30) + " GiB";
  if (v % (1ull << 20) == 0) return std::to_string(v >> 20) + " MiB";
  if (v % (1ull << 10) == 0) return std::to_string(v >> 10) + " KiB";
  return std::to_string(v);
}

std::string ns_str(uint64_t ns) {  // 1000000000 -> "1 s"
  static const char* const kUnits[] = {"ns", "us", "ms", "s"};
  unsigned u = 0;
  while (u < 3 && ns && ns % 1000 == 0) {
    ns /= 1000;
    ++u;
  }
  return std::to_string(ns) + " " + kUnits[u];
}

std::string shown(const Param& p, uint64_t v) {
  return p.show == Show::Bytes ? size_str(v) : p.show == Show::Time ? ns_str(v) : std::to_string(v);
}

std::vector<std::string> enum_names(const Param& p) {
  std::vector<std::string> v(1);
  for (const char* c = p.names; *c; ++c) {
    if (*c == '|')
      v.emplace_back();
    else
      v.back() += *c;
  }
  return v;
}

// "\"a\", \"b\" or \"c\""
std::string quoted_list(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += i + 1 == v.size() ? " or " : ", ";
    s += "\"" + v[i] + "\"";
  }
  return s;
}

// What a valid value of a UInt / Ns key is, as in "must be <this>".
std::string range_text(const Param& p) {
  switch (p.check) {
    case Check::Either: return shown(p, p.lo) + " or " + shown(p, p.hi);
    case Check::Pow2: return "a power of two from " + shown(p, p.lo) + " to " + shown(p, p.hi);
    case Check::Range: break;
  }
  if (p.lo == 0 && p.hi == kNoMax) return "a non-negative integer";
  if (p.show == Show::Time && p.lo == 0) return "at most " + shown(p, p.hi);
  if (p.lo + 1 == p.hi) return shown(p, p.lo) + " or " + shown(p, p.hi);
  return shown(p, p.lo) + ".." + shown(p, p.hi);
}

void check_uint(const Param& p, uint64_t v, const std::string& key) {
  const bool ok = p.check == Check::Either ? (v == p.lo || v == p.hi)
                                           : (v >= p.lo && v <= p.hi && (p.check != Check::Pow2 || pow2(v)));
  if (!ok) bad(key, "must be " + range_text(p) + " (got " + std::to_string(v) + ")");
}

void check_prob(double v, const std::string& key) {
  if (!(v >= 0.0 && v <= 1.0)) bad(key, "must be a number from 0 to 1 (got " + json(v).dump() + ")");
}

void check_mac(const std::string& v, const std::string& key) {
  if (v.empty()) return;
  uint8_t mac[6];
  if (!parse_mac(v, mac))
    bad(key, "must be \"\" or six hex bytes like \"02:00:00:00:00:53\" (got \"" + v + "\")");
  if (mac[0] & 1) bad(key, "must be a unicast address (got \"" + v + "\")");
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

template <typename T>
constexpr bool is_enum_v = std::is_enum_v<T>;

// The stored value of a UInt / Ns key, widened.
uint64_t uint_of(const Ref& r) {
  return std::visit(
      [](auto* p) -> uint64_t {
        using T = std::remove_pointer_t<decltype(p)>;
        if constexpr (std::is_same_v<T, unsigned> || std::is_same_v<T, uint64_t>)
          return *p;
        else
          return 0;
      },
      r);
}

// Stores into a UInt / Ns key; `v` passed check_uint, so it fits (every
// table hi is within the member's type).
void store_uint(const Ref& r, uint64_t v) {
  std::visit(
      [v](auto* p) {
        using T = std::remove_pointer_t<decltype(p)>;
        if constexpr (std::is_same_v<T, unsigned> || std::is_same_v<T, uint64_t>)
          *p = static_cast<T>(v);
      },
      r);
}

unsigned enum_of(const Ref& r) {
  return std::visit(
      [](auto* p) -> unsigned {
        using T = std::remove_pointer_t<decltype(p)>;
        if constexpr (is_enum_v<T>)
          return static_cast<unsigned>(*p);
        else
          return 0;
      },
      r);
}

void store_enum(const Ref& r, unsigned i) {
  std::visit(
      [i](auto* p) {
        using T = std::remove_pointer_t<decltype(p)>;
        if constexpr (is_enum_v<T>) *p = static_cast<T>(i);
      },
      r);
}

void set_enum(const Param& p, const Ref& r, const std::string& v, const std::string& key) {
  const auto names = enum_names(p);
  for (unsigned i = 0; i < names.size(); ++i)
    if (v == names[i]) return store_enum(r, i);
  bad(key, "must be " + quoted_list(names) + " (got \"" + v + "\")");
}

// The table only reads through refs of a const config.
Ref cref(const Param& p, const PC& c) { return p.ref(const_cast<PC&>(c)); }

json value_json(const Param& p, const PC& c) {
  const Ref r = cref(p, c);
  switch (p.type) {
    case Type::UInt:
    case Type::Ns: return json(uint_of(r));
    case Type::Bool: return json(*std::get<bool*>(r));
    case Type::Prob: return json(*std::get<double*>(r));
    case Type::String:
    case Type::Mac: return json(*std::get<std::string*>(r));
    case Type::Enum: return json(enum_names(p).at(enum_of(r)));
  }
  return json();
}

// One JSON value into its key (`key` = the name the user wrote).
void set_json(const Param& p, PC& c, const json& v, const std::string& key) {
  const Ref r = p.ref(c);
  switch (p.type) {
    case Type::UInt:
    case Type::Ns:
      if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<int64_t>() < 0))
        bad(key, "must be a non-negative integer");
      check_uint(p, v.get<uint64_t>(), key);
      return store_uint(r, v.get<uint64_t>());
    case Type::Bool:
      if (!v.is_boolean()) bad(key, "must be true or false");
      *std::get<bool*>(r) = v.get<bool>();
      return;
    case Type::Prob:
      if (!v.is_number()) bad(key, "must be a number from 0 to 1");
      check_prob(v.get<double>(), key);
      *std::get<double*>(r) = v.get<double>();
      return;
    case Type::String:
    case Type::Mac:
      if (!v.is_string()) bad(key, "must be a string");
      if (p.type == Type::Mac) check_mac(v.get<std::string>(), key);
      *std::get<std::string*>(r) = v.get<std::string>();
      return;
    case Type::Enum:
      if (!v.is_string()) bad(key, "must be a string");
      return set_enum(p, r, v.get<std::string>(), key);
  }
}

// Decimal or 0x-hex unsigned, the whole string.
bool parse_u64(const std::string& s, uint64_t& out) {
  if (s.empty() || s[0] == '-' || s[0] == '+' || s[0] == ' ') return false;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, hex ? 16 : 10);
  if (errno != 0 || *end != '\0' || end == s.c_str()) return false;
  out = v;
  return true;
}

// One command-line value into its key.
void set_text(const Param& p, PC& c, const std::string& v, const std::string& key) {
  const Ref r = p.ref(c);
  const std::string got = " (got \"" + v + "\")";
  switch (p.type) {
    case Type::UInt: {
      uint64_t n;
      if (!parse_u64(v, n)) bad(key, "must be a non-negative integer" + got);
      check_uint(p, n, key);
      return store_uint(r, n);
    }
    case Type::Ns: {
      uint64_t n;
      if (!parse_u64(v, n)) {  // not a plain ns count: a duration
        uint64_t ps;
        try {
          ps = parse_duration_ps(v);
        } catch (const UnitsError& e) {
          bad(key, "must be an integer number of ns or a duration such as 250us: " + std::string(e.what()));
        }
        if (ps % 1000) bad(key, "must be a whole number of ns" + got);
        n = ps / 1000;
      }
      check_uint(p, n, key);
      return store_uint(r, n);
    }
    case Type::Bool:
      if (v != "true" && v != "false") bad(key, "must be true or false" + got);
      *std::get<bool*>(r) = v == "true";
      return;
    case Type::Prob: {
      char* end = nullptr;
      errno = 0;
      const double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || errno != 0 || !std::isfinite(d) || v[0] == ' ')
        bad(key, "must be a number from 0 to 1" + got);
      check_prob(d, key);
      *std::get<double*>(r) = d;
      return;
    }
    case Type::String:
    case Type::Mac:
      if (p.type == Type::Mac) check_mac(v, key);
      *std::get<std::string*>(r) = v;
      return;
    case Type::Enum: return set_enum(p, r, v, key);
  }
}

// Every key's own range (values set in code, a scenario's link section, ...).
void check_value(const Param& p, const PC& c) {
  const Ref r = cref(p, c);
  switch (p.type) {
    case Type::UInt:
    case Type::Ns: return check_uint(p, uint_of(r), p.key);
    case Type::Prob: return check_prob(*std::get<double*>(r), p.key);
    case Type::Mac: return check_mac(*std::get<std::string*>(r), p.key);
    case Type::Enum:
      if (enum_of(r) >= enum_names(p).size()) bad(p.key, "invalid value");
      return;
    case Type::Bool:
    case Type::String: return;
  }
}

// ---------------------------------------------------------------- JSON walk

// True if some key lies below `prefix` (then `prefix` names an object).
bool is_group(const std::string& prefix) {
  const std::string dot = prefix + ".";
  for (const Param& p : kParams)
    if (std::string(p.key).compare(0, dot.size(), dot) == 0) return true;
  return false;
}

void parse_object(const json& j, const std::string& prefix, PC& c) {
  if (!j.is_object()) {
    if (prefix.empty()) throw ConfigError("top level must be a JSON object");
    bad(prefix, "must be an object");
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (const Param* p = find_param(key)) {
      set_json(*p, c, it.value(), key);
      continue;
    }
    if (is_group(key)) {
      parse_object(it.value(), key, c);
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
        set_json(*find_param(nk), c, it.value(), key);
        alias = true;
      }
    if (!alias) throw ConfigError("unknown key '" + key + "'");
  }
}

}  // namespace

PlatformConfig::PlatformConfig() : icache(), dcache(), prom_ws(), sdram_ws(), net() {
  for (const Param& p : kParams) set_text(p, *this, p.def, p.key);
}

void PlatformConfig::validate() const {
  for (const Param& p : kParams) check_value(p, *this);
  for (const Rule& r : kRules) r.check(*this);
}

void PlatformConfig::set(const std::string& key, const std::string& value) {
  std::string k = key;
  for (auto [old_key, new_key] : kAliases)
    if (k == old_key) k = new_key;
  const Param* p = find_param(k);
  if (!p) throw ConfigError("unknown key '" + key + "' (leon3vp --list-params lists the keys)");
  set_text(*p, *this, value, key);
}

void PlatformConfig::set_arg(const std::string& kv) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError("'" + kv + "' is not KEY=VALUE");
  set(kv.substr(0, eq), kv.substr(eq + 1));
}

PlatformConfig PlatformConfig::from_json(const json& j) {
  PlatformConfig c;
  parse_object(j, "", c);
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
  for (const Param& p : kParams) {
    std::string ptr = "/" + std::string(p.key);
    for (char& ch : ptr)
      if (ch == '.') ch = '/';
    j[json::json_pointer(ptr)] = value_json(p, *this);
  }
  return j;
}

std::vector<PlatformConfig::ParamInfo> PlatformConfig::params() {
  std::vector<ParamInfo> v;
  for (const Param& p : kParams) {
    ParamInfo i;
    i.key = p.key;
    i.def = p.def;
    i.doc = p.doc;
    switch (p.type) {
      case Type::UInt:
        i.type = p.show == Show::Bytes ? "integer (bytes)" : "integer";
        i.range = range_text(p);
        break;
      case Type::Ns:
        i.type = "integer (ns)";
        i.range = range_text(p);
        break;
      case Type::Bool:
        i.type = "boolean";
        i.range = "`true`, `false`";
        break;
      case Type::Prob:
        i.type = "number";
        i.range = "0 to 1";
        break;
      case Type::String:
        i.type = "string";
        i.range = "any";
        break;
      case Type::Mac:
        i.type = "MAC";
        i.range = "unicast `aa:bb:cc:dd:ee:ff`, or empty";
        break;
      case Type::Enum:
        i.type = "name";
        for (const std::string& n : enum_names(p)) i.range += (i.range.empty() ? "`" : ", `") + n + "`";
        break;
    }
    v.push_back(i);
  }
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
