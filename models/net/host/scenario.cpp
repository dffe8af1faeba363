#include "scenario.h"

#include <pcap/pcap.h>

#include <cctype>
#include <memory>
#include <set>

#include "format.h"
#include "input_file.h"
#include "scenario_json.h"
#include "units.h"

namespace l3vp::host {

using nlohmann::json;
using sc_core::sc_time;
using namespace scenario_json;

sc_time parse_duration(const std::string& s) {
  uint64_t ps;
  try {
    ps = l3vp::parse_duration_ps(s, /*bare_zero=*/true);
  } catch (const l3vp::UnitsError& e) {
    throw ScenarioError(e.what());
  }
  static const uint64_t per_ps = sc_time(1, sc_core::SC_PS).value();
  return sc_time::from_value(ps * per_ps);
}

namespace {

// The planned end of a schedule of `n` events `step` apart from `start`,
// refused beyond kMaxScenarioPs (a scenario that would run for days).
void check_schedule(const std::string& path, const sc_time& start, uint64_t n, const sc_time& step,
                    const char* what) {
  static const uint64_t per_ps = sc_time(1, sc_core::SC_PS).value();
  const unsigned __int128 end_ps =
      (unsigned __int128)(start.value() / per_ps) + (unsigned __int128)n * (step.value() / per_ps);
  if (end_ps > kMaxScenarioPs)
    fail(path, std::string("start + ") + what + " ends after " + l3vp::format_duration(kMaxScenarioPs) +
                   " of simulated time (limit: docs/network.md \"Scenario limits\")");
}

// ---------------------------------------------------------------- raw frames

std::string raw_limit_msg(size_t n) {
  return "a frame of " + std::to_string(n) + " bytes: at most " + std::to_string(kMaxRawFrameBytes) +
         " (without FCS; docs/network.md \"Raw frames\")";
}

// Hex digits, whitespace anywhere (also between the two digits of a byte).
Bytes parse_hex(const std::string& text, const std::string& path) {
  Bytes out;
  int hi = -1;
  size_t digits = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isspace(c)) continue;
    if (!std::isxdigit(c))
      fail(path, "bad hex digit " +
                     (std::isprint(c) ? "'" + std::string(1, char(c)) + "'" : l3vp::hex(c, 2)) +
                     " at character " + std::to_string(i));
    const int v = std::isdigit(c) ? c - '0' : std::tolower(c) - 'a' + 10;
    ++digits;
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<uint8_t>(hi << 4 | v));
      hi = -1;
      if (out.size() > kMaxRawFrameBytes)
        fail(path, "a frame of more than " + std::to_string(kMaxRawFrameBytes) +
                       " bytes (the limit, without FCS; docs/network.md \"Raw frames\")");
    }
  }
  if (hi >= 0) fail(path, "odd number of hex digits (" + std::to_string(digits) + ")");
  return out;
}

bool get_fcs(const json& j, const std::string& path, bool dflt) {
  if (!j.contains("fcs")) return dflt;
  if (!j["fcs"].is_string() || (j["fcs"] != "good" && j["fcs"] != "bad"))
    fail(path + ".fcs", "must be \"good\" or \"bad\"");
  return j["fcs"] == "bad";
}

