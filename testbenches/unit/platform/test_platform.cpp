// Platform configuration (JSON parsing, strict validation, preset) and the
// assembled leon3mp platform: P&P table and IRQ map as the firmware sees them
// through the CPU's AHB port, and one short run through the exit convention.
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "config.h"
#include "leon3mp.h"
#include "tb_util.h"
#include "trap_names.h"
#include "units.h"

using namespace l3vp;
using nlohmann::json;

#ifndef SOURCE_DIR
#error "SOURCE_DIR must name the project source directory"
#endif

namespace {

std::unique_ptr<Leon3mp> plat;
void build() { plat = std::make_unique<Leon3mp>("leon3mp", PlatformConfig()); }

// Parses `text`, expects a ConfigError mentioning `key`; returns the message.
std::string config_error(const std::string& text, const std::string& key) {
  try {
    PlatformConfig::from_json(json::parse(text));
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(key), std::string::npos) << "message '" << m << "' does not name " << key;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    return m;
  }
  ADD_FAILURE() << text << " accepted";
  return "";
}

bool same(const PlatformConfig& a, const PlatformConfig& b) { return a.to_json() == b.to_json(); }

// Reads a word through the CPU's AHB master socket (as the firmware would).
uint32_t ahb_read(uint32_t addr, tlm::tlm_response_status* st = nullptr) {
  return l3vp::test::socket_read32(plat->cpu.isock, addr, st);
}

}  // namespace

// ---------------------------------------------------------------- config

TEST(Config, DefaultsAreTheGrXc3s1500Template) {
  const PlatformConfig c;
  EXPECT_NO_THROW(c.validate());
  EXPECT_EQ(c.clock_hz, 40000000u);
  EXPECT_EQ(c.period_ps(), 25000u);
  EXPECT_EQ(c.period(), sc_core::sc_time(25, sc_core::SC_NS));
  EXPECT_EQ(c.nwin, 8u);
  EXPECT_EQ(c.sdram_size, 64u << 20);
  EXPECT_TRUE(c.dmi);
  EXPECT_TRUE(same(PlatformConfig::preset("gr-xc3s-1500"), c));
  EXPECT_THROW(PlatformConfig::preset("gr-xc3s-9999"), ConfigError);
}

TEST(Config, ShippedPresetFileEqualsDefaults) {
  const PlatformConfig f =
      PlatformConfig::from_file(std::string(SOURCE_DIR) + "/sim/configs/gr-xc3s-1500.json");
  EXPECT_TRUE(same(f, PlatformConfig())) << f.to_json().dump();
}

TEST(Config, PartialObjectsMergeOverDefaults) {
  const PlatformConfig c = PlatformConfig::from_json(
      json::parse(R"({"nwin": 16, "memory": {"sdram_size": 1048576}, "dmi": false, "quantum_ns": 0})"));
  EXPECT_EQ(c.nwin, 16u);
  EXPECT_EQ(c.sdram_size, 1u << 20);
  EXPECT_EQ(c.prom_size, PlatformConfig().prom_size);
  EXPECT_FALSE(c.dmi);
  EXPECT_EQ(c.quantum_ns, 0u);
  EXPECT_TRUE(same(PlatformConfig::from_json(c.to_json()), c));  // round trip
  const PlatformConfig k = PlatformConfig::from_json(json::parse(R"({"clock_hz": 50000000})"));
  EXPECT_EQ(k.period_ps(), 20000u);
}

TEST(Config, UnknownKeysAreRejected) {
  config_error(R"({"clok_hz": 1})", "'clok_hz'");
  config_error(R"({"memory": {"ram_size": 4096}})", "'memory.ram_size'");
  config_error(R"({"uart": {"baud": 115200}})", "'uart.baud'");
  config_error(R"([1, 2])", "top level");
}

