#include "stream_check.h"

#include "endian.h"
#include "format.h"
#include "log.h"
#include "stats.h"

namespace l3vp {

StreamCheck::StreamCheck(sc_core::sc_module_name n, ReadFn read)
    : sc_core::sc_module(n), tsock("tsock"), read_(std::move(read)) {
  tsock.register_b_transport(this, &StreamCheck::b_transport);
  tsock.register_transport_dbg(this, &StreamCheck::transport_dbg);
}

void StreamCheck::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  const uint64_t a = gp.get_address();
  uint8_t* d = gp.get_data_ptr();
  const unsigned len = gp.get_data_length();
  if (gp.is_read()) {
    for (unsigned i = 0; i < len; ++i) d[i] = 0;
  } else if (gp.is_write() && len == 4) {
    const uint32_t v = be32(d);
    if (a == kSelectOffset) {
      sel_ = v;
    } else if (a == kAddrOffset) {
      addr_ = v;
    } else if (a == kLenOffset) {
      check(addr_, v);
    }
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned StreamCheck::transport_dbg(tlm::tlm_generic_payload& gp) {
  if (gp.is_read())
    for (unsigned i = 0; i < gp.get_data_length(); ++i) gp.get_data_ptr()[i] = 0;
  return gp.get_data_length();
}

void StreamCheck::check(uint32_t addr, uint32_t len) {
  auto it = streams_.find(sel_);
  if (it == streams_.end()) {
    if (streams_.size() >= kMaxStreams) {
      ++t_.rejected;
      Log::guest_error(name(), "more than " + std::to_string(kMaxStreams) + " streams: piece of stream " +
                                   hex(sel_) + " not checked");
      return;
    }
    it = streams_.emplace(sel_, StreamCheckStream{}).first;
    it->second.id = sel_;
  }
  StreamCheckStream& s = it->second;
  ++t_.pieces;
  ++s.pieces;
  t_.bytes += len;
  uint64_t bad = 0;
  int64_t first = -1;
  if (len > kMaxPiece) {
    ++t_.rejected;
    bad = len;
    first = int64_t(s.offset);
    Log::guest_error(name(), "stream " + hex(sel_) + ": piece of " + std::to_string(len) +
                                 " bytes (more than " + std::to_string(kMaxPiece) +
                                 ") not read, counted as bad");
  } else {
    buf_.assign(len, 0);
    const unsigned got = len ? read_(addr, buf_.data(), len) : 0;
    unsigned p = unsigned(s.offset % kPatternMod);
    for (unsigned i = 0; i < len; ++i) {
      if (i >= got || buf_[i] != p) {
        if (first < 0) first = int64_t(s.offset + i);
        ++bad;
      }
      if (++p == kPatternMod) p = 0;
    }
    if (got < len) {
      t_.unreadable += len - got;
      Log::guest_error(name(), "stream " + hex(sel_) + ": " + std::to_string(len - got) + " bytes at " +
                                   hex(addr + got) + " cannot be read, counted as bad");
    }
  }
  if (bad) {
    ++t_.bad_pieces;
    t_.bad_bytes += bad;
    if (s.first_bad < 0) {
      s.first_bad = first;
      Log::guest_error(name(), "stream " + hex(sel_) + ": first wrong byte at stream offset " +
                                   std::to_string(first) + " (piece at " + hex(addr) + ", " +
                                   std::to_string(len) + " bytes)");
    }
    s.bad_bytes += bad;
  }
  s.offset += len;
}

void StreamCheck::register_stats(const StatsGroup& g) {
  const auto U = StatUnit::Count;
  const auto B = StatUnit::Bytes;
  const auto Y = StatInv::Yes;
  g.counter("pieces", &t_.pieces, U, Y, "Pieces the firmware handed to the stream checker (LEN stores).");
  g.counter("bytes", &t_.bytes, B, Y, "Their bytes.");
  g.counter(
      "bad_bytes", &t_.bad_bytes, B, Y,
      "Bytes that differed from the stream pattern (or could not be read, or were in a rejected piece).");
  g.counter("bad_pieces", &t_.bad_pieces, U, Y, "Pieces with at least one bad byte.");
  g.counter("rejected", &t_.rejected, U, Y,
            "Pieces not read: longer than 65535 bytes, or of a stream beyond the first 4096.");
  g.counter("unreadable", &t_.unreadable, B, Y, "Bytes at addresses the debug read could not reach.");
  using R = const StreamCheckStream*;
  auto& t = g.table<R>("streams", Y, "Per stream id (SELECT value), by id.", [this] {
    std::vector<R> rows;
    for (const auto& kv : streams_) rows.push_back(&kv.second);
    return rows;
  });
  t.field("id", "int", StatUnit::Id, Y, "Stream id.", [](R r) { return r->id; });
  t.field("bytes", "int", B, Y, "Bytes checked (= the stream offset reached).",
          [](R r) { return r->offset; });
  t.field("pieces", "int", U, Y, "Pieces checked.", [](R r) { return r->pieces; });
  t.field("bad_bytes", "int", B, Y, "Bad bytes.", [](R r) { return r->bad_bytes; });
  t.field("first_bad", "int", B, Y, "Stream offset of the first bad byte, -1 if none.",
          [](R r) { return r->first_bad; });
}

}  // namespace l3vp
