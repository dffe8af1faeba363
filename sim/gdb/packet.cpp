#include "packet.h"

namespace l3vp::gdb {

namespace {
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
constexpr char kHex[] = "0123456789abcdef";
}  // namespace

uint8_t checksum(std::string_view payload) {
  unsigned s = 0;
  for (char c : payload) s += static_cast<uint8_t>(c);
  return static_cast<uint8_t>(s);
}

std::string frame(std::string_view payload) {
  std::string body;
  body.reserve(payload.size() + 8);
  for (char c : payload) {
    if (c == '$' || c == '#' || c == '}' || c == '*') {
      body += '}';
      body += static_cast<char>(c ^ 0x20);
    } else {
      body += c;
    }
  }
  const uint8_t cs = checksum(body);
  std::string out = "$" + body + "#";
  out += kHex[cs >> 4];
  out += kHex[cs & 15];
  return out;
}

void PacketReader::keep(char c) {
  if (body_.size() < max_)
    body_ += c;
  else
    overlong_ = true;
}

std::optional<PacketReader::Event> PacketReader::feed(char c) {
  switch (st_) {
    case State::Idle:
      if (c == '$') {
        st_ = State::Body;
        body_.clear();
        sum_ = 0;
        overlong_ = false;
      } else if (c == '\x03') {
        return Event{Kind::Interrupt, {}};
      } else if (c == '+') {
        return Event{Kind::Ack, {}};
      } else if (c == '-') {
        return Event{Kind::Nak, {}};
      }
      return std::nullopt;
    case State::Body:
      if (c == '#') {
        st_ = State::Sum1;
        got_ = 0;
        return std::nullopt;
      }
      sum_ += static_cast<uint8_t>(c);
      if (c == '}')
        st_ = State::Escape;
      else
        keep(c);
      return std::nullopt;
    case State::Escape:
      sum_ += static_cast<uint8_t>(c);
      keep(static_cast<char>(c ^ 0x20));
      st_ = State::Body;
      return std::nullopt;
    case State::Sum1:
    case State::Sum2: {
      const int d = hex_digit(c);
      got_ = (got_ << 4) | unsigned(d < 0 ? 0x100 : d);  // a bad digit never matches
      if (st_ == State::Sum1) {
        st_ = State::Sum2;
        return std::nullopt;
      }
      st_ = State::Idle;
      const bool ok = got_ == (sum_ & 0xFF) && !overlong_;
      Event e{ok ? Kind::Packet : Kind::BadPacket, ok ? body_ : std::string()};
      body_.clear();
      return e;
    }
  }
  return std::nullopt;
}

std::string to_hex(const uint8_t* data, size_t n) {
  std::string s;
  s.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    s += kHex[data[i] >> 4];
    s += kHex[data[i] & 15];
  }
  return s;
}

bool from_hex(std::string_view hex, std::vector<uint8_t>& out) {
  if (hex.size() % 2) return false;
  out.clear();
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int a = hex_digit(hex[i]), b = hex_digit(hex[i + 1]);
    if (a < 0 || b < 0) return false;
    out.push_back(static_cast<uint8_t>(a << 4 | b));
  }
  return true;
}

std::string be32_hex(uint32_t v) {
  const uint8_t b[4] = {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
  return to_hex(b, 4);
}

bool parse_be32_hex(std::string_view hex, uint32_t& v) {
  std::vector<uint8_t> b;
  if (hex.size() != 8 || !from_hex(hex, b)) return false;
  v = uint32_t(b[0]) << 24 | uint32_t(b[1]) << 16 | uint32_t(b[2]) << 8 | b[3];
  return true;
}

bool parse_hex_u32(std::string_view hex, uint32_t& v) {
  if (hex.empty()) return false;
  uint64_t x = 0;
  for (char c : hex) {
    const int d = hex_digit(c);
    if (d < 0) return false;
    x = x << 4 | unsigned(d);
    if (x > 0xFFFFFFFFull) return false;
  }
  v = static_cast<uint32_t>(x);
  return true;
}

}  // namespace l3vp::gdb