TEST(Config, WrongTypesAreRejected) {
  config_error(R"({"clock_hz": "40MHz"})", "'clock_hz'");
  config_error(R"({"clock_hz": 4.0e7})", "'clock_hz'");
  config_error(R"({"nwin": -8})", "'nwin'");
  config_error(R"({"memory": 64})", "'memory'");
  config_error(R"({"memory": {"prom_size": true}})", "'memory.prom_size'");
  config_error(R"({"uart": {"out": 1}})", "'uart.out'");
  config_error(R"({"uart": {"in": null}})", "'uart.in'");
  config_error(R"({"quantum_ns": "1us"})", "'quantum_ns'");
  config_error(R"({"dmi": 1})", "'dmi'");
}

TEST(Config, OutOfRangeValuesAreRejected) {
  config_error(R"({"nwin": 1})", "'nwin'");
  config_error(R"({"nwin": 33})", "'nwin'");
  config_error(R"({"nwin": 4294967298})", "'nwin'");
  config_error(R"({"clock_hz": 0})", "'clock_hz'");
  config_error(R"({"clock_hz": 30000000})", "'clock_hz'");  // 33333.3 ps
  config_error(R"({"clock_hz": 2000000000000})", "'clock_hz'");
  config_error(R"({"memory": {"prom_size": 3145728}})", "'memory.prom_size'");     // not 2^n
  config_error(R"({"memory": {"prom_size": 1073741824}})", "'memory.prom_size'");  // > PROM bar
  config_error(R"({"memory": {"prom_size": 0}})", "'memory.prom_size'");
  config_error(R"({"memory": {"sdram_size": 2147483648}})", "'memory.sdram_size'");  // > RAM bar
  config_error(R"({"memory": {"sdram_size": 2048}})", "'memory.sdram_size'");
  config_error(R"({"quantum_ns": 10000000001})", "'quantum_ns'");
}

TEST(Config, FileErrorsNameTheFile) {
  const std::string bad = ::testing::TempDir() + "l3vp_bad.json";
  std::ofstream(bad) << "{ \"nwin\": 8,, }";
  try {
    PlatformConfig::from_file(bad);
    ADD_FAILURE() << "malformed JSON accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(bad + ": malformed JSON"), std::string::npos) << e.what();
  }
  EXPECT_THROW(PlatformConfig::from_file("/nonexistent/x.json"), ConfigError);
}

TEST(Config, TimingKeysDefaultsAndRoundTrip) {
  const PlatformConfig d;
  EXPECT_TRUE(d.timed());  // the preset describes the full timed platform
  EXPECT_EQ(d.icache.ways, 2u);
  EXPECT_EQ(d.icache.line_bytes, 32u);
  EXPECT_EQ(d.dcache.ways, 1u);
  EXPECT_TRUE(d.dcache.snoop);
  EXPECT_EQ(d.sdram_ws.read_ws, 7u);
  EXPECT_EQ(d.prom_ws.read_ws, 19u);
  const PlatformConfig c = PlatformConfig::from_json(json::parse(R"({
    "mode": "functional",
    "cpu": {"nwin": 16, "mul": "16x16_4cycle", "lddel": 2, "branch_prediction": false,
            "trap_cycles": 7, "div_cycles": 20},
    "icache": {"ways": 4, "way_kib": 1, "line_bytes": 16, "repl": "random", "seed": 99},
    "dcache": {"ways": 2, "way_kib": 8, "line_bytes": 32, "repl": "lrr", "seed": 3, "snoop": false},
    "memory": {"prom": {"read_ws": 2, "write_ws": 3}, "sdram": {"read_ws": 5, "write_ws": 6}},
    "ahb": {"transfer_cycles": 2, "burst_cycles_per_word": 0, "arbitration": false},
    "apb": {"access_cycles": 9}})"));
  EXPECT_FALSE(c.timed());
  EXPECT_EQ(c.nwin, 16u);
  EXPECT_EQ(c.mul, leon3::MulType::Iter16x16);
  EXPECT_EQ(c.lddel, 2u);
  EXPECT_FALSE(c.branch_prediction);
  EXPECT_EQ(c.trap_cycles, 7u);
  EXPECT_EQ(c.div_cycles, 20u);
  EXPECT_EQ(c.icache.ways, 4u);
  EXPECT_EQ(c.icache.repl, leon3::CacheRepl::Random);
  EXPECT_EQ(c.icache.seed, 99u);
  EXPECT_EQ(c.dcache.repl, leon3::CacheRepl::Lrr);
  EXPECT_FALSE(c.dcache.snoop);
  EXPECT_EQ(c.prom_ws.write_ws, 3u);
  EXPECT_EQ(c.sdram_ws.read_ws, 5u);
  EXPECT_EQ(c.ahb_transfer_cycles, 2u);
  EXPECT_EQ(c.ahb_burst_cycles_per_word, 0u);
  EXPECT_FALSE(c.ahb_arbitration);
  EXPECT_EQ(c.apb_access_cycles, 9u);
  EXPECT_TRUE(same(PlatformConfig::from_json(c.to_json()), c));
  EXPECT_EQ(c.to_json()["cpu"]["mul"], "16x16_4cycle");
  EXPECT_FALSE(c.to_json().contains("nwin"));  // written as cpu.nwin only
}

