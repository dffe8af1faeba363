// Scenario files: exact duration parsing, strict parsing with path-naming
// errors, the shipped example file, and an end-to-end run of that example
// against the responder board (the way leon3vp drives a scenario: link and
// host built from the parsed scenario, ScenarioRunner, results JSON).
#include <gtest/gtest.h>
#include <pcap/pcap.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <systemc>

#include "eth_link.h"
#include "responder.h"
#include "scenario.h"

#ifndef L3VP_SCENARIO_DIR
#error "L3VP_SCENARIO_DIR must point at models/net/scenarios"
#endif

namespace l3vp::test {
namespace {

using host::parse_duration;
using host::ScenarioError;
using nlohmann::json;
using sc_core::SC_MS;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::SC_SEC;
using sc_core::sc_time;
using sc_core::SC_US;

TEST(Scenario, DurationsAreExact) {
  EXPECT_EQ(parse_duration("40us"), sc_time(40, SC_US));
  EXPECT_EQ(parse_duration("1.5ms"), sc_time(1500, SC_US));
  EXPECT_EQ(parse_duration("0.000001s"), sc_time(1, SC_US));
  EXPECT_EQ(parse_duration("12.345ns"), sc_time(12345, SC_PS));
  EXPECT_EQ(parse_duration("7ps"), sc_time(7, SC_PS));
  EXPECT_EQ(parse_duration("0"), sc_time());
  EXPECT_EQ(parse_duration("120s"), sc_time(120, SC_SEC));
  EXPECT_THROW(parse_duration("1.5ps"), ScenarioError);  // below the resolution
  EXPECT_THROW(parse_duration("10"), ScenarioError);     // unit missing
  EXPECT_THROW(parse_duration("ms"), ScenarioError);
  EXPECT_THROW(parse_duration("-1ms"), ScenarioError);
  EXPECT_EQ(parse_duration("3 ms"), sc_time(3, SC_MS));  // the one rule set: spaces before the unit
  EXPECT_EQ(parse_duration("1e3us"), sc_time(1, SC_MS));
  EXPECT_THROW(parse_duration("2:0:0"), ScenarioError);
  EXPECT_THROW(parse_duration("1h"), ScenarioError);
}

TEST(Scenario, DefaultsWhenEmpty) {
  const host::Scenario s = host::parse_scenario(json::object());
  EXPECT_EQ(s.host.ip, 0xC0A80037u);
  EXPECT_EQ(host::mac_str(s.host.mac), "02:00:00:00:00:55");
  EXPECT_EQ(s.board_ip, 0xC0A80035u);
  EXPECT_EQ(host::mac_str(s.board_mac), "02:00:00:00:00:53");
  EXPECT_EQ(s.link.mbps, 100u);
  EXPECT_TRUE(s.experiments.empty());
}

std::string error_of(const std::string& text) {
  try {
    host::parse_scenario(json::parse(text));
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(Scenario, ErrorsNameThePath) {
  EXPECT_NE(error_of(R"({"hots": {}})").find(".hots: unknown key"), std::string::npos);
  EXPECT_NE(error_of(R"({"host": {"ip": "192.168.0.300"}})").find(".host.ip"), std::string::npos);
  EXPECT_NE(error_of(R"({"host": {"mac": "02:00:00"}})").find(".host.mac"), std::string::npos);
  EXPECT_NE(error_of(R"({"link": {"mbps": 55}})").find(".link.mbps"), std::string::npos);
  EXPECT_NE(error_of(R"({"link": {"to_board": {"loss": 1.5}}})").find(".link.to_board.loss"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"experiments": [{"type": "ping", "cout": 3}]})").find(".experiments[0].cout"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"experiments": [{"type": "pong"}]})").find("unknown experiment"), std::string::npos);
  EXPECT_NE(
      error_of(R"({"experiments": [{"type": "ping", "interval": 5}]})").find(".experiments[0].interval"),
      std::string::npos);
  EXPECT_NE(error_of(R"({"host": {"tcp": {"mss": 20}}})").find(".host.tcp.mss"), std::string::npos);
  EXPECT_THROW(host::load_scenario("/nonexistent.json"), ScenarioError);
}

// "board": {"params": {...}} is kept as written for leon3vp (which checks
// the keys and values, models/platform/fw_params.h); it must be an object.
TEST(Scenario, BoardParamsAreKeptForTheSimulator) {
  EXPECT_TRUE(host::parse_scenario(json::object()).board_params.is_null());
  const host::Scenario s = host::parse_scenario(
      json::parse(R"({"board": {"ip": "192.168.0.53", "params": {"window": 300, "flags": "verify"}}})"));
  EXPECT_EQ(s.board_params, json::parse(R"({"window": 300, "flags": "verify"})"));
  EXPECT_NE(error_of(R"({"board": {"params": [1, 2]}})").find(".board.params"), std::string::npos);
  EXPECT_NE(error_of(R"({"board": {"parms": {}}})").find(".board.parms: unknown key"), std::string::npos);
}

// raw: hex with whitespace, per-frame fcs/pad/at, the experiment's
// defaults, and the errors (docs/network.md "Raw frames").
TEST(Scenario, RawFramesParse) {
  const host::Scenario s = host::parse_scenario(json::parse(
      R"({"experiments": [{"type": "raw", "start": "5ms", "spacing": "2us", "repeat": 3, "pad": false,
                            "frames": ["02 00 00 00\n00 53", {"hex": "aB", "fcs": "bad", "pad": true}, ""]}]})"));
  ASSERT_EQ(s.experiments.size(), 1u);
  const host::RawParams& r = s.experiments[0].raw;
  EXPECT_EQ(s.experiments[0].type, host::Experiment::Type::kRaw);
  ASSERT_EQ(r.frames.size(), 3u);
  EXPECT_EQ(r.frames[0].data, (host::Bytes{2, 0, 0, 0, 0, 0x53}));
  EXPECT_FALSE(r.frames[0].bad_fcs);
  EXPECT_FALSE(r.frames[0].pad);
  EXPECT_EQ(r.frames[1].data, host::Bytes{0xAB});
  EXPECT_TRUE(r.frames[1].bad_fcs);
  EXPECT_TRUE(r.frames[1].pad);
  EXPECT_TRUE(r.frames[2].data.empty());
  EXPECT_EQ(r.start, sc_time(5, SC_MS));
  EXPECT_EQ(r.spacing, sc_time(2, SC_US));
  EXPECT_EQ(r.repeat, 3u);
  EXPECT_FALSE(r.timed);
  const host::Scenario t = host::parse_scenario(json::parse(
      R"({"experiments": [{"type": "raw", "frames": [{"hex": "00", "at": "0"}, {"hex": "01", "at": "3us"}]}]})"));
  EXPECT_TRUE(t.experiments[0].raw.timed);
  EXPECT_EQ(t.experiments[0].raw.frames[1].at, sc_time(3, SC_US));

