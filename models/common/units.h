// Text forms of durations, MAC and IPv4 addresses: the one parser of each for
// every C++ reader of user input (command-line options, the platform
// configuration and `--set`, scenario files, firmware parameters). The rules
// are written down once in docs/user-guide.md ("Durations and addresses") so
// the Python tools can follow the same ones.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace l3vp {

// A malformed or out-of-range value. The message is one line, starts with the
// quoted input and never names the caller's option or key: the caller
// prefixes that ("--max-time: '10parsecs' is not a duration: ...").
struct UnitsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Largest accepted duration: 2^62 ps (about 53 simulated days). Any two
// accepted durations still add up without overflowing a 64-bit ps count.
constexpr uint64_t kMaxDurationPs = uint64_t(1) << 62;

// "<number>[ ...]<unit>" -> picoseconds, exactly (decimal arithmetic, no
// floating point): number = digits with an optional fraction and an optional
// exponent ("40", "2.5", ".5", "1e3", "1.5E-3"); any spaces between number and
// unit; unit = ps | ns | us | ms | s. The value must be a whole number of ps
// and at most kMaxDurationPs. No sign, no blanks around the whole. A bare
// number without unit is refused, except a bare "0" when `bare_zero` is set
// (scenario files have always allowed it).
uint64_t parse_duration_ps(const std::string& s, bool bare_zero = false);

// The shortest exact spelling with the largest unit that divides: 3000000000
// -> "3ms", 1500 -> "1500ps", 0 -> "0s". parse_duration_ps() reads it back.
std::string format_duration(uint64_t ps);

// A size in bytes: "<digits>[unit]", unit = K, M, G, T (also KiB, MiB, GiB,
// TiB: powers of 1024, as GNU coreutils reads them) or kB, MB, GB, TB
// (powers of 1000); no unit: bytes. Whole numbers only, at least 1, at most
// 2^62. "100M" = 104857600, "2GB" = 2000000000.
uint64_t parse_size_bytes(const std::string& s);
// "1.5 GB" style: the size in the largest decimal unit, rounded to one decimal (messages).
std::string format_size(uint64_t bytes);

// "aa:bb:cc:dd:ee:ff": six groups of exactly two hex digits (either case)
// separated by ':'. false (and `out` untouched) for anything else.
bool parse_mac(const std::string& s, uint8_t out[6]);
// Lower-case "aa:bb:cc:dd:ee:ff".
std::string format_mac(const uint8_t m[6]);

// "a.b.c.d": four decimal groups of 1 to 3 digits, each 0..255. Host order
// (a is the top byte). false (and `out` untouched) for anything else.
bool parse_ip4(const std::string& s, uint32_t& out);

}  // namespace l3vp