TEST(Config, TimingKeysAreValidatedOneByOne) {
  config_error(R"({"mode": "fast"})", "'mode'");
  config_error(R"({"mode": 1})", "'mode'");
  config_error(R"({"cpu": 8})", "'cpu'");
  config_error(R"({"cpu": {"fpu": 1}})", "'cpu.fpu'");
  config_error(R"({"cpu": {"nwin": 1}})", "'cpu.nwin'");
  config_error(R"({"nwin": 8, "cpu": {"nwin": 8}})", "'nwin'");
  config_error(R"({"cpu": {"mul": "64x64"}})", "'cpu.mul'");
  config_error(R"({"cpu": {"lddel": 3}})", "'cpu.lddel'");
  config_error(R"({"cpu": {"branch_prediction": 1}})", "'cpu.branch_prediction'");
  config_error(R"({"cpu": {"trap_cycles": 0}})", "'cpu.trap_cycles'");
  config_error(R"({"cpu": {"div_cycles": 256}})", "'cpu.div_cycles'");
  config_error(R"({"icache": {"ways": 5}})", "'icache.ways'");
  config_error(R"({"icache": {"way_kib": 3}})", "'icache.way_kib'");
  config_error(R"({"icache": {"way_kib": 512}})", "'icache.way_kib'");
  config_error(R"({"dcache": {"line_bytes": 24}})", "'dcache.line_bytes'");
  config_error(R"({"dcache": {"line_bytes": 64}})", "'dcache.line_bytes'");
  config_error(R"({"icache": {"repl": "fifo"}})", "'icache.repl'");
  config_error(R"({"icache": {"repl": "lrr", "ways": 4}})", "'icache.repl'");
  config_error(R"({"icache": {"seed": -1}})", "'icache.seed'");
  config_error(R"({"icache": {"snoop": true}})", "'icache.snoop'");
  config_error(R"({"dcache": {"snoop": "yes"}})", "'dcache.snoop'");
  config_error(R"({"memory": {"prom": {"read_ws": 256}}})", "'memory.prom.read_ws'");
  config_error(R"({"memory": {"sdram": {"write_ws": "2"}}})", "'memory.sdram.write_ws'");
  config_error(R"({"memory": {"sdram": {"cas": 2}}})", "'memory.sdram.cas'");
  config_error(R"({"ahb": {"transfer_cycles": 17}})", "'ahb.transfer_cycles'");
  config_error(R"({"ahb": {"burst_cycles_per_word": -1}})", "'ahb.burst_cycles_per_word'");
  config_error(R"({"ahb": {"arbitration": "on"}})", "'ahb.arbitration'");
  config_error(R"({"ahb": {"split": true}})", "'ahb.split'");
  config_error(R"({"apb": {"access_cycles": 65}})", "'apb.access_cycles'");
}

