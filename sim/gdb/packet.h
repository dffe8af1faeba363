// GDB remote serial protocol framing, without sockets (unit-tested in
// testbenches/unit/gdb): packets "$payload#cs", checksums, acknowledgements,
// the Ctrl-C byte, hex and binary (X packet) encodings.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace l3vp::gdb {

// Modulo-256 sum of the payload bytes (as sent, i.e. escaped).
uint8_t checksum(std::string_view payload);

// "$" + payload (with '$', '#', '}' and '*' escaped) + "#" + two hex digits.
std::string frame(std::string_view payload);

// Splits the byte stream from gdb into events.
class PacketReader {
 public:
  enum class Kind {
    Packet,     // a packet with a good checksum: text = its unescaped payload
    BadPacket,  // a packet whose checksum did not match (answer '-')
    Interrupt,  // the Ctrl-C byte 0x03 outside a packet
    Ack,        // '+'
    Nak,        // '-'
  };
  struct Event {
    Kind kind;
    std::string text;
  };
  // The largest unescaped payload accepted: the stub advertises
  // PacketSize=4096; a longer packet is answered as a bad one.
  static constexpr size_t kDefaultMaxPayload = 4096;
  explicit PacketReader(size_t max_payload = kDefaultMaxPayload) : max_(max_payload) {}
  size_t max_payload() const { return max_; }
  // Bytes of the packet being read held in memory (at most max_payload()).
  size_t buffered() const { return body_.size(); }

  // Feeds one byte; returns an event when the byte completes one. Bytes
  // outside packets other than '+', '-' and 0x03 are ignored. A packet over
  // max_payload() bytes is read to its end without being kept and reported
  // as a BadPacket.
  std::optional<Event> feed(char c);

 private:
  enum class State { Idle, Body, Escape, Sum1, Sum2 };
  State st_ = State::Idle;
  std::string body_;  // unescaped payload
  unsigned sum_ = 0;  // running checksum of the raw bytes
  unsigned got_ = 0;  // checksum digits received
  size_t max_;
  bool overlong_ = false;  // the packet being read exceeded max_
  void keep(char c);
};

// Lowercase hex of bytes, and back (false on odd length or a non-hex digit).
std::string to_hex(const uint8_t* data, size_t n);
inline std::string to_hex(std::string_view s) {
  return to_hex(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}
bool from_hex(std::string_view hex, std::vector<uint8_t>& out);
// A 32-bit value as 8 hex digits in target (big-endian) byte order, and back.
std::string be32_hex(uint32_t v);
bool parse_be32_hex(std::string_view hex, uint32_t& v);
// An unsigned hex number (addresses, lengths in "m addr,len"); false when
// empty, not hex or above 32 bits.
bool parse_hex_u32(std::string_view hex, uint32_t& v);

}  // namespace l3vp::gdb
