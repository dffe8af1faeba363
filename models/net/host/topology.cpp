#include "topology.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>

#include "scenario_json.h"
#include "units.h"

namespace l3vp::host {

using nlohmann::json;
using namespace scenario_json;

namespace {

std::string idx(const char* section, size_t i) {
  return std::string(".") + section + "[" + std::to_string(i) + "]";
}

std::string dotted(uint32_t ip) {
  return std::to_string(ip >> 24) + "." + std::to_string(ip >> 16 & 0xff) + "." +
         std::to_string(ip >> 8 & 0xff) + "." + std::to_string(ip & 0xff);
}

// A node's name: a letter, then letters, digits or '_' (at most 32): it is a
// statistics key, a waveform scope and a file-name part.
void check_name(const json& j, const std::string& path, std::set<std::string>& taken, std::string& out) {
  if (!j.contains("name")) fail(path, "needs a \"name\"");
  get_string(j, "name", path, out);
  bool ok = !out.empty() && out.size() <= 32 && std::isalpha(static_cast<unsigned char>(out[0]));
  for (char c : out) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ok)
    fail(path + ".name", "'" + out + "' is not a name (a letter, then letters, digits or _; at most 32)");
  if (!taken.insert(out).second) fail(path + ".name", "'" + out + "' names two nodes");
}

// "set": {"key": value, ...} -> "key=value", by key.
std::vector<std::string> parse_sets(const json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "must be an object of configuration keys (as --set KEY=VALUE)");
  std::vector<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const json& v = it.value();
    if (v.is_string())
      out.push_back(it.key() + "=" + v.get<std::string>());
    else if (v.is_number() || v.is_boolean())
      out.push_back(it.key() + "=" + v.dump());
    else
      fail(path + "." + it.key(), "must be a string, a number or true/false");
  }
  return out;
}

TopoBoard parse_board(const json& j, size_t i, const std::string& base_dir, std::set<std::string>& names) {
  const std::string p = idx("boards", i);
  check_keys(j, p, {"name", "elf", "mac", "ip", "set", "params", "energy"});
  TopoBoard b;
  check_name(j, p, names, b.name);
  if (!j.contains("elf")) fail(p, "needs an \"elf\" (the board's firmware)");
  get_string(j, "elf", p, b.elf);
  if (b.elf.empty()) fail(p + ".elf", "must not be empty");
  if (b.elf[0] != '/' && !base_dir.empty()) b.elf = base_dir + "/" + b.elf;
  b.mac = {0x02, 0x00, 0x00, 0x00, 0x01, static_cast<uint8_t>(i + 1)};
  b.ip = 0xC0A8000A + static_cast<uint32_t>(i);  // 192.168.0.10 + i
  get_mac(j, "mac", p, b.mac);
  get_ip(j, "ip", p, b.ip);
  if (j.contains("set")) b.sets = parse_sets(j["set"], p + ".set");
  get_string(j, "energy", p, b.energy);
  b.params = json::object();
  if (j.contains("params")) {
    if (!j["params"].is_object()) fail(p + ".params", "must be an object of firmware parameters");
    b.params = j["params"];
    b.params_given = !b.params.empty();
    for (const char* k : {"board_ip", "mac"})
      if (b.params.contains(k))
        fail(p + ".params." + k,
             std::string("give the board's address as ") + p + (k[0] == 'm' ? ".mac" : ".ip"));
  }
  b.params["board_ip"] = dotted(b.ip);
  b.params["mac"] = format_mac(b.mac.data());
  return b;
}

const TopoBoard* find_board(const Topology& t, const std::string& name) {
  for (const TopoBoard& b : t.boards)
    if (b.name == name) return &b;
  return nullptr;
}

