// The one duration, size, MAC and IPv4 parser of the C++ side
// (models/common/units.h): every spelling the user guide promises, the ones it
// refuses, exactness, boundaries and overflow; and the exact JSON of 128-bit
// statistics (models/common/stats.h).
#include <gtest/gtest.h>

#include <string>
#include <systemc>  // sc_main

#include "stats.h"
#include "units.h"

using namespace l3vp;

namespace {

// The error message of a refused duration ("" if accepted).
std::string duration_error(const std::string& s, bool bare_zero = false) {
  try {
    parse_duration_ps(s, bare_zero);
  } catch (const UnitsError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    EXPECT_EQ(m.rfind("'" + s + "'", 0), 0u) << "message does not start with the input: " << m;
    return m;
  }
  return "";
}

}  // namespace

TEST(Duration, EveryUnitAndForm) {
  EXPECT_EQ(parse_duration_ps("7ps"), 7u);
  EXPECT_EQ(parse_duration_ps("100ns"), 100000u);
  EXPECT_EQ(parse_duration_ps("40us"), 40000000u);
  EXPECT_EQ(parse_duration_ps("2.5ms"), 2500000000u);
  EXPECT_EQ(parse_duration_ps("10s"), 10000000000000u);
  EXPECT_EQ(parse_duration_ps("0.000001s"), 1000000u);  // fractions are exact
  EXPECT_EQ(parse_duration_ps("12.345ns"), 12345u);
  EXPECT_EQ(parse_duration_ps(".5us"), 500000u);
  EXPECT_EQ(parse_duration_ps("5.ms"), 5000000000u);
  EXPECT_EQ(parse_duration_ps("1e3us"), 1000000000u);  // exponents, as --max-time took
  EXPECT_EQ(parse_duration_ps("1.5E-3s"), 1500000000u);
  EXPECT_EQ(parse_duration_ps("2e+2ps"), 200u);
  EXPECT_EQ(parse_duration_ps("2.5 ms"), 2500000000u);  // spaces before the unit
  EXPECT_EQ(parse_duration_ps("3   ns"), 3000u);
  EXPECT_EQ(parse_duration_ps("007ns"), 7000u);
  EXPECT_EQ(parse_duration_ps("1.500000000000000000000000000000000000000s"), 1500000000000u);
  EXPECT_EQ(parse_duration_ps("0ms"), 0u);
}

TEST(Duration, BareNumbersOnlyZeroAndOnlyWhereAllowed) {
  EXPECT_EQ(parse_duration_ps("0", true), 0u);
  EXPECT_EQ(parse_duration_ps("0.0", true), 0u);
  EXPECT_NE(duration_error("0").find("unit missing"), std::string::npos);
  EXPECT_NE(duration_error("10").find("unit missing"), std::string::npos);
  EXPECT_NE(duration_error("10", true).find("unit missing"), std::string::npos);
}

TEST(Duration, RefusedSpellings) {
  for (const char* s : {"", "ms", "-1ms", "+1ms", " 1ms", "1ms ", "1h", "10parsecs", "1 m s", "1,5ms",
                        "0x10ms", "infms", "nanms", "1e ms", "1e+ms", ".ms", "1.2.3ms", "1MS", "1Ms"})
    EXPECT_NE(duration_error(s), "") << s << " accepted";
}

TEST(Duration, WholePicosecondsOnly) {
  EXPECT_NE(duration_error("1.5ps").find("whole number of picoseconds"), std::string::npos);
  EXPECT_NE(duration_error("0.5ps").find("whole number of picoseconds"), std::string::npos);
  EXPECT_NE(duration_error("1.0001ns").find("whole number of picoseconds"), std::string::npos);
  EXPECT_NE(duration_error("1e-1ps").find("whole number of picoseconds"), std::string::npos);
  EXPECT_NE(duration_error("1e-99999s").find("whole number of picoseconds"), std::string::npos);
  EXPECT_NE(duration_error("0.0000000000000000000000000000000000000000001s"), "");
  EXPECT_EQ(parse_duration_ps("1.001ns"), 1001u);
}

TEST(Duration, UpperBoundAndOverflow) {
  EXPECT_EQ(parse_duration_ps(std::to_string(kMaxDurationPs) + "ps"), kMaxDurationPs);
  EXPECT_NE(duration_error(std::to_string(kMaxDurationPs + 1) + "ps").find("too large"), std::string::npos);
  EXPECT_NE(duration_error("18446744073709551616ps").find("too large"), std::string::npos);  // 2^64
  EXPECT_NE(duration_error("4611687s").find("too large"), std::string::npos);  // just over 2^62 ps
  EXPECT_EQ(parse_duration_ps("4611686s"), 4611686000000000000u);
  EXPECT_NE(duration_error("1e99999s").find("too large"), std::string::npos);
  EXPECT_NE(duration_error(std::string(60, '9') + "s"), "");  // too many digits, no wrap-around
}

TEST(Duration, FormatReadsBack) {
  EXPECT_EQ(format_duration(0), "0s");
  EXPECT_EQ(format_duration(1500), "1500ps");
  EXPECT_EQ(format_duration(3000000000u), "3ms");
  EXPECT_EQ(format_duration(10000000000000u), "10s");
  EXPECT_EQ(format_duration(1000000000000000u), "1000s");
  for (uint64_t ps :
       {uint64_t(0), uint64_t(1), uint64_t(999), uint64_t(25000), uint64_t(3) << 40, kMaxDurationPs})
    EXPECT_EQ(parse_duration_ps(format_duration(ps)), ps) << ps;
}

