// Stream checker: a simulator-only APB target that compares data the firmware
// says it has received against the simulated host's stream pattern, in zero
// simulated time (docs/network.md "Checking received data").
//
// A scoreboard, as in a hardware testbench: the firmware hands it a pointer
// and a length per delivered piece (three uncached stores), the checker reads
// those bytes from memory with side-effect-free debug reads (TLM
// transport_dbg through the CPU's socket: no bus cycles, no cache change)
// and compares them with the pattern. The firmware does no work per byte, so
// a receiver's goodput is the stack's, with every delivered byte checked.
//
// It sits in APB slot 11 (0x80000B00), empty on the GR-XC3S-1500 template,
// and is not in the plug&play table: on the board the same stores go to an
// empty slot, the bridge drops them and they cost one APB store each, as
// they do here.
//
//   +0x0  write: select stream <value> (a new id starts at stream offset 0)
//   +0x4  write: address of the next piece
//   +0x8  write: length of the piece: check it against the selected stream
//         at the stream's offset, then advance the offset by the length
//   reads: 0; other offsets: writes ignored
//
// Pattern: the byte at stream offset i is i mod 251 (the simulated host's
// TCP stream pattern, docs/network.md). A piece longer than kMaxPiece bytes
// is not read: it is counted as rejected (and its bytes as bad) and the
// offset still advances. Bytes the debug read cannot reach (unmapped
// address) count as bad and as unreadable.
#pragma once
#include <tlm_utils/simple_target_socket.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

namespace l3vp {

class StatsGroup;

// One stream (a connection, as the firmware numbers it).
struct StreamCheckStream {
  uint32_t id = 0;
  uint64_t offset = 0;     // next expected stream offset = bytes checked
  uint64_t pieces = 0;     // pieces checked
  uint64_t bad_bytes = 0;  // bytes that differed from the pattern (or could not be read)
  int64_t first_bad = -1;  // stream offset of the first bad byte, -1 if none
};

class StreamCheck : public sc_core::sc_module {
 public:
  static constexpr unsigned kPindex = 11;  // APB slot (empty on the template)
  static constexpr uint32_t kSelectOffset = 0x0, kAddrOffset = 0x4, kLenOffset = 0x8;
  static constexpr uint32_t kMaxPiece = 65535;  // an IPv4 datagram at most
  static constexpr unsigned kPatternMod = 251;
  static constexpr size_t kMaxStreams = 4096;  // ids beyond: pieces rejected

  // Reads `len` bytes at `addr` without side effects; returns how many it got.
  using ReadFn = std::function<unsigned(uint32_t addr, uint8_t* dst, unsigned len)>;

  tlm_utils::simple_target_socket<StreamCheck> tsock;

  StreamCheck(sc_core::sc_module_name n, ReadFn read);

  // Over all streams (the --stats counters of the same names).
  struct Totals {
    uint64_t pieces = 0, bytes = 0, bad_bytes = 0, bad_pieces = 0, rejected = 0, unreadable = 0;
  };
  const Totals& totals() const { return t_; }
  const std::map<uint32_t, StreamCheckStream>& streams() const { return streams_; }

  // Totals and the per-stream table under `g` (stream_check).
  void register_stats(const StatsGroup& g);

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  void check(uint32_t addr, uint32_t len);

  ReadFn read_;
  std::map<uint32_t, StreamCheckStream> streams_;
  uint32_t sel_ = 0, addr_ = 0;
  std::vector<uint8_t> buf_;
  Totals t_;
};

}  // namespace l3vp
