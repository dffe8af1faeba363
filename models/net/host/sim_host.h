// SimHost: the Linux PC at the far end of the board's Ethernet link, as a
// small deterministic IPv4 host: Ethernet II, ARP (RFC 826) with a cache and
// request retries, IPv4 (RFC 791, no fragmentation/reassembly, no options
// sent), ICMP echo (RFC 792: answers echo requests, delivers echo replies
// to a ping client), UDP (RFC 768) ports and TCP (tcp.h).
//
// Host latency model (README "Host latency model"): the PC's card stores a
// whole frame, so the stack sees a received frame only after its last bit
// plus rx_latency + rx_per_byte * length; a frame the stack sends enters the
// link's queue tx_latency + tx_per_byte * length after it was handed over.
// After the host was idle (no frame in the rx or tx pipeline) longer than
// idle_threshold, the next frame also waits wake_latency. Each direction is
// a FIFO: a frame never overtakes the one before it. An echo request from
// the board is answered rx + tx latency after it arrived.
//
// Transmit queue: like a Linux PC (its queueing discipline in front of the
// card's descriptor ring), the host holds at most tx_queue frames on their
// way out (in the transmit latency pipeline or waiting for the wire); a
// frame keeps its place until its last bit has left. A frame handed over
// while the queue is full is dropped and counted (tx_queue_drops): an
// offered load beyond the wire rate costs bounded memory.
//
// Wiring on an EthLink end e: `link.attach(e, &host); host.connect(&link.port(e));`
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <systemc>

#include "eth_frame.h"
#include "event_scheduler.h"
#include "probe.h"
#include "wire.h"

namespace l3vp::host {

class TcpStack;
struct TcpParams;

// Defaults: the PC side of the documented setup (docs/network.md).
struct HostConfig {
  Mac mac = {0x02, 0x00, 0x00, 0x00, 0x00, 0x55};
  uint32_t ip = 0xC0A80037;       // 192.168.0.55
  uint32_t netmask = 0xFFFFFF00;  // /24; off-subnet destinations are dropped (no gateway)
  // Latency model (all zero: the stack sees frames at their last bit and
  // sends them at once). Per-byte terms count the frame's bytes without FCS
  // (as delivered: a received short frame is padded to 60).
  sc_core::sc_time rx_latency = sc_core::SC_ZERO_TIME;  // last bit in -> the stack has the frame
  sc_core::sc_time rx_per_byte = sc_core::SC_ZERO_TIME;
  sc_core::sc_time tx_latency = sc_core::SC_ZERO_TIME;  // the stack sends -> the frame is queued on the link
  sc_core::sc_time tx_per_byte = sc_core::SC_ZERO_TIME;
  sc_core::sc_time wake_latency = sc_core::SC_ZERO_TIME;    // extra, on the first frame after an idle period
  sc_core::sc_time idle_threshold = sc_core::SC_ZERO_TIME;  // idle longer than this: wake_latency applies
  uint8_t ttl = 64;
  sc_core::sc_time arp_retry = sc_core::sc_time(1, sc_core::SC_SEC);  // request interval
  unsigned arp_tries = 3;   // requests before queued packets are dropped
  unsigned arp_queue = 64;  // packets queued per unresolved address
  // Transmit queue (frames): Linux's default txqueuelen of 1000 packets in
  // the queueing discipline plus the 256 transmit descriptors of common PC
  // Ethernet drivers (Intel e1000e and igb, Realtek r8169).
  unsigned tx_queue = 1000 + 256;
  uint64_t seed = 1;  // TCP initial sequence numbers
};

// Counters (only grow).
struct HostStats {
  uint64_t rx_frames = 0, tx_frames = 0, rx_bytes = 0, tx_bytes = 0;
  uint64_t rx_crc_error = 0, rx_not_for_us = 0, rx_bad = 0;  // bad: malformed or bad checksum
  uint64_t rx_fragments = 0, rx_unknown_proto = 0, udp_no_port = 0;
  uint64_t arp_requests_sent = 0, arp_replies_sent = 0, arp_replies_rcvd = 0;
  uint64_t arp_drops = 0;  // packets dropped: unresolved or queue full
  uint64_t icmp_echo_req_rcvd = 0, icmp_echo_rep_sent = 0;
  uint64_t no_route = 0;
  uint64_t wakeups = 0;         // frames that paid wake_latency
  uint64_t tx_queue_drops = 0;  // frames handed over while the transmit queue was full
};

// A frame crossing the boundary between the PC's network card (with its
// driver) and its stack: where a capture on the PC (Wireshark on Linux,
// stamped by the kernel) sees it.
struct HostFrameEvent {
  bool tx;                   // false: the stack takes a received frame; true: it hands one to the card
  const EthFrame& frame;     // received: as delivered (padded); sent: as built (not padded)
  sc_core::sc_time t;        // exact: the current simulated time
  sc_core::sc_time latency;  // received: last bit in -> t; sent: t -> queued on the link
  bool woke;                 // the latency includes wake_latency
};

class SimHost : public sc_core::sc_module, public EthPort {
 public:
  using EchoHandler =
      std::function<void(uint32_t src, uint16_t id, uint16_t seq, const uint8_t* data, size_t n)>;
  using UdpHandler =
      std::function<void(uint32_t src, uint16_t sport, uint16_t dport, const uint8_t* data, size_t n)>;

