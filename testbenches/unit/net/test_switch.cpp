// EthSwitch tests: learning and forwarding, exact store-and-forward timing
// (same and mixed speeds, against EthLink's built-in switch hop), output
// queues (frame and byte limits, incast, back-to-back departures),
// filtering, flooding, bad frames, ageing, a full table, arbitrary input,
// statistics, probes, parameter rows and determinism.
//
// One SystemC elaboration per process: every switch the tests need is built
// in the bench, each with its own links and endpoints; a test uses its own
// network and only times relative to its own start.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

#include "eth_link.h"
#include "eth_switch.h"
#include "probe_registry.h"
#include "stats.h"

namespace l3vp::test {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

sc_time now() { return sc_core::sc_time_stamp(); }
void run(const sc_time& dt) { sc_core::sc_start(dt); }
void run_until(const sc_time& t) { run(t - now()); }

// A station on a switch port: records what its link delivers.
struct Endpoint : EthPort {
  struct Rx {
    EthFrame f;
    sc_time start, end;  // sc_time_stamp() at frame_start / frame_in
  };
  std::vector<Rx> rx;
  sc_time last_start;
  void frame_start(const EthFrame&) override { last_start = now(); }
  void frame_in(const EthFrame& f) override { rx.push_back({f, last_start, now()}); }
};

using Mac = std::array<uint8_t, 6>;
// Station i's address: 02:00:00:00:00:<i+1> (locally administered unicast).
Mac station(unsigned i) { return {2, 0, 0, 0, 0, uint8_t(i + 1)}; }
const Mac kBroadcast = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
const Mac kMulticast = {0x01, 0x00, 0x5E, 0x00, 0x00, 0xFB};

// A frame of `len` bytes from `sa` to `da`, type `type`, tagged with `tag`
// (bytes 14..17) so deliveries can be told apart.
EthFrame frame(const Mac& da, const Mac& sa, size_t len, uint32_t tag = 0, uint16_t type = 0x0800) {
  EthFrame f;
  f.data.assign(len, 0);
  for (size_t i = 0; i < 6 && i < len; ++i) f.data[i] = da[i];
  for (size_t i = 0; i < 6 && 6 + i < len; ++i) f.data[6 + i] = sa[i];
  if (len >= 14) {
    f.data[12] = uint8_t(type >> 8);
    f.data[13] = uint8_t(type);
  }
  for (size_t i = 18; i < len; ++i) f.data[i] = uint8_t(i);
  for (size_t i = 0; i < 4 && 14 + i < len; ++i) f.data[14 + i] = uint8_t(tag >> (24 - 8 * i));
  return f;
}
uint32_t tag_of(const EthFrame& f) {
  return uint32_t(f.data[14]) << 24 | uint32_t(f.data[15]) << 16 | uint32_t(f.data[16]) << 8 | f.data[17];
}

// A switch with one EthLink per port: end 0 = the station, end 1 = the switch.
struct Net {
  std::vector<std::unique_ptr<EthLink>> links;
  std::vector<std::unique_ptr<Endpoint>> eps;
  std::unique_ptr<EthSwitch> sw;
  // `lp[i]`: port i's link; ports listed in `unconnected` get no EthTx.
  Net(const std::string& name, const EthSwitchParams& sp, const std::vector<EthLinkParams>& lp,
      const std::vector<unsigned>& unconnected = {}) {
    sw = std::make_unique<EthSwitch>(name.c_str(), sp);
    for (unsigned i = 0; i < sp.ports; ++i) {
      links.push_back(std::make_unique<EthLink>((name + "_l" + std::to_string(i)).c_str(), lp.at(i)));
      eps.push_back(std::make_unique<Endpoint>());
      links[i]->attach(0, eps[i].get());
      links[i]->attach(1, sw->rx(i));
      if (std::find(unconnected.begin(), unconnected.end(), i) == unconnected.end())
        sw->connect(i, links[i]->port(1));
    }
  }
  EthTx& tx(unsigned i) { return links.at(i)->port(0); }
  Endpoint& ep(unsigned i) { return *eps.at(i); }
  const EthSwitchPortStats& st(unsigned i) const { return sw->port_stats(i); }
  void clear() {
    for (auto& e : eps) e->rx.clear();
  }
  std::vector<size_t> counts() const {
    std::vector<size_t> c;
    for (auto& e : eps) c.push_back(e->rx.size());
    return c;
  }
};

EthLinkParams link(unsigned mbps = 100, sc_time prop = sc_core::SC_ZERO_TIME) {
  EthLinkParams p;
  p.mbps = mbps;
  p.prop_delay = prop;
  return p;
}
EthSwitchParams sw_params(unsigned ports) {
  EthSwitchParams p;
  p.ports = ports;
  return p;
}

const sc_time kLatency(3, SC_US);
const sc_time kProp(500, SC_NS);

struct Bench {
  std::map<std::string, std::unique_ptr<Net>> nets;
  std::unique_ptr<EthLink> hop;  // EthLink's built-in switch hop, for comparison
  std::unique_ptr<Endpoint> hop_rx;
  std::string bad_ports_error;