// The records of a pcap file (link type Ethernet, frames without FCS), read
// through libpcap. With `times`, each frame's `at` is its time stamp minus
// the first record's.
void read_raw_pcap(const std::string& file, const std::string& path, bool bad_fcs, bool pad, bool times,
                   RawParams& r) {
  try {
    l3vp::check_input_file(file, kMaxRawPcapBytes, "pcap");
  } catch (const l3vp::InputFileError& e) {
    fail(path, e.what());
  }
  char err[PCAP_ERRBUF_SIZE] = "";
  std::unique_ptr<pcap_t, void (*)(pcap_t*)> pc(
      pcap_open_offline_with_tstamp_precision(file.c_str(), PCAP_TSTAMP_PRECISION_NANO, err), pcap_close);
  if (!pc) fail(path, "pcap '" + file + "': " + err);
  if (pcap_datalink(pc.get()) != DLT_EN10MB)
    fail(path, "pcap '" + file + "': link type " + std::to_string(pcap_datalink(pc.get())) +
                   ", not Ethernet (DLT_EN10MB)");
  uint64_t first_ns = 0, prev_ns = 0;
  for (size_t k = 0;; ++k) {
    pcap_pkthdr* h = nullptr;
    const u_char* data = nullptr;
    const int rc = pcap_next_ex(pc.get(), &h, &data);
    if (rc == PCAP_ERROR_BREAK) break;  // end of file
    const std::string rec = "pcap '" + file + "' record " + std::to_string(k);
    if (rc != 1) fail(path, rec + ": " + pcap_geterr(pc.get()));
    if (h->caplen < h->len)
      fail(path, rec + ": captured " + std::to_string(h->caplen) + " of " + std::to_string(h->len) +
                     " bytes (a truncated capture is not the frame)");
    if (h->caplen > kMaxRawFrameBytes) fail(path, rec + ": " + raw_limit_msg(h->caplen));
    if (r.frames.size() >= kMaxDatagrams)
      fail(path, "pcap '" + file + "': more than " + std::to_string(kMaxDatagrams) + " frames");
    const uint64_t ns = uint64_t(h->ts.tv_sec) * 1000000000ull + uint64_t(h->ts.tv_usec);
    if (k == 0) first_ns = prev_ns = ns;
    if (times && ns < prev_ns) fail(path, rec + ": time stamp earlier than the record before it");
    prev_ns = ns;
    RawFrame f;
    f.data.assign(data, data + h->caplen);
    f.bad_fcs = bad_fcs;
    f.pad = pad;
    static const uint64_t per_ps = sc_time(1, sc_core::SC_PS).value();
    f.at = sc_time::from_value((ns - first_ns) * 1000 * per_ps);
    r.frames.push_back(std::move(f));
  }
}

void parse_raw(const json& e, const std::string& p, const std::string& base_dir, RawParams& r) {
  check_keys(e, p,
             {"type", "name", "frames", "pcap", "pcap_times", "fcs", "start", "spacing", "repeat", "pad",
              "comment"});
  get_time(e, "start", p, r.start);
  get_time(e, "spacing", p, r.spacing);
  get_uint(e, "repeat", p, r.repeat, kMaxDatagrams);
  bool pad = true;
  get_bool(e, "pad", p, pad);
  const bool bad_fcs = get_fcs(e, p, false);
  if (e.contains("frames") == e.contains("pcap")) fail(p, "needs either \"frames\" or \"pcap\"");
  bool pcap_times = false;
  get_bool(e, "pcap_times", p, pcap_times);
  if (pcap_times && !e.contains("pcap")) fail(p + ".pcap_times", "needs \"pcap\"");
  if (e.contains("pcap")) {
    if (!e["pcap"].is_string() || e["pcap"].get<std::string>().empty())
      fail(p + ".pcap", "must be a file name");
    std::string file = e["pcap"].get<std::string>();
    if (file[0] != '/' && !base_dir.empty()) file = base_dir + "/" + file;
    read_raw_pcap(file, p + ".pcap", bad_fcs, pad, pcap_times, r);
    r.timed = pcap_times;
    if (r.frames.empty()) fail(p + ".pcap", "pcap '" + file + "' holds no frames");
  } else {
    const json& fs = e["frames"];
    if (!fs.is_array() || fs.empty()) fail(p + ".frames", "must be a non-empty array of frames");
    if (fs.size() > kMaxDatagrams)
      fail(p + ".frames", "at most " + std::to_string(kMaxDatagrams) + " frames");
    size_t timed = 0;
    for (size_t k = 0; k < fs.size(); ++k) {
      const std::string fp = p + ".frames[" + std::to_string(k) + "]";
      const json& x = fs[k];
      RawFrame f;
      f.bad_fcs = bad_fcs;
      f.pad = pad;
      if (x.is_string()) {
        f.data = parse_hex(x.get<std::string>(), fp);
      } else if (x.is_object()) {
        check_keys(x, fp, {"hex", "fcs", "pad", "at", "comment"});
        get_bool(x, "pad", fp, f.pad);
        if (!x.contains("hex") || !x["hex"].is_string()) fail(fp + ".hex", "must be a string of hex digits");
        f.data = parse_hex(x["hex"].get<std::string>(), fp + ".hex");
        f.bad_fcs = get_fcs(x, fp, bad_fcs);
        if (x.contains("at")) {
          get_time(x, "at", fp, f.at);
          ++timed;
          if (k > 0 && f.at < r.frames.back().at) fail(fp + ".at", "earlier than the frame before it");
        }
      } else {
        fail(fp, "must be a hex string or an object {\"hex\": ...}");
      }
      r.frames.push_back(std::move(f));
    }
    if (timed != 0 && timed != fs.size()) fail(p + ".frames", "either every frame has \"at\" or none");
    r.timed = timed != 0;
  }
  if (r.timed) {
    if (e.contains("spacing")) fail(p + ".spacing", "not with per-frame times (\"at\" / \"pcap_times\")");
    if (r.repeat != 1) fail(p + ".repeat", "must be 1 with per-frame times (\"at\" / \"pcap_times\")");
  }
  if (r.repeat == 0) fail(p + ".repeat", "must be at least 1");
  const uint64_t n = uint64_t(r.frames.size()) * r.repeat;
  if (n > kMaxDatagrams)
    fail(p, "frames * repeat = " + std::to_string(n) + ": at most " + std::to_string(kMaxDatagrams));
  if (r.timed)
    check_schedule(p, r.start + r.frames.back().at, 0, sc_time(), "the last frame's time");
  else
    check_schedule(p, r.start, n, r.spacing, "frames * repeat * spacing");
}

