// net_harness.cpp - see net_harness.h.
#include "net_harness.h"

#include <algorithm>
#include <string>

namespace nh {

std::vector<Bytes> tx;
bool link_up = true;
App apps[NET_TCP_CONNS];

unsigned tx_buffers_out, tx_in_place;
// A driver transmit buffer in a separate heap block of exactly NET_BUF_SIZE
// bytes (ASan sees overruns), refilled with junk whenever it is handed out:
// a frame built there must not depend on what was in it.
static std::unique_ptr<uint8_t[]> tx_buffer_mem;

static uint8_t* fake_tx_buffer(struct netif*) {
  if (!tx_buffer_mem) tx_buffer_mem.reset(new uint8_t[NET_BUF_SIZE]);
  memset(tx_buffer_mem.get(), 0xa5, NET_BUF_SIZE);
  tx_buffers_out++;
  return tx_buffer_mem.get();
}

netif_tx_buffer_fn fake_tx_buffer_ptr() { return fake_tx_buffer; }

static net_err_t fake_output(struct netif*, const uint8_t* frame, unsigned len) {
  if (!link_up) return NET_ERR_IF;
  if (tx_buffer_mem && frame == tx_buffer_mem.get()) tx_in_place++;
  // The stack must never send more than its buffer or less than a header.
  EXPECT_GE(len, 14u);
  EXPECT_LE(len, (unsigned)NET_BUF_SIZE);
  tx.emplace_back(frame, frame + len);
  return NET_OK;
}

uint16_t ref_sum(const uint8_t* p, size_t n, uint32_t acc) {
  for (size_t i = 0; i < n; i += 2) {
    uint32_t w = (uint32_t)p[i] << 8;
    if (i + 1 < n) w |= p[i + 1];
    acc += w;
  }
  while (acc >> 16) acc = (acc & 0xffff) + (acc >> 16);
  return (uint16_t)acc;
}

uint16_t ref_pseudo_sum(uint32_t src, uint32_t dst, uint8_t proto, const Bytes& seg) {
  Bytes ph(12, 0);
  put32(ph, 0, src);
  put32(ph, 4, dst);
  ph[9] = proto;
  put16(ph, 10, (uint16_t)seg.size());
  return ref_sum(seg.data(), seg.size(), ref_sum(ph.data(), ph.size()));
}

void put16(Bytes& b, size_t off, uint16_t v) {
  b[off] = (uint8_t)(v >> 8);
  b[off + 1] = (uint8_t)v;
}
void put32(Bytes& b, size_t off, uint32_t v) {
  put16(b, off, (uint16_t)(v >> 16));
  put16(b, off + 2, (uint16_t)v);
}
uint16_t get16(const Bytes& b, size_t off) { return (uint16_t)((b.at(off) << 8) | b.at(off + 1)); }
uint32_t get32(const Bytes& b, size_t off) { return ((uint32_t)get16(b, off) << 16) | get16(b, off + 2); }

Bytes eth_frame(const uint8_t* dst, const uint8_t* src, uint16_t type, const Bytes& payload) {
  Bytes f(14);
  std::copy(dst, dst + 6, f.begin());
  std::copy(src, src + 6, f.begin() + 6);
  put16(f, 12, type);
  f.insert(f.end(), payload.begin(), payload.end());
  return f;
}

Bytes ip_packet(uint32_t src, uint32_t dst, uint8_t proto, const Bytes& payload, const IpOpt& o) {
  size_t hl = 20 + o.options.size();
  Bytes p(hl, 0);
  int ihl = o.ihl >= 0 ? o.ihl : (int)(hl / 4);
  p[0] = (uint8_t)((o.version << 4) | (ihl & 15));
  put16(p, 2, (uint16_t)(o.total_len >= 0 ? o.total_len : (int)(hl + payload.size())));
  put16(p, 4, 0x1234);
  put16(p, 6, o.frag);
  p[8] = o.ttl;
  p[9] = proto;
  put32(p, 12, src);
  put32(p, 16, dst);
  std::copy(o.options.begin(), o.options.end(), p.begin() + 20);
  uint16_t c = (uint16_t)~ref_sum(p.data(), hl);
  if (o.bad_checksum) c ^= 0x0101;
  put16(p, 10, c);
  p.insert(p.end(), payload.begin(), payload.end());
  return p;
}

Bytes tcp_segment(uint32_t src, uint32_t dst, const TcpSeg& s) {
  size_t hl = 20 + s.options.size();
  Bytes t(hl, 0);
  put16(t, 0, s.sport);
  put16(t, 2, s.dport);
  put32(t, 4, s.seq);
  put32(t, 8, s.ack);
  int doff = s.doff >= 0 ? s.doff : (int)(hl / 4);
  t[12] = (uint8_t)(doff << 4);
  t[13] = s.flags;
  put16(t, 14, s.wnd);
  put16(t, 18, s.urp);
  std::copy(s.options.begin(), s.options.end(), t.begin() + 20);
  t.insert(t.end(), s.data.begin(), s.data.end());
  uint16_t c = (uint16_t)~ref_pseudo_sum(src, dst, 6, t);
  if (s.bad_checksum) c ^= 0x0800;
  put16(t, 16, c);
  return t;
}

Bytes udp_datagram(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, const Bytes& data,
                   bool checksum) {
  Bytes u(8, 0);
  put16(u, 0, sport);
  put16(u, 2, dport);
  put16(u, 4, (uint16_t)(8 + data.size()));
  u.insert(u.end(), data.begin(), data.end());
  if (checksum) {
    uint16_t c = (uint16_t)~ref_pseudo_sum(src, dst, 17, u);
    put16(u, 6, c ? c : 0xffff);
  }
  return u;
}

Bytes icmp_echo(uint8_t type, uint16_t id, uint16_t seq, const Bytes& data) {
  Bytes m(8, 0);
  m[0] = type;
  put16(m, 4, id);
  put16(m, 6, seq);
  m.insert(m.end(), data.begin(), data.end());
  put16(m, 2, (uint16_t)~ref_sum(m.data(), m.size()));
  return m;
}

Bytes arp_pkt(uint16_t op, const uint8_t* sha, uint32_t spa, const uint8_t* tha, uint32_t tpa) {
  Bytes a(28, 0);
  put16(a, 0, 1);
  put16(a, 2, 0x0800);
  a[4] = 6;
  a[5] = 4;
  put16(a, 6, op);
  std::copy(sha, sha + 6, a.begin() + 8);
  put32(a, 14, spa);
  std::copy(tha, tha + 6, a.begin() + 18);
  put32(a, 24, tpa);
  return a;
}

Bytes peer_ip_frame(uint8_t proto, const Bytes& payload, const IpOpt& o, uint32_t src, uint32_t dst) {
  return eth_frame(kOurMac, kPeerMac, 0x0800, ip_packet(src, dst, proto, payload, o));
}

Pkt parse(const Bytes& f) {
  Pkt p;
  p.raw = f;
  if (f.size() < 14) return p;
  p.ethtype = get16(f, 12);
  if (p.ethtype != 0x0800 || f.size() < 34) return p;
  Bytes ip(f.begin() + 14, f.end());
  unsigned hl = (ip[0] & 15) * 4u;
  unsigned tot = get16(ip, 2);
  if ((ip[0] >> 4) != 4 || hl < 20 || tot > ip.size() || tot < hl) return p;
  if (ref_sum(ip.data(), hl) != 0xffff) return p;
  p.ip_ok = true;
  p.src = get32(ip, 12);
  p.dst = get32(ip, 16);
  p.proto = ip[9];
  p.payload.assign(ip.begin() + hl, ip.begin() + tot);
  const Bytes& l4 = p.payload;
  if (p.proto == 6 && l4.size() >= 20) {
    p.l4_ok = ref_pseudo_sum(p.src, p.dst, 6, l4) == 0xffff;
    p.sport = get16(l4, 0);
    p.dport = get16(l4, 2);
    p.seq = get32(l4, 4);
    p.ack = get32(l4, 8);
    p.flags = l4[13] & 0x3f;
    p.wnd = get16(l4, 14);
    unsigned doff = (l4[12] >> 4) * 4u;
    for (unsigned i = 20; i + 1 < doff && i < l4.size();) {
      if (l4[i] == 0) break;
      if (l4[i] == 1) {
        i++;
        continue;
      }
      if (l4[i] == 2 && l4[i + 1] == 4) p.mss = get16(l4, i + 2);
      i += std::max<unsigned>(2, l4[i + 1]);
    }
    if (doff <= l4.size()) p.data.assign(l4.begin() + doff, l4.end());
  } else if (p.proto == 17 && l4.size() >= 8) {
    p.sport = get16(l4, 0);
    p.dport = get16(l4, 2);
    p.l4_ok =
        get16(l4, 4) == l4.size() && (get16(l4, 6) == 0 || ref_pseudo_sum(p.src, p.dst, 17, l4) == 0xffff);
    p.data.assign(l4.begin() + 8, l4.end());
  } else if (p.proto == 1 && l4.size() >= 8) {
    p.l4_ok = ref_sum(l4.data(), l4.size()) == 0xffff;
    p.data.assign(l4.begin() + 8, l4.end());
  }
  return p;
}

Bytes pattern(size_t n, unsigned seed) {
  Bytes b(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& v : b) {
    x = x * 1103515245u + 12345u;
    v = (uint8_t)(x >> 16);
  }
  return b;
}

void inject(const Bytes& f) { inject_at(f, 0); }

void inject_at(const Bytes& f, size_t offset, unsigned checked) {
  // operator new[] returns 16-aligned storage: the frame starts `offset`
  // bytes into it (0: aligned like the driver's buffers).
  std::unique_ptr<uint8_t[]> store(new uint8_t[offset + (f.size() ? f.size() : 1)]);
  uint8_t* frame = store.get() + offset;
  if (!f.empty()) memcpy(frame, f.data(), f.size());
  uint32_t echo_tx0 = net_stats.icmp.tx;
  size_t ntx0 = tx.size();
  net_input_checked(frame, (unsigned)f.size(), checked);
#if NET_ZERO_COPY
  // Zero-copy: the stack must not have written to the received frame,
  // except an echo request, which becomes the reply sent from it in place.
  if (!f.empty() && memcmp(frame, f.data(), f.size()) != 0) {
    // (sent, unless the link is down or the next hop unresolved)
    EXPECT_EQ(echo_tx0 + 1, net_stats.icmp.tx) << "received frame written";
    if (tx.size() > ntx0) {
      ASSERT_LE(tx.back().size(), f.size());
      EXPECT_EQ(0, memcmp(frame, tx.back().data(), tx.back().size()));
    }
  }
#else
  (void)echo_tx0;
  (void)ntx0;
#endif
}

netif_output_fn fake_output_ptr() { return fake_output; }

void app_call(struct tcp_conn* c, unsigned ev) {
  App& a = app_of(c);
  a.events.push_back(ev);
  a.all |= ev;
  if (ev & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) return;
  if (a.hook) a.hook(c, ev);
  if (ev & NET_EV_NEWDATA) {
    a.rx.insert(a.rx.end(), tcp_appdata, tcp_appdata + tcp_applen);
    if (a.abort_on_data) {
      tcp_abort(c);
      return;
    }
    if (a.echo) a.to_send.insert(a.to_send.end(), tcp_appdata, tcp_appdata + tcp_applen);
  }
  if (ev & NET_EV_ACKED) a.inflight.clear();
  if (ev & NET_EV_REXMIT) {
    a.rexmits++;
    if (!a.ignore_rexmit) {
      EXPECT_EQ((int)a.inflight.size(), tcp_send(c, a.inflight.data(), (unsigned)a.inflight.size()));
    }
    return;
  }
#if NET_TCP_UIP_SEND
  if (a.inflight.empty() && !a.to_send.empty()) {
    size_t n = std::min<size_t>(tcp_sndmax(c), a.to_send.size());
    if (n > 0) {
      a.inflight.assign(a.to_send.begin(), a.to_send.begin() + n);
      a.to_send.erase(a.to_send.begin(), a.to_send.begin() + n);
      a.sent.insert(a.sent.end(), a.inflight.begin(), a.inflight.end());
      EXPECT_EQ((int)n, tcp_send(c, a.inflight.data(), (unsigned)n));
    }
  }
#else
  // The stack copies into its send buffer: hand over what fits, as often
  // as there is room (NET_EV_ACKED, POLL...).
  if (!a.to_send.empty() && tcp_sndmax(c) > 0) {
    size_t n = std::min<size_t>(tcp_sndmax(c), a.to_send.size());
    if (a.chunk) n = std::min<size_t>(n, a.chunk);
    EXPECT_EQ((int)n, tcp_send(c, a.to_send.data(), (unsigned)n));
    a.sent.insert(a.sent.end(), a.to_send.begin(), a.to_send.begin() + n);
    a.to_send.erase(a.to_send.begin(), a.to_send.begin() + n);
  }
#if NET_TCP_SNDREFS
  while (a.ref_data && a.ref_next < a.ref_len) {
    size_t n = std::min(a.ref_chunk, a.ref_len - a.ref_next);
    int r = tcp_send_ref(c, a.ref_data + a.ref_next, (unsigned)n);
    if (r == NET_ERR_BUF) {
      a.ref_full++;
      break;
    }
    EXPECT_EQ((int)n, r);
    if (r != (int)n) break;
    a.ref_next += n;
  }
#endif
#endif
  if ((a.close_when_done && a.to_send.empty() && a.ref_next == a.ref_len) ||
      (a.close_on_peer_close && (ev & NET_EV_CLOSED))) {
    tcp_close(c);
  }
}

}  // namespace nh