TEST(Config, NetKeysDefaultsAndRoundTrip) {
  const PlatformConfig d;
  EXPECT_EQ(d.get<std::string>("net.mac"), "02:00:00:00:00:53");
  EXPECT_EQ(d.get<uint64_t>("net.speed_mbps"), 100u);
  EXPECT_FALSE(d.get<bool>("net.switch.enabled"));
  const PlatformConfig c = PlatformConfig::from_json(json::parse(R"({"net": {
      "mac": "02:aa:bb:cc:dd:ee", "speed_mbps": 10, "propagation_ns": 250,
      "switch": {"enabled": true, "latency_ns": 5000}, "reorder_timeout_ns": 2000,
      "to_host": {"loss": 0.25, "corrupt": 0.5, "jitter_ns": 100, "seed": 9},
      "to_board": {"duplicate": 1, "reorder": 0.125, "extra_delay_ns": 7, "seed": 18446744073709551615}}})"));
  EXPECT_EQ(c.get<std::string>("net.mac"), "02:aa:bb:cc:dd:ee");
  EXPECT_EQ(c.get<uint64_t>("net.speed_mbps"), 10u);
  EXPECT_EQ(c.get<uint64_t>("net.propagation_ns"), 250u);
  EXPECT_TRUE(c.get<bool>("net.switch.enabled"));
  EXPECT_EQ(c.get<uint64_t>("net.switch.latency_ns"), 5000u);
  EXPECT_EQ(c.get<double>("net.to_host.loss"), 0.25);
  EXPECT_EQ(c.get<uint64_t>("net.to_host.seed"), 9u);
  EXPECT_EQ(c.get<double>("net.to_board.duplicate"), 1.0);
  EXPECT_EQ(c.get<uint64_t>("net.to_board.seed"), UINT64_MAX);
  EXPECT_TRUE(same(PlatformConfig::from_json(c.to_json()), c));
  // The link the platform builds from it (end 0 = board: direction 0 = to_host).
  const EthLinkParams lp = Leon3mp::link_params(c);
  EXPECT_EQ(lp.mbps, 10u);
  EXPECT_EQ(lp.prop_delay, sc_core::sc_time(250, sc_core::SC_NS));
  EXPECT_TRUE(lp.switch_hop);
  EXPECT_EQ(lp.switch_latency, sc_core::sc_time(5, sc_core::SC_US));
  EXPECT_EQ(lp.reorder_timeout, sc_core::sc_time(2, sc_core::SC_US));
  EXPECT_EQ(lp.imp[0].loss, 0.25);
  EXPECT_EQ(lp.imp[0].jitter, sc_core::sc_time(100, sc_core::SC_NS));
  EXPECT_EQ(lp.imp[1].extra_delay, sc_core::sc_time(7, sc_core::SC_NS));
  EXPECT_EQ(lp.imp[1].seed, UINT64_MAX);
  // ... and back (a scenario's link section is applied this way): net.mac,
  // no row of the link, stays.
  PlatformConfig c2;
  c2.set("net.mac", "02:aa:bb:cc:dd:ee");
  c2.put("net", EthLinkParams::rows(), lp);
  EXPECT_TRUE(same(c2, c));
  // The GRETH's station address (a row of GrethParams under "net").
  EXPECT_EQ(Leon3mp::greth_params(c).mac, "02:aa:bb:cc:dd:ee");
  EXPECT_EQ(Leon3mp::greth_params(c).line_mbps, 10u);
  uint8_t mac[6];
  EXPECT_TRUE(parse_mac("02:AA:bb:cc:dd:0e", mac));
  EXPECT_EQ(mac[1], 0xAA);
  EXPECT_EQ(mac[5], 0x0E);
  EXPECT_FALSE(parse_mac("02-aa-bb-cc-dd-0e", mac));
  EXPECT_FALSE(parse_mac("02:aa:bb:cc:dd:0g", mac));
}

