#include "scenario_json.h"

#include <set>

#include "format.h"
#include "units.h"

namespace l3vp::host::scenario_json {

using sc_core::sc_time;

[[noreturn]] void fail(const std::string& path, const std::string& msg) {
  throw ScenarioError("scenario " + path + ": " + msg);
}

void check_keys(const json& j, const std::string& path, std::initializer_list<const char*> allowed) {
  if (!j.is_object()) fail(path, "must be an object");
  std::set<std::string> ok(allowed.begin(), allowed.end());
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!ok.count(it.key())) fail(path + "." + it.key(), "unknown key");
}

void get_bool(const json& j, const char* k, const std::string& path, bool& out) {
  if (!j.contains(k)) return;
  if (!j[k].is_boolean()) fail(path + "." + k, "must be true or false");
  out = j[k].get<bool>();
}
void get_prob(const json& j, const char* k, const std::string& path, double& out) {
  if (!j.contains(k)) return;
  if (!j[k].is_number() || j[k].get<double>() < 0 || j[k].get<double>() > 1)
    fail(path + "." + k, "must be a probability in [0, 1]");
  out = j[k].get<double>();
}
void get_time(const json& j, const char* k, const std::string& path, sc_time& out) {
  if (!j.contains(k)) return;
  if (!j[k].is_string()) fail(path + "." + k, "must be a duration string such as \"40us\"");
  try {
    out = parse_duration(j[k].get<std::string>());
  } catch (const ScenarioError& e) {
    fail(path + "." + k, e.what());
  }
}
void get_time_max(const json& j, const char* k, const std::string& path, sc_time& out, uint64_t max_ps) {
  get_time(j, k, path, out);
  if (ps_of(out) > max_ps) fail(path + "." + k, "at most " + l3vp::format_duration(max_ps));
}
void get_string(const json& j, const char* k, const std::string& path, std::string& out) {
  if (!j.contains(k)) return;
  if (!j[k].is_string()) fail(path + "." + k, "must be a string");
  out = j[k].get<std::string>();
}
void get_ip(const json& j, const char* k, const std::string& path, uint32_t& out) {
  if (!j.contains(k)) return;
  if (!j[k].is_string() || !l3vp::parse_ip4(j[k].get<std::string>(), out))
    fail(path + "." + k, "must be a dotted IPv4 address");
}
void get_mac(const json& j, const char* k, const std::string& path, Mac& out) {
  if (!j.contains(k)) return;
  if (!j[k].is_string() || !l3vp::parse_mac(j[k].get<std::string>(), out.data()))
    fail(path + "." + k, "must be a MAC address aa:bb:cc:dd:ee:ff");
}

void parse_imp(const json& j, const std::string& path, EthImpairments& im) {
  check_keys(j, path, {"loss", "corrupt", "duplicate", "reorder", "extra_delay", "jitter", "seed"});
  get_prob(j, "loss", path, im.loss);
  get_prob(j, "corrupt", path, im.corrupt);
  get_prob(j, "duplicate", path, im.duplicate);
  get_prob(j, "reorder", path, im.reorder);
  get_time(j, "extra_delay", path, im.extra_delay);
  get_time(j, "jitter", path, im.jitter);
  get_uint(j, "seed", path, im.seed, UINT64_MAX);
}

void parse_tcp(const json& j, const std::string& path, TcpParams& t) {
  check_keys(
      j, path,
      {"mss", "rcv_wnd", "rto_initial", "rto_min", "rto_max", "clock_granularity", "init_cwnd", "nagle",
       "delayed_ack", "ato", "max_quickacks", "dupack_threshold", "max_retries", "syn_retries", "time_wait"});
  get_uint(j, "mss", path, t.mss, 65495);
  get_uint(j, "rcv_wnd", path, t.rcv_wnd, 65535);
  get_time(j, "rto_initial", path, t.rto_initial);
  get_time(j, "rto_min", path, t.rto_min);
  get_time(j, "rto_max", path, t.rto_max);
  get_time(j, "clock_granularity", path, t.clock_granularity);
  get_uint(j, "init_cwnd", path, t.init_cwnd, 1000);
  get_bool(j, "nagle", path, t.nagle);
  get_bool(j, "delayed_ack", path, t.delayed_ack);
  get_time(j, "ato", path, t.ato);
  get_uint(j, "max_quickacks", path, t.max_quickacks, 1000);
  get_uint(j, "dupack_threshold", path, t.dupack_threshold, 1000);
  get_uint(j, "max_retries", path, t.max_retries, 1000);
  get_uint(j, "syn_retries", path, t.syn_retries, 1000);
  get_time(j, "time_wait", path, t.time_wait);
  if (t.mss < 48) fail(path + ".mss", "must be at least 48");
}

}  // namespace l3vp::host::scenario_json
