// net_harness.h - host test harness for firmware/net: a fake netif that
// captures transmitted frames, frame builders and parsers written from the
// RFCs, a reference checksum, and a scriptable TCP application.
#pragma once

#include <functional>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

extern "C" {
#include "net.h"
#include "net_chksum.h"
#include "psock.h"
}

using Bytes = std::vector<uint8_t>;

namespace nh {

constexpr uint8_t kOurMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
constexpr uint8_t kPeerMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02};
constexpr uint8_t kBcastMac[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
constexpr uint32_t kOurIp = NET_IP4(10, 0, 0, 1);
constexpr uint32_t kPeerIp = NET_IP4(10, 0, 0, 2);
constexpr uint32_t kGwIp = NET_IP4(10, 0, 0, 254);
constexpr uint32_t kMask = NET_IP4(255, 255, 255, 0);

// Frames sent by the stack, oldest first.
extern std::vector<Bytes> tx;
// When false, low_level_output reports an error.
extern bool link_up;

// Reference Internet checksum: plain sum of big-endian 16-bit words.
uint16_t ref_sum(const uint8_t* p, size_t n, uint32_t init = 0);
uint16_t ref_pseudo_sum(uint32_t src, uint32_t dst, uint8_t proto, const Bytes& seg);

void put16(Bytes& b, size_t off, uint16_t v);
void put32(Bytes& b, size_t off, uint32_t v);
uint16_t get16(const Bytes& b, size_t off);
uint32_t get32(const Bytes& b, size_t off);

Bytes eth_frame(const uint8_t* dst, const uint8_t* src, uint16_t type, const Bytes& payload);

struct IpOpt {
  Bytes options;       // appended after the 20-byte header (multiple of 4)
  uint16_t frag = 0;   // flags + fragment offset field
  int total_len = -1;  // override the total length field
  int ihl = -1;        // override IHL (in words)
  int version = 4;
  bool bad_checksum = false;
  uint8_t ttl = 64;
};
Bytes ip_packet(uint32_t src, uint32_t dst, uint8_t proto, const Bytes& payload, const IpOpt& o = IpOpt());

struct TcpSeg {
  uint16_t sport = 40000, dport = 80;
  uint32_t seq = 0, ack = 0;
  uint8_t flags = TCP_ACK;
  uint16_t wnd = 8192;
  uint16_t urp = 0;
  Bytes options;
  Bytes data;
  int doff = -1;  // override the data offset (words)
  bool bad_checksum = false;
};
Bytes tcp_segment(uint32_t src, uint32_t dst, const TcpSeg& s);
Bytes udp_datagram(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, const Bytes& data,
                   bool checksum = true);
Bytes icmp_echo(uint8_t type, uint16_t id, uint16_t seq, const Bytes& data);
// ARP packet (Ethernet/IPv4, RFC 826): operation, sender and target addresses.
Bytes arp_pkt(uint16_t op, const uint8_t* sha, uint32_t spa, const uint8_t* tha, uint32_t tpa);

// Complete frame from the peer to us.
Bytes peer_ip_frame(uint8_t proto, const Bytes& payload, const IpOpt& o = IpOpt(), uint32_t src = kPeerIp,
                    uint32_t dst = kOurIp);

// A transmitted frame, decoded and checked.
struct Pkt {
  Bytes raw;
  uint16_t ethtype = 0;
  bool ip_ok = false;  // IPv4 header valid (checksum, lengths)
  uint32_t src = 0, dst = 0;
  uint8_t proto = 0;
  Bytes payload;       // IP payload
  bool l4_ok = false;  // TCP/UDP/ICMP checksum valid
  // TCP
  uint16_t sport = 0, dport = 0;
  uint32_t seq = 0, ack = 0;
  uint8_t flags = 0;
  uint16_t wnd = 0;
  int mss = -1;  // MSS option or -1
  Bytes data;    // TCP/UDP/ICMP data
};
Pkt parse(const Bytes& frame);

Bytes pattern(size_t n, unsigned seed = 1);

// Feed a frame through an exactly sized heap copy (so ASan sees over-reads
// in zero-copy builds).
void inject(const Bytes& f);
// The same, with the frame `offset` bytes past a 16-aligned address (0 =
// inject(); 2 puts the IP header on a 4-aligned address, 4 leaves the frame
// 4- but not 8-aligned: the stack's aligned fast paths are not taken).
void inject_at(const Bytes& f, size_t offset, unsigned checked = 0);
// inject() through net_input_checked(): `checked` = NET_RXCK_* a MAC with
// receive checksum offload confirmed.
inline void inject_checked(const Bytes& f, unsigned checked) { inject_at(f, 0, checked); }

// Scriptable TCP application, one state per connection slot.
struct App {
  std::vector<unsigned> events;
  Bytes rx;
  Bytes to_send;   // sent in chunks of tcp_sndmax()
  Bytes inflight;  // uIP mode: last chunk, resent on NET_EV_REXMIT
  Bytes sent;      // everything handed to tcp_send (first transmissions)
  bool echo = false;
  bool close_when_done = false;  // tcp_close() once to_send is empty
  bool close_on_peer_close = false;
  bool abort_on_data = false;
  bool ignore_rexmit = false;
  unsigned rexmits = 0;
  size_t chunk = 0;  // default build: at most this many bytes per tcp_send (0: no limit)
  // tcp_send_ref (NET_TCP_SNDREFS): queue ref_data[ref_next..ref_len) in
  // references of ref_chunk bytes, as many as the stack takes, on every
  // event; the buffer stays the test's (the stack reads it when it sends).
  const uint8_t* ref_data = nullptr;
  size_t ref_len = 0, ref_next = 0, ref_chunk = 1000;
  unsigned ref_full = 0;                                 // tcp_send_ref answers NET_ERR_BUF
  std::function<void(struct tcp_conn*, unsigned)> hook;  // called first
  unsigned all = 0;                                      // OR of every event
};
extern App apps[NET_TCP_CONNS];
void app_call(struct tcp_conn* c, unsigned ev);
netif_output_fn fake_output_ptr();
// A netif tx_buffer (off unless a test sets nif_.tx_buffer to it): one
// driver buffer, junk-filled on every hand-out; tx_in_place counts the
// frames sent from it.
netif_tx_buffer_fn fake_tx_buffer_ptr();
extern unsigned tx_buffers_out, tx_in_place;
inline App& app_of(struct tcp_conn* c) { return apps[c - tcp_conns]; }

}  // namespace nh

// Fixture: fresh stack at 10.0.0.1/24 on every test.
class NetTest : public ::testing::Test {
 protected:
  struct netif nif_ {};
  unsigned expected_arg_errors_ = 0;
  void SetUp() override;
  void TearDown() override;

  // Advance time in steps of `step` ms.
  void advance(uint32_t ms, uint32_t step = 10);
  // Teach the stack the peer's MAC (an ARP request from the peer), clear tx.
  void prime_arp(uint32_t ip = nh::kPeerIp, const uint8_t* mac = nh::kPeerMac);
  std::vector<nh::Pkt> take();  // parse and clear the captured frames
};
