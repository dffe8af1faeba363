// Energy profiles (energy_profile.h): strict parsing into whole femtojoules.
#include "energy_profile.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "input_file.h"

namespace l3vp::energy {

const std::array<const char*, kClasses> kClassNames = {"alu", "load", "store",        "branch", "call_jmpl",
                                                       "mul", "div",  "save_restore", "trap",   "other"};

// The shipped profiles (generated from profiles/*.json by CMake).
struct ShippedProfile {
  const char* name;
  const char* text;
};
extern const ShippedProfile kShippedProfiles[];
extern const unsigned kShippedProfileCount;

namespace {

constexpr uint64_t kMaxPj = 1000000;  // 1 uJ per event: anything larger is a unit mistake
constexpr uint64_t kMaxMw = 1000000;  // 1 kW

[[noreturn]] void fail(const std::string& origin, const std::string& key, const std::string& what) {
  throw ProfileError(origin + ": " + key + ": " + what);
}

// A non-negative number with at most `decimals` decimals, as an integer of
// 10^-decimals units, at most max * 10^decimals.
uint64_t fixed(const nlohmann::json& v, const std::string& origin, const std::string& key, unsigned decimals,
               uint64_t max, const char* unit) {
  if (!v.is_number()) fail(origin, key, "expected a number (" + std::string(unit) + "), got " + v.dump());
  uint64_t scale = 1;
  for (unsigned i = 0; i < decimals; ++i) scale *= 10;
  if (v.is_number_unsigned() || v.is_number_integer()) {
    if (v.is_number_integer() && v.get<int64_t>() < 0) fail(origin, key, "negative value " + v.dump());
    const uint64_t u = v.get<uint64_t>();
    if (u > max)
      fail(origin, key, v.dump() + " " + unit + " is out of range (at most " + std::to_string(max) + ")");
    return u * scale;
  }
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < 0) fail(origin, key, "negative or invalid value " + v.dump());
  if (d > double(max))
    fail(origin, key, v.dump() + " " + unit + " is out of range (at most " + std::to_string(max) + ")");
  const double scaled = d * double(scale);
  const double r = std::nearbyint(scaled);
  if (std::fabs(scaled - r) > 1e-6 * std::max(1.0, r))
    fail(origin, key, v.dump() + " " + unit + " has more than " + std::to_string(decimals) + " decimals");
  return uint64_t(r);
}

uint64_t pj(const nlohmann::json& obj, const std::string& origin, const std::string& key,
            const std::string& path) {
  if (!obj.contains(key)) fail(origin, path, "missing");
  return fixed(obj.at(key), origin, path, 3, kMaxPj, "pJ");
}

int class_index(const std::string& n) {
  for (unsigned i = 0; i < kClasses; ++i)
    if (n == kClassNames[i]) return int(i);
  return -1;
}

std::string class_list() {
  std::string s;
  for (const char* n : kClassNames) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

const nlohmann::json& object_at(const nlohmann::json& j, const std::string& origin, const std::string& key) {
  if (!j.contains(key)) fail(origin, key, "missing");
  if (!j.at(key).is_object()) fail(origin, key, "expected an object, got " + j.at(key).dump());
  return j.at(key);
}

}  // namespace

Profile parse_profile(const nlohmann::json& j, const std::string& origin) {
  if (!j.is_object()) throw ProfileError(origin + ": expected a JSON object");
  static const std::set<std::string> kKeys = {"format",
                                              "name",
                                              "description",
                                              "sources",
                                              "instruction_pj",
                                              "pair_pj",
                                              "icache_miss_pj",
                                              "dcache_miss_pj",
                                              "stall_cycle_pj",
                                              "idle_cycle_pj",
                                              "static_mw",
                                              "ahb_transfer_pj",
                                              "apb_access_pj",
                                              "sdram_read_word_pj",
                                              "sdram_write_word_pj"};
  for (const auto& [k, v] : j.items())
    if (!kKeys.count(k)) fail(origin, k, "unknown key");
  if (!j.contains("format")) fail(origin, "format", "missing (1)");
  if (j.at("format") != 1)
    fail(origin, "format", "unsupported format " + j.at("format").dump() + " (expected 1)");
  Profile p;
  p.origin = origin;
  p.json = j;
  if (!j.contains("name") || !j.at("name").is_string() || j.at("name").get<std::string>().empty())
    fail(origin, "name", "expected a non-empty string");
  p.name = j.at("name").get<std::string>();
  if (j.contains("description") && !j.at("description").is_string())
    fail(origin, "description", "expected a string");
  if (j.contains("sources")) {
    const nlohmann::json& s = object_at(j, origin, "sources");
    for (const auto& [k, v] : s.items()) {
      if (!kKeys.count(k)) fail(origin, "sources." + k, "names no key of the profile");
      if (!v.is_string()) fail(origin, "sources." + k, "expected a string");
    }
  }
  const nlohmann::json& ins = object_at(j, origin, "instruction_pj");
  for (const auto& [k, v] : ins.items())
    if (class_index(k) < 0)
      fail(origin, "instruction_pj." + k, "unknown class (classes: " + class_list() + ")");
  for (unsigned c = 0; c < kClasses; ++c)
    p.insn_fj[c] = pj(ins, origin, kClassNames[c], "instruction_pj." + std::string(kClassNames[c]));
  if (j.contains("pair_pj")) {
    const nlohmann::json& pairs = object_at(j, origin, "pair_pj");
    p.pair_fj.assign(kClasses * kClasses, 0);
    for (const auto& [prev, row] : pairs.items()) {
      const std::string key = "pair_pj." + prev;
      const int a = class_index(prev);
      if (a < 0) fail(origin, key, "unknown class (classes: " + class_list() + ")");
      if (!row.is_object()) fail(origin, key, "expected an object {class: pJ}");
      for (const auto& [cur, v] : row.items()) {
        const int b = class_index(cur);
        if (b < 0) fail(origin, key + "." + cur, "unknown class (classes: " + class_list() + ")");
        p.pair_fj[unsigned(a) * kClasses + unsigned(b)] = fixed(v, origin, key + "." + cur, 3, kMaxPj, "pJ");
      }
    }
  }
  p.icache_miss_fj = pj(j, origin, "icache_miss_pj", "icache_miss_pj");
  p.dcache_miss_fj = pj(j, origin, "dcache_miss_pj", "dcache_miss_pj");
  p.stall_cycle_fj = pj(j, origin, "stall_cycle_pj", "stall_cycle_pj");
  p.idle_cycle_fj = pj(j, origin, "idle_cycle_pj", "idle_cycle_pj");
  if (!j.contains("static_mw")) fail(origin, "static_mw", "missing");
  p.static_nw = fixed(j.at("static_mw"), origin, "static_mw", 6, kMaxMw, "mW");
  const nlohmann::json& ahb = object_at(j, origin, "ahb_transfer_pj");
  p.ahb_default_fj = pj(ahb, origin, "default", "ahb_transfer_pj.default");
  for (const auto& [k, v] : ahb.items())
    if (k != "default") p.ahb_master_fj[k] = fixed(v, origin, "ahb_transfer_pj." + k, 3, kMaxPj, "pJ");
  p.apb_access_fj = pj(j, origin, "apb_access_pj", "apb_access_pj");
  p.sdram_read_word_fj = pj(j, origin, "sdram_read_word_pj", "sdram_read_word_pj");
  p.sdram_write_word_fj = pj(j, origin, "sdram_write_word_pj", "sdram_write_word_pj");
  return p;
}

const char* shipped_profile_text(const std::string& name) {
  for (unsigned i = 0; i < kShippedProfileCount; ++i)
    if (name == kShippedProfiles[i].name) return kShippedProfiles[i].text;
  return nullptr;
}

std::vector<std::string> shipped_profiles() {
  std::vector<std::string> v;
  for (unsigned i = 0; i < kShippedProfileCount; ++i) v.push_back(kShippedProfiles[i].name);
  std::sort(v.begin(), v.end());
  return v;
}

Profile load_profile(const std::string& name_or_path) {
  std::string text, origin;
  if (const char* t = shipped_profile_text(name_or_path)) {
    text = t;
    origin = "shipped:" + name_or_path;
  } else {
    try {
      text = read_input_file(name_or_path, kMaxJsonBytes, "energy profile");
    } catch (const InputFileError& e) {
      std::string names;
      for (const std::string& n : shipped_profiles()) names += (names.empty() ? "" : ", ") + n;
      throw ProfileError(std::string(e.what()) + " (shipped profiles: " + names + ")");
    }
    origin = name_or_path;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range for a number no double holds (1e400)
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw ProfileError(origin + ": not valid JSON: " + what);
  }
  return parse_profile(j, origin);
}

}  // namespace l3vp::energy
