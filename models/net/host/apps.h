// Measurement applications of the simulated host: ping client, UDP
// generator and receiver, TCP client (bulk sender, many connections) and
// TCP server (sink). Each is configured with a parameter struct, started
// with start() (times relative to the moment start() is called) and reports
// a JSON object (docs/network.md, "Results"). All times are simulated time;
// JSON times are integer picoseconds ("_ps") unless noted.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

#include "sim_host.h"
#include "tcp.h"

namespace l3vp::host {

// Linux `ping -c count -s size -i interval -W timeout`.
struct PingParams {
  uint32_t dst = 0xC0A80035;  // 192.168.0.53 (the board)
  unsigned count = 4;
  size_t size = 56;  // ICMP data bytes (IP packet = size + 28)
  sc_core::sc_time interval = sc_core::sc_time(1, sc_core::SC_SEC);
  sc_core::sc_time timeout = sc_core::sc_time(1, sc_core::SC_SEC);  // wait for the last reply
  sc_core::sc_time start = sc_core::SC_ZERO_TIME;
  uint16_t id = 0x4C33;
};

class PingApp {
 public:
  struct Probe {
    uint16_t seq = 0;
    sc_core::sc_time sent, rtt;  // rtt valid if replied
    bool replied = false, corrupt = false;
    unsigned duplicates = 0;
  };
  PingApp(SimHost& h, const PingParams& p) : h_(h), p_(p) {}
  void start();
  bool done() const { return done_; }
  const std::vector<Probe>& probes() const { return probes_; }
  // Over replied probes (ps): Linux's mdev = sqrt(mean(rtt^2) - mean(rtt)^2).
  uint64_t received() const;
  uint64_t rtt_min_ps() const, rtt_max_ps() const, rtt_avg_ps() const, rtt_mdev_ps() const;
  nlohmann::json to_json() const;

 private:
  void send_probe(unsigned k);
  void reply(uint16_t seq, const uint8_t* data, size_t n);
  SimHost& h_;
  PingParams p_;
  std::vector<Probe> probes_;
  bool done_ = false;
  sc_core::sc_time t0_;
};

// Sends `count` datagrams of `size` payload bytes (wire.h udp_pattern);
// datagram k is handed to the stack at t0 + k * delay (the link queues
// back-to-back frames, so the wire, not the generator, limits short delays).
struct UdpSendParams {
  uint32_t dst = 0xC0A80035;
  uint16_t sport = 5002, dport = 5001;
  size_t size = 1024;
  unsigned count = 100;
  sc_core::sc_time delay = sc_core::sc_time(1, sc_core::SC_MS);
  sc_core::sc_time start = sc_core::SC_ZERO_TIME;
};

class UdpSender {
 public:
  UdpSender(SimHost& h, const UdpSendParams& p) : h_(h), p_(p) {}
  void start();
  bool done() const { return sent_ == p_.count; }
  unsigned sent() const { return sent_; }
  sc_core::sc_time t0() const { return t0_; }
  nlohmann::json to_json() const;

 private:
  SimHost& h_;
  UdpSendParams p_;
  unsigned sent_ = 0;
  sc_core::sc_time t0_, last_;
};

// Counts and verifies datagrams on a port (optionally echoing them back).
struct UdpRecvParams {
  uint16_t port = 5001;
  unsigned expect = 0;  // datagrams expected (0: unknown, no loss figure)
  bool echo = false;    // send every datagram back to its source (UDP echo)
};

class UdpReceiver {
 public:
  UdpReceiver(SimHost& h, const UdpRecvParams& p) : h_(h), p_(p) {}
  void start();  // binds at once
  uint64_t received() const { return received_; }
  uint64_t bad() const { return bad_; }
  uint64_t duplicates() const { return dups_; }
  uint64_t reordered() const { return reordered_; }
  uint64_t unique() const { return seen_.size(); }
  nlohmann::json to_json() const;

 private:
  void rx(uint32_t src, uint16_t sport, const uint8_t* d, size_t n);
  SimHost& h_;
  UdpRecvParams p_;
  uint64_t received_ = 0, bytes_ = 0, bad_ = 0, dups_ = 0, reordered_ = 0;
  int64_t max_k_ = -1;
  std::vector<bool> seen_bits_;
  std::vector<uint32_t> seen_;
  std::vector<sc_core::sc_time> arrivals_;
  size_t first_len_ = 0;
};

// Opens `connections` connections (the i-th at start + i * stagger), sends
// `bytes` of the stream pattern on each, then closes. Completion of a
// connection = all its data and its FIN acknowledged.
struct TcpClientParams {
  uint32_t dst = 0xC0A80035;
  uint16_t dport = 5001;
  uint64_t bytes = 100000;
  unsigned connections = 1;
  sc_core::sc_time start = sc_core::SC_ZERO_TIME;
  sc_core::sc_time stagger = sc_core::SC_ZERO_TIME;
};

class TcpClientApp {
 public:
  TcpClientApp(SimHost& h, const TcpClientParams& p) : h_(h), p_(p) {}
  void start();
  bool done() const;  // every connection completed, reset or aborted
  const std::vector<TcpConn*>& conns() const { return conns_; }
  nlohmann::json to_json() const;

