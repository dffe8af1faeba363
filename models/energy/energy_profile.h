// Energy profiles: the coefficients of the energy model (README.md), read
// from a JSON file or one of the profiles shipped in profiles/ (compiled
// into the binary, so `--energy flat` works wherever leon3vp is run from).
//
// Every energy is given in pJ with at most three decimals and kept as a
// whole number of femtojoules, so the model adds integers and never drifts;
// the static power is given in mW with at most six decimals and kept in nW.
// Validation is strict: an unknown or missing key, a negative value or one
// finer than the unit is a ProfileError whose text names the key.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace l3vp::energy {

// The ISS's instruction classes, in leon3::InsnClass order.
constexpr unsigned kClasses = 10;
extern const std::array<const char*, kClasses> kClassNames;

struct ProfileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Profile {
  std::string name;                          // "name" of the file
  std::string origin;                        // "shipped:<name>" or the path it was read from
  nlohmann::json json;                       // the file as read (echoed into --stats)
  std::array<uint64_t, kClasses> insn_fj{};  // per retired instruction, cache-hit case
  // Inter-instruction overhead per (previous class, class), row-major
  // [prev * kClasses + cur]; empty when the profile has no "pair_pj" (the
  // coarse mode: no step listener, no observed loop).
  std::vector<uint64_t> pair_fj;
  uint64_t icache_miss_fj = 0, dcache_miss_fj = 0;
  uint64_t stall_cycle_fj = 0, idle_cycle_fj = 0;
  uint64_t static_nw = 0;
  uint64_t ahb_default_fj = 0;                    // per 32-bit AHB beat, masters not named
  std::map<std::string, uint64_t> ahb_master_fj;  // per beat, by AHB master name
  uint64_t apb_access_fj = 0;
  uint64_t sdram_read_word_fj = 0, sdram_write_word_fj = 0;

  bool fine() const { return !pair_fj.empty(); }
  uint64_t ahb_fj(const std::string& master) const {
    auto it = ahb_master_fj.find(master);
    return it == ahb_master_fj.end() ? ahb_default_fj : it->second;
  }
};

// Parses and validates a profile (`origin` names it in errors).
Profile parse_profile(const nlohmann::json& j, const std::string& origin);
// A shipped profile by name, else a file path; throws ProfileError
// ("<origin>: <key>: <problem>" or "<path>: cannot read ...").
Profile load_profile(const std::string& name_or_path);
// Names of the shipped profiles, sorted.
std::vector<std::string> shipped_profiles();
// The JSON text of a shipped profile, or nullptr.
const char* shipped_profile_text(const std::string& name);

}  // namespace l3vp::energy