  void add(const std::string& n, const EthSwitchParams& sp, const std::vector<EthLinkParams>& lp,
           const std::vector<unsigned>& unconnected = {}) {
    nets[n] = std::make_unique<Net>(n, sp, lp, unconnected);
  }
  void add(const std::string& n, const EthSwitchParams& sp) {
    add(n, sp, std::vector<EthLinkParams>(sp.ports, link()));
  }
  Bench() {
    for (const char* n : {"learn", "filter", "flood", "bad", "order", "obs"}) add(n, sw_params(4));
    EthSwitchParams lat = sw_params(2);
    lat.latency = kLatency;
    add("lat", lat, {link(100, kProp), link(100, kProp)});
    add("mixed", lat, {link(100, kProp), link(10, kProp)});
    EthLinkParams hp = link(100, kProp);
    hp.switch_hop = true;
    hp.switch_latency = kLatency;
    hop = std::make_unique<EthLink>("hop", hp);
    hop_rx = std::make_unique<Endpoint>();
    hop->attach(1, hop_rx.get());

    EthSwitchParams q = sw_params(4);
    q.queue_frames = 4;
    add("incast", q);
    EthSwitchParams one = sw_params(2);
    one.queue_frames = 1;
    add("edge", one);
    EthSwitchParams b = sw_params(3);
    b.queue_bytes = 3000;
    add("bytes", b);
    EthSwitchParams age = sw_params(3);
    age.ageing_s = 1;
    add("age", age);
    EthSwitchParams tab = sw_params(4);
    tab.table_size = 2;
    tab.ageing_s = 1;
    add("table", tab);
    EthSwitchParams fz = sw_params(4);
    fz.queue_frames = 8;
    fz.table_size = 16;
    fz.latency = sc_time(1, SC_US);
    add("fuzz", fz, std::vector<EthLinkParams>(4, link()), {3});
    // Determinism: two identical networks with seeded impairments.
    EthSwitchParams d = sw_params(5);
    d.queue_frames = 6;
    d.latency = sc_time(2, SC_US);
    std::vector<EthLinkParams> dl = {link(100), link(100), link(100), link(10), link(10, kProp)};
    for (unsigned i = 0; i < 5; ++i) {
      dl[i].imp[0].jitter = sc_time(3, SC_US);
      dl[i].imp[0].corrupt = 0.02;
      dl[i].imp[0].seed = 100 + i;
      dl[i].imp[1].loss = 0.01;
      dl[i].imp[1].seed = 200 + i;
    }
    add("detA", d, dl);
    add("detB", d, dl);
    // A bad parameter is refused by the constructor, naming the key.
    try {
      EthSwitch bad("badsw", sw_params(1));
    } catch (const ConfigError& e) {
      bad_ports_error = e.what();
    }
  }
  Net& net(const std::string& n) { return *nets.at(n); }
};

Bench& bench() {
  static Bench* b = [] {
    auto* x = new Bench();
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return x;
  }();
  return *b;
}

// Idle time long enough for any test frame to be through a 10 Mbit/s port.
const sc_time kIdle(2, sc_core::SC_MS);

// ---------------------------------------------------------------- forwarding

TEST(EthSwitchForward, LearnsAndStopsFlooding) {
  Net& n = bench().net("learn");
  const Mac a = station(0), b = station(1);
  n.tx(0).send(frame(b, a, 100, 1));  // B unknown: flooded
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{0, 1, 1, 1}));
  EXPECT_EQ(n.st(0).flooded, 1u);
  EXPECT_EQ(n.sw->learned_port(a.data()), 0u);
  EXPECT_FALSE(n.sw->learned_port(b.data()));
  n.clear();
  n.tx(1).send(frame(a, b, 100, 2));  // A known on port 0: only there
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{1, 0, 0, 0}));
  EXPECT_EQ(tag_of(n.ep(0).rx[0].f), 2u);
  EXPECT_EQ(n.st(1).flooded, 0u);
  n.clear();
  n.tx(0).send(frame(b, a, 100, 3));  // B now known on port 1
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{0, 1, 0, 0}));
  EXPECT_EQ(n.st(0).flooded, 1u);
  EXPECT_EQ(n.sw->table_entries(), 2u);
  EXPECT_EQ(n.sw->stats().learned, 2u);
  // A moves to port 2: the entry follows it.
  n.clear();
  n.tx(2).send(frame(kBroadcast, a, 60, 4));
  run(kIdle);
  n.tx(1).send(frame(a, b, 100, 5));
  run(kIdle);
  EXPECT_EQ(n.sw->stats().moved, 1u);
  EXPECT_EQ(n.sw->learned_port(a.data()), 2u);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{1, 1, 1, 1}));  // the broadcast to 0, 1, 3, then 5 to 2
  EXPECT_EQ(tag_of(n.ep(2).rx[0].f), 5u);
  // Every copy handed out, every byte received, counted.
  uint64_t tx = 0;
  for (unsigned i = 0; i < 4; ++i) tx += n.st(i).tx_frames;
  EXPECT_EQ(tx, 3u + 1 + 1 + 3 + 1);
  EXPECT_EQ(n.st(0).rx_frames, 2u);
  EXPECT_EQ(n.st(0).rx_bytes, 200u);
}