// The "host" section: the PC's addresses, latency model, ARP, transmit queue
// and TCP parameters.
void parse_host(const json& h, Scenario& s) {
  check_keys(h, ".host",
             {"mac", "ip", "netmask", "rx_latency", "tx_latency", "rx_per_byte", "tx_per_byte",
              "wake_latency", "idle_threshold", "ttl", "seed", "arp_retry", "arp_tries", "tx_queue", "tcp"});
  get_mac(h, "mac", ".host", s.host.mac);
  get_ip(h, "ip", ".host", s.host.ip);
  get_ip(h, "netmask", ".host", s.host.netmask);
  get_time(h, "rx_latency", ".host", s.host.rx_latency);
  get_time(h, "tx_latency", ".host", s.host.tx_latency);
  // The latency model's other terms (docs/network.md "Host latency model").
  get_time_max(h, "rx_per_byte", ".host", s.host.rx_per_byte, kMaxPerBytePs);
  get_time_max(h, "tx_per_byte", ".host", s.host.tx_per_byte, kMaxPerBytePs);
  get_time_max(h, "wake_latency", ".host", s.host.wake_latency, kMaxScenarioPs);
  get_time_max(h, "idle_threshold", ".host", s.host.idle_threshold, kMaxScenarioPs);
  if (s.host.wake_latency != sc_time() && !h.contains("idle_threshold"))
    fail(".host.wake_latency", "needs idle_threshold (how long the host must be idle before it applies)");
  get_uint(h, "ttl", ".host", s.host.ttl, 255);
  get_uint(h, "seed", ".host", s.host.seed, UINT64_MAX);
  get_time(h, "arp_retry", ".host", s.host.arp_retry);
  get_uint(h, "arp_tries", ".host", s.host.arp_tries, 100);
  get_uint(h, "tx_queue", ".host", s.host.tx_queue, kMaxTxQueue);
  if (s.host.tx_queue == 0) fail(".host.tx_queue", "must be at least 1 frame");
  if (h.contains("tcp")) parse_tcp(h["tcp"], ".host.tcp", s.tcp);
}

}  // namespace

