// Scenario files: one JSON document describing a network run — host and
// board addresses, host stack parameters, link parameters and the list of
// experiments — parsed strictly (unknown keys and malformed values are
// errors naming the JSON path), plus a runner that creates the experiment
// applications on a SimHost and collects their results as one JSON object.
// Format reference: docs/network.md, "Scenario files".
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "apps.h"
#include "eth_link.h"
#include "sim_host.h"
#include "tcp.h"

namespace l3vp::host {

struct ScenarioError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Exact durations: l3vp::parse_duration_ps (models/common/units.h), a bare
// "0" allowed ("1.5ms", "40us", "1e3 ns", "0"). Throws ScenarioError if
// malformed or not a whole number of ps.
sc_core::sc_time parse_duration(const std::string& s);

// Limits checked when a scenario is loaded (docs/network.md "Scenario
// limits"): a scenario that would exhaust the host's memory or run for days
// is refused with an error naming the key, not discovered hours later.
constexpr size_t kMaxExperiments = 64;
constexpr unsigned kMaxConnections = 1000;   // TCP connections, all experiments together
constexpr unsigned kMaxDatagrams = 1000000;  // udp_send count, udp_recv expect
// duration, and every experiment's planned schedule (start + count * step).
constexpr uint64_t kMaxScenarioPs = uint64_t(3600) * 1000000000000ull;  // 1 hour
// host.rx_per_byte / tx_per_byte (a 1514-byte frame then waits 1.5 s at most).
constexpr uint64_t kMaxPerBytePs = 1000000000ull;  // 1 ms
// A raw experiment's pcap file (frames: kMaxRawFrameBytes each, apps.h;
// frames * repeat: kMaxDatagrams).
constexpr uint64_t kMaxRawPcapBytes = uint64_t(64) << 20;
// host.tx_queue (frames: at most 64 MiB of 16 KiB raw frames held).
constexpr unsigned kMaxTxQueue = 4096;

struct Experiment {
  enum class Type { kPing, kUdpSend, kUdpRecv, kTcpSend, kTcpRecv, kTcpRequest, kRaw } type;
  std::string name;  // "type#index" unless given
  PingParams ping;
  UdpSendParams udp_send;
  UdpRecvParams udp_recv;
  TcpClientParams tcp_send;
  TcpServerParams tcp_recv;
  TcpRequestParams tcp_request;
  RawParams raw;
};

struct Scenario {
  HostConfig host;  // defaults: 02:00:00:00:00:55, 192.168.0.55/24
  TcpParams tcp;
  Mac board_mac = {0x02, 0x00, 0x00, 0x00, 0x00, 0x53};
  uint32_t board_ip = 0xC0A80035;  // 192.168.0.53
  // "board": {"params": {...}}: per-run firmware parameters (fw_params block,
  // docs/network.md "Firmware parameters"), a JSON object kept as written
  // (null when absent); leon3vp validates and writes it, --fw-param overrides.
  nlohmann::json board_params;
  // Link: end 0 = board (GRETH), end 1 = host. imp[0] = board->host ("to_host"),
  // imp[1] = host->board ("to_board").
  EthLinkParams link;
  bool has_link = false;  // the file has a "link" section (it replaces the configuration's net.*)
  sc_core::sc_time duration = sc_core::SC_ZERO_TIME;  // 0: until the experiments are done
  std::vector<Experiment> experiments;
};

// `base_dir`: where files named by the scenario (a raw experiment's "pcap")
// are looked up when their path is relative ("" = the working directory).
Scenario parse_scenario(const nlohmann::json& j, const std::string& base_dir = "");
Scenario load_scenario(const std::string& path);
// The file as JSON (ScenarioError: unreadable, too large, not JSON), and
// the directory its relative paths are resolved against.
nlohmann::json read_scenario_json(const std::string& path);
std::string scenario_dir(const std::string& path);  // file -> parse_scenario (base_dir: the file's directory)

// Creates the applications of a scenario on `host` (which must be built
// with s.host / s.tcp). start() schedules them relative to the current time.
class ScenarioRunner {
 public:
  ScenarioRunner(SimHost& host, const Scenario& s);
  void start();
  // All experiments with an end are finished (receivers never end by
  // themselves; they count as done).
  bool done() const;
  // {"host": {...}, "board": {...}, "experiments": [ {"name":..., ...}, ... ],
  //  "host_stats": {...}, "sim_time_ps": ...}
  nlohmann::json results() const;

 private:
  struct Slot {
    const Experiment* e;
    std::unique_ptr<PingApp> ping;
    std::unique_ptr<UdpSender> us;
    std::unique_ptr<UdpReceiver> ur;
    std::unique_ptr<TcpClientApp> ts;
    std::unique_ptr<TcpServerApp> tr;
    std::unique_ptr<TcpRequestApp> tq;
    std::unique_ptr<RawSender> raw;
  };
  SimHost& host_;
  Scenario s_;
  std::vector<Slot> slots_;
};

}  // namespace l3vp::host
