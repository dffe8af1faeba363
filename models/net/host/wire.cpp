#include "wire.h"

#include <cstdio>

namespace l3vp::host {

std::string mac_str(const Mac& m) {
  char b[18];
  std::snprintf(b, sizeof b, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
  return b;
}

std::string ip4_str(uint32_t ip) {
  char b[16];
  std::snprintf(b, sizeof b, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
  return b;
}

Bytes udp_pattern(uint32_t k, size_t len) {
  Bytes b(len);
  for (size_t j = 0; j < len; ++j) b[j] = static_cast<uint8_t>((k + j) % 251);
  if (len >= 4) put32(b.data(), k);
  return b;
}

bool udp_pattern_ok(const uint8_t* p, size_t len, uint32_t* k_out) {
  uint32_t k = 0;
  if (len >= 4) k = get32(p);
  if (k_out) *k_out = k;
  for (size_t j = len >= 4 ? 4 : 0; j < len; ++j)
    if (p[j] != static_cast<uint8_t>((uint64_t(k) + j) % 251)) return false;
  return true;
}

bool parse_eth(const uint8_t* p, size_t n, EthView& v) {
  if (n < kEthHdr) return false;
  for (int i = 0; i < 6; ++i) {
    v.dst[i] = p[i];
    v.src[i] = p[6 + i];
  }
  v.type = get16(p + 12);
  v.payload = p + kEthHdr;
  v.len = n - kEthHdr;
  return true;
}

Bytes eth_frame(const Mac& dst, const Mac& src, uint16_t type, const uint8_t* payload, size_t n) {
  Bytes b(kEthHdr + n);
  for (int i = 0; i < 6; ++i) {
    b[i] = dst[i];
    b[6 + i] = src[i];
  }
  put16(&b[12], type);
  for (size_t i = 0; i < n; ++i) b[kEthHdr + i] = payload[i];
  return b;
}

bool parse_arp(const uint8_t* p, size_t n, ArpView& v) {
  // htype 1 (Ethernet), ptype 0x0800, hlen 6, plen 4 (RFC 826).
  if (n < 28 || get16(p) != 1 || get16(p + 2) != kEtherIpv4 || p[4] != 6 || p[5] != 4) return false;
  v.op = get16(p + 6);
  for (int i = 0; i < 6; ++i) {
    v.sha[i] = p[8 + i];
    v.tha[i] = p[18 + i];
  }
  v.spa = get32(p + 14);
  v.tpa = get32(p + 24);
  return true;
}

Bytes arp_packet(uint16_t op, const Mac& sha, uint32_t spa, const Mac& tha, uint32_t tpa) {
  Bytes b(28);
  put16(&b[0], 1);
  put16(&b[2], kEtherIpv4);
  b[4] = 6;
  b[5] = 4;
  put16(&b[6], op);
  for (int i = 0; i < 6; ++i) {
    b[8 + i] = sha[i];
    b[18 + i] = tha[i];
  }
  put32(&b[14], spa);
  put32(&b[24], tpa);
  return b;
}

bool parse_ip4_packet(const uint8_t* p, size_t n, Ip4View& v) {
  if (n < kIpHdr || (p[0] >> 4) != 4) return false;
  v.ihl_bytes = static_cast<uint8_t>((p[0] & 15) * 4);
  v.total_len = get16(p + 2);
  if (v.ihl_bytes < kIpHdr || v.total_len < v.ihl_bytes || v.total_len > n) return false;
  v.tos = p[1];
  v.id = get16(p + 4);
  v.frag = get16(p + 6);
  v.ttl = p[8];
  v.proto = p[9];
  v.src = get32(p + 12);
  v.dst = get32(p + 16);
  v.checksum_ok = csum_fold(csum_add(0, p, v.ihl_bytes)) == 0;
  v.payload = p + v.ihl_bytes;
  v.len = v.total_len - v.ihl_bytes;
  return true;
}

Bytes ip4_packet(uint32_t src, uint32_t dst, uint8_t proto, uint16_t id, uint8_t ttl, bool df,
                 const uint8_t* payload, size_t n) {
  Bytes b(kIpHdr + n);
  b[0] = 0x45;
  b[1] = 0;
  put16(&b[2], static_cast<uint16_t>(kIpHdr + n));
  put16(&b[4], id);
  put16(&b[6], df ? 0x4000 : 0);
  b[8] = ttl;
  b[9] = proto;
  put32(&b[12], src);
  put32(&b[16], dst);
  put16(&b[10], inet_checksum(b.data(), kIpHdr));
  for (size_t i = 0; i < n; ++i) b[kIpHdr + i] = payload[i];
  return b;
}

Bytes icmp_echo(bool reply, uint16_t id, uint16_t seq, const uint8_t* data, size_t n) {
  Bytes b(kIcmpEchoHdr + n);
  b[0] = reply ? 0 : 8;
  b[1] = 0;
  put16(&b[4], id);
  put16(&b[6], seq);
  for (size_t i = 0; i < n; ++i) b[kIcmpEchoHdr + i] = data[i];
  put16(&b[2], inet_checksum(b.data(), b.size()));
  return b;
}

bool parse_udp(uint32_t src, uint32_t dst, const uint8_t* p, size_t n, UdpView& v) {
  if (n < kUdpHdr) return false;
  v.sport = get16(p);
  v.dport = get16(p + 2);
  v.len = get16(p + 4);
  v.csum = get16(p + 6);
  if (v.len < kUdpHdr || v.len > n) return false;
  v.checksum_ok = v.csum == 0 || l4_checksum(src, dst, kProtoUdp, p, v.len) == 0;
  v.payload = p + kUdpHdr;
  v.plen = v.len - kUdpHdr;
  return true;
}

Bytes udp_datagram(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, const uint8_t* data,
                   size_t n) {
  Bytes b(kUdpHdr + n);
  put16(&b[0], sport);
  put16(&b[2], dport);
  put16(&b[4], static_cast<uint16_t>(kUdpHdr + n));
  for (size_t i = 0; i < n; ++i) b[kUdpHdr + i] = data[i];
  uint16_t c = l4_checksum(src, dst, kProtoUdp, b.data(), b.size());
  put16(&b[6], c == 0 ? 0xFFFF : c);  // 0 means "no checksum" (RFC 768)
  return b;
}

bool parse_tcp(uint32_t src, uint32_t dst, const uint8_t* p, size_t n, TcpView& v) {
  if (n < kTcpHdr) return false;
  const size_t off = (p[12] >> 4) * 4u;
  if (off < kTcpHdr || off > n) return false;
  v.sport = get16(p);
  v.dport = get16(p + 2);
  v.seq = get32(p + 4);
  v.ack = get32(p + 8);
  v.flags = p[13] & 0x3F;
  v.wnd = get16(p + 14);
  v.checksum_ok = l4_checksum(src, dst, kProtoTcp, p, n) == 0;
  v.mss = 0;
  for (size_t i = kTcpHdr; i < off;) {  // options (RFC 793 §3.1)
    const uint8_t kind = p[i];
    if (kind == 0) break;
    if (kind == 1) {
      ++i;
      continue;
    }
    if (i + 1 >= off || p[i + 1] < 2 || i + p[i + 1] > off) break;
    if (kind == 2 && p[i + 1] == 4) v.mss = get16(p + i + 2);
    i += p[i + 1];
  }
  v.payload = p + off;
  v.plen = n - off;
  return true;
}

Bytes tcp_segment(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
                  uint8_t flags, uint16_t wnd, uint16_t mss, const uint8_t* data, size_t n,
                  uint64_t stream_off) {
  const size_t hl = kTcpHdr + (mss ? 4 : 0);
  Bytes b(hl + n);
  put16(&b[0], sport);
  put16(&b[2], dport);
  put32(&b[4], seq);
  put32(&b[8], ack);
  b[12] = static_cast<uint8_t>((hl / 4) << 4);
  b[13] = flags;
  put16(&b[14], wnd);
  if (mss) {
    b[20] = 2;
    b[21] = 4;
    put16(&b[22], mss);
  }
  for (size_t i = 0; i < n; ++i) b[hl + i] = data ? data[i] : stream_byte(stream_off + i);
  put16(&b[16], l4_checksum(src, dst, kProtoTcp, b.data(), b.size()));
  return b;
}

}  // namespace l3vp::host