TEST(Mac, Accepted) {
  uint8_t m[6] = {};
  ASSERT_TRUE(parse_mac("02:AA:bb:cc:dd:0e", m));
  EXPECT_EQ(m[0], 0x02);
  EXPECT_EQ(m[1], 0xAA);
  EXPECT_EQ(m[3], 0xCC);
  EXPECT_EQ(m[5], 0x0E);
  EXPECT_EQ(format_mac(m), "02:aa:bb:cc:dd:0e");
  ASSERT_TRUE(parse_mac("ff:ff:ff:ff:ff:ff", m));
  EXPECT_EQ(m[4], 0xFF);
  ASSERT_TRUE(parse_mac("00:00:00:00:00:00", m));
  EXPECT_EQ(m[0], 0);
}

TEST(Mac, RefusedAndOutputUntouched) {
  uint8_t m[6] = {1, 2, 3, 4, 5, 6};
  for (const char* s : {"", "02-aa-bb-cc-dd-0e", "02:aa:bb:cc:dd:0g", "02:00:00:00:00", "2:0:0:0:0:53",
                        "02:00:00:00:00:53:", "02:00:00:00:00:530", " 02:00:00:00:00:53", "02:00:00:00:00:5",
                        "0x2:00:00:00:00:53", "+2:00:00:00:00:53", "02::00:00:00:00:53", "02.00.00.00.00.53"})
    EXPECT_FALSE(parse_mac(s, m)) << s;
  EXPECT_EQ(m[0], 1);  // a refused address writes nothing
  EXPECT_EQ(m[5], 6);
}

TEST(Ip4, AcceptedAndRefused) {
  uint32_t ip = 0;
  ASSERT_TRUE(parse_ip4("192.168.0.53", ip));
  EXPECT_EQ(ip, 0xC0A80035u);
  ASSERT_TRUE(parse_ip4("0.0.0.0", ip));
  EXPECT_EQ(ip, 0u);
  ASSERT_TRUE(parse_ip4("255.255.255.255", ip));
  EXPECT_EQ(ip, 0xFFFFFFFFu);
  ASSERT_TRUE(parse_ip4("010.1.1.1", ip));  // leading zeros are decimal
  EXPECT_EQ(ip, 0x0A010101u);
  ip = 7;
  for (const char* s : {"", "192.168.0", "192.168.0.53.1", "256.0.0.1", "1.2.3.1000", "1.2.3.-1", " 1.2.3.4",
                        "1.2.3.4 ", "+1.2.3.4", "1..3.4", "1.2.3.", "a.b.c.d", "0001.2.3.4"})
    EXPECT_FALSE(parse_ip4(s, ip)) << s;
  EXPECT_EQ(ip, 7u);
}

TEST(Size, AcceptedWithBinaryAndDecimalUnits) {
  EXPECT_EQ(parse_size_bytes("1"), 1u);
  EXPECT_EQ(parse_size_bytes("100M"), 100u << 20);
  EXPECT_EQ(parse_size_bytes("100MiB"), 100u << 20);
  EXPECT_EQ(parse_size_bytes("2G"), 2ull << 30);
  EXPECT_EQ(parse_size_bytes("512K"), 512u << 10);
  EXPECT_EQ(parse_size_bytes("1T"), 1ull << 40);
  EXPECT_EQ(parse_size_bytes("500MB"), 500000000u);
  EXPECT_EQ(parse_size_bytes("2GB"), 2000000000u);
  EXPECT_EQ(parse_size_bytes("4kB"), 4000u);
  EXPECT_EQ(parse_size_bytes("4194304T"), 1ull << 62);  // the largest
}

TEST(Size, RefusedWithOneLine) {
  for (const char* s : {"", "0", "0M", "M", "-1M", "1.5G", "10X", " 1M", "1M ", "1 M", "1m", "1mb", "0x10",
                        "4194305T", "99999999999999999999", "1e3"}) {
    try {
      parse_size_bytes(s);
      ADD_FAILURE() << "accepted '" << s << "'";
    } catch (const UnitsError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.find('\n'), std::string::npos) << s;
      EXPECT_EQ(m.rfind("'" + std::string(s) + "'", 0), 0u) << m;
    }
  }
  EXPECT_EQ(format_size(999), "999 bytes");
  EXPECT_EQ(format_size(2291500), "2.3 MB");
  EXPECT_EQ(format_size(22915000000ull), "22.9 GB");
}

// Energies beyond 64 bits (models/energy README "Width") are written to
// --stats as exact JSON integers; a string that only looks like the marker
// stays a string.
TEST(Stats, WideValuesAreExactJsonIntegers) {
  const uint128 big = (uint128(1) << 64) * 3 + 7;  // 55340232221128654855
  const nlohmann::json j = {{"big", wide_json(big)},
                            {"small", wide_json(5)},
                            {"max64", wide_json(UINT64_MAX)},
                            {"text", std::string("\0l3vp-uint128:12x", 17)}};
  EXPECT_TRUE(j["small"].is_number_unsigned());
  EXPECT_EQ(stats_text(j, -1),
            "{\"big\":55340232221128654855,\"max64\":18446744073709551615,\"small\":5,"
            "\"text\":\"\\u0000l3vp-uint128:12x\"}");
  EXPECT_EQ(to_decimal(0), "0");
  EXPECT_EQ(to_decimal(~uint128(0)), "340282366920938463463374607431768211455");
}

// l3vp_common brings SystemC (sc_time in units.h), whose library calls
// sc_main: this program's main is SystemC's.
int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