// A host: its "host" section and "experiments" are those of a single-board
// scenario, whose default destination is the peer board.
TopoHost parse_host(const json& j, size_t i, const Topology& t, const std::string& base_dir,
                    std::set<std::string>& names) {
  const std::string p = idx("hosts", i);
  check_keys(j, p, {"name", "peer", "host", "experiments"});
  TopoHost h;
  check_name(j, p, names, h.name);
  h.peer = t.boards.front().name;
  get_string(j, "peer", p, h.peer);
  const TopoBoard* peer = find_board(t, h.peer);
  if (!peer) fail(p + ".peer", "'" + h.peer + "' is not a board");
  json frag = {{"board", {{"mac", format_mac(peer->mac.data())}, {"ip", dotted(peer->ip)}}}};
  json hs = j.contains("host") ? j["host"] : json::object();
  if (!hs.is_object()) fail(p + ".host", "must be an object");
  if (!hs.contains("mac"))
    hs["mac"] = format_mac(std::array<uint8_t, 6>{2, 0, 0, 0, 2, uint8_t(i + 1)}.data());
  if (!hs.contains("ip")) hs["ip"] = dotted(0xC0A800C8 + static_cast<uint32_t>(i));  // 192.168.0.200 + i
  frag["host"] = hs;
  if (j.contains("experiments")) frag["experiments"] = j["experiments"];
  try {
    h.s = parse_scenario(frag, base_dir);  // a raw experiment's pcap: relative to the file
  } catch (const ScenarioError& e) {
    const std::string m = e.what();  // "scenario .host.ip: ..." -> "scenario .hosts[i].host.ip: ..."
    const std::string head = "scenario ";
    throw ScenarioError(m.rfind(head, 0) == 0 ? head + p + m.substr(head.size()) : m);
  }
  return h;
}

TopoSwitch parse_switch(const json& j, size_t i, std::set<std::string>& names) {
  const std::string p = idx("switches", i);
  if (!j.is_object()) fail(p, "must be an object");
  TopoSwitch s;
  check_name(j, p, names, s.name);
  const auto& rows = EthSwitchParams::rows();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "name") continue;
    const auto row =
        std::find_if(rows.begin(), rows.end(), [&it](const auto& r) { return it.key() == r.key; });
    if (row == rows.end()) {
      std::string known = "name";
      for (const auto& r : rows) known += std::string(", ") + r.key;
      fail(p + "." + it.key(), "unknown key (" + known + ")");
    }
    try {
      const param::Value v = param::parse_json(*row, it.value(), it.key());
      param::check(*row, v, it.key());
      param::store(row->field(s.p), v);
    } catch (const ConfigError& e) {
      const std::string m = e.what();  // "key 'latency_ns': why"
      const size_t c = m.find("': ");
      fail(p + "." + it.key(), c == std::string::npos ? m : m.substr(c + 3));
    }
  }
  return s;
}

TopoTap parse_tap(const json& j, size_t i, std::set<std::string>& names) {
  const std::string p = idx("taps", i);
  check_keys(j, p, {"name", "device"});
  TopoTap t;
  check_name(j, p, names, t.name);
  t.device = t.name;
  get_string(j, "device", p, t.device);
  bool ok = !t.device.empty() && t.device.size() <= 15;  // IFNAMSIZ - 1
  for (char c : t.device) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
  if (!ok)
    fail(p + ".device", "'" + t.device + "' is not a device name (letters, digits, _ or -; at most 15)");
  return t;
}

// What the links have taken: switch ports, and the boards, hosts and TAP
// devices linked.
struct Wiring {
  std::vector<std::vector<bool>> port_used;  // per switch
  std::vector<bool> board_linked, host_linked, tap_linked;
};

bool find_node(const Topology& t, const std::string& name, TopoEnd& e) {
  for (size_t i = 0; i < t.boards.size(); ++i)
    if (t.boards[i].name == name) return e = {TopoEnd::Kind::kBoard, i, 0}, true;
  for (size_t i = 0; i < t.hosts.size(); ++i)
    if (t.hosts[i].name == name) return e = {TopoEnd::Kind::kHost, i, 0}, true;
  for (size_t i = 0; i < t.switches.size(); ++i)
    if (t.switches[i].name == name) return e = {TopoEnd::Kind::kSwitch, i, 0}, true;
  for (size_t i = 0; i < t.taps.size(); ++i)
    if (t.taps[i].name == name) return e = {TopoEnd::Kind::kTap, i, 0}, true;
  return false;
}

