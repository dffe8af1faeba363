// TcpStack: the simulated host's TCP (RFC 793 state machine, RFC 6298
// retransmission timer, RFC 5681 congestion control, RFC 1122 delayed ACK),
// with the Linux behaviours that shape what a small embedded peer sees
// (the exact rules are listed in docs/network.md, "TCP model"):
//
// * sender: segment size mss_now = min(peer MSS (536 without the option),
//   own MSS), bounded to half the largest window the peer ever advertised
//   (the whole window when that is <= 536), never below 48 bytes; a segment
//   is only sent when min(unsent, mss_now) fits in the peer's window (sender
//   SWS avoidance) and in cwnd; a short segment without FIN waits while an
//   earlier short segment is unacknowledged (Nagle, Minshall's variant); the
//   FIN rides on the last data segment; zero-window probes (seq = snd_una-1,
//   no data) on the RTO schedule while the window blocks an idle sender;
// * receiver: quick-ACK mode for the first segments, then an ACK once more
//   than one receive-MSS of data is unacknowledged or when the delayed-ACK
//   timer (ato, 40 ms) fires; immediate ACKs for out-of-order data, holes
//   filled, FIN and segments outside the window.
//
// Connection data is the stream pattern (wire.h stream_byte): a sender needs
// no buffer (segments and retransmissions are regenerated from the stream
// offset) and a receiver verifies every byte it gets.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <vector>

#include "event_scheduler.h"
#include "wire.h"

namespace l3vp::host {

class SimHost;
class TcpStack;

struct TcpParams {
  uint16_t mss = 1460;       // advertised in our SYN (MTU 1500 - 40)
  uint32_t rcv_wnd = 64240;  // advertised window (no window scaling; <= 65535)
  sc_core::sc_time rto_initial = sc_core::sc_time(1, sc_core::SC_SEC);  // RFC 6298 (2.1)
  sc_core::sc_time rto_min = sc_core::sc_time(200, sc_core::SC_MS);     // Linux TCP_RTO_MIN (RFC: 1 s)
  sc_core::sc_time rto_max = sc_core::sc_time(120, sc_core::SC_SEC);    // Linux TCP_RTO_MAX
  sc_core::sc_time clock_granularity = sc_core::SC_ZERO_TIME;           // G of RFC 6298
  unsigned init_cwnd = 10;  // segments (RFC 6928 / Linux); 0 = congestion control off
  bool nagle = true;        // false = TCP_NODELAY
  bool delayed_ack = true;  // false = ACK every segment at once
  sc_core::sc_time ato = sc_core::sc_time(40, sc_core::SC_MS);  // delayed-ACK timeout (Linux TCP_ATO_MIN)
  unsigned max_quickacks = 16;                                  // Linux TCP_MAX_QUICKACKS
  unsigned dupack_threshold = 3;
  unsigned max_retries = 15;  // data retransmissions before the connection is aborted
  unsigned syn_retries = 6;
  sc_core::sc_time time_wait = sc_core::SC_ZERO_TIME;  // TIME_WAIT length (0: closed at once)
  uint16_t first_ephemeral_port = 49152;
};

enum class TcpState {
  kClosed,
  kListen,
  kSynSent,
  kSynRcvd,
  kEstablished,
  kFinWait1,
  kFinWait2,
  kCloseWait,
  kClosing,
  kLastAck,
  kTimeWait
};
const char* tcp_state_name(TcpState s);

// Per-connection record (read-only for applications; times are absolute).
struct TcpConnStats {
  sc_core::sc_time opened, established, data_acked, closed;  // zero until it happens
  sc_core::sc_time first_rx, last_rx;                        // first/last in-order data byte received
  uint64_t bytes_acked = 0;                                  // own data acknowledged by the peer
  uint64_t bytes_received = 0;                               // in-order data delivered
  uint64_t bad_bytes = 0;                                    // received bytes not matching the stream pattern
  uint64_t segs_out = 0, data_segs_out = 0, segs_in = 0, data_segs_in = 0;
  uint64_t retransmits = 0;  // segments sent again (timeout or fast retransmit)
  uint64_t timeouts = 0, fast_retransmits = 0, dupacks_in = 0, window_probes = 0;
  uint64_t acks_out = 0, delayed_acks = 0,
           quick_acks = 0;                    // pure ACKs / of which by timer / in quick-ack mode
  uint64_t ooo_segs_in = 0;                   // out-of-order segments received
  uint32_t max_seg_out = 0, min_seg_out = 0;  // payload sizes sent (min over data segments)
  uint32_t peer_mss = 0, mss_now = 0, max_window = 0;
  bool reset = false, aborted = false;  // got RST / gave up after retries
};

class TcpConn {
 public:
  using Event = std::function<void(TcpConn&)>;
  uint16_t remote_port() const { return rport_; }
  uint16_t local_port() const { return lport_; }
  TcpState state() const { return st_; }
  const TcpConnStats& stats() const { return s_; }
  uint64_t send_total() const { return to_send_; }
  sc_core::sc_time srtt() const { return srtt_; }
  sc_core::sc_time rto() const { return rto_; }
  uint32_t cwnd() const { return cwnd_; }
  nlohmann::json to_json() const;