TEST(Config, NetKeysAreValidatedOneByOne) {
  config_error(R"({"net": 1})", "'net'");
  config_error(R"({"net": {"speed": 100}})", "'net.speed'");
  config_error(R"({"net": {"speed_mbps": 1000}})", "'net.speed_mbps'");
  config_error(R"({"net": {"speed_mbps": 0}})", "'net.speed_mbps'");
  config_error(R"({"net": {"speed_mbps": "100"}})", "'net.speed_mbps'");
  config_error(R"({"net": {"propagation_ns": -5}})", "'net.propagation_ns'");
  config_error(R"({"net": {"propagation_ns": 2000000000}})", "'net.propagation_ns'");
  config_error(R"({"net": {"mac": "02:00:00:00:00"}})", "'net.mac'");
  config_error(R"({"net": {"mac": "03:00:00:00:00:53"}})", "'net.mac'");  // multicast
  config_error(R"({"net": {"mac": 5}})", "'net.mac'");
  config_error(R"({"net": {"switch": true}})", "'net.switch'");
  config_error(R"({"net": {"switch": {"enabled": 1}}})", "'net.switch.enabled'");
  config_error(R"({"net": {"switch": {"latency_ns": 1.5}}})", "'net.switch.latency_ns'");
  config_error(R"({"net": {"switch": {"hops": 2}}})", "'net.switch.hops'");
  config_error(R"({"net": {"to_host": {"loss": 1.01}}})", "'net.to_host.loss'");
  config_error(R"({"net": {"to_host": {"corrupt": -0.1}}})", "'net.to_host.corrupt'");
  config_error(R"({"net": {"to_board": {"duplicate": "x"}}})", "'net.to_board.duplicate'");
  config_error(R"({"net": {"to_board": {"reorder": 2}}})", "'net.to_board.reorder'");
  config_error(R"({"net": {"to_board": {"jitter_ns": 1000000001}}})", "'net.to_board.jitter_ns'");
  config_error(R"({"net": {"to_board": {"seed": -1}}})", "'net.to_board.seed'");
  config_error(R"({"net": {"to_board": {"drop": 0.1}}})", "'net.to_board.drop'");
  config_error(R"({"net": {"from_host": {}}})", "'net.from_host'");
  config_error(R"({"net": {"reorder_timeout_ns": 1000000001}})", "'net.reorder_timeout_ns'");
  PlatformConfig c;
  c.set("net.mac", "");  // no station address at boot
  EXPECT_NO_THROW(c.validate());
}

TEST(Config, GrethCsumOffloadKey) {
  const PlatformConfig d;
  EXPECT_FALSE(d.get<bool>("greth.csum_offload"));
  PlatformConfig c;
  c.set("greth.csum_offload", "true");
  EXPECT_TRUE(c.get<bool>("greth.csum_offload"));
  EXPECT_EQ(Leon3mp::greth_params(c).csum_offload, 1u);
  EXPECT_TRUE(same(PlatformConfig::from_json(json::parse(R"({"greth": {"csum_offload": true}})")), c));
  EXPECT_TRUE(same(PlatformConfig::from_json(c.to_json()), c));
  config_error(R"({"greth": {"csum_offload": 1}})", "'greth.csum_offload'");
  config_error(R"({"greth": {"gigabit": true}})", "'greth.gigabit'");
  // The model side (CTRL.GA over the bus): test_platform_gbit.
}

TEST(Config, ShippedPresetFileHasEveryKey) {
  std::ifstream in(std::string(SOURCE_DIR) + "/sim/configs/gr-xc3s-1500.json");
  const json j = json::parse(in);
  EXPECT_EQ(j, PlatformConfig().to_json()) << j.dump();
}

// The message of a refused --set (and that it names `key`).
std::string set_error(const std::string& key, const std::string& value, const std::string& names) {
  PlatformConfig c;
  try {
    c.set(key, value);
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(names), std::string::npos) << "message '" << m << "' does not name " << names;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    return m;
  }
  ADD_FAILURE() << key << "=" << value << " accepted";
  return "";
}

// Walks a dotted key in the to_json() tree.
const json& at_key(const json& j, const std::string& key) {
  std::string ptr = "/" + key;
  for (char& ch : ptr)
    if (ch == '.') ch = '/';
  return j.at(json::json_pointer(ptr));
}

TEST(Config, TableDefaultsAreTheConstructedDefaults) {
  // Every row's default, read back through to_json(), is what a default-
  // constructed config holds, and to_json() has exactly the table's keys.
  const json d = PlatformConfig().to_json();
  size_t leaves = 0;
  for (const auto& p : PlatformConfig::params()) {
    const json& v = at_key(d, p.key);
    const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    EXPECT_EQ(text, p.def == "0" && v.is_number_float() ? "0.0" : p.def) << p.key;
    EXPECT_FALSE(p.doc.empty()) << p.key;
    EXPECT_FALSE(p.type.empty()) << p.key;
  }
  std::function<void(const json&)> count = [&](const json& j) {
    for (const auto& e : j.items()) e.value().is_object() ? count(e.value()) : void(++leaves);
  };
  count(d);
  EXPECT_EQ(leaves, PlatformConfig::params().size());
}

