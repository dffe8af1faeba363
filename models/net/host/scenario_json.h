// The JSON helpers of the scenario parsers (scenario.cpp, topology.cpp):
// strict keys, typed values, and every error a ScenarioError naming the
// JSON path ("scenario .host.ip: must be a dotted IPv4 address").
#pragma once
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>

#include "eth_link.h"
#include "scenario.h"
#include "tcp.h"
#include "wire.h"

namespace l3vp::host::scenario_json {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& msg);
// Rejects keys not in `allowed` (typos must not pass silently).
void check_keys(const json& j, const std::string& path, std::initializer_list<const char*> allowed);
template <typename T>
void get_uint(const json& j, const char* k, const std::string& path, T& out, uint64_t max) {
  if (!j.contains(k)) return;
  const json& v = j[k];
  if (!v.is_number_unsigned() || v.get<uint64_t>() > max)
    fail(path + "." + k, "must be an integer in [0, " + std::to_string(max) + "]");
  out = static_cast<T>(v.get<uint64_t>());
}
void get_bool(const json& j, const char* k, const std::string& path, bool& out);
void get_prob(const json& j, const char* k, const std::string& path, double& out);
void get_time(const json& j, const char* k, const std::string& path, sc_core::sc_time& out);
// A duration of at most `max_ps`.
void get_time_max(const json& j, const char* k, const std::string& path, sc_core::sc_time& out,
                  uint64_t max_ps);
void get_string(const json& j, const char* k, const std::string& path, std::string& out);
void get_ip(const json& j, const char* k, const std::string& path, uint32_t& out);
void get_mac(const json& j, const char* k, const std::string& path, Mac& out);
// One direction's impairments ("loss", "corrupt", ..., "seed").
void parse_imp(const json& j, const std::string& path, EthImpairments& im);
// A TCP parameter block ("mss", "rcv_wnd", ...).
void parse_tcp(const json& j, const std::string& path, TcpParams& t);

}  // namespace l3vp::host::scenario_json