void NetTest::SetUp() {
  nh::tx.clear();
  nh::link_up = true;
  nh::tx_buffers_out = nh::tx_in_place = 0;
  for (auto& a : nh::apps) a = nh::App();
  memcpy(nif_.hwaddr, nh::kOurMac, 6);
  nif_.ipaddr = nh::kOurIp;
  nif_.netmask = nh::kMask;
  nif_.gw = nh::kGwIp;
  nif_.low_level_output = nh::fake_output_ptr();
  net_init(&nif_, 12345);
}

void NetTest::TearDown() {
  // No API misuse unless the test asked for it.
  EXPECT_EQ(expected_arg_errors_, net_stats.err_arg);
  // Connection table consistency (the stack allocates nothing, so this
  // takes the place of a leak check).
  for (unsigned i = 0; i < NET_TCP_CONNS; i++) {
    const struct tcp_conn& c = tcp_conns[i];
    SCOPED_TRACE("conn " + std::to_string(i) + " " + tcp_state_name(c.state));
    EXPECT_LE(c.state, TCP_LAST_ACK);
    if (c.state == TCP_CLOSED) continue;
    EXPECT_TRUE(TCP_SEQ_LEQ(c.snd_una, c.snd_nxt));
#if NET_TCP_UIP_SEND
    EXPECT_LE(c.snd_nxt - c.snd_una, (uint32_t)c.mss + 1u);  // one segment in flight
#else
    EXPECT_TRUE(TCP_SEQ_LEQ(c.snd_nxt, c.snd_max));
#if NET_TCP_SNDREFS
    EXPECT_LE(c.ref_n, NET_TCP_SNDREFS);
    if (c.ref_n) {  // tcp_send_ref()'s data: bounded by the references
      EXPECT_LE(c.snd_buf_len, c.ref_n * 65535u);
      EXPECT_GT(c.snd_buf_len, 0u);
    } else
#endif
      EXPECT_LE(c.snd_buf_len, (uint32_t)NET_TCP_SNDBUF);
    EXPECT_LE(c.snd_max - c.snd_una, c.snd_buf_len + 1u);  // only buffered data (+ FIN) in flight
#endif
    EXPECT_LE(c.mss, NET_TCP_MSS);
    EXPECT_GE(c.rto, NET_TCP_RTO_MIN_MS);
    EXPECT_LE(c.rto, NET_TCP_RTO_MAX_MS);
    EXPECT_NE(0, c.lport);
    EXPECT_NE(0, c.rport);
  }
}

void NetTest::advance(uint32_t ms, uint32_t step) {
  while (ms > 0) {
    uint32_t d = std::min(ms, step);
    net_timer_tick(d);
    ms -= d;
  }
}

void NetTest::prime_arp(uint32_t ip, const uint8_t* mac) {
  Bytes a(28, 0);
  nh::put16(a, 0, 1);
  nh::put16(a, 2, 0x0800);
  a[4] = 6;
  a[5] = 4;
  nh::put16(a, 6, 1);
  std::copy(mac, mac + 6, a.begin() + 8);
  nh::put32(a, 14, ip);
  nh::put32(a, 24, nh::kOurIp);
  nh::inject(nh::eth_frame(nh::kBcastMac, mac, 0x0806, a));
  nh::tx.clear();
}

std::vector<nh::Pkt> NetTest::take() {
  std::vector<nh::Pkt> v;
  for (auto& f : nh::tx) v.push_back(nh::parse(f));
  nh::tx.clear();
  return v;
}