  auto err = [](const char* e) {
    return error_of(std::string(R"({"experiments": [{"type": "raw", )") + e + "}]}");
  };
  EXPECT_NE(err(R"("frames": ["0g"])").find(".experiments[0].frames[0]: bad hex digit 'g' at character 1"),
            std::string::npos);
  EXPECT_NE(err(R"("frames": [{"hex": "012"}])").find(".frames[0].hex: odd number of hex digits (3)"),
            std::string::npos);
  EXPECT_NE(err(R"("frames": [])").find(".experiments[0].frames: must be a non-empty array"),
            std::string::npos);
  EXPECT_NE(err(R"("frames": [{"hex": "00", "fcs": "ok"}])").find(".frames[0].fcs"), std::string::npos);
  EXPECT_NE(err(R"("frames": [{"hex": "00", "hx": ""}])").find(".frames[0].hx: unknown key"),
            std::string::npos);
  EXPECT_NE(
      err(R"("frames": [{"hex": "00", "at": "1ms"}, "01"])").find("either every frame has \"at\" or none"),
      std::string::npos);
  EXPECT_NE(err(R"("frames": [{"hex": "00", "at": "2ms"}, {"hex": "00", "at": "1ms"}])")
                .find(".frames[1].at: earlier than the frame before it"),
            std::string::npos);
  EXPECT_NE(err(R"("frames": [{"hex": "00", "at": "1ms"}], "repeat": 2)").find(".repeat: must be 1"),
            std::string::npos);
  EXPECT_NE(err(R"("frames": ["00"], "repeat": 0)").find(".repeat: must be at least 1"), std::string::npos);
  EXPECT_NE(err(R"("frames": ["00"], "repeat": 1000000, "spacing": "1s")").find("ends after 3600s"),
            std::string::npos);
  EXPECT_NE(err(R"("frames": ["00", "00"], "repeat": 600000)").find("frames * repeat = 1200000"),
            std::string::npos);
  EXPECT_NE(err(R"("frames": ["00"], "pcap": "x.pcap")").find("needs either \"frames\" or \"pcap\""),
            std::string::npos);
  EXPECT_NE(err(R"("pcap_times": true, "frames": ["00"])").find(".pcap_times: needs \"pcap\""),
            std::string::npos);
  EXPECT_NE(err(("\"frames\": [\"" + std::string(2 * 16385, '0') + "\"]").c_str())
                .find("a frame of more than 16384 bytes"),
            std::string::npos);
  EXPECT_EQ(err(("\"frames\": [\"" + std::string(2 * 16384, '0') + "\"]").c_str()), "");  // the limit itself
}

