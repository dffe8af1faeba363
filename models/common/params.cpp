#include "params.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "units.h"

namespace l3vp::param {
namespace {

using nlohmann::json;

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

std::string shown(const Spec& p, uint64_t v) {
  return p.show == Show::Bytes ? size_str(v) : p.show == Show::Time ? ns_str(v) : std::to_string(v);
}

std::vector<std::string> enum_names(const Spec& p) {
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
std::string range_text(const Spec& p) {
  switch (p.check) {
    case Check::Either:
      return shown(p, p.lo) + " or " + shown(p, p.hi);
    case Check::Pow2:
      return "a power of two from " + shown(p, p.lo) + " to " + shown(p, p.hi);
    case Check::Range:
      break;
  }
  if (p.lo == 0 && p.hi == kNoMax) return "a non-negative integer";
  if (p.show == Show::Time && p.lo == 0) return "at most " + shown(p, p.hi);
  if (p.lo + 1 == p.hi) return shown(p, p.lo) + " or " + shown(p, p.hi);
  return shown(p, p.lo) + ".." + shown(p, p.hi);
}

void check_uint(const Spec& p, uint64_t v, const std::string& key) {
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

Value enum_value(const Spec& p, const std::string& v, const std::string& key) {
  const auto names = enum_names(p);
  for (unsigned i = 0; i < names.size(); ++i)
    if (v == names[i]) return uint64_t(i);
  bad(key, "must be " + quoted_list(names) + " (got \"" + v + "\")");
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

// An Ns key in --set form: an integer number of ns or a duration ("250us").
uint64_t ns_text(const std::string& v, const std::string& key) {
  uint64_t n;
  if (parse_u64(v, n)) return n;
  uint64_t ps;
  try {
    ps = parse_duration_ps(v);
  } catch (const UnitsError& e) {
    bad(key, "must be an integer number of ns or a duration such as 250us: " + std::string(e.what()));
  }
  if (ps % 1000) bad(key, "must be a whole number of ns (got \"" + v + "\")");
  return ps / 1000;
}

double prob_text(const std::string& v, const std::string& key) {
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || errno != 0 || !std::isfinite(d) || v[0] == ' ')
    bad(key, "must be a number from 0 to 1 (got \"" + v + "\")");
  return d;
}

template <typename... F>
struct Overload : F... {
  using F::operator()...;
};
template <typename... F>
Overload(F...) -> Overload<F...>;

}  // namespace

Value parse_text(const Spec& p, const std::string& v, const std::string& key) {
  Value x;
  switch (p.type) {
    case Type::UInt: {
      uint64_t n;
      if (!parse_u64(v, n)) bad(key, "must be a non-negative integer (got \"" + v + "\")");
      x = n;
      break;
    }
    case Type::Ns:
      x = ns_text(v, key);
      break;
    case Type::Bool:
      if (v != "true" && v != "false") bad(key, "must be true or false (got \"" + v + "\")");
      x = v == "true";
      break;
    case Type::Prob:
      x = prob_text(v, key);
      break;
    case Type::String:
    case Type::Mac:
      x = v;
      break;
    case Type::Enum:
      return enum_value(p, v, key);
  }
  check(p, x, key);
  return x;
}

Value parse_json(const Spec& p, const json& v, const std::string& key) {
  Value x;
  switch (p.type) {
    case Type::UInt:
    case Type::Ns:
      if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<int64_t>() < 0))
        bad(key, "must be a non-negative integer");
      x = v.get<uint64_t>();
      break;
    case Type::Bool:
      if (!v.is_boolean()) bad(key, "must be true or false");
      x = v.get<bool>();
      break;
    case Type::Prob:
      if (!v.is_number()) bad(key, "must be a number from 0 to 1");
      x = v.get<double>();
      break;
    case Type::String:
    case Type::Mac:
      if (!v.is_string()) bad(key, "must be a string");
      x = v.get<std::string>();
      break;
    case Type::Enum:
      if (!v.is_string()) bad(key, "must be a string");
      return enum_value(p, v.get<std::string>(), key);
  }
  check(p, x, key);
  return x;
}

void check(const Spec& p, const Value& v, const std::string& key) {
  switch (p.type) {
    case Type::UInt:
    case Type::Ns:
      return check_uint(p, std::get<uint64_t>(v), key);
    case Type::Prob:
      return check_prob(std::get<double>(v), key);
    case Type::Mac:
      return check_mac(std::get<std::string>(v), key);
    case Type::Enum:
      if (std::get<uint64_t>(v) >= enum_names(p).size()) bad(key, "invalid value");
      return;
    case Type::Bool:
      (void)std::get<bool>(v);
      return;
    case Type::String:
      (void)std::get<std::string>(v);
      return;
  }
}

json to_json(const Spec& p, const Value& v) {
  switch (p.type) {
    case Type::UInt:
    case Type::Ns:
      return json(std::get<uint64_t>(v));
    case Type::Bool:
      return json(std::get<bool>(v));
    case Type::Prob:
      return json(std::get<double>(v));
    case Type::String:
    case Type::Mac:
      return json(std::get<std::string>(v));
    case Type::Enum:
      return json(enum_names(p).at(std::get<uint64_t>(v)));
  }
  return json();
}

Value default_value(const Spec& p) { return parse_text(p, p.def, p.key); }

void store(const Ref& r, const Value& v) {
  std::visit(
      Overload{[&](unsigned* f) {
                 if (auto* b = std::get_if<bool>(&v))
                   *f = *b ? 1u : 0u;
                 else
                   *f = static_cast<unsigned>(std::get<uint64_t>(v));  // within the row's hi
               },
               [&](uint64_t* f) { *f = std::get<uint64_t>(v); }, [&](bool* f) { *f = std::get<bool>(v); },
               [&](double* f) { *f = std::get<double>(v); },
               [&](std::string* f) { *f = std::get<std::string>(v); },
               // ns; the sc_time resolution is 1 ps
               [&](sc_core::sc_time* f) { *f = sc_core::sc_time::from_value(std::get<uint64_t>(v) * 1000); },
               [&](const EnumRef& f) { f.set(f.p, static_cast<unsigned>(std::get<uint64_t>(v))); }},
      r);
}

Value load(const Spec& p, const Ref& r) {
  const bool is_bool = p.type == Type::Bool;
  return std::visit(
      Overload{[&](unsigned* f) -> Value {
                 if (is_bool) return *f != 0;
                 return uint64_t(*f);
               },
               [&](uint64_t* f) -> Value { return *f; }, [&](bool* f) -> Value { return *f; },
               [&](double* f) -> Value { return *f; }, [&](std::string* f) -> Value { return *f; },
               [&](sc_core::sc_time* f) -> Value { return uint64_t(f->value() / 1000); },
               [&](const EnumRef& f) -> Value { return uint64_t(f.get(f.p)); }},
      r);
}

Info info(const Spec& p, const std::string& full_key) {
  Info i;
  i.key = full_key;
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
  return i;
}

std::string join(const std::string& prefix, const char* key) {
  return prefix.empty() ? std::string(key) : prefix + "." + key;
}

void Values::declare(const std::string& key, const Spec& s) {
  if (!values_.emplace(key, std::make_pair(&s, default_value(s))).second)
    throw std::logic_error("param: key '" + key + "' declared twice");
}

const Spec* Values::spec(const std::string& key) const {
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : it->second.first;
}

void Values::set(const std::string& key, const Value& v) {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("param: no key '" + key + "' in the configuration");
  if (v.index() != it->second.second.index())
    throw std::logic_error("param: key '" + key + "' set with a wrong type");
  it->second.second = v;
}

const Value& Values::get(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("param: no key '" + key + "' in the configuration");
  return it->second.second;
}

}  // namespace l3vp::param
