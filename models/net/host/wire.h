// Byte-level helpers of the simulated host: addresses, the Internet checksum
// (RFC 1071), and building/parsing Ethernet II, ARP (RFC 826), IPv4
// (RFC 791), ICMP (RFC 792), UDP (RFC 768) and TCP (RFC 793) headers.
// All multi-byte fields are big-endian on the wire; values here are host
// integers (an IPv4 address 192.168.0.55 is 0xC0A80037).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "inet_checksum.h"

namespace l3vp::host {

using Mac = std::array<uint8_t, 6>;
using Bytes = std::vector<uint8_t>;

constexpr Mac kBroadcast = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
constexpr uint16_t kEtherIpv4 = 0x0800;
constexpr uint16_t kEtherArp = 0x0806;
constexpr uint8_t kProtoIcmp = 1;
constexpr uint8_t kProtoTcp = 6;
constexpr uint8_t kProtoUdp = 17;
constexpr size_t kEthHdr = 14;
constexpr size_t kIpHdr = 20;  // we send no IP options
constexpr size_t kUdpHdr = 8;
constexpr size_t kTcpHdr = 20;
constexpr size_t kIcmpEchoHdr = 8;

inline uint16_t get16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
inline uint32_t get32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
inline void put16(uint8_t* p, uint16_t v) {
  p[0] = uint8_t(v >> 8);
  p[1] = uint8_t(v);
}
inline void put32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

// "02:00:00:00:00:55" / "192.168.0.55" (parsing: models/common/units.h).
std::string mac_str(const Mac& m);
std::string ip4_str(uint32_t ip);

// RFC 1071 and the TCP/UDP pseudo-header checksum (models/net/inet_checksum.h).
using l3vp::csum_add;
using l3vp::csum_fold;
using l3vp::inet_checksum;
using l3vp::l4_checksum;

// Verifiable payload patterns, simple enough for the firmware to produce:
// a byte stream (TCP) carries byte (offset mod 251) at stream offset i;
// a UDP datagram k carries k as a big-endian u32 in bytes 0..3 (when the
// payload has >= 4 bytes) and byte ((k + j) mod 251) at every index j >= 4.
inline uint8_t stream_byte(uint64_t offset) { return static_cast<uint8_t>(offset % 251); }
Bytes udp_pattern(uint32_t k, size_t len);
// True if `p` is datagram k's pattern (k from bytes 0..3 when len >= 4).
bool udp_pattern_ok(const uint8_t* p, size_t len, uint32_t* k_out);

// ---- Ethernet II ----
struct EthView {
  Mac dst{}, src{};
  uint16_t type = 0;
  const uint8_t* payload = nullptr;
  size_t len = 0;
};
bool parse_eth(const uint8_t* p, size_t n, EthView& v);
Bytes eth_frame(const Mac& dst, const Mac& src, uint16_t type, const uint8_t* payload, size_t n);

// ---- ARP (Ethernet/IPv4 only) ----
struct ArpView {
  uint16_t op = 0;  // 1 request, 2 reply
  Mac sha{}, tha{};
  uint32_t spa = 0, tpa = 0;
};
bool parse_arp(const uint8_t* p, size_t n, ArpView& v);
Bytes arp_packet(uint16_t op, const Mac& sha, uint32_t spa, const Mac& tha, uint32_t tpa);

// ---- IPv4 ----
struct Ip4View {
  uint8_t ihl_bytes = 0, tos = 0, ttl = 0, proto = 0;
  uint16_t total_len = 0, id = 0, frag = 0;  // frag = flags(3) | offset(13)
  uint32_t src = 0, dst = 0;
  bool checksum_ok = false;
  const uint8_t* payload = nullptr;
  size_t len = 0;  // total_len - header (bytes beyond total_len, e.g. padding, are ignored)
  bool is_fragment() const { return (frag & 0x3FFF) != 0; }  // MF or offset
};
bool parse_ip4_packet(const uint8_t* p, size_t n, Ip4View& v);
Bytes ip4_packet(uint32_t src, uint32_t dst, uint8_t proto, uint16_t id, uint8_t ttl, bool df,
                 const uint8_t* payload, size_t n);

// ---- ICMP echo ----
Bytes icmp_echo(bool reply, uint16_t id, uint16_t seq, const uint8_t* data, size_t n);

// ---- UDP ----
struct UdpView {
  uint16_t sport = 0, dport = 0, len = 0, csum = 0;
  bool checksum_ok = false;  // true also when the sender sent no checksum (0)
  const uint8_t* payload = nullptr;
  size_t plen = 0;
};
bool parse_udp(uint32_t src, uint32_t dst, const uint8_t* p, size_t n, UdpView& v);
Bytes udp_datagram(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, const uint8_t* data, size_t n);

// ---- TCP ----
enum TcpFlag : uint8_t { kFin = 0x01, kSyn = 0x02, kRst = 0x04, kPsh = 0x08, kAck = 0x10, kUrg = 0x20 };
struct TcpView {
  uint16_t sport = 0, dport = 0, wnd = 0;
  uint32_t seq = 0, ack = 0;
  uint8_t flags = 0;
  uint16_t mss = 0;  // MSS option (0 = absent)
  bool checksum_ok = false;
  const uint8_t* payload = nullptr;
  size_t plen = 0;
};
bool parse_tcp(uint32_t src, uint32_t dst, const uint8_t* p, size_t n, TcpView& v);
// `mss` != 0 adds the MSS option (kind 2, length 4). Data is copied from
// `data` or, if `data` is null, generated as stream_byte(stream_off + i).
Bytes tcp_segment(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
                  uint8_t flags, uint16_t wnd, uint16_t mss, const uint8_t* data, size_t n,
                  uint64_t stream_off = 0);

}  // namespace l3vp::host