Scenario parse_scenario(const json& j, const std::string& base_dir) {
  Scenario s;
  check_keys(j, "", {"host", "board", "link", "experiments", "duration", "comment"});
  if (j.contains("host")) parse_host(j["host"], s);
  if (j.contains("board")) {
    check_keys(j["board"], ".board", {"mac", "ip", "params"});
    get_mac(j["board"], "mac", ".board", s.board_mac);
    get_ip(j["board"], "ip", ".board", s.board_ip);
    if (j["board"].contains("params")) {
      if (!j["board"]["params"].is_object())
        fail(".board.params", "must be an object of firmware parameters");
      s.board_params = j["board"]["params"];
    }
  }
  s.has_link = j.contains("link");
  if (j.contains("link")) {
    const json& l = j["link"];
    check_keys(
        l, ".link",
        {"mbps", "prop_delay", "switch_hop", "switch_latency", "reorder_timeout", "to_board", "to_host"});
    get_uint(l, "mbps", ".link", s.link.mbps, 1000);
    if (s.link.mbps != 10 && s.link.mbps != 100 && s.link.mbps != 1000)
      fail(".link.mbps", "must be 10, 100 or 1000");
    get_time(l, "prop_delay", ".link", s.link.prop_delay);
    get_bool(l, "switch_hop", ".link", s.link.switch_hop);
    get_time(l, "switch_latency", ".link", s.link.switch_latency);
    get_time(l, "reorder_timeout", ".link", s.link.reorder_timeout);
    if (l.contains("to_host")) parse_imp(l["to_host"], ".link.to_host", s.link.imp[0]);
    if (l.contains("to_board")) parse_imp(l["to_board"], ".link.to_board", s.link.imp[1]);
  }
  get_time(j, "duration", "", s.duration);
  if (ps_of(s.duration) > kMaxScenarioPs)
    fail(".duration", "at most " + l3vp::format_duration(kMaxScenarioPs) +
                          " (limit: docs/network.md \"Scenario limits\")");
  uint64_t connections = 0;  // over all experiments
  if (j.contains("experiments")) {
    if (!j["experiments"].is_array()) fail(".experiments", "must be an array");
    if (j["experiments"].size() > kMaxExperiments)
      fail(".experiments", "at most " + std::to_string(kMaxExperiments) + " experiments (got " +
                               std::to_string(j["experiments"].size()) + ")");
    for (size_t i = 0; i < j["experiments"].size(); ++i) {
      const json& e = j["experiments"][i];
      const std::string p = ".experiments[" + std::to_string(i) + "]";
      if (!e.is_object() || !e.contains("type") || !e["type"].is_string()) fail(p, "needs a \"type\" string");
      const std::string type = e["type"].get<std::string>();
      Experiment x{};
      x.name = e.contains("name") && e["name"].is_string() ? e["name"].get<std::string>()
                                                           : type + "#" + std::to_string(i);
      if (type == "ping") {
        x.type = Experiment::Type::kPing;
        check_keys(e, p, {"type", "name", "dst", "count", "size", "interval", "timeout", "start", "id"});
        x.ping.dst = s.board_ip;
        get_ip(e, "dst", p, x.ping.dst);
        get_uint(e, "count", p, x.ping.count, 65535);
        get_uint(e, "size", p, x.ping.size, 1472);
        get_time(e, "interval", p, x.ping.interval);
        get_time(e, "timeout", p, x.ping.timeout);
        get_time(e, "start", p, x.ping.start);
        get_uint(e, "id", p, x.ping.id, 65535);
        check_schedule(p, x.ping.start, x.ping.count, x.ping.interval, "count * interval");
      } else if (type == "udp_send") {
        x.type = Experiment::Type::kUdpSend;
        check_keys(e, p, {"type", "name", "dst", "sport", "dport", "size", "count", "delay", "start"});
        x.udp_send.dst = s.board_ip;
        get_ip(e, "dst", p, x.udp_send.dst);
        get_uint(e, "sport", p, x.udp_send.sport, 65535);
        get_uint(e, "dport", p, x.udp_send.dport, 65535);
        get_uint(e, "size", p, x.udp_send.size, 1472);
        get_uint(e, "count", p, x.udp_send.count, kMaxDatagrams);
        get_time(e, "delay", p, x.udp_send.delay);
        get_time(e, "start", p, x.udp_send.start);
        check_schedule(p, x.udp_send.start, x.udp_send.count, x.udp_send.delay, "count * delay");
      } else if (type == "udp_recv") {
        x.type = Experiment::Type::kUdpRecv;
        check_keys(e, p, {"type", "name", "port", "expect", "echo"});
        get_uint(e, "port", p, x.udp_recv.port, 65535);
        get_uint(e, "expect", p, x.udp_recv.expect, kMaxDatagrams);
        get_bool(e, "echo", p, x.udp_recv.echo);
      } else if (type == "tcp_send") {
        x.type = Experiment::Type::kTcpSend;
        check_keys(e, p, {"type", "name", "dst", "dport", "bytes", "connections", "start", "stagger"});
        x.tcp_send.dst = s.board_ip;
        get_ip(e, "dst", p, x.tcp_send.dst);
        get_uint(e, "dport", p, x.tcp_send.dport, 65535);
        get_uint(e, "bytes", p, x.tcp_send.bytes, 0xFFFFFFFEull);
        get_uint(e, "connections", p, x.tcp_send.connections, kMaxConnections);
        get_time(e, "start", p, x.tcp_send.start);
        get_time(e, "stagger", p, x.tcp_send.stagger);
        check_schedule(p, x.tcp_send.start, x.tcp_send.connections, x.tcp_send.stagger,
                       "connections * stagger");
        connections += x.tcp_send.connections;
      } else if (type == "tcp_recv") {
        x.type = Experiment::Type::kTcpRecv;
        check_keys(e, p, {"type", "name", "port", "send_bytes"});
        get_uint(e, "port", p, x.tcp_recv.port, 65535);
        get_uint(e, "send_bytes", p, x.tcp_recv.send_bytes, 0xFFFFFFFEull);
      } else if (type == "tcp_request") {
        x.type = Experiment::Type::kTcpRequest;
        check_keys(e, p,
                   {"type", "name", "dst", "dport", "request", "expect", "prompt", "connections", "start",
                    "stagger", "interval"});
        x.tcp_request.dst = s.board_ip;
        get_ip(e, "dst", p, x.tcp_request.dst);
        get_uint(e, "dport", p, x.tcp_request.dport, 65535);
        get_string(e, "request", p, x.tcp_request.request);
        get_string(e, "expect", p, x.tcp_request.expect);
        get_string(e, "prompt", p, x.tcp_request.prompt);
        get_uint(e, "connections", p, x.tcp_request.connections, kMaxConnections);
        get_time(e, "start", p, x.tcp_request.start);
        get_time(e, "stagger", p, x.tcp_request.stagger);
        get_time(e, "interval", p, x.tcp_request.interval);
        check_schedule(p, x.tcp_request.start, x.tcp_request.connections, x.tcp_request.stagger,
                       "connections * stagger");
        check_schedule(p,
                       x.tcp_request.start +
                           sc_time::from_value(x.tcp_request.stagger.value() * x.tcp_request.connections),
                       x.tcp_request.request.size(), x.tcp_request.interval,
                       "... + request bytes * interval");
        connections += x.tcp_request.connections;
      } else if (type == "raw") {
        x.type = Experiment::Type::kRaw;
        parse_raw(e, p, base_dir, x.raw);
      } else {
        fail(p + ".type", "unknown experiment '" + type +
                              "' (ping, udp_send, udp_recv, tcp_send, tcp_recv, tcp_request, raw)");
      }
      if (connections > kMaxConnections)
        fail(p,
             "more than " + std::to_string(kMaxConnections) +
                 " TCP connections in all experiments together (limit: docs/network.md \"Scenario limits\")");
      s.experiments.push_back(x);
    }
  }
  return s;
}