unsigned parse_port(const std::string& text, const std::string& path, unsigned ports) {
  unsigned v = 0;
  bool ok = !text.empty() && text.size() <= 3;
  for (char c : text) ok = ok && std::isdigit(static_cast<unsigned char>(c)), v = v * 10 + unsigned(c - '0');
  if (!ok || v >= ports)
    fail(path, "port '" + text + "' is not a port of the switch (0.." + std::to_string(ports - 1) + ")");
  return v;
}

// "b0", "pc", "sw0" (its lowest free port) or "sw0:3".
TopoEnd resolve_end(const json& j, const char* k, const std::string& p, const Topology& t, Wiring& w) {
  const std::string path = p + "." + k;
  if (!j.contains(k) || !j[k].is_string())
    fail(path, "needs a node name (board, host, switch or switch:port)");
  const std::string text = j[k].get<std::string>();
  const size_t colon = text.find(':');
  TopoEnd e;
  if (!find_node(t, text.substr(0, colon), e)) fail(path, "'" + text.substr(0, colon) + "' is not a node");
  if (e.kind != TopoEnd::Kind::kSwitch) {
    if (colon != std::string::npos) fail(path, "only a switch has ports ('" + text + "')");
    std::vector<bool>& linked = e.kind == TopoEnd::Kind::kBoard  ? w.board_linked
                                : e.kind == TopoEnd::Kind::kHost ? w.host_linked
                                                                 : w.tap_linked;
    if (linked[e.index]) fail(path, "'" + text + "' is already linked (a board, host or TAP has one port)");
    linked[e.index] = true;
    return e;
  }
  std::vector<bool>& used = w.port_used[e.index];
  const unsigned ports = t.switches[e.index].p.ports;
  if (colon != std::string::npos) {
    e.port = parse_port(text.substr(colon + 1), path, ports);
    if (used[e.port])
      fail(path, "port " + std::to_string(e.port) + " of '" + t.switches[e.index].name + "' is taken");
  } else {
    while (e.port < ports && used[e.port]) ++e.port;
    if (e.port == ports) fail(path, "'" + text + "' has no free port (ports: " + std::to_string(ports) + ")");
  }
  used[e.port] = true;
  return e;
}

TopoLink parse_link(const json& j, size_t i, const Topology& t, Wiring& w) {
  const std::string p = idx("links", i);
  check_keys(j, p, {"a", "b", "mbps", "prop_delay", "reorder_timeout", "a_to_b", "b_to_a"});
  TopoLink l;
  l.a = resolve_end(j, "a", p, t, w);
  l.b = resolve_end(j, "b", p, t, w);
  if (l.a.kind == l.b.kind && l.a.index == l.b.index) fail(p, "links a node to itself");
  get_uint(j, "mbps", p, l.p.mbps, 1000);
  if (l.p.mbps != 10 && l.p.mbps != 100) fail(p + ".mbps", "must be 10 or 100");
  get_time(j, "prop_delay", p, l.p.prop_delay);
  get_time(j, "reorder_timeout", p, l.p.reorder_timeout);
  if (j.contains("a_to_b")) parse_imp(j["a_to_b"], p + ".a_to_b", l.p.imp[0]);
  if (j.contains("b_to_a")) parse_imp(j["b_to_a"], p + ".b_to_a", l.p.imp[1]);
  return l;
}

// Switches joined in a loop would forward a broadcast for ever (no
// spanning tree is modelled): the switch-to-switch links must form a forest.
void check_loop_free(const Topology& t) {
  std::vector<size_t> up(t.switches.size());
  std::iota(up.begin(), up.end(), 0);
  auto root = [&up](size_t x) {
    while (up[x] != x) x = up[x] = up[up[x]];
    return x;
  };
  for (size_t i = 0; i < t.links.size(); ++i) {
    const TopoLink& l = t.links[i];
    if (l.a.kind != TopoEnd::Kind::kSwitch || l.b.kind != TopoEnd::Kind::kSwitch) continue;
    const size_t ra = root(l.a.index), rb = root(l.b.index);
    if (ra == rb) fail(idx("links", i), "closes a loop of switches (no spanning tree is modelled)");
    up[ra] = rb;
  }
}