TEST(EthSwitchForward, FiltersDestinationOnIngressPort) {
  Net& n = bench().net("filter");
  const Mac x = station(10), y = station(11);
  n.tx(0).send(frame(kBroadcast, x, 60, 1));  // X learned on port 0
  run(kIdle);
  n.clear();
  n.tx(0).send(frame(x, y, 100, 2));  // Y, behind the same port, talks to X
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{0, 0, 0, 0}));
  EXPECT_EQ(n.st(0).filtered, 1u);
  EXPECT_EQ(n.sw->learned_port(y.data()), 0u);  // a filtered frame still teaches its source
  uint64_t tx = 0;
  for (unsigned i = 0; i < 4; ++i) tx += n.st(i).tx_frames;
  EXPECT_EQ(tx, 3u);  // the broadcast only
}

TEST(EthSwitchForward, FloodsBroadcastAndMulticastNeverLearnsGroupSources) {
  Net& n = bench().net("flood");
  n.tx(1).send(frame(kBroadcast, station(1), 60, 1));
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{1, 0, 1, 1}));
  n.clear();
  // Multicast: flooded like a broadcast.
  n.tx(2).send(frame(kMulticast, station(3), 100, 2));
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{1, 1, 0, 1}));
  EXPECT_EQ(n.st(1).flooded, 1u);
  EXPECT_EQ(n.st(2).flooded, 1u);
  // A group source address is never learned; a frame to it is flooded.
  const size_t entries = n.sw->table_entries();
  n.clear();
  n.tx(3).send(frame(kBroadcast, kMulticast, 60, 3));
  run(kIdle);
  EXPECT_EQ(n.sw->table_entries(), entries);
  EXPECT_FALSE(n.sw->learned_port(kMulticast.data()));
  EXPECT_FALSE(n.sw->learned_port(kBroadcast.data()));
  EXPECT_EQ(n.counts(), (std::vector<size_t>{1, 1, 1, 0}));
}

TEST(EthSwitchForward, DropsBadFramesAndCountsThem) {
  Net& n = bench().net("bad");
  const Mac z = station(20);
  EthFrame crc = frame(kBroadcast, z, 100, 1);
  crc.crc_error = true;
  n.tx(0).send(crc);
  EthFrame runt = frame(kBroadcast, z, 40, 2);
  runt.no_pad = true;  // the link delivers it as short as it is
  n.tx(0).send(runt);
  n.tx(0).send(frame(kBroadcast, z, 1600, 3));  // longer than max_frame (1518)
  EthFrame pause = frame({0x01, 0x80, 0xC2, 0, 0, 1}, z, 60, 4, eth::kTypeMacControl);
  n.tx(0).send(pause);
  n.tx(0).send(frame(kBroadcast, station(21), 1518, 5));  // the longest frame forwarded
  run(kIdle);
  const EthSwitchPortStats& s = n.st(0);
  EXPECT_EQ(s.rx_frames, 5u);
  EXPECT_EQ(s.rx_crc_errors, 1u);
  EXPECT_EQ(s.rx_runts, 1u);
  EXPECT_EQ(s.rx_oversize, 1u);
  EXPECT_EQ(s.rx_control, 1u);
  EXPECT_EQ(s.flooded, 1u);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{0, 1, 1, 1}));
  EXPECT_EQ(tag_of(n.ep(1).rx[0].f), 5u);
  EXPECT_FALSE(n.sw->learned_port(z.data()));  // bad frames teach nothing
  EXPECT_EQ(n.sw->learned_port(station(21).data()), 0u);
  // A frame injected by hand, shorter than an address (no link to pad it).
  EthFrame tiny;
  tiny.data = {1, 2, 3};
  n.sw->rx(2)->frame_in(tiny);
  EthFrame empty;
  n.sw->rx(2)->frame_in(empty);
  run(kIdle);
  EXPECT_EQ(n.st(2).rx_runts, 2u);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{0, 1, 1, 1}));
}

// ---------------------------------------------------------------- timing