TEST(Config, SetParsesEachType) {
  PlatformConfig c;
  c.set("cpu.lddel", "2");
  c.set("dcache.way_kib", "8");
  c.set("memory.sdram_size", "0x100000");
  c.set("cpu.branch_prediction", "false");
  c.set("icache.repl", "random");
  c.set("mode", "functional");
  c.set("uart.out", "");
  c.set("net.to_board.reorder", "0.125");
  c.set("quantum_ns", "250us");
  c.set("net.propagation_ns", "1500");  // a plain integer is ns, as in the file
  c.set("net.switch.latency_ns", "2.5 us");
  c.set("net.mac", "02:AA:00:00:00:01");
  c.set("nwin", "16");  // the schema-1 alias
  c.set("net.to_host.seed", "18446744073709551615");
  EXPECT_EQ(c.lddel, 2u);
  EXPECT_EQ(c.dcache.way_kib, 8u);
  EXPECT_EQ(c.sdram_size, 1u << 20);
  EXPECT_FALSE(c.branch_prediction);
  EXPECT_EQ(c.icache.repl, leon3::CacheRepl::Random);
  EXPECT_FALSE(c.timed());
  EXPECT_EQ(c.get<std::string>("uart.out"), "");
  EXPECT_EQ(c.get<double>("net.to_board.reorder"), 0.125);
  EXPECT_EQ(c.quantum_ns, 250000u);
  EXPECT_EQ(c.get<uint64_t>("net.propagation_ns"), 1500u);
  EXPECT_EQ(c.get<uint64_t>("net.switch.latency_ns"), 2500u);
  EXPECT_EQ(c.get<std::string>("net.mac"), "02:AA:00:00:00:01");
  EXPECT_EQ(c.nwin, 16u);
  EXPECT_EQ(c.get<uint64_t>("net.to_host.seed"), UINT64_MAX);
  EXPECT_NO_THROW(c.validate());
  // The same values through a JSON file give the same configuration.
  EXPECT_TRUE(same(PlatformConfig::from_json(c.to_json()), c));
  c.set_arg("cpu.lddel=1");
  EXPECT_EQ(c.lddel, 1u);
  c.set_arg("uart.in=a=b");  // only the first '=' separates
  EXPECT_EQ(c.get<std::string>("uart.in"), "a=b");
}

TEST(Config, SetErrorsNameTheKey) {
  EXPECT_EQ(set_error("cpu.lddl", "2", "'cpu.lddl'").rfind("unknown key", 0), 0u);
  set_error("cpu", "2", "'cpu'");  // a group is not a key
  EXPECT_EQ(set_error("cpu.lddel", "3", "'cpu.lddel'"), "key 'cpu.lddel': must be 1 or 2 (got 3)");
  set_error("cpu.lddel", "", "'cpu.lddel'");
  set_error("cpu.lddel", "-1", "'cpu.lddel'");
  set_error("cpu.lddel", "1.0", "'cpu.lddel'");
  set_error("cpu.nwin", "4294967298", "'cpu.nwin'");
  set_error("nwin", "1", "'nwin'");
  set_error("icache.seed", "4294967296", "'icache.seed'");
  set_error("net.to_host.seed", "18446744073709551616", "'net.to_host.seed'");
  set_error("dcache.way_kib", "3", "power of two");
  set_error("memory.prom_size", "1073741824", "'memory.prom_size'");
  set_error("dmi", "1", "'dmi'");
  set_error("dmi", "True", "'dmi'");
  set_error("mode", "Timed", "'mode'");
  set_error("net.to_host.loss", "1.5", "'net.to_host.loss'");
  set_error("net.to_host.loss", "nan", "'net.to_host.loss'");
  set_error("net.to_host.loss", "0.5x", "'net.to_host.loss'");
  set_error("quantum_ns", "11s", "'quantum_ns'");
  set_error("quantum_ns", "1.5ns", "whole number of ns");
}