void check_addresses(const Topology& t) {
  std::map<Mac, std::string> macs;
  std::map<uint32_t, std::string> ips;
  auto add = [&](const Mac& m, uint32_t ip, const std::string& path) {
    if (m[0] & 1) fail(path + ".mac", "must be a unicast address");
    if (!macs.emplace(m, path).second) fail(path + ".mac", "is also the address of " + macs[m]);
    if (!ips.emplace(ip, path).second) fail(path + ".ip", "is also the address of " + ips[ip]);
  };
  for (size_t i = 0; i < t.boards.size(); ++i) add(t.boards[i].mac, t.boards[i].ip, idx("boards", i));
  for (size_t i = 0; i < t.hosts.size(); ++i)
    add(t.hosts[i].s.host.mac, t.hosts[i].s.host.ip, idx("hosts", i) + ".host");
}

const json& array_of(const json& j, const char* k, size_t max) {
  static const json kEmpty = json::array();
  if (!j.contains(k)) return kEmpty;
  const json& a = j[k];
  if (!a.is_array()) fail(std::string(".") + k, "must be an array");
  if (a.size() > max)
    fail(std::string(".") + k, "at most " + std::to_string(max) + " (got " + std::to_string(a.size()) + ")");
  return a;
}

void parse_links(const json& j, Topology& t) {
  Wiring w;
  for (const TopoSwitch& s : t.switches) w.port_used.emplace_back(s.p.ports, false);
  w.board_linked.assign(t.boards.size(), false);
  w.host_linked.assign(t.hosts.size(), false);
  w.tap_linked.assign(t.taps.size(), false);
  const json& links = array_of(j, "links", kMaxBoards + kMaxHosts + kMaxSwitches + kMaxTaps);
  for (size_t i = 0; i < links.size(); ++i) t.links.push_back(parse_link(links[i], i, t, w));
  for (size_t i = 0; i < t.boards.size(); ++i)
    if (!w.board_linked[i]) fail(idx("boards", i), "'" + t.boards[i].name + "' is on no link");
  for (size_t i = 0; i < t.hosts.size(); ++i)
    if (!w.host_linked[i]) fail(idx("hosts", i), "'" + t.hosts[i].name + "' is on no link");
  for (size_t i = 0; i < t.taps.size(); ++i)
    if (!w.tap_linked[i]) fail(idx("taps", i), "'" + t.taps[i].name + "' is on no link");
  check_loop_free(t);
}

}  // namespace

std::string Topology::end_name(const TopoEnd& e) const {
  switch (e.kind) {
    case TopoEnd::Kind::kBoard:
      return boards.at(e.index).name;
    case TopoEnd::Kind::kHost:
      return hosts.at(e.index).name;
    case TopoEnd::Kind::kTap:
      return taps.at(e.index).name;
    case TopoEnd::Kind::kSwitch:
      break;
  }
  return switches.at(e.index).name + ":" + std::to_string(e.port);
}

bool is_topology(const json& j) { return j.is_object() && j.contains("boards"); }

Topology parse_topology(const json& j, const std::string& base_dir, const std::string& elf_dir) {
  check_keys(j, "", {"boards", "hosts", "switches", "taps", "links", "duration", "comment"});
  Topology t;
  std::set<std::string> names;
  const json& boards = array_of(j, "boards", kMaxBoards);
  if (boards.empty()) fail(".boards", "needs at least one board");
  for (size_t i = 0; i < boards.size(); ++i)
    t.boards.push_back(parse_board(boards[i], i, elf_dir.empty() ? base_dir : elf_dir, names));
  const json& hosts = array_of(j, "hosts", kMaxHosts);
  for (size_t i = 0; i < hosts.size(); ++i) t.hosts.push_back(parse_host(hosts[i], i, t, base_dir, names));
  const json& switches = array_of(j, "switches", kMaxSwitches);
  for (size_t i = 0; i < switches.size(); ++i) t.switches.push_back(parse_switch(switches[i], i, names));
  const json& taps = array_of(j, "taps", kMaxTaps);
  for (size_t i = 0; i < taps.size(); ++i) t.taps.push_back(parse_tap(taps[i], i, names));
  check_addresses(t);
  parse_links(j, t);
  get_time_max(j, "duration", "", t.duration, kMaxScenarioPs);
  return t;
}

}  // namespace l3vp::host