// Store and forward: the frame is on the egress wire `latency` after its
// last bit arrived, and arrives one egress wire time (+ propagation) later.
TEST(EthSwitchTiming, ExactStoreAndForwardSameSpeed) {
  Bench& bch = bench();
  Net& n = bch.net("lat");
  const sc_time t0 = now();
  const EthTx::Times a = n.tx(0).send(frame(station(1), station(0), 100, 1));
  bch.hop->port(0).send(frame(station(1), station(0), 100, 1));
  run(kIdle);
  const sc_time w = eth::frame_time(100, 100);
  EXPECT_EQ(w, sc_time(8960, SC_NS));  // 112 bytes on the wire
  ASSERT_EQ(n.ep(1).rx.size(), 1u);
  const Endpoint::Rx& r = n.ep(1).rx[0];
  EXPECT_EQ(a.start, t0);
  EXPECT_EQ(r.end, t0 + w + kProp + kLatency + w + kProp);
  EXPECT_EQ(r.start, r.end - w);
  EXPECT_EQ(r.f.rx_end, r.end);
  EXPECT_EQ(r.f.tx_start, t0 + w + kProp + kLatency);
  EXPECT_EQ(r.end - t0, sc_time(8960 + 500 + 3000 + 8960 + 500, SC_NS));
  // The same as EthLink's built-in one-hop switch.
  ASSERT_EQ(bch.hop_rx->rx.size(), 1u);
  EXPECT_EQ(bch.hop_rx->rx[0].end - t0, r.end - t0);
}

TEST(EthSwitchTiming, ExactStoreAndForwardMixedSpeeds) {
  Net& n = bench().net("mixed");  // port 0 at 100 Mbit/s, port 1 at 10
  const sc_time w100 = eth::frame_time(100, 100), w10 = eth::frame_time(100, 10);
  EXPECT_EQ(w10, sc_time(89600, SC_NS));
  // 100 -> 10: two frames back to back; the second waits for the slow wire.
  sc_time t0 = now();
  n.tx(0).send(frame(station(1), station(0), 100, 1));
  n.tx(0).send(frame(station(1), station(0), 100, 2));
  run(kIdle);
  ASSERT_EQ(n.ep(1).rx.size(), 2u);
  const sc_time out1 = t0 + w100 + kProp + kLatency;  // first frame onto the 10 Mbit/s wire
  EXPECT_EQ(n.ep(1).rx[0].end, out1 + w10 + kProp);
  const sc_time ready2 = t0 + w100 + eth::ifg_time(100) + w100 + kProp + kLatency;
  const sc_time out2 = std::max(ready2, out1 + w10 + eth::ifg_time(10));
  EXPECT_EQ(out2, out1 + w10 + eth::ifg_time(10));  // the egress wire, not the arrival, decides
  EXPECT_EQ(n.ep(1).rx[1].end, out2 + w10 + kProp);
  EXPECT_EQ(n.ep(1).rx[1].start, n.ep(1).rx[0].end + eth::ifg_time(10));
  // 10 -> 100: the slow ingress decides.
  t0 = now();
  n.tx(1).send(frame(station(0), station(1), 100, 3));
  run(kIdle);
  ASSERT_EQ(n.ep(0).rx.size(), 1u);
  EXPECT_EQ(n.ep(0).rx[0].end, t0 + w10 + kProp + kLatency + w100 + kProp);
}

// ---------------------------------------------------------------- queues

// Three senders at line rate into one port of the same speed with a queue of
// 4 frames. Per frame slot s = wire + IFG three frames arrive and one leaves:
// slot 0 admits 3 (the first starts at once), slot 1 admits 2 (the queue:
// the frame on the wire + 1 waiting), every later slot admits 1. K frames per
// sender: K + 3 delivered, 2K - 3 dropped.
TEST(EthSwitchQueue, IncastTailDropsAtFrameLimit) {
  Net& n = bench().net("incast");
  const Mac r = station(3);
  n.tx(3).send(frame(kBroadcast, r, 60));  // the receiver is known
  run(kIdle);
  n.clear();
  std::vector<EthSwitchDrop> reasons;
  const auto id = n.sw->on_drop.listen([&](const EthSwitchDropEvent& e) { reasons.push_back(e.reason); });
  const unsigned K = 20;
  for (unsigned k = 0; k < K; ++k)
    for (unsigned s = 0; s < 3; ++s) n.tx(s).send(frame(r, station(s), 100, s << 16 | k));
  run(kIdle);
  n.sw->on_drop.unlisten(id);
  auto& rx = n.ep(3).rx;
  const EthSwitchPortStats& o = n.st(3);
  EXPECT_EQ(rx.size(), K + 3);
  EXPECT_EQ(o.drops_queue_full, 2 * K - 3);
  EXPECT_EQ(rx.size() + o.drops_queue_full, 3 * K);
  EXPECT_EQ(o.tx_frames, K + 3);  // (the receiver's own broadcast went out on the other ports)
  EXPECT_EQ(o.queue_hw_frames, 4u);
  EXPECT_EQ(o.queue_hw_bytes, 400u);
  EXPECT_EQ(reasons, std::vector<EthSwitchDrop>(2 * K - 3, EthSwitchDrop::QueueFrames));
  EXPECT_EQ(n.counts(), (std::vector<size_t>{0, 0, 0, K + 3}));
  // Departures back to back, one IFG apart; the first right after reception.
  const sc_time w = eth::frame_time(100, 100);
  ASSERT_FALSE(rx.empty());
  EXPECT_EQ(rx[0].end - rx[0].start, w);
  for (size_t i = 1; i < rx.size(); ++i) EXPECT_EQ(rx[i].start - rx[i - 1].end, eth::ifg_time(100)) << i;
  // Slot 0 admits ports 0, 1, 2 in index order; the last frame is the one
  // admitted in the last slot.
  EXPECT_EQ(tag_of(rx[0].f), 0u);
  EXPECT_EQ(tag_of(rx[1].f), 1u << 16);
  EXPECT_EQ(tag_of(rx[2].f), 2u << 16);
  EXPECT_EQ(n.sw->queue_frames(3), 0u);
  EXPECT_EQ(n.sw->queue_bytes(3), 0u);
}