TEST(Config, RulesAcrossKeys) {
  PlatformConfig c;
  c.set("dcache.repl", "lrr");  // each key alone is fine ...
  try {
    c.validate();  // ... but D-cache has 1 way
    ADD_FAILURE() << "lrr with 1 way accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "key 'dcache.repl': \"lrr\" needs exactly 2 ways");
  }
  c.set("dcache.ways", "2");
  EXPECT_NO_THROW(c.validate());
  c.set("clock_hz", "30000000");
  EXPECT_THROW(c.validate(), ConfigError);
  c.set("clock_hz", "50000000");
  EXPECT_NO_THROW(c.validate());
  c.icache.snoop = true;  // not a key: only code can do this
  EXPECT_THROW(c.validate(), ConfigError);
  // validate() also re-checks each key's own range for values set in code.
  PlatformConfig d;
  EthLinkParams lp;
  lp.mbps = 1000;
  d.put("net", EthLinkParams::rows(), lp);  // as a scenario's link section
  try {
    d.validate();
    ADD_FAILURE() << "1000 Mbit/s accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "key 'net.speed_mbps': must be 10 or 100 (got 1000)");
  }
}

TEST(Leon3mp, RegionMarkerSlotIsEmptyInPnp) {
  // The marker device answers at 0x80000C00 but the P&P table shows nothing.
  EXPECT_EQ(ahb_read(0x800FF000 + 8 * 12), 0u);
  EXPECT_EQ(ahb_read(0x800FF000 + 8 * 12 + 4), 0u);
  EXPECT_EQ(ahb_read(0x80000C00), 0u);
}

// ---------------------------------------------------------------- platform

TEST(Leon3mp, PlugAndPlayAsSeenByFirmware) {
  EXPECT_EQ(ahb_read(0xFFFFF000), 0x01003060u);  // AHB master 0 LEON3
  EXPECT_EQ(ahb_read(0xFFFFF800), 0x0400F020u);  // AHB slave 0 MCTRL
  EXPECT_EQ(ahb_read(0xFFFFF810), 0x0003E002u);
  EXPECT_EQ(ahb_read(0xFFFFF814), 0x2000E002u);
  EXPECT_EQ(ahb_read(0xFFFFF818), 0x4003C002u);
  EXPECT_EQ(ahb_read(0xFFFFF820), 0x01006020u);  // AHB slave 1 APBCTRL
  EXPECT_EQ(ahb_read(0xFFFFF830), 0x8000FFF2u);
  EXPECT_EQ(ahb_read(0x800FF000), 0x0400F020u);  // APB slot 0 MCTRL
  EXPECT_EQ(ahb_read(0x800FF004), 0x0000FFF1u);
  EXPECT_EQ(ahb_read(0x800FF008), 0x0100C042u);  // APB slot 1 APBUART, IRQ 2
  EXPECT_EQ(ahb_read(0x800FF00C), 0x0010FFF1u);
  EXPECT_EQ(ahb_read(0x800FF010), 0x0100D080u);  // APB slot 2 IRQMP
  EXPECT_EQ(ahb_read(0x800FF014), 0x0020FFF1u);
  EXPECT_EQ(ahb_read(0x800FF018), 0x01011028u);  // APB slot 3 GPTIMER, IRQ 8
  EXPECT_EQ(ahb_read(0x800FF01C), 0x0030FFF1u);
  EXPECT_EQ(ahb_read(0x800FF020), 0u);           // slot 4 empty
  EXPECT_EQ(ahb_read(0x800FF068), 0x0101D006u);  // APB slot 13 GRETH, IRQ 6
  EXPECT_EQ(ahb_read(0x800FF06C), 0x00D0FFF1u);  // 0x80000D00, mask 0xFFF, APB I/O
  EXPECT_EQ(ahb_read(0xFFFFF080), 0x0101D000u);  // AHB master 4 GRETH
  EXPECT_EQ(ahb_read(0xFFFFF060), 0u);           // AHB master 3 empty
}

