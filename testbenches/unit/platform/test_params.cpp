// Parameter rows (models/common/params.h) and the platform's assembly of
// its configuration table from them (models/platform/config.cpp): each
// model's rows appear under its instance prefix, a fill reads the keys under
// whatever prefix it is given, and a bad value names the full key.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "config.h"
#include "leon3mp.h"
#include "tb_util.h"  // L3VP_SC_GTEST_MAIN

using namespace l3vp;

namespace {

std::map<std::string, PlatformConfig::ParamInfo> table_by_key() {
  std::map<std::string, PlatformConfig::ParamInfo> m;
  for (const PlatformConfig::ParamInfo& i : PlatformConfig::params()) m[i.key] = i;
  return m;
}

// Where each of a model's rows sits in the platform table: prefix + key, with
// the row's own default and doc.
template <typename P>
void expect_rows_under(const std::string& prefix, const param::Rows<P>& rows) {
  const auto t = table_by_key();
  for (const param::Row<P>& r : rows) {
    const std::string key = prefix + "." + r.key;
    auto it = t.find(key);
    ASSERT_NE(it, t.end()) << key << " is not in the table";
    EXPECT_EQ(it->second.def, r.def) << key;
    EXPECT_EQ(it->second.doc, r.doc) << key;
    EXPECT_EQ(t.count(r.key), 0u) << r.key << " also appears without its prefix";
  }
}

// A store holding the rows of `P` under `prefix`, with their defaults.
template <typename P>
void declare(param::Values& v, const std::string& prefix, const param::Rows<P>& rows) {
  for (const param::Row<P>& r : rows) v.declare(param::join(prefix, r.key), r);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(Params, ModelRowsAppearUnderTheirInstancePrefix) {
  expect_rows_under("uart", ApbuartParams::rows());
  expect_rows_under("gptimer", GptimerParams::rows());
  expect_rows_under("chksum", ChksumParams::rows());
  expect_rows_under("greth", GrethParams::rows());
  expect_rows_under("net", GrethParams::station_rows());
  expect_rows_under("energy", energy::EnergyParams::rows());
  expect_rows_under("net", EthLinkParams::rows());
  // Every key once; the platform's own rows and the instances' rows only.
  const auto all = PlatformConfig::params();
  std::set<std::string> keys;
  for (const auto& i : all) EXPECT_TRUE(keys.insert(i.key).second) << i.key << " twice";
  const size_t instance_rows = ApbuartParams::rows().size() + GptimerParams::rows().size() +
                               ChksumParams::rows().size() + GrethParams::rows().size() +
                               GrethParams::station_rows().size() + energy::EnergyParams::rows().size() +
                               EthLinkParams::rows().size();
  size_t under_instances = 0;
  for (const auto& i : all)
    for (const char* p : {"uart.", "gptimer.", "chksum.", "greth.", "energy.", "net."})
      if (i.key.rfind(p, 0) == 0) ++under_instances;
  EXPECT_EQ(under_instances, instance_rows);  // no other rows under those prefixes
  // The table order (README, --list-params): the platform's rows, the
  // instances, the platform's quantum_ns and dmi, the network.
  std::vector<std::string> sections;
  for (const auto& i : all) {
    const std::string s = i.key.substr(0, i.key.find('.'));
    if (sections.empty() || sections.back() != s) sections.push_back(s);
  }
  EXPECT_EQ(sections, (std::vector<std::string>{"mode", "clock_hz", "cpu", "icache", "dcache", "memory",
                                                "ahb", "apb", "uart", "gptimer", "chksum", "greth", "energy",
                                                "quantum_ns", "dmi", "net"}));
  // net: the GRETH's station address, then the link's rows.
  EXPECT_EQ(all[all.size() - EthLinkParams::rows().size() - 1].key, "net.mac");
  EXPECT_EQ(all.back().key, "net.to_board.seed");
}

TEST(Params, TheConfigurationFillsAModelsParams) {
  PlatformConfig c;
  c.set("greth.csum_offload", "true");  // a Bool row into an unsigned field
  c.set("net.mac", "02:00:00:00:00:99");
  c.set("net.to_board.jitter_ns", "3us");  // an Ns row into an sc_time
  c.set("uart.in", "rx.txt");
  GrethParams g;
  c.fill("greth", GrethParams::rows(), g);
  EXPECT_EQ(g.csum_offload, 1u);
  EXPECT_EQ(g.mac, "");  // not this row set's key
  c.fill("net", GrethParams::station_rows(), g);
  EXPECT_EQ(g.mac, "02:00:00:00:00:99");
  EthLinkParams l;
  c.fill("net", EthLinkParams::rows(), l);
  EXPECT_EQ(l.imp[1].jitter, sc_core::sc_time(3, sc_core::SC_US));
  ApbuartParams u;
  c.fill("uart", ApbuartParams::rows(), u);
  EXPECT_EQ(u.in, "rx.txt");
  EXPECT_EQ(u.out, "-");
  // The platform's mapping goes through the same rows.
  EXPECT_EQ(Leon3mp::greth_params(c).csum_offload, 1u);
  EXPECT_EQ(Leon3mp::link_params(c).imp[1].jitter, sc_core::sc_time(3, sc_core::SC_US));
  // get<T>: the value of an instance row; other keys and types are a bug.
  EXPECT_EQ(c.get<std::string>("uart.in"), "rx.txt");
  EXPECT_THROW(c.get<bool>("uart.in"), std::logic_error);
  EXPECT_THROW(c.get<uint64_t>("clock_hz"), std::logic_error);  // a member, not an instance row
}

TEST(Params, AFillWithAnotherPrefixReadsOtherKeys) {
  param::Values v;  // two boards in one store
  declare(v, "a.greth", GrethParams::rows());
  declare(v, "b.greth", GrethParams::rows());
  declare(v, "a.net", EthLinkParams::rows());
  declare(v, "b.net", EthLinkParams::rows());
  v.set("b.greth.csum_offload", param::parse_text(GrethParams::rows()[0], "true", "b.greth.csum_offload"));
  v.set("b.net.speed_mbps", uint64_t(10));
  v.set("b.net.to_host.loss", 0.5);
  GrethParams ga, gb;
  param::fill(v, "a.greth", GrethParams::rows(), ga);
  param::fill(v, "b.greth", GrethParams::rows(), gb);
  EXPECT_EQ(ga.csum_offload, 0u);
  EXPECT_EQ(gb.csum_offload, 1u);
  EthLinkParams la, lb;
  param::fill(v, "a.net", EthLinkParams::rows(), la);
  param::fill(v, "b.net", EthLinkParams::rows(), lb);
  EXPECT_EQ(la.mbps, 100u);
  EXPECT_EQ(lb.mbps, 10u);
  EXPECT_EQ(la.imp[0].loss, 0.0);
  EXPECT_EQ(lb.imp[0].loss, 0.5);
  // put() writes under its prefix only.
  lb.prop_delay = sc_core::sc_time(250, sc_core::SC_NS);
  param::put(v, "a.net", EthLinkParams::rows(), lb);
  EXPECT_EQ(std::get<uint64_t>(v.get("a.net.propagation_ns")), 250u);
  EXPECT_EQ(std::get<uint64_t>(v.get("b.net.propagation_ns")), 0u);
  // A prefix without declared keys is a programming error, not a default.
  GrethParams gc;
  EXPECT_THROW(param::fill(v, "c.greth", GrethParams::rows(), gc), std::logic_error);
}

TEST(Params, ABadValueNamesTheFullKey) {
  param::Values v;
  declare(v, "b.net", EthLinkParams::rows());
  declare(v, "b.greth", GrethParams::rows());
  // Parsing through the row, under the name the caller gives.
  EXPECT_EQ(error_of([] { param::parse_text(GrethParams::rows()[0], "maybe", "b.greth.csum_offload"); }),
            "key 'b.greth.csum_offload': must be true or false (got \"maybe\")");
  // A value stored unchecked (as put() does) is refused by the fill.
  v.set("b.net.speed_mbps", uint64_t(1000));
  EthLinkParams l;
  EXPECT_EQ(error_of([&] { param::fill(v, "b.net", EthLinkParams::rows(), l); }),
            "key 'b.net.speed_mbps': must be 10 or 100 (got 1000)");
  // The platform's configuration: same messages under the platform's prefixes.
  PlatformConfig c;
  EXPECT_EQ(error_of([&] { c.set("net.speed_mbps", "42"); }),
            "key 'net.speed_mbps': must be 10 or 100 (got 42)");
  EXPECT_EQ(error_of([&] { c.set("greth.csum_offload", "1"); }),
            "key 'greth.csum_offload': must be true or false (got \"1\")");
  EXPECT_EQ(error_of([&] { c.set("net.to_board.jitter_ns", "2s"); }),
            "key 'net.to_board.jitter_ns': must be at most 1 s (got 2000000000)");
  EXPECT_EQ(
      error_of([] { PlatformConfig::from_json(nlohmann::json::parse(R"({"chksum": {"enable": "yes"}})")); }),
      "key 'chksum.enable': must be true or false");
  EXPECT_EQ(error_of([] { PlatformConfig::from_json(nlohmann::json::parse(R"({"uart": {"baud": 9600}})")); }),
            "unknown key 'uart.baud'");
}

namespace {
void build() {}  // no platform: the rows and the configuration only
}  // namespace
L3VP_SC_GTEST_MAIN(build)
