// Ethernet frames as they travel between MAC models, the two interfaces a
// network attachment uses, and the IEEE 802.3 wire-time arithmetic shared by
// the link and the MACs.
//
// A frame carries the bytes a MAC DMA sees (destination address .. end of
// payload, no preamble/SFD, no FCS) plus flags describing what went wrong on
// the way (bad FCS, dribble nibble) and the times the link computed for it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <systemc>
#include <vector>

namespace l3vp {

struct EthFrame {
  std::vector<uint8_t> data;  // DA, SA, type/length, payload (no FCS)
  bool crc_error = false;     // FCS does not match (the receiver flags CE)
  bool dribble = false;       // an extra nibble followed the last byte
  // Sent as is when shorter than 60 bytes (a runt: a collision fragment or a
  // broken sender); the link pads every other short frame. Set only by the
  // simulated host's raw-frame injection (docs/network.md "Raw frames").
  bool no_pad = false;
  uint64_t seq = 0;        // link: submission number per direction, from 1 (0 = injected by hand)
  bool duplicate = false;  // link: the second copy of a duplicated frame
  // Filled in by the link (all zero for frames injected by hand):
  sc_core::sc_time tx_start;   // first preamble bit leaves the sender
  sc_core::sc_time rx_start;   // first preamble bit reaches the receiver
  sc_core::sc_time rx_end;     // last FCS bit reaches the receiver
  sc_core::sc_time byte_time;  // one byte on the receiving segment
};

// Receiving side of a network attachment (implemented by a MAC model or a
// host stand-in). The link calls frame_start() when the first preamble bit
// arrives (an early notice, so a MAC can store data while it arrives) and
// frame_in() when the last bit has arrived. Code that injects frames by hand
// may call frame_in() alone.
class EthPort {
 public:
  virtual ~EthPort() = default;
  virtual void frame_start(const EthFrame&) {}
  virtual void frame_in(const EthFrame& f) = 0;
};

// Sending side: what a MAC hands its frames to.
class EthTx {
 public:
  struct Times {
    sc_core::sc_time start;  // first preamble bit leaves the MAC
    sc_core::sc_time end;    // last FCS bit has left the MAC
  };
  virtual ~EthTx() = default;
  // Queues `f` for transmission at sc_time_stamp(); frames leave in FIFO
  // order, each one at least one inter-frame gap after the previous one.
  virtual Times send(const EthFrame& f) = 0;
};

// IEEE 802.3 framing constants and wire times (all exact, integer sc_time).
namespace eth {

constexpr unsigned kPreamble = 8;  // 7 preamble bytes + SFD
constexpr unsigned kMinData = 60;  // minimum frame without FCS (short frames are padded)
constexpr unsigned kFcs = 4;
constexpr unsigned kIfg = 12;        // inter-frame gap, in byte times
constexpr unsigned kMaxData = 1514;  // untagged maximum without FCS
constexpr uint16_t kTypeMacControl = 0x8808;

// Time of one byte (8 bit times) at `mbps` Mbit/s: 800 ns at 10, 80 ns at 100.
inline sc_core::sc_time byte_time(unsigned mbps) {
  if (mbps == 0 || 8000 % mbps != 0) throw std::invalid_argument("eth::byte_time: unsupported speed");
  return sc_core::sc_time(8000 / mbps, sc_core::SC_NS);
}
// Bytes a frame of `len` data bytes occupies on the wire: preamble+SFD,
// data padded to 60, FCS (the inter-frame gap is not included).
inline uint64_t wire_bytes(size_t len) { return kPreamble + std::max<uint64_t>(len, kMinData) + kFcs; }
// n byte times (integer arithmetic on the sc_time value, no floating point).
inline sc_core::sc_time bytes_time(uint64_t n, unsigned mbps) {
  return sc_core::sc_time::from_value(byte_time(mbps).value() * n);
}
inline sc_core::sc_time frame_time(size_t len, unsigned mbps) { return bytes_time(wire_bytes(len), mbps); }
inline sc_core::sc_time ifg_time(unsigned mbps) { return bytes_time(kIfg, mbps); }
// The type/length field (bytes 12..13), 0 for a frame shorter than 14 bytes.
inline uint16_t type_field(const EthFrame& f) {
  return f.data.size() >= 14 ? static_cast<uint16_t>(f.data[12] << 8 | f.data[13]) : 0;
}

}  // namespace eth
}  // namespace l3vp
