#include "pcap_writer.h"

#include <pcap/pcap.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace l3vp {

uint64_t PcapWriter::to_ns(const sc_core::sc_time& t) {
  // Integer arithmetic on the sc_time value: resolution units per ns.
  static const uint64_t per_ns = sc_core::sc_time(1, sc_core::SC_NS).value();
  return per_ns ? t.value() / per_ns : 0;
}

void PcapWriter::open(const std::string& path, unsigned snaplen) {
  close();
  snaplen_ = snaplen ? snaplen : 65535;
  pd_ = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, static_cast<int>(snaplen_),
                                             PCAP_TSTAMP_PRECISION_NANO);
  if (!pd_) throw std::runtime_error("pcap: cannot create a dead handle");
  dumper_ = pcap_dump_open(pd_, path.c_str());
  if (!dumper_) {
    std::string err = pcap_geterr(pd_);
    pcap_close(pd_);
    pd_ = nullptr;
    throw std::runtime_error("pcap: cannot open '" + path + "': " + err);
  }
  path_ = path;
  frames_ = 0;
}

std::string PcapWriter::close() {
  std::string why;
  if (dumper_) {
    // pcap_dump_close() reports nothing: flush and look at the stream first.
    std::FILE* f = pcap_dump_file(dumper_);
    errno = 0;
    if (pcap_dump_flush(dumper_) != 0)
      why = errno ? std::strerror(errno) : "write error";
    else if (f && std::ferror(f))
      why = "write error";
    pcap_dump_close(dumper_);
  }
  if (pd_) pcap_close(pd_);
  dumper_ = nullptr;
  pd_ = nullptr;
  return why;
}

void PcapWriter::write(const uint8_t* data, size_t len, const sc_core::sc_time& ts) {
  if (!dumper_) return;
  const uint64_t ns = to_ns(ts);
  pcap_pkthdr h;
  std::memset(&h, 0, sizeof h);
  // With a nanosecond-precision handle, pcap_dump() stores tv_usec as the
  // nanosecond part (the file carries the nanosecond magic number).
  h.ts.tv_sec = static_cast<time_t>(ns / 1000000000u);
  h.ts.tv_usec = static_cast<suseconds_t>(ns % 1000000000u);
  h.len = static_cast<bpf_u_int32>(len);
  h.caplen = static_cast<bpf_u_int32>(len < snaplen_ ? len : snaplen_);
  pcap_dump(reinterpret_cast<u_char*>(dumper_), &h, data);
  ++frames_;
}

void PcapWriter::flush() {
  if (dumper_) pcap_dump_flush(dumper_);
}

void PcapWriter::record(const EthWireEvent& e, Point pt, unsigned dir_mask) {
  if (!((dir_mask >> (e.dir & 1)) & 1)) return;
  // send: stamped when the first bit leaves (tx_start); deliver: when the
  // last bit arrives (rx_end).
  write(e.frame, pt == Point::kSend ? e.frame.tx_start : e.frame.rx_end);
}

void PcapWriter::attach(EthLink& link, Point pt, unsigned dir_mask) {
  detach();
  probe_ = pt == Point::kSend ? &link.on_send : &link.on_rx_end;
  listener_ = probe_->listen([this, pt, dir_mask](const EthWireEvent& e) { record(e, pt, dir_mask); });
}

void PcapWriter::detach() {
  if (probe_) probe_->unlisten(listener_);
  probe_ = nullptr;
}

}  // namespace l3vp