 private:
  SimHost& h_;
  TcpClientParams p_;
  std::vector<TcpConn*> conns_;
  sc_core::sc_time t0_;
  unsigned opened_ = 0;
};

// Accepts connections on `port`, verifies and counts what arrives, sends
// `send_bytes` of the pattern on each accepted connection, and closes when
// the peer closes.
struct TcpServerParams {
  uint16_t port = 5001;
  uint64_t send_bytes = 0;
};

class TcpServerApp {
 public:
  TcpServerApp(SimHost& h, const TcpServerParams& p) : h_(h), p_(p) {}
  void start();  // listens at once
  const std::vector<TcpConn*>& conns() const { return conns_; }
  nlohmann::json to_json() const;

 private:
  SimHost& h_;
  TcpServerParams p_;
  std::vector<TcpConn*> conns_;
};

// Request/response client (line protocols such as the board's protosocket
// hello server): opens `connections` connections to dst:dport (the i-th at
// start + i * stagger), sends `request` on each without closing — at once,
// or, with a `prompt`, as soon as the received data contains the prompt
// (like a user answering a server's question) — keeps everything the server
// sends and closes when the server closes. A connection "matches" when it
// closed normally and received exactly `expect`.
struct TcpRequestParams {
  uint32_t dst = 0xC0A80035;
  uint16_t dport = 80;
  std::string request, expect, prompt;
  unsigned connections = 1;
  sc_core::sc_time start = sc_core::SC_ZERO_TIME;
  sc_core::sc_time stagger = sc_core::SC_ZERO_TIME;
  // > 0: the request's bytes go one at a time, this far apart from the
  // connection's opening on (a slow "trickle" client; without a prompt).
  sc_core::sc_time interval = sc_core::SC_ZERO_TIME;
};

class TcpRequestApp {
 public:
  TcpRequestApp(SimHost& h, const TcpRequestParams& p) : h_(h), p_(p) {}
  void start();
  bool done() const;  // every connection opened and closed (or reset/aborted)
  unsigned matched() const;
  const std::vector<TcpConn*>& conns() const { return conns_; }
  nlohmann::json to_json() const;

 private:
  SimHost& h_;
  TcpRequestParams p_;
  std::vector<TcpConn*> conns_;
  sc_core::sc_time t0_;
};

// Raw Ethernet frames put on the link as given (docs/network.md "Raw
// frames"): malformed-frame tests without a TAP device. The frames pass
// through the host's transmit latency and the link (capture, impairments)
// like the host's own; the host's stack never sees them.
struct RawFrame {
  Bytes data;            // destination MAC .. end of payload, no FCS (0 .. kMaxRawFrameBytes)
  bool bad_fcs = false;  // sent with a wrong FCS: the receiver sees a CRC error
  bool pad = true;       // padded to 60 bytes if shorter (false: sent as a runt)
  sc_core::sc_time at;   // offset from start (used when RawParams::timed)
};
constexpr size_t kMaxRawFrameBytes = 16384;  // without FCS (a 9018-byte jumbo frame fits)
struct RawParams {
  std::vector<RawFrame> frames;
  sc_core::sc_time start = sc_core::SC_ZERO_TIME;
  sc_core::sc_time spacing = sc_core::sc_time(100, sc_core::SC_US);  // frame i at start + i * spacing
  bool timed = false;   // each frame at start + its own `at` instead (repeat is then 1)
  unsigned repeat = 1;  // the whole list this many times
};

class RawSender {
 public:
  RawSender(SimHost& h, const RawParams& p) : h_(h), p_(p) {}
  void start();
  bool done() const { return sent_ == total(); }
  uint64_t sent() const { return sent_; }
  nlohmann::json to_json() const;

 private:
  uint64_t total() const { return uint64_t(p_.frames.size()) * p_.repeat; }
  sc_core::sc_time due(uint64_t i) const;  // absolute time of the i-th frame
  void send_next();
  SimHost& h_;
  RawParams p_;
  uint64_t sent_ = 0, bytes_ = 0, dropped_ = 0;  // sent: handed to the host; dropped: its queue was full
  sc_core::sc_time t0_, first_, last_;
};

// Integer square root (floor), for mdev without floating point.
uint64_t isqrt128(unsigned __int128 v);
// Picoseconds of a simulated time.
uint64_t ps_of(const sc_core::sc_time& t);

}  // namespace l3vp::host
