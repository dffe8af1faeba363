#include "tcp.h"

#include <algorithm>
#include <stdexcept>

#include "sim_host.h"

namespace l3vp::host {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {
// Sequence-space comparisons (RFC 793 §3.3, modulo 2^32).
inline bool lt(uint32_t a, uint32_t b) { return int32_t(a - b) < 0; }
inline bool le(uint32_t a, uint32_t b) { return int32_t(a - b) <= 0; }
inline bool gt(uint32_t a, uint32_t b) { return int32_t(a - b) > 0; }
inline bool ge(uint32_t a, uint32_t b) { return int32_t(a - b) >= 0; }
inline sc_time tv(uint64_t v) { return sc_time::from_value(v); }
uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

const char* tcp_state_name(TcpState s) {
  static const char* const n[] = {"CLOSED",      "LISTEN",     "SYN_SENT",   "SYN_RCVD",
                                  "ESTABLISHED", "FIN_WAIT_1", "FIN_WAIT_2", "CLOSE_WAIT",
                                  "CLOSING",     "LAST_ACK",   "TIME_WAIT"};
  return n[static_cast<int>(s)];
}

// ---------------------------------------------------------------------------
// TcpConn

void TcpConn::send(uint64_t n, bool close) {
  if (close_req_) return;  // nothing may follow a FIN
  to_send_ += n;
  if (close) close_req_ = true;
  if (stack_ && st_ != TcpState::kSynSent && st_ != TcpState::kSynRcvd && st_ != TcpState::kClosed)
    stack_->output(*this);
}

void TcpConn::send_data(const Bytes& d, bool close) {
  if (close_req_) return;
  explicit_tx_ = true;
  tx_data_.insert(tx_data_.end(), d.begin(), d.end());
  send(d.size(), close);
}

nlohmann::json TcpConn::to_json() const {
  auto ps = [](const sc_time& t) { return t.value() / sc_time(1, sc_core::SC_PS).value(); };
  nlohmann::json j = {{"local_port", lport_},
                      {"remote", ip4_str(rip_)},
                      {"remote_port", rport_},
                      {"state", tcp_state_name(st_)},
                      {"bytes_to_send", to_send_},
                      {"bytes_acked", s_.bytes_acked},
                      {"bytes_received", s_.bytes_received},
                      {"bad_bytes", s_.bad_bytes},
                      {"segs_out", s_.segs_out},
                      {"data_segs_out", s_.data_segs_out},
                      {"segs_in", s_.segs_in},
                      {"data_segs_in", s_.data_segs_in},
                      {"retransmits", s_.retransmits},
                      {"timeouts", s_.timeouts},
                      {"fast_retransmits", s_.fast_retransmits},
                      {"dupacks_in", s_.dupacks_in},
                      {"window_probes", s_.window_probes},
                      {"acks_out", s_.acks_out},
                      {"delayed_acks", s_.delayed_acks},
                      {"quick_acks", s_.quick_acks},
                      {"ooo_segs_in", s_.ooo_segs_in},
                      {"max_seg_out", s_.max_seg_out},
                      {"min_seg_out", s_.min_seg_out},
                      {"peer_mss", s_.peer_mss},
                      {"mss_now", s_.mss_now},
                      {"max_window", s_.max_window},
                      {"reset", s_.reset},
                      {"aborted", s_.aborted},
                      {"srtt_ps", ps(srtt_)},
                      {"rto_ps", ps(rto_)},
                      {"opened_ps", ps(s_.opened)}};
  auto opt = [&](const char* k, const sc_time& t) {
    j[k] = t == sc_core::SC_ZERO_TIME ? nlohmann::json(nullptr) : nlohmann::json(ps(t));
  };
  opt("established_ps", s_.established);
  opt("data_acked_ps", s_.data_acked);
  opt("closed_ps", s_.closed);
  opt("first_rx_ps", s_.first_rx);
  opt("last_rx_ps", s_.last_rx);
  if (s_.data_acked != sc_core::SC_ZERO_TIME) j["completion_ps"] = ps(s_.data_acked - s_.opened);
  return j;
}

// ---------------------------------------------------------------------------
// TcpStack

TcpStack::TcpStack(SimHost& host, const TcpParams& p)
    : host_(host), p_(p), next_port_(p.first_ephemeral_port), isn_state_(host.config().seed) {}

TcpConn* TcpStack::find(uint32_t rip, uint16_t rport, uint16_t lport) {
  for (auto& c : conns_)
    if (c->st_ != TcpState::kClosed && c->rip_ == rip && c->rport_ == rport && c->lport_ == lport)
      return c.get();
  return nullptr;
}

TcpConn* TcpStack::connect(uint32_t dst, uint16_t dport, uint16_t sport) {
  if (sport == 0) {
    do {
      sport = next_port_;
      next_port_ = next_port_ == 65535 ? p_.first_ephemeral_port : next_port_ + 1;
    } while (find(dst, dport, sport));
  }
  auto up = std::make_unique<TcpConn>();
  TcpConn& c = *up;
  conns_.push_back(std::move(up));
  c.stack_ = this;
  c.rip_ = dst;
  c.rport_ = dport;
  c.lport_ = sport;
  c.iss_ = static_cast<uint32_t>(splitmix(isn_state_));
  c.snd_una_ = c.snd_nxt_ = c.snd_max_ = c.iss_;
  c.rto_ = p_.rto_initial;
  c.s_.opened = sc_time_stamp();
  c.st_ = TcpState::kSynSent;
  output(c);
  return &c;
}

void TcpStack::update_mss(TcpConn& c) {
  // Linux: segments never exceed half the largest window the peer offered
  // (the whole window if that is <= 536), nor go below 48 bytes.
  const uint32_t base = std::min<uint32_t>(c.peer_mss_, p_.mss);
  const uint32_t cutoff = c.max_wnd_ > 536 ? c.max_wnd_ / 2 : c.max_wnd_;
  c.mss_now_ = std::max<uint32_t>(std::min(base, cutoff), 48);
  c.s_.mss_now = c.mss_now_;
  c.s_.max_window = c.max_wnd_;
}

void TcpStack::set_state(TcpConn& c, TcpState s) {
  c.st_ = s;
  if (s == TcpState::kTimeWait) {
    cancel_timers(c);
    if (p_.time_wait == sc_core::SC_ZERO_TIME)
      finish(c);
    else
      c.tw_timer_ = host_.sched().after(p_.time_wait, [this, &c] {
        c.tw_timer_ = 0;
        finish(c);
      });
  }
}

void TcpStack::cancel_timers(TcpConn& c) {
  for (EventScheduler::Id* t : {&c.rtx_timer_, &c.persist_timer_, &c.delack_timer_, &c.tw_timer_}) {
    host_.sched().cancel(*t);
    *t = 0;
  }
}

void TcpStack::finish(TcpConn& c) {
  cancel_timers(c);
  c.st_ = TcpState::kClosed;
  c.s_.closed = sc_time_stamp();
  if (c.on_closed) c.on_closed(c);
}

void TcpStack::send_segment(TcpConn& c, uint32_t seq, uint8_t flags, uint32_t len, bool with_mss) {
  const uint32_t ack = (flags & kAck) ? c.rcv_nxt_ : 0;
  const uint8_t* data = nullptr;  // null: the stream pattern
  if (c.explicit_tx_ && len > 0) {
    const uint64_t off = stream_off(c, seq);
    if (off + len > c.tx_data_.size())
      throw std::logic_error("tcp: send_data segment beyond the queued bytes");
    data = c.tx_data_.data() + off;
  }
  Bytes seg = tcp_segment(host_.config().ip, c.rip_, c.lport_, c.rport_, seq, ack, flags, uint16_t(adv_wnd()),
                          with_mss ? p_.mss : 0, data, len, stream_off(c, seq));
  ++c.s_.segs_out;
  if (len > 0) {
    ++c.s_.data_segs_out;
    c.s_.max_seg_out = std::max(c.s_.max_seg_out, len);
    c.s_.min_seg_out = c.s_.min_seg_out ? std::min(c.s_.min_seg_out, len) : len;
  }
  if (flags & kAck) {
    // Every segment carries our ACK: the delayed ACK is no longer owed.
    if (c.rcv_nxt_ != c.rcv_wup_ && c.quickacks_ > 0) --c.quickacks_;
    c.rcv_wup_ = c.rcv_nxt_;
    host_.sched().cancel(c.delack_timer_);
    c.delack_timer_ = 0;
  }
  host_.send_ip(c.rip_, kProtoTcp, seg, true);  // Linux sets DF on TCP
}

void TcpStack::send_ack(TcpConn& c) {
  ++c.s_.acks_out;
  send_segment(c, c.snd_nxt_, kAck, 0);
}

void TcpStack::send_rst(uint32_t dst, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
                        uint8_t flags) {
  ++rst_sent_;
  host_.send_ip(dst, kProtoTcp,
                tcp_segment(host_.config().ip, dst, sport, dport, seq, ack, flags, 0, 0, nullptr, 0), true);
}

void TcpStack::arm_rtx(TcpConn& c) {
  if (c.rtx_timer_ || c.snd_una_ == c.snd_max_) return;
  c.rtx_timer_ = host_.sched().after(c.rto_, [this, &c] {
    c.rtx_timer_ = 0;
    on_rtx_timeout(c);
  });
}

void TcpStack::output(TcpConn& c) {
  if (c.st_ == TcpState::kSynSent || c.st_ == TcpState::kSynRcvd) {
    if (c.snd_nxt_ == c.iss_) {
      if (c.snd_max_ != c.iss_)
        ++c.s_.retransmits;
      else {
        c.timing_ = true;  // time the SYN (Karn: only if never retransmitted)
        c.timed_seq_ = c.iss_ + 1;
        c.timed_at_ = sc_time_stamp();
      }
      send_segment(c, c.iss_, c.st_ == TcpState::kSynRcvd ? kSyn | kAck : kSyn, 0, true);
      c.snd_nxt_ = c.iss_ + 1;
      c.snd_max_ = c.iss_ + 1;
    }
    arm_rtx(c);
    return;
  }
  const bool may_send = c.st_ == TcpState::kEstablished || c.st_ == TcpState::kCloseWait ||
                        c.st_ == TcpState::kFinWait1 || c.st_ == TcpState::kClosing ||
                        c.st_ == TcpState::kLastAck;
  if (!may_send) return;
  const uint32_t data_end = c.iss_ + 1 + static_cast<uint32_t>(c.to_send_);  // FIN's sequence number
  for (int guard = 0; guard < 100000; ++guard) {
    const uint32_t unsent = le(c.snd_nxt_, data_end) ? data_end - c.snd_nxt_ : 0;
    if (unsent == 0) {
      if (c.close_req_ && c.snd_nxt_ == data_end) {  // a FIN of its own (also when resent)
        if (lt(c.snd_nxt_, c.snd_max_)) ++c.s_.retransmits;
        send_segment(c, c.snd_nxt_, kFin | kAck, 0);
        c.snd_nxt_ = data_end + 1;
        if (gt(c.snd_nxt_, c.snd_max_)) c.snd_max_ = c.snd_nxt_;
        c.fin_sent_ = true;
        if (c.st_ == TcpState::kEstablished) set_state(c, TcpState::kFinWait1);
        if (c.st_ == TcpState::kCloseWait) set_state(c, TcpState::kLastAck);
      }
      break;
    }
    const uint32_t len = std::min(unsent, c.mss_now_);
    // Sender SWS avoidance (Linux): min(unsent, mss_now) must fit the window.
    const int64_t room = int64_t(int32_t(c.snd_una_ + c.snd_wnd_ - c.snd_nxt_));
    if (room < int64_t(len)) {
      if (c.snd_una_ == c.snd_max_ && !c.persist_timer_) {
        c.persist_timer_ = host_.sched().after(c.rto_, [this, &c] {
          c.persist_timer_ = 0;
          on_persist(c);
        });
      }
      break;
    }
    const uint32_t flight = c.snd_nxt_ - c.snd_una_;
    if (flight > 0 && uint64_t(flight) + len > c.cwnd_) break;  // congestion window
    const bool fin_here = c.close_req_ && len == unsent;
    // Nagle, Minshall's variant: hold a short segment while an earlier short one is unacked.
    if (len < c.mss_now_ && !fin_here && p_.nagle && c.sml_valid_ && gt(c.snd_sml_, c.snd_una_)) break;
    const bool rtx = lt(c.snd_nxt_, c.snd_max_);
    if (rtx) ++c.s_.retransmits;
    const uint8_t flags = kAck | (len == unsent ? kPsh : 0) | (fin_here ? kFin : 0);
    send_segment(c, c.snd_nxt_, flags, len);
    if (len < c.mss_now_) {
      c.snd_sml_ = c.snd_nxt_ + len;
      c.sml_valid_ = true;
    }
    if (!c.timing_ && !rtx) {
      c.timing_ = true;
      c.timed_seq_ = c.snd_nxt_ + len;
      c.timed_at_ = sc_time_stamp();
    }
    c.snd_nxt_ += len;
    if (fin_here) {
      c.snd_nxt_ += 1;
      c.fin_sent_ = true;
      if (c.st_ == TcpState::kEstablished) set_state(c, TcpState::kFinWait1);
      if (c.st_ == TcpState::kCloseWait) set_state(c, TcpState::kLastAck);
    }
    if (gt(c.snd_nxt_, c.snd_max_)) c.snd_max_ = c.snd_nxt_;
  }
  arm_rtx(c);
}

void TcpStack::on_persist(TcpConn& c) {
  if (c.st_ == TcpState::kClosed) return;
  // Window probe (Linux): an old sequence number and no data, to draw an ACK.
  ++c.s_.window_probes;
  send_segment(c, c.snd_una_ - 1, kAck, 0);
  const uint32_t data_end = c.iss_ + 1 + static_cast<uint32_t>(c.to_send_);
  if (c.snd_una_ == c.snd_max_ && lt(c.snd_nxt_, data_end)) {
    const unsigned sh = std::min<unsigned>(c.s_.window_probes, 20);
    uint64_t v = c.rto_.value() << sh;
    if (v > p_.rto_max.value() || (c.rto_.value() << sh) >> sh != c.rto_.value()) v = p_.rto_max.value();
    c.persist_timer_ = host_.sched().after(tv(v), [this, &c] {
      c.persist_timer_ = 0;
      on_persist(c);
    });
  }
}

void TcpStack::on_rtx_timeout(TcpConn& c) {
  if (c.snd_una_ == c.snd_max_ || c.st_ == TcpState::kClosed) return;
  const bool syn = c.st_ == TcpState::kSynSent || c.st_ == TcpState::kSynRcvd;
  if (++c.retries_ > (syn ? p_.syn_retries : p_.max_retries)) {
    c.s_.aborted = true;
    finish(c);
    return;
  }
  ++c.s_.timeouts;
  // RFC 6298 (5.5): back off; (5.6) restart; RFC 5681 (4): loss window.
  c.rto_ = std::min(tv(c.rto_.value() * 2), p_.rto_max);
  if (!syn) {
    const uint32_t flight = c.snd_max_ - c.snd_una_;
    c.ssthresh_ = std::max(flight / 2, 2 * c.mss_now_);
    if (p_.init_cwnd) c.cwnd_ = c.mss_now_;
  }
  c.dupacks_ = 0;
  c.in_recovery_ = false;
  c.timing_ = false;                       // Karn
  c.snd_nxt_ = syn ? c.iss_ : c.snd_una_;  // go back N
  output(c);
  arm_rtx(c);
}

void TcpStack::on_delack(TcpConn& c) {
  c.delack_timer_ = 0;
  if (c.st_ == TcpState::kClosed || c.rcv_nxt_ == c.rcv_wup_) return;
  ++c.s_.delayed_acks;
  send_ack(c);
}

void TcpStack::rtt_sample(TcpConn& c, sc_time r) {
  // RFC 6298 (2.2)/(2.3) with alpha 1/8, beta 1/4, integer arithmetic.
  const uint64_t rv = r.value();
  uint64_t srtt, rttvar;
  if (!c.have_rtt_) {
    srtt = rv;
    rttvar = rv / 2;
    c.have_rtt_ = true;
  } else {
    srtt = c.srtt_.value();
    const uint64_t delta = srtt > rv ? srtt - rv : rv - srtt;
    rttvar = (3 * c.rttvar_.value() + delta) / 4;
    srtt = (7 * srtt + rv) / 8;
  }
  c.srtt_ = tv(srtt);
  c.rttvar_ = tv(rttvar);
  const sc_time k = std::max(p_.clock_granularity, tv(4 * rttvar));
  c.rto_ = std::min(std::max(c.srtt_ + k, p_.rto_min), p_.rto_max);
}

void TcpStack::ack_received(TcpConn& c, uint32_t ack, uint32_t wnd, uint32_t seq, size_t plen,
                            uint8_t flags) {
  const uint32_t data_end = c.iss_ + 1 + static_cast<uint32_t>(c.to_send_);
  const uint32_t smss = c.mss_now_;
  if (le(ack, c.snd_una_)) {
    // RFC 5681 duplicate ACK: nothing new, no data, same window, data outstanding.
    if (ack == c.snd_una_ && plen == 0 && !(flags & (kSyn | kFin)) && wnd == c.snd_wnd_ &&
        c.snd_una_ != c.snd_max_) {
      ++c.s_.dupacks_in;
      ++c.dupacks_;
      if (c.dupacks_ == p_.dupack_threshold && !c.in_recovery_) {
        const uint32_t flight = c.snd_max_ - c.snd_una_;
        c.ssthresh_ = std::max(flight / 2, 2 * smss);
        c.in_recovery_ = true;
        c.recover_ = c.snd_max_;
        c.timing_ = false;
        ++c.s_.fast_retransmits;
        ++c.s_.retransmits;
        const uint32_t left = le(c.snd_una_, data_end) ? data_end - c.snd_una_ : 0;
        const uint32_t len = std::min(left, smss);
        const bool fin = c.close_req_ && len == left;
        send_segment(c, c.snd_una_, kAck | (fin ? kFin : 0), len);
        if (p_.init_cwnd) c.cwnd_ = c.ssthresh_ + 3 * smss;
      } else if (c.in_recovery_ && p_.init_cwnd) {
        c.cwnd_ += smss;  // inflation
      }
    }
  } else {
    uint32_t acked = ack - c.snd_una_;
    if (c.timing_ && ge(ack, c.timed_seq_)) {
      c.timing_ = false;
      rtt_sample(c, sc_time_stamp() - c.timed_at_);
    }
    if (p_.init_cwnd) {
      if (c.in_recovery_) {
        if (ge(ack, c.recover_)) {
          c.cwnd_ = c.ssthresh_;  // deflate: recovery over
          c.in_recovery_ = false;
        } else {
          // Partial ACK (NewReno, RFC 6582): resend the next hole at once.
          c.cwnd_ = c.cwnd_ > acked ? c.cwnd_ - acked + smss : smss;
          const uint32_t left = le(ack, data_end) ? data_end - ack : 0;
          const uint32_t len = std::min(left, smss);
          ++c.s_.retransmits;
          send_segment(c, ack, kAck | ((c.close_req_ && len == left) ? kFin : 0), len);
        }
      } else if (c.cwnd_ < c.ssthresh_) {
        c.cwnd_ += std::min(acked, smss);  // slow start (RFC 5681 (2))
      } else {
        c.cwnd_ += std::max<uint32_t>(1, uint32_t(uint64_t(smss) * smss / c.cwnd_));  // (3)
      }
    }
    c.dupacks_ = 0;
    c.snd_una_ = ack;
    if (lt(c.snd_nxt_, c.snd_una_)) c.snd_nxt_ = c.snd_una_;
    c.retries_ = 0;
    const uint32_t data_acked = std::min<uint64_t>(c.to_send_, uint32_t(c.snd_una_ - c.iss_ - 1));
    c.s_.bytes_acked = data_acked;
    if (c.fin_sent_ && gt(c.snd_una_, data_end)) c.fin_acked_ = true;
    // RFC 6298 (5.2)/(5.3).
    host_.sched().cancel(c.rtx_timer_);
    c.rtx_timer_ = 0;
    arm_rtx(c);
    const bool done = c.s_.bytes_acked == c.to_send_ && (!c.close_req_ || c.fin_acked_);
    if (done && (c.to_send_ > 0 || c.fin_acked_) && c.s_.data_acked == sc_core::SC_ZERO_TIME) {
      c.s_.data_acked = sc_time_stamp();
      if (c.on_data_acked) c.on_data_acked(c);
    }
    if (c.fin_acked_) {
      if (c.st_ == TcpState::kFinWait1)
        set_state(c, TcpState::kFinWait2);
      else if (c.st_ == TcpState::kClosing)
        set_state(c, TcpState::kTimeWait);
      else if (c.st_ == TcpState::kLastAck)
        finish(c);
    }
  }
  // RFC 793 window update (SND.WL1/WL2 guard against old segments).
  if (c.st_ != TcpState::kClosed && (lt(c.snd_wl1_, seq) || (c.snd_wl1_ == seq && le(c.snd_wl2_, ack)))) {
    c.snd_wnd_ = wnd;
    c.snd_wl1_ = seq;
    c.snd_wl2_ = ack;
    if (wnd > c.max_wnd_) {
      c.max_wnd_ = wnd;
      update_mss(c);
    }
    if (wnd > 0 && c.persist_timer_) {
      host_.sched().cancel(c.persist_timer_);
      c.persist_timer_ = 0;
    }
  }
}

void TcpStack::data_received(TcpConn& c, uint32_t seq, const uint8_t* data, size_t n, bool fin) {
  const bool accepts =
      c.st_ == TcpState::kEstablished || c.st_ == TcpState::kFinWait1 || c.st_ == TcpState::kFinWait2;
  bool immediate = false;
  if (!accepts) {
    // Data/FIN repeated after the peer's FIN: acknowledge again.
    send_ack(c);
    return;
  }
  int32_t d = int32_t(seq - c.rcv_nxt_);
  if (d < 0) {  // trim what we already have
    const size_t skip = size_t(-int64_t(d));
    if (skip >= n) {
      if (skip > n) fin = false;  // an old FIN has been counted already
      n = 0;
    } else {
      data += skip;
      n -= skip;
    }
    d = 0;
    immediate = true;  // duplicate data: the peer needs our ACK
  }
  const uint64_t base = uint32_t(c.rcv_nxt_ - c.irs_ - 1);  // stream offset of rcv_nxt
  if (n > 0) {
    // Linux-like receive-MSS estimate: the largest segment seen (<= own MSS).
    if (n >= c.rcv_mss_) c.rcv_mss_ = std::min<uint32_t>(uint32_t(n), p_.mss);
    const uint64_t off = base + uint32_t(d);
    if (!c.capture_)
      for (size_t i = 0; i < n; ++i)
        if (data[i] != stream_byte(off + i)) ++c.s_.bad_bytes;
    ++c.s_.data_segs_in;
  }
  if (c.capture_ && d > 0) {  // captured data is kept in order only
    if (n > 0) ++c.s_.ooo_segs_in;
    send_ack(c);
    return;
  }
  if (c.capture_ && n > 0) c.rx_data_.insert(c.rx_data_.end(), data, data + n);
  if (d > 0) {
    if (n > 0) {
      const uint64_t off = base + uint32_t(d);
      ++c.s_.ooo_segs_in;
      auto& e = c.ooo_[off];
      e = std::max<uint64_t>(e, off + n);
    }
    send_ack(c);  // out of order: duplicate ACK at once (RFC 5681 (4.2))
    return;
  }
  if (n > 0) {
    uint64_t end = base + n;
    c.s_.bytes_received += n;
    if (c.s_.first_rx == sc_core::SC_ZERO_TIME) c.s_.first_rx = sc_time_stamp();
    c.s_.last_rx = sc_time_stamp();
    while (!c.ooo_.empty() && c.ooo_.begin()->first <= end) {  // fill from the out-of-order queue
      if (c.ooo_.begin()->second > end) {
        c.s_.bytes_received += c.ooo_.begin()->second - end;
        end = c.ooo_.begin()->second;
      }
      c.ooo_.erase(c.ooo_.begin());
      immediate = true;  // a hole was filled
    }
    c.rcv_nxt_ += uint32_t(end - base);
    // After rcv_nxt moved, so that anything the application sends now
    // acknowledges this data.
    if (c.on_data) c.on_data(c);
  }
  if (fin && c.ooo_.empty()) {
    c.rcv_nxt_ += 1;
    immediate = true;
    if (c.st_ == TcpState::kEstablished) {
      set_state(c, TcpState::kCloseWait);
      c.close_req_ = true;  // applications here always close when the peer does
    } else if (c.st_ == TcpState::kFinWait1) {
      set_state(c, c.fin_acked_ ? TcpState::kTimeWait : TcpState::kClosing);
    } else if (c.st_ == TcpState::kFinWait2) {
      set_state(c, TcpState::kTimeWait);
    }
  }
  if (c.rcv_nxt_ == c.rcv_wup_) return;  // nothing new to acknowledge
  if (immediate || !p_.delayed_ack) {
    send_ack(c);
  } else if (c.quickacks_ > 0) {
    ++c.s_.quick_acks;
    send_ack(c);
  } else if (uint32_t(c.rcv_nxt_ - c.rcv_wup_) > c.rcv_mss_) {
    send_ack(c);  // more than one full segment unacknowledged
  } else if (!c.delack_timer_) {
    c.delack_timer_ = host_.sched().after(p_.ato, [this, &c] { on_delack(c); });
  }
}

void TcpStack::input(uint32_t src, uint32_t dst, const uint8_t* p, size_t n) {
  TcpView v;
  if (!parse_tcp(src, dst, p, n, v) || !v.checksum_ok) {
    ++bad_;
    return;
  }
  const uint32_t seg_len = uint32_t(v.plen) + ((v.flags & kSyn) ? 1 : 0) + ((v.flags & kFin) ? 1 : 0);
  TcpConn* cp = find(src, v.sport, v.dport);
  if (!cp) {
    if (v.flags & kRst) return;
    auto li = listeners_.find(v.dport);
    if ((v.flags & kSyn) && !(v.flags & kAck) && li != listeners_.end()) {
      auto up = std::make_unique<TcpConn>();
      TcpConn& c = *up;
      conns_.push_back(std::move(up));
      c.stack_ = this;
      c.rip_ = src;
      c.rport_ = v.sport;
      c.lport_ = v.dport;
      c.irs_ = v.seq;
      c.rcv_nxt_ = c.rcv_wup_ = v.seq + 1;
      c.iss_ = static_cast<uint32_t>(splitmix(isn_state_));
      c.snd_una_ = c.snd_nxt_ = c.snd_max_ = c.iss_;
      c.snd_wnd_ = v.wnd;
      c.snd_wl1_ = v.seq;
      c.snd_wl2_ = c.iss_;
      c.max_wnd_ = v.wnd;
      c.peer_mss_ = v.mss ? v.mss : 536;
      c.s_.peer_mss = c.peer_mss_;
      c.rto_ = p_.rto_initial;
      c.s_.opened = sc_time_stamp();
      c.s_.segs_in = 1;
      c.st_ = TcpState::kSynRcvd;
      update_mss(c);
      output(c);
      return;
    }
    // RFC 793 reset generation for a segment to no connection.
    if (v.flags & kAck)
      send_rst(src, v.dport, v.sport, v.ack, 0, kRst);
    else
      send_rst(src, v.dport, v.sport, 0, v.seq + seg_len, kRst | kAck);
    return;
  }
  TcpConn& c = *cp;
  ++c.s_.segs_in;
  auto established = [&]() {
    c.st_ = TcpState::kEstablished;
    c.s_.established = sc_time_stamp();
    if (p_.init_cwnd)
      c.cwnd_ = p_.init_cwnd * c.mss_now_;
    else
      c.cwnd_ = 0xFFFFFFFFu;
    // Quick-ACK mode (Linux): rcv_wnd / (2 * rcv_mss) ACKs, at least 2, at most max_quickacks.
    c.rcv_mss_ = std::min<uint32_t>(536, p_.mss);
    c.quickacks_ = std::min<unsigned>(p_.max_quickacks, std::max<uint32_t>(2, adv_wnd() / (2 * c.rcv_mss_)));
  };

  if (c.st_ == TcpState::kSynSent) {
    if ((v.flags & kAck) && v.ack != c.snd_max_) {
      if (!(v.flags & kRst)) send_rst(src, v.dport, v.sport, v.ack, 0, kRst);
      return;
    }
    if (v.flags & kRst) {
      if (v.flags & kAck) {
        c.s_.reset = true;
        finish(c);
      }
      return;
    }
    if (!(v.flags & kSyn) || !(v.flags & kAck)) return;  // no simultaneous open
    c.irs_ = v.seq;
    c.rcv_nxt_ = c.rcv_wup_ = v.seq + 1;
    c.peer_mss_ = v.mss ? v.mss : 536;
    c.s_.peer_mss = c.peer_mss_;
    c.snd_una_ = v.ack;
    c.snd_wnd_ = v.wnd;
    c.max_wnd_ = v.wnd;
    c.snd_wl1_ = v.seq;
    c.snd_wl2_ = v.ack;
    update_mss(c);
    if (c.timing_) {
      c.timing_ = false;
      rtt_sample(c, sc_time_stamp() - c.timed_at_);
    }
    host_.sched().cancel(c.rtx_timer_);
    c.rtx_timer_ = 0;
    c.retries_ = 0;
    established();
    send_ack(c);
    if (c.on_established) c.on_established(c);
    output(c);
    return;
  }

  // RFC 793 acceptability test against our receive window.
  const uint32_t w = adv_wnd();
  auto in_wnd = [&](uint32_t s) { return ge(s, c.rcv_nxt_) && lt(s, c.rcv_nxt_ + w); };
  bool ok;
  if (seg_len == 0)
    ok = w == 0 ? v.seq == c.rcv_nxt_ : in_wnd(v.seq);
  else
    ok = w != 0 && (in_wnd(v.seq) || in_wnd(v.seq + seg_len - 1));
  if (c.st_ == TcpState::kSynRcvd && (v.flags & kSyn) && !(v.flags & kAck) && v.seq == c.irs_) {
    c.snd_nxt_ = c.iss_;  // the peer repeated its SYN: repeat the SYN-ACK
    output(c);
    return;
  }
  if (!ok) {
    if (!(v.flags & kRst)) send_ack(c);
    return;
  }
  if (v.flags & kRst) {
    c.s_.reset = true;
    finish(c);
    return;
  }
  if (v.flags & kSyn) {  // a SYN inside the window is an error: reset
    send_rst(src, v.dport, v.sport, c.snd_nxt_, 0, kRst);
    c.s_.reset = true;
    finish(c);
    return;
  }
  if (!(v.flags & kAck)) return;
  if (c.st_ == TcpState::kSynRcvd) {
    if (!(gt(v.ack, c.snd_una_) && le(v.ack, c.snd_max_))) {
      send_rst(src, v.dport, v.sport, v.ack, 0, kRst);
      return;
    }
    c.snd_una_ = v.ack;
    c.snd_wnd_ = v.wnd;
    c.snd_wl1_ = v.seq;
    c.snd_wl2_ = v.ack;
    if (v.wnd > c.max_wnd_) c.max_wnd_ = v.wnd;
    update_mss(c);
    if (c.timing_) {
      c.timing_ = false;
      rtt_sample(c, sc_time_stamp() - c.timed_at_);
    }
    host_.sched().cancel(c.rtx_timer_);
    c.rtx_timer_ = 0;
    c.retries_ = 0;
    established();
    auto li = listeners_.find(c.lport_);
    if (li != listeners_.end()) li->second(c);
    if (c.on_established) c.on_established(c);
  } else {
    if (gt(v.ack, c.snd_max_)) {  // acknowledges something never sent
      send_ack(c);
      return;
    }
    ack_received(c, v.ack, v.wnd, v.seq, v.plen, v.flags);
    if (c.st_ == TcpState::kClosed) return;
  }
  if (v.plen > 0 || (v.flags & kFin)) data_received(c, v.seq, v.payload, v.plen, (v.flags & kFin) != 0);
  if (c.st_ != TcpState::kClosed) output(c);
}

}  // namespace l3vp::host
