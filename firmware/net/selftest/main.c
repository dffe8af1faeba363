/*
 * net_selftest - runs the stack on the target (big-endian SPARC V8):
 *   CHKSUM  the three checksum variants (fast = the addxcc assembly path)
 *           against a plain reference, lengths 0..1600 x alignments 0..3;
 *   ICMP    an echo request injected through net_input() is answered;
 *   TCP     passive open, data echoed back, FIN handshake;
 *   VERIFY  net_tcpsink's data check (verify.h) big-endian, as the host
 *           tests cannot: a flipped byte every 13 of a 1460-byte segment at
 *           every alignment, stream offsets before, at and after the wrap.
 * Prints one PASS/FAIL line per group; exit status = failed groups.
 * Board-independent output (no timers or devices besides the UART).
 */
#include "bsp.h"
#include "fwlibc.h"
#include "net.h"
#include "net_chksum.h"
#include "../../apps/net_tcpsink/verify.h"

#define OUR_IP NET_IP4(10, 0, 0, 1)
#define PEER_IP NET_IP4(10, 0, 0, 2)

static const uint8_t our_mac[6] = {2, 0, 0, 0, 0, 1};
static const uint8_t peer_mac[6] = {2, 0, 0, 0, 0, 2};

static uint8_t out_frame[NET_BUF_SIZE];
static unsigned out_len;
static unsigned out_count;
static uint8_t in_frame[NET_BUF_SIZE] __attribute__((aligned(4)));

static net_err_t capture(struct netif *nif, const uint8_t *frame, unsigned len) {
  (void)nif;
  memcpy(out_frame, frame, len);
  out_len = len;
  out_count++;
  return NET_OK;
}

static uint16_t ref_sum(const uint8_t *p, unsigned n, uint32_t acc) {
  unsigned i;
  for (i = 0; i < n; i += 2) {
    acc += (uint32_t)p[i] << 8;
    if (i + 1 < n) {
      acc += p[i + 1];
    }
  }
  while (acc >> 16) {
    acc = (acc & 0xffffu) + (acc >> 16);
  }
  return (uint16_t)acc;
}

static int test_chksum(void) {
  static uint8_t buf[1600 + 8];
  uint32_t x = 12345;
  unsigned i, v, a, len;
  int bad = 0;
  for (i = 0; i < sizeof buf; i++) {
    x = x * 1103515245u + 12345u;
    buf[i] = (uint8_t)(x >> 16);
  }
  for (v = 0; v < NET_CHKSUM_NVARIANTS; v++) {
    for (a = 0; a < 4; a++) {
      for (len = 0; len <= 1600; len++) {
        uint16_t init = (uint16_t)(len * 7919u);
        uint16_t want = ref_sum(buf + a, len, init);
        uint16_t got = net_chksum_variants[v].fn(init, buf + a, len);
        if (got != want && bad++ < 3) {
          printf("  %s len %u align %u: %x != %x\n", net_chksum_variants[v].name, len, a, got, want);
        }
      }
    }
  }
  /* net_chksum_copy (the TCP send path's copy + sum; SPARC: word loads,
   * doubleword stores once the destination is 8-aligned): every source and
   * destination address mod 8, against the reference sum and memcmp. */
  for (a = 0; a < 64; a++) {
    static uint8_t dst[1600 + 16];
    unsigned sa = a & 7u, da = a >> 3;
    for (len = 0; len <= 1500; len += len < 136 ? 1 : 341) {
      uint16_t init = (uint16_t)(len * 31u + a);
      uint16_t got = net_chksum_copy(init, dst + da, buf + sa, len);
      if ((got != ref_sum(buf + sa, len, init) || memcmp(dst + da, buf + sa, len) != 0) && bad++ < 3) {
        printf("  copy len %u src %u dst %u\n", len, sa, da);
      }
    }
  }
  return bad == 0;
}

/* Ethernet + IPv4 header from the peer; returns the payload pointer. */
static uint8_t *ip_frame(uint8_t proto, unsigned plen) {
  uint8_t *ip = in_frame + 14;
  memcpy(in_frame, our_mac, 6);
  memcpy(in_frame + 6, peer_mac, 6);
  net_put16(in_frame + 12, NET_ETHTYPE_IP);
  memset(ip, 0, 20);
  ip[0] = 0x45;
  net_put16(ip + 2, (uint16_t)(20 + plen));
  ip[8] = 64;
  ip[9] = proto;
  net_put32(ip + 12, PEER_IP);
  net_put32(ip + 16, OUR_IP);
  net_put16(ip + 10, (uint16_t)~ref_sum(ip, 20, 0));
  return ip + 20;
}