  SimHost(sc_core::sc_module_name n, const HostConfig& cfg = HostConfig());
  SimHost(sc_core::sc_module_name n, const HostConfig& cfg, const TcpParams& tcp);
  ~SimHost() override;

  void connect(EthTx* tx) { tx_ = tx; }
  void frame_in(const EthFrame& f) override;

  const HostConfig& config() const { return cfg_; }
  const HostStats& stats() const { return st_; }
  EventScheduler& sched() { return sched_; }
  TcpStack& tcp() { return *tcp_; }

  // ARP cache: static entries never expire (dynamic ones do not either: a
  // simulated run is short; documented).
  void arp_add(uint32_t ip, const Mac& mac) { arp_[ip] = mac; }
  const Mac* arp_lookup(uint32_t ip) const;

  // IPv4 send: resolved through ARP, queued while resolving.
  void send_ip(uint32_t dst, uint8_t proto, const Bytes& payload, bool df = false);
  // Sends a raw Ethernet frame after the tx latency (used by ARP, IP and the
  // raw-frame experiment). `bad_fcs`: the frame leaves with a wrong FCS (the
  // receiver sees a CRC error); `no_pad`: a frame shorter than 60 bytes goes
  // on the wire as a runt instead of being padded (EthFrame::no_pad).
  // False: the transmit queue was full, the frame was dropped (counted).
  bool send_frame(Bytes frame, bool bad_fcs = false, bool no_pad = false);

  // ICMP echo: requests to the board; replies go to the handler of their id.
  void send_echo_request(uint32_t dst, uint16_t id, uint16_t seq, const Bytes& data);
  void on_echo_reply(uint16_t id, EchoHandler h) { echo_[id] = std::move(h); }

  // UDP: false if the port is taken.
  bool udp_bind(uint16_t port, UdpHandler h);
  void udp_unbind(uint16_t port) { udp_.erase(port); }
  void udp_send(uint32_t dst, uint16_t sport, uint16_t dport, const Bytes& data);

  // Published when the stack takes a received frame (after the receive
  // latency; frames with a bad FCS never get there) and when it hands a frame
  // to the card (before the transmit latency): `--pcap-at host`.
  Probe<HostFrameEvent> on_stack;

  nlohmann::json stats_json() const;

 private:
  struct Unresolved {
    std::deque<Bytes> packets;  // IP packets waiting for the address
    unsigned tries = 0;
    EventScheduler::Id timer = 0;
  };
  void handle(const EthFrame& f);
  // The latency model: when a frame of `bytes` starting its `fixed` +
  // per-byte delay now leaves the pipeline whose previous frame leaves at
  // `prev` (updated); sets `woke`.
  sc_core::sc_time ready_time(const sc_core::sc_time& fixed, const sc_core::sc_time& per_byte, size_t bytes,
                              sc_core::sc_time& prev, bool& woke);
  void publish(bool tx, const EthFrame& f, const sc_core::sc_time& latency, bool woke) const {
    if (on_stack.has_listeners())
      on_stack.notify(HostFrameEvent{tx, f, sc_core::sc_time_stamp(), latency, woke});
  }
  void handle_arp(const uint8_t* p, size_t n);
  void handle_ip(const uint8_t* p, size_t n);
  void handle_icmp(const Ip4View& ip);
  void handle_udp(const Ip4View& ip);
  void arp_request(uint32_t ip);
  void arp_retry(uint32_t ip);
  void transmit_ip(uint32_t dst, const Mac& mac, const Bytes& packet);

  HostConfig cfg_;
  EventScheduler sched_;
  std::unique_ptr<TcpStack> tcp_;
  EthTx* tx_ = nullptr;
  std::map<uint32_t, Mac> arp_;
  std::map<uint32_t, Unresolved> pending_;
  std::map<uint16_t, EchoHandler> echo_;
  std::map<uint16_t, UdpHandler> udp_;
  uint16_t ip_id_ = 1;
  HostStats st_;
  // Latency model state: when the last frame leaves the rx / tx pipeline,
  // frames still in each, and the end of the last activity (idle detection;
  // the host counts as active at time 0).
  sc_core::sc_time rx_ready_, tx_ready_, active_until_;
  unsigned rx_pending_ = 0, tx_pending_ = 0;
  // The transmit queue's frames on the link: when each one's last bit leaves
  // (non-decreasing: the link is a FIFO). With tx_pending_, the queue's fill.
  std::deque<sc_core::sc_time> on_wire_;
};

}  // namespace l3vp::host
