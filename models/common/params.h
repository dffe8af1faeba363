// Parameter rows: how a model describes its user-settable parameters beside
// its code (`static const param::Rows<P>& rows()` of its Params struct P,
// defined inline after the struct, so the field and its row sit together). One row = one key (relative to the
// instance prefix the owner gives, e.g. "csum_offload" under "greth"), its type, range or names, default,
// one-line doc, and the field of the model's own Params struct it fills. The platform assembles its
// configuration table from its own rows and each instance's rows (models/platform/config.cpp); the values of
// an instance's rows are kept generically (param::Values: full key -> typed value, validated by the row), and
// fill() copies them into the model's Params under any prefix (two boards in one process: "a.greth",
// "b.greth").
//
// Adding a knob to a model: one row in its rows() and its use in the model
// (docs/developer-guide.md "Add a configuration key").
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <systemc>
#include <variant>
#include <vector>

namespace l3vp {

// A bad configuration value: one line naming the key.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace param {

enum class Type { UInt, Bool, Enum, String, Prob, Ns, Mac };
// Range of a UInt or Ns key: lo..hi; lo or hi; a power of two in lo..hi.
enum class Check { Range, Either, Pow2 };
// How a range is written in messages and in the README.
enum class Show { Plain, Bytes, Time };

constexpr uint64_t kNoMax = UINT64_MAX;
constexpr uint64_t kOneSecondNs = 1000000000ull;

// What a key is, wherever its value is kept.
struct Spec {
  const char* key;  // below the prefix, dots between levels; prefix + "." + key is the --set key
  Type type;
  Check check;      // UInt / Ns only
  uint64_t lo, hi;  // UInt / Ns only
  Show show;
  const char* names;  // Enum: the names in enum order, '|' between
  const char* def;    // the default, spelled as on --set
  const char* doc;    // one line, for the README table
};

// A value as the configuration keeps it: UInt / Ns -> uint64_t (ns), Bool ->
// bool, Prob -> double, String / Mac -> std::string, Enum -> uint64_t (index).
using Value = std::variant<uint64_t, bool, double, std::string>;

// An enum field of any enum type (enum_ref()).
struct EnumRef {
  void* p;
  unsigned (*get)(const void*);
  void (*set)(void*, unsigned);
};
template <typename E>
EnumRef enum_ref(E* e) {
  return {e, [](const void* v) { return static_cast<unsigned>(*static_cast<const E*>(v)); },
          [](void* v, unsigned i) { *static_cast<E*>(v) = static_cast<E>(i); }};
}

// Where a row's value goes in a Params struct. UInt fills unsigned / uint64_t,
// Bool fills bool or unsigned (0/1), Ns fills an integer (ns) or an sc_time,
// Prob a double, String / Mac a std::string, Enum an enum (enum_ref()).
using Ref = std::variant<unsigned*, uint64_t*, bool*, double*, std::string*, sc_core::sc_time*, EnumRef>;

// One row of a model whose Params struct is P.
template <typename P>
struct Row : Spec {
  Ref (*field)(P&);
};
template <typename P>
using Rows = std::vector<Row<P>>;

// The field function of a row: L3VP_PARAM_FIELD(GrethParams, csum_offload).
#define L3VP_PARAM_FIELD(P, member) [](P& p) -> ::l3vp::param::Ref { return &p.member; }

// --- one value, by its row (`key` = the name in messages) ----------------
// Each throws ConfigError "key '<key>': <why>" (one line).
Value parse_text(const Spec& s, const std::string& text, const std::string& key);  // --set form
Value parse_json(const Spec& s, const nlohmann::json& j, const std::string& key);
void check(const Spec& s, const Value& v, const std::string& key);  // the key's own range
nlohmann::json to_json(const Spec& s, const Value& v);
Value default_value(const Spec& s);
void store(const Ref& r, const Value& v);
Value load(const Spec& s, const Ref& r);

// The key as documented (README key table, leon3vp --list-params).
struct Info {
  std::string key, type, range, def, doc;
};
Info info(const Spec& s, const std::string& full_key);

// "prefix.key" ("key" when the prefix is empty).
std::string join(const std::string& prefix, const char* key);

// The values of instance rows by full key, each checked by its row.
class Values {
 public:
  // Declares `key` (full) with its row's default. Throws std::logic_error if
  // it is declared already.
  void declare(const std::string& key, const Spec& s);
  // A declared key's row, or null.
  const Spec* spec(const std::string& key) const;
  // Sets a declared key (std::logic_error if not declared). The caller
  // checked `v` with its row, or checks every value later (check()).
  void set(const std::string& key, const Value& v);
  // A declared key's value (std::logic_error if not declared).
  const Value& get(const std::string& key) const;
  bool operator==(const Values& o) const { return values_ == o.values_; }

 private:
  std::map<std::string, std::pair<const Spec*, Value>> values_;
};

// Fills the fields of `p` the rows name from the values under `prefix`;
// each value is checked by its row (a bad one: ConfigError naming the full key).
template <typename P>
void fill(const Values& v, const std::string& prefix, const Rows<P>& rows, P& p) {
  for (const Row<P>& r : rows) {
    const std::string key = join(prefix, r.key);
    const Value& x = v.get(key);
    check(r, x, key);
    store(r.field(p), x);
  }
}

// The reverse: the values under `prefix` from the fields of `p` (not
// checked: the owner validates the configuration afterwards).
template <typename P>
void put(Values& v, const std::string& prefix, const Rows<P>& rows, const P& p) {
  P copy = p;  // the rows' field functions take a mutable Params
  for (const Row<P>& r : rows) v.set(join(prefix, r.key), load(r, r.field(copy)));
}

}  // namespace param
}  // namespace l3vp