TEST(Leon3mp, GrethWiring) {
  EXPECT_EQ(ahb_read(0x80000D00), 0x06000000u);  // CTRL reset: MA | MC
  // net.mac (default 02:00:00:00:00:53) is in MAC_MSB/MAC_LSB at boot.
  EXPECT_EQ(ahb_read(0x80000D08), 0x00000200u);
  EXPECT_EQ(ahb_read(0x80000D0C), 0x00000053u);
  EXPECT_EQ(ahb_read(0x80000D40), 0x06000000u);  // the 64-byte block aliases
  EXPECT_EQ(plat->greth.params().pirq, 6u);
  EXPECT_EQ(plat->greth.params().hindex, 4u);
  EXPECT_EQ(plat->greth.params().csum_offload, 0u);  // greth.csum_offload: CTRL.GA (bit 27) reads 0
  EXPECT_EQ(plat->link.params().mbps, 100u);
  const auto& m = plat->ahb.master_stats();
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[1].name, "greth");
  EXPECT_EQ(m[1].hindex, 4u);
}

TEST(Leon3mp, MemoryMapAndIrqMap) {
  EXPECT_EQ(ahb_read(0x80000000), 0x10380033u);                         // MCFG1 (prom.h)
  EXPECT_EQ(ahb_read(0x80000308) & 0x1FF, (1u << 8) | (8u << 3) | 2u);  // GPTIMER CONFIG: SI, IRQ 8, 2 timers
  ASSERT_NE(plat->gptimer(), nullptr);                                  // gptimer.model = tlm
  EXPECT_EQ(plat->gptimer()->irq_line(1), 8u);
  EXPECT_EQ(plat->gptimer()->irq_line(2), 9u);
  tlm::tlm_response_status st;
  ahb_read(0x44000000, &st);  // past 64 MiB of SDRAM
  EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  ahb_read(0x20000000, &st);  // MCTRL I/O area: nothing on the board
  EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  ahb_read(0x00800000, &st);  // past the 8 MiB PROM
  EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  const auto regions = plat->load_regions();
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(regions[1].base, 0x40000000u);
  EXPECT_EQ(regions[1].mem->size(), 64u << 20);
}

TEST(TrapNames, KnownTypes) {
  EXPECT_EQ(trap_name(0x02), "illegal_instruction");
  EXPECT_EQ(trap_name(0x09), "data_access_exception");
  EXPECT_EQ(trap_name(0x18), "interrupt_level_8");
  EXPECT_EQ(trap_name(0x80), "trap_instruction");
  EXPECT_EQ(trap_name(0x3F), "unknown");
}

// Must stay last: it runs the simulation.
TEST(Leon3mp, ZRunsToTheExitConvention) {
  const uint8_t prog[] = {
      0x90, 0x10, 0x20, 0x07,  // mov 7, %o0
      0x91, 0xD0, 0x20, 0x00,  // ta 0 (ET = 0 after reset: error mode, tt 0x80)
  };
  plat->sdram.load(0x1000, prog, sizeof prog);
  plat->boot_at(0x40001000);
  plat->set_end_time(sc_core::sc_time(1, sc_core::SC_MS));
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  const auto& h = plat->halt();
  ASSERT_TRUE(h.halted);
  EXPECT_EQ(h.tt, 0x80u);
  EXPECT_EQ(h.pc, 0x40001004u);
  EXPECT_EQ(h.o0, 7u);
  // Both instructions retire (the Ticc is counted in class "trap").
  EXPECT_EQ(plat->cpu.core().counters().instructions, 2u);
  EXPECT_LT(sc_core::sc_time_stamp(), sc_core::sc_time(1, sc_core::SC_US));
  const json s = plat->stats();
  EXPECT_EQ(s["instructions"]["total"], 2u);
  EXPECT_EQ(s["instructions"]["by_class"]["trap"], 1u);
  EXPECT_EQ(s["bus"]["ahb"]["masters"][0]["name"], "leon3");
}

L3VP_SC_GTEST_MAIN(build)