// Two senders of 1000-byte frames into one port with 3000 bytes of queue
// (frame limit 64): the byte limit admits 3 (equal to the limit is allowed).
// Slot 0 admits 2, slot 1 admits 2, later slots 1: K + 2 delivered.
TEST(EthSwitchQueue, ByteLimitDrops) {
  Net& n = bench().net("bytes");
  const Mac r = station(2);
  n.tx(2).send(frame(kBroadcast, r, 60));
  run(kIdle);
  n.clear();
  std::vector<EthSwitchDropEvent> drops;
  std::vector<unsigned> egress;
  const auto id = n.sw->on_drop.listen([&](const EthSwitchDropEvent& e) { drops.push_back(e); });
  const auto fid = n.sw->on_forward.listen([&](const EthSwitchForwardEvent& e) {
    egress.push_back(e.egress);
    EXPECT_LE(n.sw->queue_bytes(e.egress), 3000u);
  });
  const unsigned K = 10;
  for (unsigned k = 0; k < K; ++k)
    for (unsigned s = 0; s < 2; ++s) n.tx(s).send(frame(r, station(s), 1000, k));
  run(kIdle);
  n.sw->on_drop.unlisten(id);
  n.sw->on_forward.unlisten(fid);
  const EthSwitchPortStats& o = n.st(2);
  EXPECT_EQ(n.ep(2).rx.size(), K + 2);
  EXPECT_EQ(o.drops_queue_full, K - 2);
  EXPECT_EQ(o.queue_hw_bytes, 3000u);
  EXPECT_EQ(o.queue_hw_frames, 3u);
  ASSERT_EQ(drops.size(), K - 2);
  for (const auto& d : drops) {
    EXPECT_EQ(d.reason, EthSwitchDrop::QueueBytes);
    EXPECT_EQ(d.port, 2u);
    EXPECT_EQ(d.bytes, 1000u);
  }
  EXPECT_EQ(egress, std::vector<unsigned>(K + 2, 2u));
}

// A frame stops counting against the queue when its last bit leaves: with a
// queue of one frame, a frame entering 1 ps earlier is dropped, one entering
// at that very time is sent.
TEST(EthSwitchQueue, AFrameLeavesTheQueueWithItsLastBit) {
  Net& n = bench().net("edge");  // queue_frames 1
  n.tx(1).send(frame(kBroadcast, station(1), 60));
  run(kIdle);
  n.clear();
  const sc_time w = eth::frame_time(100, 100);
  const sc_time t0 = now();
  n.sw->rx(0)->frame_in(frame(station(1), station(0), 100, 1));  // by hand: enters at once
  run(w - sc_time(1, sc_core::SC_PS));
  EXPECT_EQ(n.sw->queue_frames(1), 1u);
  EXPECT_EQ(n.sw->queue_bytes(1), 100u);
  n.sw->rx(0)->frame_in(frame(station(1), station(0), 100, 2));  // dropped
  run(sc_time(1, sc_core::SC_PS));
  EXPECT_EQ(now(), t0 + w);
  EXPECT_EQ(n.sw->queue_frames(1), 0u);
  n.sw->rx(0)->frame_in(frame(station(1), station(0), 100, 3));  // sent
  run(kIdle);
  ASSERT_EQ(n.ep(1).rx.size(), 2u);
  EXPECT_EQ(tag_of(n.ep(1).rx[0].f), 1u);
  EXPECT_EQ(tag_of(n.ep(1).rx[1].f), 3u);
  EXPECT_EQ(n.ep(1).rx[1].start, t0 + w + eth::ifg_time(100));  // the wire still keeps its IFG
  EXPECT_EQ(n.st(1).drops_queue_full, 1u);
  EXPECT_EQ(n.st(1).queue_hw_frames, 1u);
}

// Frames entering the same queue at the same time go in ingress port order,
// whatever order their last bits were reported in.
TEST(EthSwitchQueue, EqualTimesGoInIngressPortOrder) {
  Net& n = bench().net("order");
  n.tx(3).send(frame(kBroadcast, station(3), 60));
  run(kIdle);
  n.clear();
  for (unsigned in : {2u, 0u, 1u}) n.sw->rx(in)->frame_in(frame(station(3), station(in), 60, in));
  run(kIdle);
  ASSERT_EQ(n.ep(3).rx.size(), 3u);
  for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(tag_of(n.ep(3).rx[i].f), i);
}