// raw from a pcap file next to the scenario (relative path), with the
// records' nanosecond time stamps as per-frame times.
TEST(Scenario, RawFramesFromPcap) {
  char dir_tmpl[] = "/tmp/l3vp_raw_XXXXXX";
  ASSERT_NE(mkdtemp(dir_tmpl), nullptr);
  const std::string dir = dir_tmpl;
  pcap_t* dead = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535, PCAP_TSTAMP_PRECISION_NANO);
  pcap_dumper_t* d = pcap_dump_open(dead, (dir + "/f.pcap").c_str());
  ASSERT_NE(d, nullptr);
  const uint8_t a[3] = {1, 2, 3};
  std::vector<uint8_t> b(2000, 0x5A);
  pcap_pkthdr h{};
  h.ts.tv_sec = 7;
  h.ts.tv_usec = 100;  // ns with NANO precision
  h.caplen = h.len = 3;
  pcap_dump(reinterpret_cast<u_char*>(d), &h, a);
  h.ts.tv_usec = 2100;
  h.caplen = h.len = 2000;
  pcap_dump(reinterpret_cast<u_char*>(d), &h, b.data());
  pcap_dump_close(d);
  pcap_close(dead);
  {
    std::ofstream f(dir + "/s.json");
    f << R"({"experiments": [{"type": "raw", "pcap": "f.pcap", "pcap_times": true, "fcs": "bad", "pad": false}]})";
  }
  const host::Scenario s = host::load_scenario(dir + "/s.json");
  const host::RawParams& r = s.experiments[0].raw;
  ASSERT_EQ(r.frames.size(), 2u);
  EXPECT_EQ(r.frames[0].data, (host::Bytes{1, 2, 3}));
  EXPECT_EQ(r.frames[1].data, b);
  EXPECT_TRUE(r.timed);
  EXPECT_EQ(r.frames[0].at, sc_time());
  EXPECT_EQ(r.frames[1].at, sc_time(2, SC_US));
  EXPECT_TRUE(r.frames[1].bad_fcs);
  EXPECT_FALSE(r.frames[1].pad);
  std::remove((dir + "/f.pcap").c_str());
  std::remove((dir + "/s.json").c_str());
  rmdir(dir.c_str());
}