json read_scenario_json(const std::string& path) {
  std::string text;
  try {
    text = l3vp::read_input_file(path, l3vp::kMaxJsonBytes, "scenario");
  } catch (const l3vp::InputFileError& e) {
    throw ScenarioError(e.what());
  }
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error; out_of_range for a number such as 1e400
    std::string m = e.what();
    const auto p = m.find("] ");
    throw ScenarioError("scenario '" + path + "': " + (p == std::string::npos ? m : m.substr(p + 2)));
  }
}

std::string scenario_dir(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash == 0 ? 1 : slash);
}

Scenario load_scenario(const std::string& path) {
  return parse_scenario(read_scenario_json(path), scenario_dir(path));
}

ScenarioRunner::ScenarioRunner(SimHost& host, const Scenario& s) : host_(host), s_(s) {
  for (const Experiment& e : s_.experiments) {
    Slot sl{&e, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    switch (e.type) {
      case Experiment::Type::kPing:
        sl.ping = std::make_unique<PingApp>(host_, e.ping);
        break;
      case Experiment::Type::kUdpSend:
        sl.us = std::make_unique<UdpSender>(host_, e.udp_send);
        break;
      case Experiment::Type::kUdpRecv:
        sl.ur = std::make_unique<UdpReceiver>(host_, e.udp_recv);
        break;
      case Experiment::Type::kTcpSend:
        sl.ts = std::make_unique<TcpClientApp>(host_, e.tcp_send);
        break;
      case Experiment::Type::kTcpRecv:
        sl.tr = std::make_unique<TcpServerApp>(host_, e.tcp_recv);
        break;
      case Experiment::Type::kTcpRequest:
        sl.tq = std::make_unique<TcpRequestApp>(host_, e.tcp_request);
        break;
      case Experiment::Type::kRaw:
        sl.raw = std::make_unique<RawSender>(host_, e.raw);
        break;
    }
    slots_.push_back(std::move(sl));
  }
}

void ScenarioRunner::start() {
  // Receivers first, so they are bound before any traffic can arrive.
  for (Slot& sl : slots_) {
    if (sl.ur) sl.ur->start();
    if (sl.tr) sl.tr->start();
  }
  for (Slot& sl : slots_) {
    if (sl.ping) sl.ping->start();
    if (sl.us) sl.us->start();
    if (sl.ts) sl.ts->start();
    if (sl.tq) sl.tq->start();
    if (sl.raw) sl.raw->start();
  }
}

bool ScenarioRunner::done() const {
  for (const Slot& sl : slots_) {
    if (sl.ping && !sl.ping->done()) return false;
    if (sl.us && !sl.us->done()) return false;
    if (sl.ts && !sl.ts->done()) return false;
    if (sl.tq && !sl.tq->done()) return false;
    if (sl.raw && !sl.raw->done()) return false;
  }
  return true;
}

json ScenarioRunner::results() const {
  json ex = json::array();
  for (const Slot& sl : slots_) {
    json r = sl.ping  ? sl.ping->to_json()
             : sl.us  ? sl.us->to_json()
             : sl.ur  ? sl.ur->to_json()
             : sl.ts  ? sl.ts->to_json()
             : sl.tq  ? sl.tq->to_json()
             : sl.raw ? sl.raw->to_json()
                      : sl.tr->to_json();
    r["name"] = sl.e->name;
    ex.push_back(r);
  }
  return {
      {"host", {{"mac", mac_str(s_.host.mac)}, {"ip", ip4_str(s_.host.ip)}, {"tx_queue", s_.host.tx_queue}}},
      {"board", {{"mac", mac_str(s_.board_mac)}, {"ip", ip4_str(s_.board_ip)}}},
      {"sim_time_ps", ps_of(sc_core::sc_time_stamp())},
      {"done", done()},
      {"experiments", ex},
      {"host_stats", host_.stats_json()}};
}

}  // namespace l3vp::host