// ---------------------------------------------------------------- table

TEST(EthSwitchTable, AgesOutLazilyAfterTheAgeingTime) {
  Net& n = bench().net("age");  // ageing 1 s
  const sc_time w = eth::frame_time(60, 100);
  const EthTx::Times b = n.tx(1).send(frame(kBroadcast, station(1), 60));
  const sc_time learned_at = b.end;  // no propagation: the switch has it then
  run(kIdle);
  n.clear();
  // Station 0's frame arrives exactly 1 s after station 1 was last seen:
  // still known (forgotten only when older). Station 2's arrives 1 ns later:
  // station 1 is forgotten, the frame is flooded.
  const sc_time t = learned_at + sc_time(1, sc_core::SC_SEC);
  run_until(t - w);
  n.tx(0).send(frame(station(1), station(0), 60, 1));
  run(sc_time(1, SC_NS));
  n.tx(2).send(frame(station(1), station(2), 60, 2));
  run(sc_time(1, SC_NS));
  EXPECT_EQ(n.sw->stats().aged_out, 0u);
  EXPECT_EQ(n.sw->learned_port(station(1).data()), 1u);
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{1, 2, 0}));
  ASSERT_EQ(n.ep(1).rx.size(), 2u);
  EXPECT_EQ(tag_of(n.ep(1).rx[0].f), 1u);
  EXPECT_EQ(n.ep(1).rx[0].start, t);  // forwarded at once (latency 0)
  EXPECT_EQ(tag_of(n.ep(1).rx[1].f), 2u);
  EXPECT_EQ(tag_of(n.ep(0).rx[0].f), 2u);
  EXPECT_EQ(n.sw->stats().aged_out, 1u);
  EXPECT_FALSE(n.sw->learned_port(station(1).data()));
  EXPECT_EQ(n.st(0).flooded, 0u);
  EXPECT_EQ(n.st(2).flooded, 1u);
  EXPECT_EQ(n.sw->table_entries(), 2u);  // stations 0 and 2
}

TEST(EthSwitchTable, FullTableLearnsNothingNewUntilEntriesAge) {
  Net& n = bench().net("table");  // 2 entries, ageing 1 s
  for (unsigned s = 0; s < 3; ++s) {
    n.tx(s).send(frame(kBroadcast, station(s), 60));
    run(sc_time(20, SC_US));
  }
  run(kIdle);
  EXPECT_EQ(n.sw->table_entries(), 2u);
  EXPECT_EQ(n.sw->stats().learned, 2u);
  EXPECT_EQ(n.sw->stats().table_full_drops, 1u);
  EXPECT_FALSE(n.sw->learned_port(station(2).data()));
  n.clear();
  n.tx(3).send(frame(station(2), station(3), 60, 1));  // unknown: flooded; station 3 not learned either
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{1, 1, 1, 0}));
  EXPECT_EQ(n.sw->stats().table_full_drops, 2u);
  n.clear();
  n.tx(3).send(frame(station(0), station(3), 60, 2));  // known
  run(kIdle);
  EXPECT_EQ(n.counts(), (std::vector<size_t>{1, 0, 0, 0}));
  // After the ageing time the old entries make room.
  run(sc_time(1, sc_core::SC_SEC));
  n.tx(2).send(frame(kBroadcast, station(2), 60));
  run(kIdle);
  EXPECT_EQ(n.sw->stats().aged_out, 2u);
  EXPECT_EQ(n.sw->stats().learned, 3u);
  EXPECT_EQ(n.sw->table_entries(), 1u);
  EXPECT_EQ(n.sw->learned_port(station(2).data()), 2u);
}

// ---------------------------------------------------------------- robustness