// tcp_request: strings kept exactly (JSON escapes decoded), defaults, and
// the usual strictness.
TEST(Scenario, TcpRequestParses) {
  const host::Scenario s = host::parse_scenario(json::parse(
      R"({"experiments": [{"type": "tcp_request", "name": "hi", "dport": 4242, "request": "bob\n",
                            "expect": "Hello bob\n", "prompt": "name?", "connections": 3, "stagger": "20ms",
                            "interval": "2s"}]})"));
  ASSERT_EQ(s.experiments.size(), 1u);
  const auto& e = s.experiments[0];
  EXPECT_EQ(e.type, host::Experiment::Type::kTcpRequest);
  EXPECT_EQ(e.name, "hi");
  EXPECT_EQ(e.tcp_request.dst, 0xC0A80035u);  // the board
  EXPECT_EQ(e.tcp_request.dport, 4242u);
  EXPECT_EQ(e.tcp_request.request, "bob\n");
  EXPECT_EQ(e.tcp_request.expect, "Hello bob\n");
  EXPECT_EQ(e.tcp_request.prompt, "name?");
  EXPECT_EQ(e.tcp_request.connections, 3u);
  EXPECT_EQ(e.tcp_request.stagger, sc_time(20, SC_MS));
  EXPECT_EQ(e.tcp_request.interval, sc_time(2, SC_SEC));
  // A trickle that would outlast the scenario limit is refused.
  EXPECT_NE(error_of(R"({"experiments": [{"type": "tcp_request", "request": "abc", "interval": "2000s"}]})")
                .find("request bytes * interval"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"({"experiments": [{"type": "tcp_request", "request": 5}]})").find(".experiments[0].request"),
      std::string::npos);
  EXPECT_NE(
      error_of(R"({"experiments": [{"type": "tcp_request", "expct": "x"}]})").find(".experiments[0].expct"),
      std::string::npos);
}

// The host latency model's keys: exact values, defaults zero (today's
// behaviour), the old keys unchanged, and one-line errors naming the key.
TEST(Scenario, HostLatencyKeysParse) {
  const host::Scenario d = host::parse_scenario(json::object());
  EXPECT_EQ(d.host.rx_per_byte, sc_time());
  EXPECT_EQ(d.host.tx_per_byte, sc_time());
  EXPECT_EQ(d.host.wake_latency, sc_time());
  EXPECT_EQ(d.host.idle_threshold, sc_time());
  const host::Scenario s = host::parse_scenario(json::parse(
      R"({"host": {"rx_latency": "20us", "rx_per_byte": "8ns", "tx_latency": "12.5us", "tx_per_byte": "1.25ns",
                   "wake_latency": "150us", "idle_threshold": "1ms"}})"));
  EXPECT_EQ(s.host.rx_latency, sc_time(20, SC_US));
  EXPECT_EQ(s.host.rx_per_byte, sc_time(8, SC_NS));
  EXPECT_EQ(s.host.tx_latency, sc_time(12500, SC_NS));
  EXPECT_EQ(s.host.tx_per_byte, sc_time(1250, SC_PS));
  EXPECT_EQ(s.host.wake_latency, sc_time(150, SC_US));
  EXPECT_EQ(s.host.idle_threshold, sc_time(1, SC_MS));
  // A threshold alone is harmless; "0" is a valid threshold (any idle gap).
  EXPECT_EQ(host::parse_scenario(json::parse(R"({"host": {"idle_threshold": "2ms"}})")).host.idle_threshold,
            sc_time(2, SC_MS));
  EXPECT_EQ(host::parse_scenario(json::parse(R"({"host": {"wake_latency": "1us", "idle_threshold": "0"}})"))
                .host.wake_latency,
            sc_time(1, SC_US));
  const std::pair<const char*, const char*> bad[] = {
      {R"({"host": {"rx_per_byte": 8}})",
       "scenario .host.rx_per_byte: must be a duration string such as \"40us\""},
      {R"({"host": {"tx_per_byte": "8"}})", "scenario .host.tx_per_byte: "},
      {R"({"host": {"rx_per_byte": "2ms"}})", "scenario .host.rx_per_byte: at most 1ms"},
      {R"({"host": {"tx_per_byte": "-1ns"}})", "scenario .host.tx_per_byte: "},
      {R"({"host": {"wake_latency": "2h"}})", "scenario .host.wake_latency: "},
      {R"({"host": {"wake_latency": "3601s", "idle_threshold": "1ms"}})",
       "scenario .host.wake_latency: at most 3600s"},
      {R"({"host": {"idle_threshold": "3601s"}})", "scenario .host.idle_threshold: at most 3600s"},
      {R"({"host": {"wake_latency": "100us"}})", "scenario .host.wake_latency: needs idle_threshold"},
      {R"({"host": {"wake_latncy": "100us"}})", "scenario .host.wake_latncy: unknown key"},
  };
  for (const auto& [text, want] : bad) {
    const std::string e = error_of(text);
    EXPECT_EQ(e.rfind(want, 0), 0u) << text << " -> " << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;  // one line
  }
}