static int test_icmp(void) {
  uint8_t *m = ip_frame(NET_IPPROTO_ICMP, 8 + 100);
  unsigned i;
  memset(m, 0, 8);
  m[0] = 8;
  net_put16(m + 4, 0x1234);
  for (i = 0; i < 100; i++) {
    m[8 + i] = (uint8_t)i;
  }
  net_put16(m + 2, (uint16_t)~ref_sum(m, 108, 0));
  out_count = 0;
  net_input(in_frame, 14 + 20 + 108);
  return out_count == 1 && out_len == 14 + 20 + 108 && memcmp(out_frame, peer_mac, 6) == 0 &&
         out_frame[34] == 0 && ref_sum(out_frame + 34, 108, 0) == 0xffff &&
         memcmp(out_frame + 42, m + 8, 100) == 0;
}

static void echo_app(struct tcp_conn *c, unsigned ev) {
  if (ev & NET_EV_NEWDATA) {
    tcp_send(c, tcp_appdata, tcp_applen);
  }
  if (ev & NET_EV_CLOSED) {
    tcp_close(c);
  }
}

static void tcp_in(uint32_t seq, uint32_t ack, uint8_t flags, const char *data) {
  unsigned n = data ? strlen(data) : 0;
  uint8_t *t = ip_frame(NET_IPPROTO_TCP, 20 + n);
  memset(t, 0, 20);
  net_put16(t, 40000);
  net_put16(t + 2, 80);
  net_put32(t + 4, seq);
  net_put32(t + 8, ack);
  t[12] = 5 << 4;
  t[13] = flags;
  net_put16(t + 14, 4096);
  memcpy(t + 20, data, n);
  net_put16(t + 16, (uint16_t)~net_chksum_pseudo(PEER_IP, OUR_IP, NET_IPPROTO_TCP, t, 20 + n));
  out_count = 0;
  net_input(in_frame, 14 + 20 + 20 + n);
}

static int test_tcp(void) {
  const uint8_t *t = out_frame + 34;
  uint32_t iss;
  if (tcp_listen(80, echo_app, NULL) != NET_OK) {
    return 0;
  }
  tcp_in(1000, 0, TCP_SYN, NULL);
  if (out_count != 1 || t[13] != (TCP_SYN | TCP_ACK) || net_get32(t + 8) != 1001) {
    return 0;
  }
  iss = net_get32(t + 4);
  tcp_in(1001, iss + 1, TCP_ACK, NULL);
  tcp_in(1001, iss + 1, TCP_ACK | TCP_PSH, "leon3");
  if (out_count != 1 || out_len != 54 + 5 || memcmp(t + 20, "leon3", 5) != 0 || net_get32(t + 8) != 1006) {
    return 0;
  }
  tcp_in(1006, iss + 6, TCP_FIN | TCP_ACK, NULL);
  if (out_count != 1 || t[13] != (TCP_FIN | TCP_ACK) || net_get32(t + 8) != 1007) {
    return 0;
  }
  tcp_in(1007, iss + 7, TCP_ACK, NULL);
  return tcp_conns[0].state == TCP_CLOSED && net_stats.tcp.drop_chksum == 0;
}

/* verify.h on the target (big-endian words, SINK_WRAP's big-endian
 * masks): exact count of wrong bytes. */
static int test_verify(void) {
  static uint8_t seg[1460 + 8] __attribute__((aligned(8)));
  static const uint32_t offs[] = {0, 2, 249, 5000};
  unsigned a, o, i, bad = 0;

  for (a = 0; a < 4; a++)
    for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
      for (i = 0; i < 1460; i++) seg[a + i] = (uint8_t)((offs[o] + i) % 251u);
      if (sink_check(seg + a, 1460, offs[o]) != 0 && bad++ < 3)
        printf("  verify align %u off %u: clean data counted bad\n", a, (unsigned)offs[o]);
      for (i = a; i < 1460; i += 13) { /* 13: every byte of an 8-word pass, in many passes */
        uint32_t got;
        seg[a + i] ^= (uint8_t)(1u << (i % 8));
        got = sink_check(seg + a, 1460, offs[o]);
        seg[a + i] ^= (uint8_t)(1u << (i % 8));
        if (got != 1 && bad++ < 3)
          printf("  verify align %u off %u byte %u: %u bad\n", a, (unsigned)offs[o], i, (unsigned)got);
      }
    }
  return bad == 0;
}

int main(void) {
  static struct netif nif;
  int failed = 0;
  memcpy(nif.hwaddr, our_mac, 6);
  nif.ipaddr = OUR_IP;
  nif.netmask = NET_IP4(255, 255, 255, 0);
  nif.low_level_output = capture;
  net_init(&nif, 42);
  /* Learn the peer's MAC from its first frame (NET_ARP_LEARN_FROM_IP). */

  printf("net_selftest: checksum %s, %s\n", net_chksum_selected, NET_ZERO_COPY ? "zero-copy" : "copy");
#define GROUP(name, fn)                             \
  do {                                              \
    int ok_ = fn();                                 \
    printf("%s %s\n", ok_ ? "PASS" : "FAIL", name); \
    failed += !ok_;                                 \
  } while (0)
  GROUP("CHKSUM", test_chksum);
  GROUP("ICMP", test_icmp);
  GROUP("TCP", test_tcp);
  GROUP("VERIFY", test_verify);
  printf("net_selftest: done\n");
  return failed;
}