// Arbitrary frames (any length 0..2000, any bytes, bad FCS, runts, by link
// and by hand) into a switch with a small queue, a small table and one
// unconnected port: nothing breaks, every frame is accounted for, the
// bounds hold at every step.
TEST(EthSwitchRobust, ArbitraryInputIsAccountedFor) {
  Net& n = bench().net("fuzz");  // port 3 unconnected; queue 8, table 16
  DetRng rng(7);
  uint64_t forwards = 0, drops = 0;
  const auto fid = n.sw->on_forward.listen([&](const EthSwitchForwardEvent& e) {
    ++forwards;
    EXPECT_LE(n.sw->queue_frames(e.egress), 8u);
    EXPECT_LE(n.sw->table_entries(), 16u);
  });
  const auto did = n.sw->on_drop.listen([&](const EthSwitchDropEvent&) { ++drops; });
  for (unsigned i = 0; i < 3000; ++i) {
    EthFrame f;
    f.data.resize(DetRng::scale(rng.next(), 2001));
    for (auto& x : f.data) x = uint8_t(rng.next());
    // Few distinct addresses, so that some are learned and looked up.
    if (f.data.size() >= 12) {
      f.data[0] &= 0x03;
      f.data[6] &= 0x03;
      for (unsigned k = 1; k < 6; ++k) f.data[k] = f.data[6 + k] = 0;
      f.data[5] = uint8_t(rng.next() % 24);
      f.data[11] = uint8_t(rng.next() % 24);
    }
    const uint64_t u = rng.next();
    f.crc_error = u % 8 == 0;
    f.no_pad = u % 5 == 0;
    const unsigned port = unsigned(u >> 8) % 4;
    if ((u >> 16) % 3 == 0)
      n.sw->rx(port)->frame_in(f);
    else
      n.tx(port).send(f);
    run(sc_time::from_value(DetRng::scale(rng.next(), sc_time(40, SC_US).value())));
  }
  run(kIdle);
  n.sw->on_forward.unlisten(fid);
  n.sw->on_drop.unlisten(did);
  EXPECT_EQ(n.sw->in_pipeline(), 0u);
  uint64_t rx = 0, rx_dropped = 0, flooded = 0, copies = 0, tx = 0, delivered = 0, no_link = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const EthSwitchPortStats& s = n.st(i);
    rx += s.rx_frames;
    rx_dropped += s.rx_runts + s.rx_oversize + s.rx_crc_errors + s.rx_control + s.filtered;
    flooded += s.flooded;
    copies += s.tx_frames + s.drops_queue_full + s.drops_no_link;
    tx += s.tx_frames;
    no_link += s.drops_no_link;
    delivered += n.ep(i).rx.size();
    EXPECT_LE(s.queue_hw_frames, 8u);
  }
  EXPECT_EQ(rx, 3000u);
  // A flooded frame makes 3 copies, a unicast one 1.
  EXPECT_EQ(copies, flooded * 3 + (rx - rx_dropped - flooded));
  EXPECT_EQ(tx, forwards);
  EXPECT_EQ(delivered, tx);  // the links lose nothing
  EXPECT_GT(no_link, 0u);
  EXPECT_EQ(n.st(3).tx_frames, 0u);
  EXPECT_GT(flooded, 0u);
  EXPECT_GT(rx - rx_dropped - flooded, 0u);  // some unicast was looked up
  EXPECT_GT(n.st(0).rx_runts + n.st(1).rx_runts, 0u);
  EXPECT_GT(n.st(0).rx_oversize + n.st(1).rx_oversize, 0u);
  EXPECT_EQ(forwards + drops, copies + rx_dropped);
}

// ---------------------------------------------------------------- observation

TEST(EthSwitchObserve, StatsAndProbes) {
  Net& n = bench().net("obs");
  StatsRegistry reg;
  n.sw->register_stats(reg.root().sub("net.switch"));
  ProbeRegistry probes;
  n.sw->register_probes(probes, "switch");
  std::vector<std::string> lines;
  auto detach_f = probes.find("switch.forward")->text([&](const std::string& l) { lines.push_back(l); });
  auto detach_d = probes.find("switch.drop")->text([&](const std::string& l) { lines.push_back(l); });
  const sc_time t0 = now();
  n.tx(0).send(frame(station(1), station(0), 100, 1));  // flooded to 1, 2, 3
  EthFrame bad = frame(station(0), station(1), 100, 2);
  bad.crc_error = true;
  n.tx(1).send(bad);
  run(kIdle);
  detach_f();
  detach_d();
  const sc_time w = eth::frame_time(100, 100);
  const uint64_t in_ps = ProbeText::to_ps(t0 + w);
  ASSERT_EQ(lines.size(), 4u);
  const std::string when = std::to_string(in_ps) + " ps ";
  EXPECT_EQ(lines[0], when + "switch.drop port=1 ingress=1 reason=crc_error bytes=100 type=0x0800");
  EXPECT_EQ(lines[1], when + "switch.forward ingress=0 egress=1 bytes=100 type=0x0800 flooded=1 start=" +
                          std::to_string(in_ps) + " end=" + std::to_string(ProbeText::to_ps(t0 + w + w)));
  EXPECT_EQ(lines[3].rfind(when + "switch.forward ingress=0 egress=3 ", 0), 0u) << lines[3];
  const nlohmann::json j = reg.to_json();
  const auto& s = j["net"]["switch"];
  EXPECT_EQ(s["ports"].size(), 4u);
  EXPECT_EQ(s["ports"][0]["rx_frames"], 1);
  EXPECT_EQ(s["ports"][0]["flooded"], 1);
  EXPECT_EQ(s["ports"][1]["rx_crc_errors"], 1);
  EXPECT_EQ(s["ports"][2]["tx_frames"], 1);
  EXPECT_EQ(s["ports"][2]["tx_bytes"], 100);
  EXPECT_EQ(s["ports"][2]["queue_hw_frames"], 1);
  EXPECT_EQ(s["table_entries"], 1);
  EXPECT_EQ(s["learned"], 1);
  EXPECT_EQ(s["table_full_drops"], 0);
  EXPECT_EQ(probes.listing(),
            "switch.forward: ingress egress bytes type flooded start end\n"
            "switch.drop: port ingress reason bytes type\n");
}