const std::string kExample = std::string(L3VP_SCENARIO_DIR) + "/basic.json";

TEST(Scenario, ExampleFileParses) {
  const host::Scenario s = host::load_scenario(kExample);
  EXPECT_EQ(s.host.rx_latency, sc_time(15, SC_US));
  EXPECT_EQ(s.host.tx_latency, sc_time(10, SC_US));
  EXPECT_EQ(s.link.prop_delay, sc_time(50, SC_NS));
  EXPECT_EQ(s.link.imp[1].seed, 1u);  // to_board = host -> board = direction 1
  EXPECT_EQ(s.link.imp[0].seed, 2u);
  EXPECT_EQ(s.duration, sc_time(10, SC_SEC));
  ASSERT_EQ(s.experiments.size(), 5u);
  EXPECT_EQ(s.experiments[0].type, host::Experiment::Type::kPing);
  EXPECT_EQ(s.experiments[0].ping.count, 10u);
  EXPECT_EQ(s.experiments[0].ping.interval, sc_time(10, SC_MS));
  EXPECT_EQ(s.experiments[0].ping.dst, s.board_ip);
  EXPECT_EQ(s.experiments[2].udp_send.delay, sc_time(500, SC_US));
  EXPECT_EQ(s.experiments[3].tcp_send.connections, 2u);
  EXPECT_EQ(s.experiments[3].name, "tcp_send#3");
}

// The example, run against the responder (which echoes UDP back, so the
// host's udp_recv on the generator's source port sees every datagram).
struct ScenarioBench {
  host::Scenario s = host::load_scenario(kExample);
  EthLink link{"link", s.link};
  host::SimHost host{"host", s.host, s.tcp};
  Responder board{"board"};
  host::ScenarioRunner runner{host, s};
  ScenarioBench() {
    board.mac = s.board_mac;
    board.ip = s.board_ip;
    board.tcp_window = 4096;
    link.attach(0, &board);
    board.connect(&link.port(0));
    link.attach(1, &host);
    host.connect(&link.port(1));
  }
};

TEST(Scenario, ExampleRunsToCompletionWithResults) {
  ScenarioBench r;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  r.runner.start();
  sc_core::sc_start(r.s.duration);
  EXPECT_TRUE(r.runner.done());
  const json res = r.runner.results();
  ASSERT_EQ(res["experiments"].size(), 5u);
  const json& ping = res["experiments"][0];
  EXPECT_EQ(ping["name"], "ping#0");
  EXPECT_EQ(ping["received"], 10);
  // Probes 2..10: rx + tx latency + two 98-byte frames (8.8 us) + 2 x 50 ns.
  EXPECT_EQ(ping["rtt_min_ps"], 25000000ull + 2 * 8800000ull + 2 * 50000ull);
  EXPECT_EQ(res["experiments"][1]["received"], 100);
  EXPECT_EQ(res["experiments"][1]["lost"], 0);
  EXPECT_EQ(res["experiments"][1]["bad"], 0);
  EXPECT_EQ(res["experiments"][2]["sent"], 100);
  EXPECT_EQ(res["experiments"][3]["completed"], 2);
  EXPECT_EQ(res["experiments"][3]["bytes_acked"], 200000);
  EXPECT_TRUE(res["experiments"][3].contains("completion_ps"));
  EXPECT_EQ(res["experiments"][4]["accepted"], 0);
  EXPECT_EQ(res["host"]["ip"], "192.168.0.55");
  EXPECT_GT(res["host_stats"]["tx_frames"].get<uint64_t>(), 100u);
  for (const auto& [port, c] : r.board.sink) {
    EXPECT_EQ(c.bytes, 100000u);
    EXPECT_EQ(c.bad, 0u);
  }
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
