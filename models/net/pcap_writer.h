// PcapWriter: records Ethernet frames with their simulated-time stamps into a
// classic libpcap file (link type DLT_EN10MB, nanosecond time stamps), so a
// run can be inspected with Wireshark/tshark. Writing goes through libpcap
// (pcap_open_dead_with_tstamp_precision + pcap_dump), not a hand-made writer.
//
// Frames are the bytes a MAC DMA sees (no preamble/SFD, no FCS), which is
// what DLT_EN10MB captures normally carry. Time stamps are simulated time,
// truncated to whole nanoseconds (the file format's finest precision).
#pragma once
#include <cstdint>
#include <string>
#include <systemc>

#include "eth_frame.h"
#include "eth_link.h"

struct pcap;
struct pcap_dumper;

namespace l3vp {

class PcapWriter {
 public:
  // Where on an EthLink frames are captured (see attach()).
  enum class Point {
    kSend,     // as the sender puts them on the wire: stamp = tx_start, lost frames included
    kDeliver,  // as the receiver gets them: stamp = rx_end, duplicates/corruption included
  };

  PcapWriter() = default;
  explicit PcapWriter(const std::string& path, unsigned snaplen = 65535) { open(path, snaplen); }
  ~PcapWriter() {
    detach();
    close();
  }
  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  // Creates/truncates `path`; throws std::runtime_error on failure.
  void open(const std::string& path, unsigned snaplen = 65535);
  // Flushes and closes the file. Returns "" when every record reached it,
  // else the reason ("No space left on device"): a write that failed during
  // the run (the stream's error state is sticky) or at this final flush.
  std::string close();
  bool is_open() const { return dumper_ != nullptr; }

  // One record: `data` stamped with simulated time `ts`.
  void write(const uint8_t* data, size_t len, const sc_core::sc_time& ts);
  void write(const EthFrame& f, const sc_core::sc_time& ts) { write(f.data.data(), f.data.size(), ts); }
  void flush();

  // Records the frames of `link` at `pt` (directions selected by
  // `dir_mask`, bit d = direction d): a listener of the link's on_send or
  // on_rx_end probe. Other observers listen alongside. detach() (or the
  // destructor) stops recording; the link must outlive the attachment.
  void attach(EthLink& link, Point pt = Point::kDeliver, unsigned dir_mask = 3);
  void detach();
  // The listener itself (for a probe the caller manages).
  void record(const EthWireEvent& e, Point pt, unsigned dir_mask = 3);

  uint64_t frames() const { return frames_; }
  const std::string& path() const { return path_; }

  // Simulated time in whole nanoseconds (truncating).
  static uint64_t to_ns(const sc_core::sc_time& t);

 private:
  pcap* pd_ = nullptr;
  pcap_dumper* dumper_ = nullptr;
  unsigned snaplen_ = 65535;
  uint64_t frames_ = 0;
  std::string path_;
  Probe<EthWireEvent>* probe_ = nullptr;
  Probe<EthWireEvent>::Id listener_ = 0;
};

}  // namespace l3vp