  // Queues `n` more bytes of the stream pattern for sending; then, if
  // `close`, a FIN after them.
  void send(uint64_t n, bool close);
  void close() { send(0, true); }
  // Request/response experiments: queue these bytes instead of the stream
  // pattern (a connection uses either send() or send_data(), not both).
  void send_data(const Bytes& d, bool close);
  // Keep in-order received data (rx_data()) instead of checking it against
  // the stream pattern (no bad_bytes); out-of-order data is then not kept
  // but answered with a duplicate ACK, so the peer resends it in order.
  void capture_rx() { capture_ = true; }
  const Bytes& rx_data() const { return rx_data_; }
  Event on_established, on_data_acked, on_closed;  // data_acked: all queued data (and FIN) acked
  Event on_data;  // new in-order data arrived (with capture_rx(): after it was appended)

 private:
  friend class TcpStack;
  uint32_t rip_ = 0;
  uint16_t lport_ = 0, rport_ = 0;
  TcpState st_ = TcpState::kClosed;
  TcpStack* stack_ = nullptr;
  // send side (sequence numbers mod 2^32; stream offset = seq - iss - 1)
  uint32_t iss_ = 0, snd_una_ = 0, snd_nxt_ = 0, snd_max_ = 0, snd_wl1_ = 0, snd_wl2_ = 0;
  uint32_t snd_wnd_ = 0, max_wnd_ = 0, peer_mss_ = 536, mss_now_ = 536;
  uint64_t to_send_ = 0;  // bytes queued in total
  Bytes tx_data_;         // send_data(): the bytes, by stream offset
  bool explicit_tx_ = false, capture_ = false;
  Bytes rx_data_;  // capture_rx(): in-order data received
  bool close_req_ = false, fin_sent_ = false, fin_acked_ = false;
  uint32_t snd_sml_ = 0;  // end of the last short segment sent (Minshall)
  bool sml_valid_ = false;
  uint32_t cwnd_ = 0, ssthresh_ = 0xFFFFFFFF;
  unsigned dupacks_ = 0;
  bool in_recovery_ = false;
  uint32_t recover_ = 0;
  // RTT measurement (one timed segment at a time, Karn's rule)
  bool timing_ = false;
  uint32_t timed_seq_ = 0;
  sc_core::sc_time timed_at_;
  bool have_rtt_ = false;
  sc_core::sc_time srtt_, rttvar_, rto_;
  unsigned backoff_ = 0, retries_ = 0;
  EventScheduler::Id rtx_timer_ = 0, persist_timer_ = 0, delack_timer_ = 0, tw_timer_ = 0;
  // receive side
  uint32_t irs_ = 0, rcv_nxt_ = 0, rcv_wup_ = 0;  // rcv_wup: rcv_nxt at the last ACK sent
  uint32_t rcv_mss_ = 536;
  unsigned quickacks_ = 0;
  std::map<uint64_t, uint64_t> ooo_;  // out-of-order stream ranges [begin, end)
  TcpConnStats s_;
};

class TcpStack {
 public:
  using Accept = std::function<void(TcpConn&)>;
  TcpStack(SimHost& host, const TcpParams& p);
  const TcpParams& params() const { return p_; }

  // Active open; returns the connection (owned by the stack, never freed
  // while the stack lives, so pointers stay valid for the results).
  TcpConn* connect(uint32_t dst, uint16_t dport, uint16_t sport = 0);
  // Passive open: `accept` runs when a connection reaches ESTABLISHED.
  void listen(uint16_t port, Accept accept) { listeners_[port] = std::move(accept); }
  void unlisten(uint16_t port) { listeners_.erase(port); }

  void input(uint32_t src, uint32_t dst, const uint8_t* seg, size_t n);
  const std::vector<std::unique_ptr<TcpConn>>& connections() const { return conns_; }
  uint64_t rst_sent() const { return rst_sent_; }
  uint64_t bad_segments() const { return bad_; }

 private:
  friend class TcpConn;
  TcpConn* find(uint32_t rip, uint16_t rport, uint16_t lport);
  void output(TcpConn& c);
  void send_segment(TcpConn& c, uint32_t seq, uint8_t flags, uint32_t len, bool with_mss = false);
  void send_ack(TcpConn& c);
  void send_rst(uint32_t dst, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack, uint8_t flags);
  void arm_rtx(TcpConn& c);
  void on_rtx_timeout(TcpConn& c);
  void on_persist(TcpConn& c);
  void on_delack(TcpConn& c);
  void rtt_sample(TcpConn& c, sc_core::sc_time r);
  void ack_received(TcpConn& c, uint32_t ack, uint32_t wnd, uint32_t seq, size_t plen, uint8_t flags);
  void data_received(TcpConn& c, uint32_t seq, const uint8_t* data, size_t n, bool fin);
  void set_state(TcpConn& c, TcpState s);
  void finish(TcpConn& c);  // -> CLOSED
  void cancel_timers(TcpConn& c);
  void update_mss(TcpConn& c);
  uint64_t stream_off(const TcpConn& c, uint32_t seq) const { return uint32_t(seq - c.iss_ - 1); }
  uint32_t adv_wnd() const { return p_.rcv_wnd > 65535 ? 65535 : p_.rcv_wnd; }

  SimHost& host_;
  TcpParams p_;
  std::vector<std::unique_ptr<TcpConn>> conns_;
  std::map<uint16_t, Accept> listeners_;
  uint16_t next_port_;
  uint64_t isn_state_;
  uint64_t rst_sent_ = 0, bad_ = 0;
};

}  // namespace l3vp::host
