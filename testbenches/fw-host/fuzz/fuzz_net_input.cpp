// fuzz_net_input.cpp - fuzz entry point for the input path of firmware/net.
//
// One input = a setup byte, then a sequence of records (frames, timer
// ticks, application actions). Built two ways (testbenches/fw-host/fuzz/
// CMakeLists.txt): with clang -fsanitize=fuzzer,address,undefined as a
// libFuzzer target, and with the project compiler + ASan/UBSan together with
// replay_main.cpp, which replays the committed corpus in the regular suite.
//
// Input format (all integers big-endian):
//   byte 0  setup flags
//     0x01  prelude: the peer 10.0.0.2:40000 opens a connection to port 80
//           (SYN, our SYN-ACK, ACK), so records start in ESTABLISHED
//     0x02  prelude: we open a connection to 10.0.0.2:5000 (SYN sent)
//     0x04  the TCP application echoes what it receives (else it sends a
//           generated pattern on every ACK / poll until 4 KiB are sent)
//     0x08  the application closes (once) when the peer has closed and
//           everything it has to send is handed to tcp_send()
//     0x10  small advertised window (300 bytes)
//   records, until the input ends:
//     T < 0x80        frame: u16 length L (cut to what is left), L bytes.
//                     T & 0x01: rewrite the IPv4 header checksum,
//                     T & 0x02: rewrite the TCP/UDP/ICMP checksum,
//                     T & 0x04: TCP seq += rcv_nxt and ack += snd_nxt of
//                               connection slot (T >> 3) & 3 (seq/ack in
//                               the frame are then offsets, so mutations
//                               land inside the window of deep states)
//     0x80..0xbf      timer tick of ((T & 0x3f) + 1) * 10 ms
//     0xc0            long tick: u16 N, N * 16 ms
//     0xc1 S          tcp_close() on slot S & 15 (if it is ours and open)
//     0xc2 S          tcp_abort() on slot S & 15
//     0xc3 S          tcp_poll() on slot S & 15
//     0xc4 P          tcp_connect(10.0.0.2, 5000 + P)
//     0xc5 N          udp_sendto(10.0.0.2:9, N bytes) from port 7
//     0xc6 W W        tcp_set_rcv_wnd(W)
//     other           ignored
//
// Every frame goes through an exactly sized heap copy (ASan sees
// over-reads). Invariants checked (abort() with a message on failure):
//  * every transmitted frame: 14 <= length <= NET_BUF_SIZE, our source MAC;
//    IPv4: version/IHL, total length = frame (or padded to 60), header checksum, our source
//    address, valid TCP/UDP/ICMP checksum, TCP payload <= MSS; ARP: 42
//    or 60 bytes, our MAC/IP as sender;
//  * TCP send side (the application keeps the whole stream it handed to
//    tcp_send(), byte k at sequence number snd0 + k): a segment with data
//    or FIN comes only from a connection of the application, starts at or
//    after snd_una, and carries exactly the stream bytes at its offset
//    (seq - snd0), within what was handed; a FIN only after tcp_close(),
//    right behind the last byte handed; default build: new data within
//    min(cwnd, peer window) from snd_una (only a retransmission of one
//    segment from snd_una may exceed it); uIP build (NET_TCP_UIP_SEND=1):
//    the segment starts at snd_una and is the one handed last;
//  * tcp_send(): default build: takes min(len, tcp_sndmax(c)) bytes,
//    tcp_sndmax = free buffer room, NET_ERR_STATE (and sndmax 0) when
//    sending is over; uIP build: the whole segment, NET_EV_REXMIT only
//    with a segment in flight (never in the default build);
//  * zero-copy builds: net_input() leaves the received frame untouched
//    unless it answered an echo request in it (the reply is sent from it);
//  * per frame, eth.rx grows by one and the input drop counters by at most
//    one in total;
//  * no argument check fired (net_stats.err_arg == 0);
//  * connection table: valid state, snd_una <= snd_nxt, mss <= NET_TCP_MSS,
//    rto within its bounds, non-zero ports; default build: snd_nxt <=
//    snd_max, snd_max - snd_una <= tcp_unacked() + 1 (FIN) and
//    tcp_unacked() <= NET_TCP_SNDBUF; uIP build: at most one segment
//    (+ SYN/FIN) in flight;
//  * per connection, rcv_nxt advanced by exactly the bytes delivered in
//    NEWDATA (+1 for the peer's FIN); tcp_unacked() = bytes handed - bytes
//    acknowledged, ACKED only when more was acknowledged (and every
//    acknowledgment reported by one), snd_una = snd0 + acknowledged (+1
//    once our FIN is acknowledged), nothing sent beyond the stream (+FIN);
//  * event order: nothing after ABORTED/TIMEDOUT, no NEWDATA after CLOSED,
//    CONNECTED once.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
#include "net.h"
#include "net_chksum.h"
}