// ---------------------------------------------------------------- parameters

TEST(EthSwitchConfig, RowsMatchDefaultsAndRefuseBadValues) {
  EthSwitchParams d;
  for (const auto& r : EthSwitchParams::rows())
    EXPECT_EQ(param::load(r, r.field(d)), param::default_value(r)) << r.key;
  EXPECT_NO_THROW(d.validate("sw"));
  auto error = [](auto change) {
    EthSwitchParams p;
    change(p);
    try {
      p.validate("net.switch");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error([](EthSwitchParams& p) { p.ports = 65; }),
            "key 'net.switch.ports': must be 2..64 (got 65)");
  EXPECT_EQ(error([](EthSwitchParams& p) { p.queue_frames = 0; }),
            "key 'net.switch.queue_frames': must be 1..65536 (got 0)");
  EXPECT_NE(error([](EthSwitchParams& p) { p.latency = sc_time(2, sc_core::SC_MS); }).find("latency_ns"),
            std::string::npos);
  EXPECT_NE(error([](EthSwitchParams& p) { p.ageing_s = 0; }).find("ageing_s"), std::string::npos);
  EXPECT_NE(error([](EthSwitchParams& p) { p.table_size = 0; }).find("table_size"), std::string::npos);
  EXPECT_EQ(bench().bad_ports_error, "key 'badsw.ports': must be 2..64 (got 1)");
  // Filled through a configuration store under any prefix.
  param::Values v;
  for (const auto& r : EthSwitchParams::rows()) v.declare(param::join("a.switch", r.key), r);
  v.set("a.switch.ports", uint64_t(8));
  v.set("a.switch.latency_ns", uint64_t(2500));
  EthSwitchParams p;
  param::fill(v, "a.switch", EthSwitchParams::rows(), p);
  EXPECT_EQ(p.ports, 8u);
  EXPECT_EQ(p.latency, sc_time(2500, SC_NS));
  EXPECT_EQ(p.queue_bytes, 65536u);
}

// ---------------------------------------------------------------- determinism

// The same offered traffic into two identical switches (same parameters,
// same link seeds) gives the same deliveries at the same times, with heavy
// queueing, tail drops, flooding, corruption and jitter.
TEST(EthSwitchDeterminism, SameTrafficSameResult) {
  Net& a = bench().net("detA");
  Net& b = bench().net("detB");
  DetRng rng(2024);
  for (unsigned i = 0; i < 1500; ++i) {
    const uint64_t u = rng.next();
    const unsigned from = unsigned(u % 5), to = unsigned((u >> 8) % 6);  // 5 = broadcast
    const size_t len = 60 + DetRng::scale(rng.next(), 1455);
    const EthFrame f = frame(to == 5 ? kBroadcast : station(to), station(from), len, i);
    a.tx(from).send(f);
    b.tx(from).send(f);
    run(sc_time::from_value(DetRng::scale(rng.next(), sc_time(30, SC_US).value())));
  }
  run(sc_time(1, sc_core::SC_SEC));  // the 10 Mbit/s senders' own links are far behind
  struct Ev {
    unsigned port;
    uint32_t tag;
    sc_time start, end;
    bool crc;
    bool operator==(const Ev& o) const {
      return port == o.port && tag == o.tag && start == o.start && end == o.end && crc == o.crc;
    }
  };
  auto log = [](Net& n) {
    std::vector<Ev> v;
    for (unsigned p = 0; p < 5; ++p)
      for (const auto& r : n.ep(p).rx) v.push_back({p, tag_of(r.f), r.start, r.end, r.f.crc_error});
    return v;
  };
  const std::vector<Ev> la = log(a), lb = log(b);
  EXPECT_GT(la.size(), 1000u);
  EXPECT_EQ(a.sw->in_pipeline() + b.sw->in_pipeline(), 0u);  // everything through
  EXPECT_TRUE(la == lb);
  uint64_t drops = 0, crc = 0;
  for (unsigned p = 0; p < 5; ++p) {
    const EthSwitchPortStats &x = a.st(p), &y = b.st(p);
    drops += x.drops_queue_full;
    crc += x.rx_crc_errors;
    EXPECT_EQ(x.tx_frames, y.tx_frames) << p;
    EXPECT_EQ(x.drops_queue_full, y.drops_queue_full) << p;
    EXPECT_EQ(x.queue_hw_bytes, y.queue_hw_bytes) << p;
    EXPECT_EQ(x.flooded, y.flooded) << p;
  }
  EXPECT_GT(drops, 0u);
  EXPECT_GT(crc, 0u);
  EXPECT_EQ(a.sw->stats().learned, b.sw->stats().learned);
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