namespace {

const uint8_t kOurMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
const uint8_t kPeerMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02};
const uint32_t kOurIp = NET_IP4(10, 0, 0, 1);
const uint32_t kPeerIp = NET_IP4(10, 0, 0, 2);

[[noreturn]] void fail(const char* what, long a = 0, long b = 0) {
  fprintf(stderr, "fuzz_net_input: invariant violated: %s (%ld, %ld)\n", what, a, b);
  abort();
}
#define CHECK(cond, ...)                     \
  do {                                       \
    if (!(cond)) fail(#cond, ##__VA_ARGS__); \
  } while (0)

uint16_t g16(const uint8_t* p) { return (uint16_t)((p[0] << 8) | p[1]); }
uint32_t g32(const uint8_t* p) { return ((uint32_t)g16(p) << 16) | g16(p + 2); }
void p16(uint8_t* p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
void p32(uint8_t* p, uint32_t v) {
  p16(p, (uint16_t)(v >> 16));
  p16(p + 2, (uint16_t)v);
}

// Reference one's complement sum (independent of net_chksum).
uint32_t rsum(const uint8_t* p, size_t n, uint32_t acc = 0) {
  for (size_t i = 0; i < n; i += 2) acc += (uint32_t)(p[i] << 8) | (i + 1 < n ? p[i + 1] : 0);
  return acc;
}
uint16_t fold(uint32_t acc) {
  while (acc >> 16) acc = (acc & 0xffff) + (acc >> 16);
  return (uint16_t)acc;
}
uint16_t l4_sum(uint32_t src, uint32_t dst, uint8_t proto, const uint8_t* seg, size_t n) {
  uint8_t ph[12] = {0};
  p32(ph, src);
  p32(ph + 4, dst);
  ph[9] = proto;
  p16(ph + 10, (uint16_t)n);
  return fold(rsum(seg, n, rsum(ph, 12)));
}

// ---- the TCP application ------------------------------------------------

// What the application handed to tcp_send() on one connection: the whole
// stream (byte k has sequence number snd0 + k), so that every segment,
// first transmission or retransmission, can be checked against it.
struct App {
  bool alive = false;  // between CONNECTED (or tcp_connect) and the end
  bool connected = false;
  bool peer_fin = false;
  bool closed = false;  // the application called tcp_close()
  uint32_t iss = 0;     // identifies the incarnation of the slot
  uint32_t rcv0 = 0, snd0 = 0;
  uint64_t delivered = 0;
  uint64_t acked = 0;            // stream bytes acknowledged (as ACKED told)
  std::vector<uint8_t> stream;   // taken by tcp_send, in order
  std::vector<uint8_t> pending;  // to send, not taken yet
#if NET_TCP_UIP_SEND
  std::vector<uint8_t> inflight;  // uIP: the one segment not yet acked
#endif
  uint32_t generated = 0;
};

App apps[NET_TCP_CONNS];
unsigned setup;
bool in_input;

unsigned slot(const struct tcp_conn* c) { return (unsigned)(c - tcp_conns); }

void push(struct tcp_conn* c, App& a) {
  if (a.pending.empty() && !(setup & 0x04) && a.generated < 4096) {
    for (unsigned i = 0; i < 700; i++) a.pending.push_back((uint8_t)(a.generated + i * 7));
    a.generated += 700;
  }
  if (a.pending.empty()) return;
  unsigned max = tcp_sndmax(c);
  unsigned len = (unsigned)a.pending.size();
#if NET_TCP_UIP_SEND
  // uIP: one segment at a time, taken whole or refused.
  if (!a.inflight.empty()) {
    CHECK(max == 0, max);
    return;
  }
  if (len > max) len = max;
  if (len == 0) return;
  // The stack copies the data when the callback returns: hand it from
  // inflight, which stays put until then (pending is shifted below).
  a.inflight.assign(a.pending.begin(), a.pending.begin() + len);
  int r = tcp_send(c, a.inflight.data(), len);
  CHECK(r == (int)len, r, len);
#else
  // Buffered: offer everything; the stack takes what fits in its buffer.
  bool can = (c->state == TCP_ESTABLISHED || c->state == TCP_CLOSE_WAIT) && !a.closed;
  unsigned room = NET_TCP_SNDBUF - tcp_unacked(c);
  int r = tcp_send(c, a.pending.data(), len);
  if (!can) {
    CHECK(max == 0 && r == NET_ERR_STATE, max, r);
    return;
  }
  CHECK(max == room, max, room);
  CHECK(r >= 0 && (unsigned)r == (len < max ? len : max), r, max);
  CHECK(tcp_unacked(c) == NET_TCP_SNDBUF - room + (unsigned)r, (long)tcp_unacked(c), r);
#endif
  a.stream.insert(a.stream.end(), a.pending.begin(), a.pending.begin() + r);
  a.pending.erase(a.pending.begin(), a.pending.begin() + r);
}

void app_call(struct tcp_conn* c, unsigned ev) {
  unsigned i = slot(c);
  CHECK(i < NET_TCP_CONNS, i);
  App& a = apps[i];
  CHECK((ev & ~0xffu) == 0 && ev != 0, ev);
  if (ev & NET_EV_CONNECTED) {
    CHECK(!a.connected || a.iss != c->iss, i);  // once per connection
    CHECK(c->state == TCP_ESTABLISHED || c->state == TCP_CLOSE_WAIT, c->state);
    CHECK(c->snd_una == c->iss + 1, (long)(c->snd_una - c->iss));  // only the SYN acked
    a = App();
    a.alive = a.connected = true;
    a.iss = c->iss;
    a.rcv0 = c->rcv_nxt - ((ev & NET_EV_NEWDATA) ? tcp_applen : 0) - ((ev & NET_EV_CLOSED) ? 1 : 0);
    a.snd0 = c->snd_una;
  }
  if (ev & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) {
    CHECK(a.alive, i, ev);
    CHECK(c->state == TCP_CLOSED, c->state);
    a = App();
    return;
  }
  CHECK(a.connected, i, ev);  // no other event before CONNECTED
  if (ev & NET_EV_NEWDATA) {
    CHECK(!a.peer_fin, i);  // no data after the peer's FIN
    CHECK(tcp_appdata != nullptr && tcp_applen > 0, tcp_applen);
    CHECK(tcp_applen <= NET_TCP_MSS, tcp_applen);
    a.delivered += tcp_applen;
    if (setup & 0x04) a.pending.insert(a.pending.end(), tcp_appdata, tcp_appdata + tcp_applen);
  }
  if (ev & NET_EV_ACKED) {
    // Only when more of the stream was acknowledged than before.
    unsigned unacked = tcp_unacked(c);
    CHECK(unacked < a.stream.size() - a.acked, (long)unacked, (long)(a.stream.size() - a.acked));
    uint64_t now = a.stream.size() - unacked;
    CHECK(c->snd_una - a.snd0 >= (uint32_t)now, (long)(c->snd_una - a.snd0), (long)now);
#if NET_TCP_UIP_SEND
    CHECK(!a.inflight.empty() && now - a.acked == a.inflight.size(), (long)(now - a.acked),
          (long)a.inflight.size());
    a.inflight.clear();
#endif
    a.acked = now;
  }
  if (ev & NET_EV_CLOSED) {
    CHECK(!a.peer_fin, i);
    a.peer_fin = true;
  }
  if (ev & NET_EV_REXMIT) {
#if NET_TCP_UIP_SEND
    CHECK(!a.inflight.empty(), i);
    int r = tcp_send(c, a.inflight.data(), (unsigned)a.inflight.size());
    CHECK(r == (int)a.inflight.size(), r);
    return;
#else
    fail("NET_EV_REXMIT with a send buffer", i, ev);  // the stack retransmits
#endif
  }
  push(c, a);
  if ((setup & 0x08) && a.peer_fin && a.pending.empty() && !a.closed) {
#if NET_TCP_UIP_SEND
    if (!a.inflight.empty()) return;
#endif
    a.closed = true;
    tcp_close(c);
  }
}

void udp_echo(struct udp_ep* ep, uint32_t src, uint16_t sport, const uint8_t* data, unsigned len) {
  CHECK(len <= 1472, len);
  if (sport == 0) return;  // no reply expected (RFC 768); port 0 is an argument error for udp_sendto
  udp_sendto(ep, src, sport, data, len);
}
struct udp_ep* udp7;

// ---- transmitted frames ---------------------------------------------------

std::vector<std::vector<uint8_t>> sent;  // kept during the prelude only
bool keep_sent;

// A data or FIN segment we send: only from a connection of the
// application, exactly the stream bytes at its sequence offset.
void check_segment(uint32_t dst, const uint8_t* t, unsigned dlen, const uint8_t* data) {
  uint32_t seq = g32(t + 4);
  bool fin = (t[13] & TCP_FIN) != 0;
  for (unsigned i = 0; i < NET_TCP_CONNS; i++) {
    const struct tcp_conn& c = tcp_conns[i];
    if (c.state == TCP_CLOSED || c.lport != g16(t) || c.rport != g16(t + 2) || c.rip != dst) continue;
    const App& a = apps[i];
    CHECK(a.connected, i, dlen);
    CHECK(dlen <= c.mss, dlen, c.mss);
    // Never below SND.UNA, never beyond what was handed.
    CHECK(TCP_SEQ_GEQ(seq, c.snd_una), (long)(seq - c.snd_una));
    uint32_t off = seq - a.snd0;
    CHECK((uint64_t)off + dlen <= a.stream.size(), (long)off + dlen, (long)a.stream.size());
    CHECK(dlen == 0 || memcmp(a.stream.data() + off, data, dlen) == 0, (long)off, dlen);
    // Our FIN: only after tcp_close(), behind the last byte handed.
    if (fin) CHECK(a.closed && off + dlen == a.stream.size(), (long)off + dlen, (long)a.stream.size());
#if NET_TCP_UIP_SEND
    // One segment in flight, from SND.UNA; data: the one handed last.
    CHECK(seq == c.snd_una, (long)seq, (long)c.snd_una);
    if (dlen > 0) CHECK(a.inflight.size() == dlen, (long)a.inflight.size(), dlen);
#else
    // Within min(cwnd, peer window) from SND.UNA, except a retransmission
    // of one segment from SND.UNA (fast retransmit, partial ACK).
    uint32_t wnd = c.cwnd < c.snd_wnd ? c.cwnd : c.snd_wnd;
    bool resend_first = seq == c.snd_una && TCP_SEQ_LT(seq, c.snd_max);
    if (dlen > 0 && !resend_first)
      CHECK(seq + dlen - c.snd_una <= wnd, (long)(seq + dlen - c.snd_una), (long)wnd);
#endif
    return;
  }
  fail("data or FIN from no connection of the application", dlen);
}

net_err_t out(struct netif*, const uint8_t* f, unsigned len) {
  CHECK(len >= 14 && len <= NET_BUF_SIZE, len);
  CHECK(memcmp(f + 6, kOurMac, 6) == 0);
  uint16_t type = g16(f + 12);
  if (type == 0x0806) {
    CHECK(len == 42 || len == 60, len);  // 28-byte ARP, maybe padded to the minimum
    CHECK(memcmp(f + 22, kOurMac, 6) == 0 && g32(f + 28) == kOurIp);
  } else {
    CHECK(type == 0x0800, type);
    CHECK(len >= 34, len);
    const uint8_t* ip = f + 14;
    CHECK(ip[0] == 0x45, ip[0]);
    unsigned tot = g16(ip + 2);
    CHECK(tot + 14 == len || (len == 60 && tot + 14 < 60), tot, len);
    CHECK(fold(rsum(ip, 20)) == 0xffff);
    CHECK(g32(ip + 12) == kOurIp);
    uint32_t dst = g32(ip + 16);
    const uint8_t* l4 = ip + 20;
    unsigned n = tot - 20;
    if (ip[9] == 6) {
      CHECK(n >= 20, n);
      CHECK(l4_sum(kOurIp, dst, 6, l4, n) == 0xffff);
      unsigned doff = (l4[12] >> 4) * 4u;
      CHECK(doff >= 20 && doff <= n, doff, n);
      unsigned dlen = n - doff;
      CHECK(dlen <= NET_TCP_MSS, dlen);
      if (dlen > 0 || (l4[13] & TCP_FIN)) check_segment(dst, l4, dlen, l4 + doff);
    } else if (ip[9] == 17) {
      CHECK(n >= 8 && g16(l4 + 4) == n, n);
      CHECK(g16(l4 + 6) == 0 || l4_sum(kOurIp, dst, 17, l4, n) == 0xffff);
    } else {
      CHECK(ip[9] == 1, ip[9]);
      CHECK(n >= 8 && fold(rsum(l4, n)) == 0xffff, n);
      CHECK(l4[0] == 0, l4[0]);  // only echo replies
    }
  }
  if (keep_sent) sent.emplace_back(f, f + len);
  return NET_OK;
}

// ---- invariants over the whole state ---------------------------------------

uint32_t input_drops() {
  const struct net_stats& s = net_stats;
  return s.eth.drop_short + s.eth.drop_too_big + s.eth.drop_not_for_us + s.eth.drop_type +
         s.arp.drop_malformed + s.arp.drop_op + s.arp.drop_not_for_us + s.ip.drop_short + s.ip.drop_version +
         s.ip.drop_hl + s.ip.drop_len + s.ip.drop_chksum + s.ip.drop_frag + s.ip.drop_not_for_us +
         s.ip.drop_src + s.ip.drop_proto + s.icmp.drop_short + s.icmp.drop_chksum + s.icmp.drop_type +
         s.icmp.drop_bcast + s.udp.drop_short + s.udp.drop_len + s.udp.drop_chksum + s.udp.drop_no_port +
         s.tcp.drop_short + s.tcp.drop_chksum + s.tcp.drop_offset + s.tcp.drop_opt + s.tcp.drop_no_conn +
         s.tcp.drop_no_slot + s.tcp.drop_bad_ack + s.tcp.drop_seq + s.tcp.drop_ooo + s.tcp.drop_no_ack +
         s.tcp.drop_state + s.tcp.drop_bcast + s.eth.drop_bad_src + s.ip.drop_land + s.tcp.drop_challenge +
         s.arp.drop_land;
}

void check_tables() {
  CHECK(net_stats.err_arg == 0, (long)net_stats.err_arg);
  for (unsigned i = 0; i < NET_TCP_CONNS; i++) {
    const struct tcp_conn& c = tcp_conns[i];
    App& a = apps[i];
    CHECK(c.state <= TCP_LAST_ACK, c.state);
    if (c.state == TCP_CLOSED) {
      a = App();  // freed (possibly silently: TIME-WAIT expiry, LAST-ACK done)
      continue;
    }
    CHECK(TCP_SEQ_LEQ(c.snd_una, c.snd_nxt), (long)c.snd_una, (long)c.snd_nxt);
#if NET_TCP_UIP_SEND
    // One segment (+ SYN/FIN) in flight.
    CHECK(c.snd_nxt - c.snd_una <= (uint32_t)c.mss + 1u, (long)(c.snd_nxt - c.snd_una), c.mss);
    uint32_t snd_end = c.snd_nxt;
#else
    // SND.NXT <= SND.MAX (it goes back on a timeout); in flight at most the
    // send buffer (+ SYN/FIN) and never more than is buffered.
    CHECK(TCP_SEQ_LEQ(c.snd_nxt, c.snd_max), (long)c.snd_nxt, (long)c.snd_max);
    CHECK(c.snd_max - c.snd_una <= tcp_unacked(&c) + 1u, (long)(c.snd_max - c.snd_una),
          (long)tcp_unacked(&c));
    CHECK(tcp_unacked(&c) <= NET_TCP_SNDBUF, (long)tcp_unacked(&c));
    uint32_t snd_end = c.snd_max;
#endif
    CHECK(c.mss <= NET_TCP_MSS && c.mss > 0, c.mss);
    CHECK(c.rto >= NET_TCP_RTO_MIN_MS && c.rto <= NET_TCP_RTO_MAX_MS, (long)c.rto);
    CHECK(c.lport != 0 && c.rport != 0, c.lport, c.rport);
    if (a.alive && a.iss != c.iss) a = App();  // slot reused (TIME-WAIT recycled)
    if (!a.connected) continue;
    // Received bytes: rcv_nxt moved by what the application was given.
    uint32_t rdiff = c.rcv_nxt - a.rcv0 - (uint32_t)a.delivered;
    CHECK(rdiff == (a.peer_fin ? 1u : 0u), (long)rdiff, a.peer_fin);
    // Sent bytes: the stack holds what was handed and not acknowledged,
    // every acknowledgment was reported (ACKED), snd_una moved by exactly
    // that (+ our FIN), nothing was sent beyond what was handed (+ FIN).
    CHECK(tcp_unacked(&c) + a.acked == a.stream.size(), (long)tcp_unacked(&c),
          (long)(a.stream.size() - a.acked));
    CHECK(snd_end - a.snd0 <= a.stream.size() + 1u, (long)(snd_end - a.snd0), (long)a.stream.size());
    uint32_t sdiff = c.snd_una - a.snd0 - (uint32_t)a.acked;
    CHECK(sdiff == 0 || a.closed, (long)sdiff);  // a FIN only after tcp_close()
    switch (c.state) {
      case TCP_ESTABLISHED:
      case TCP_CLOSE_WAIT:
        CHECK(sdiff == 0, (long)sdiff, c.state);
        break;
      case TCP_FIN_WAIT_2:
      case TCP_TIME_WAIT:
        CHECK(sdiff == 1, (long)sdiff, c.state);
        break;
      default:
        CHECK(sdiff <= 1, (long)sdiff, c.state);
    }
  }
}

void feed(const uint8_t* frame, size_t len) {
  uint8_t* copy = (uint8_t*)malloc(len ? len : 1);
  if (len) memcpy(copy, frame, len);
  uint32_t rx0 = net_stats.eth.rx, d0 = input_drops(), echo0 = net_stats.icmp.tx;
  in_input = true;
  net_input(copy, (unsigned)len);
  in_input = false;
  CHECK(net_stats.eth.rx == rx0 + 1, (long)net_stats.eth.rx, (long)rx0);
  CHECK(input_drops() - d0 <= 1, (long)(input_drops() - d0));
#if NET_ZERO_COPY
  // read in place, never written, except an echo request that became the
  // reply sent from it (ip.c icmp_input())
  CHECK(len == 0 || memcmp(copy, frame, len) == 0 || net_stats.icmp.tx == echo0 + 1);
#else
  (void)echo0;
#endif
  free(copy);
}

// Builds a TCP frame from the peer (for the prelude).
std::vector<uint8_t> peer_tcp(uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack, uint8_t flags,
                              bool mss) {
  unsigned thl = mss ? 24 : 20;
  std::vector<uint8_t> f(14 + 20 + thl, 0);
  memcpy(&f[0], kOurMac, 6);
  memcpy(&f[6], kPeerMac, 6);
  p16(&f[12], 0x0800);
  uint8_t* ip = &f[14];
  ip[0] = 0x45;
  p16(ip + 2, (uint16_t)(20 + thl));
  ip[8] = 64;
  ip[9] = 6;
  p32(ip + 12, kPeerIp);
  p32(ip + 16, kOurIp);
  p16(ip + 10, (uint16_t)~fold(rsum(ip, 20)));
  uint8_t* t = ip + 20;
  p16(t, sport);
  p16(t + 2, dport);
  p32(t + 4, seq);
  p32(t + 8, ack);
  t[12] = (uint8_t)((thl / 4) << 4);
  t[13] = flags;
  p16(t + 14, 8192);
  if (mss) {
    t[20] = 2;
    t[21] = 4;
    p16(t + 22, 1460);
  }
  p16(t + 16, (uint16_t)~l4_sum(kPeerIp, kOurIp, 6, t, thl));
  return f;
}

// Fix-ups of a fuzzed frame (see the header).
void fixup(uint8_t* f, size_t len, unsigned tag) {
  if (len < 34 || g16(f + 12) != 0x0800) return;
  uint8_t* ip = f + 14;
  unsigned ihl = (ip[0] & 15) * 4u;
  if (ihl < 20 || 14 + ihl > len) return;
  unsigned tot = g16(ip + 2);
  if (tot < ihl || 14 + tot > len) tot = (unsigned)(len - 14);
  uint8_t* l4 = ip + ihl;
  unsigned n = tot - ihl;
  if ((tag & 0x04) && ip[9] == 6 && n >= 20) {
    const struct tcp_conn& c = tcp_conns[(tag >> 3) & 3];
    p32(l4 + 4, g32(l4 + 4) + c.rcv_nxt);
    p32(l4 + 8, g32(l4 + 8) + c.snd_nxt);
  }
  if ((tag & 0x20) && ip[9] == 6 && n >= 20) {
    const struct tcp_conn& c = tcp_conns[(tag >> 3) & 3];
    p16(l4, c.rport);
    p16(l4 + 2, c.lport);
  }
  if (tag & 0x02) {
    uint32_t src = g32(ip + 12), dst = g32(ip + 16);
    if (ip[9] == 6 && n >= 20) {
      p16(l4 + 16, 0);
      p16(l4 + 16, (uint16_t)~l4_sum(src, dst, 6, l4, n));
    } else if (ip[9] == 17 && n >= 8) {
      p16(l4 + 6, 0);
      uint16_t s = (uint16_t)~l4_sum(src, dst, 17, l4, n);
      p16(l4 + 6, s == 0 ? 0xffff : s);
    } else if (ip[9] == 1 && n >= 4) {
      p16(l4 + 2, 0);
      p16(l4 + 2, (uint16_t)~fold(rsum(l4, n)));
    }
  }
  if (tag & 0x01) {
    p16(ip + 10, 0);
    p16(ip + 10, (uint16_t)~fold(rsum(ip, ihl)));
  }
}

struct tcp_conn* our_conn(uint8_t s) {
  unsigned i = s % NET_TCP_CONNS;
  if (tcp_conns[i].state == TCP_CLOSED || !apps[i].alive) return nullptr;
  return &tcp_conns[i];
}

struct netif nif;

// An active open: the application knows the connection from now on.
void opened(struct tcp_conn* c) {
  if (!c) return;
  App& a = apps[slot(c)];
  a = App();
  a.alive = true;
  a.iss = c->iss;
}

void prelude() {
  for (auto& a : apps) a = App();
  memset(&nif, 0, sizeof nif);
  memcpy(nif.hwaddr, kOurMac, 6);
  nif.ipaddr = kOurIp;
  nif.netmask = NET_IP4(255, 255, 255, 0);
  nif.gw = NET_IP4(10, 0, 0, 254);
  nif.low_level_output = out;
  net_init(&nif, 12345);
  if (setup & 0x10) tcp_set_rcv_wnd(300);
  CHECK(tcp_listen(80, app_call, nullptr) == NET_OK);
  udp7 = udp_bind(7, udp_echo, nullptr, nullptr);
  CHECK(udp7 != nullptr);
  // The peer's ARP request teaches us its MAC.
  std::vector<uint8_t> arp(42, 0);
  memset(&arp[0], 0xff, 6);
  memcpy(&arp[6], kPeerMac, 6);
  p16(&arp[12], 0x0806);
  p16(&arp[14], 1);
  p16(&arp[16], 0x0800);
  arp[18] = 6;
  arp[19] = 4;
  p16(&arp[20], 1);
  memcpy(&arp[22], kPeerMac, 6);
  p32(&arp[28], kPeerIp);
  p32(&arp[38], kOurIp);
  feed(arp.data(), arp.size());
  if (setup & 0x01) {
    keep_sent = true;
    sent.clear();
    auto syn = peer_tcp(40000, 80, 1000, 0, TCP_SYN, true);
    feed(syn.data(), syn.size());
    CHECK(!sent.empty());
    const std::vector<uint8_t>& sa = sent.back();
    CHECK(sa.size() >= 54 && sa[14 + 9] == 6 && (sa[14 + 20 + 13] & 0x12) == 0x12);
    uint32_t iss = g32(&sa[14 + 20 + 4]);
    keep_sent = false;
    auto ack = peer_tcp(40000, 80, 1001, iss + 1, TCP_ACK, false);
    feed(ack.data(), ack.size());
    CHECK(tcp_conns[0].state == TCP_ESTABLISHED, tcp_conns[0].state);
    CHECK(apps[0].connected);
  }
  if (setup & 0x02) {
    struct tcp_conn* c = tcp_connect(kPeerIp, 5000, app_call, nullptr);
    CHECK(c != nullptr);
    opened(c);
  }
  check_tables();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  setup = data[0];
  prelude();
  size_t i = 1;
  std::vector<uint8_t> frame;
  while (i < size) {
    uint8_t t = data[i++];
    if (t < 0x80) {
      if (i + 2 > size) break;
      size_t len = g16(data + i);
      i += 2;
      if (len > size - i) len = size - i;
      frame.assign(data + i, data + i + len);
      i += len;
      fixup(frame.data(), frame.size(), t);
      feed(frame.data(), frame.size());
    } else if (t < 0xc0) {
      net_timer_tick(((t & 0x3fu) + 1u) * 10u);
    } else if (t == 0xc0) {
      if (i + 2 > size) break;
      net_timer_tick(g16(data + i) * 16u);
      i += 2;
    } else if (t >= 0xc1 && t <= 0xc6) {
      if (i >= size) break;
      uint8_t a = data[i++];
      struct tcp_conn* c;
      switch (t) {
        case 0xc1:
          if ((c = our_conn(a))) {
            apps[slot(c)].closed = true;
            tcp_close(c);
          }
          break;
        case 0xc2:
          if ((c = our_conn(a))) {
            tcp_abort(c);
            apps[slot(c)] = App();
          }
          break;
        case 0xc3:
          if ((c = our_conn(a))) tcp_poll(c);
          break;
        case 0xc4:
          opened(tcp_connect(kPeerIp, (uint16_t)(5000 + a), app_call, nullptr));
          break;
        case 0xc5: {
          std::vector<uint8_t> d(a * 5u, (uint8_t)a);
          udp_sendto(udp7, kPeerIp, 9, d.data(), (unsigned)d.size());
          break;
        }
        case 0xc6:
          if (i >= size) break;
          tcp_set_rcv_wnd((uint16_t)((a << 8) | data[i++]));
          break;
      }
    }
    check_tables();
  }
  if (getenv("FUZZ_NET_VERBOSE")) {  // what an input reached (for writing seeds)
    const struct net_stats& st = net_stats;
    fprintf(stderr,
            "rx %u tx %u | arp req/rep tx %u/%u | icmp tx %u | udp rx/tx %u/%u | tcp rx/tx %u/%u rst_tx %u "
            "rexmit %u timeouts %u drops %u\n",
            (unsigned)st.eth.rx, (unsigned)st.eth.tx, (unsigned)st.arp.req_tx, (unsigned)st.arp.reply_tx,
            (unsigned)st.icmp.tx, (unsigned)st.udp.rx, (unsigned)st.udp.tx, (unsigned)st.tcp.rx,
            (unsigned)st.tcp.tx, (unsigned)st.tcp.rst_tx, (unsigned)st.tcp.rexmit, (unsigned)st.tcp.timeouts,
            (unsigned)input_drops());
    for (unsigned k = 0; k < NET_TCP_CONNS; k++)
      if (tcp_conns[k].state != TCP_CLOSED || apps[k].delivered || apps[k].acked)
        fprintf(stderr, "  slot %u %s delivered %llu acked %llu peer_fin %d\n", k,
                tcp_state_name(tcp_conns[k].state), (unsigned long long)apps[k].delivered,
                (unsigned long long)apps[k].acked, (int)apps[k].peer_fin);
  }
  return 0;
}
