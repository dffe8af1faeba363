/*
 * net.c - stack core: global buffer, statistics, Ethernet input
 * demultiplexing, link output and the timer entry point.
 */
#include "net.h"

struct net_stats net_stats;
/* Aligned to a D-cache line: the copies into and out of it (memcpy with
 * doubleword accesses) and its cache footprint then do not depend on where
 * the linker happens to place it (a 4-byte placement cost ~100 instructions
 * per 1472-byte copy). */
uint8_t net_buf[NET_BUF_SIZE] __attribute__((aligned(16)));
uint32_t net_now;
const uint8_t *net_rx_frame;
unsigned net_rx_checked;
struct netif *net_netif;
uint8_t net_secret[16];
uint32_t net_pool;
static uint16_t net_id_ctr[8];
/* Rekeying ("Entropy pool" below): the secret before the last periodic
 * rekey, when it was made, and what ISNs the current secret has given. */
static struct {
  uint8_t prev[16];
  uint32_t at;
  uint8_t isn_state;
} net_rk;
#define ISN_UNUSED 0 /* no ISN from net_secret yet: it may change freely */
#define ISN_USED 1   /* ISNs given, from net_secret alone */
#define ISN_MOVING 2 /* ISNs move from net_rk.prev's to net_secret's */

#if (NET_SECRET_REKEY_MS & (NET_SECRET_REKEY_MS - 1)) != 0 || NET_SECRET_REKEY_MS < 524288u
#error "NET_SECRET_REKEY_MS must be a power of two of at least 2^19 (netopts.h)"
#endif

/* Destination MAC checks of net_input(), inline: a memcmp() call per
 * frame (two for a broadcast) cost more than the six byte compares. mac is
 * 4-aligned (struct netif); a 4-aligned p (the driver's frames) is
 * compared as a word and a halfword. */
static inline int net_mac_is(const uint8_t *p, const uint8_t *mac) {
  if (((uintptr_t)p & 3u) == 0) {
    return ((net_ld32a(p) ^ net_ld32a(mac)) | (uint32_t)(net_ld16a(p + 4) ^ net_ld16a(mac + 4))) == 0;
  }
  return ((p[0] ^ mac[0]) | (p[1] ^ mac[1]) | (p[2] ^ mac[2]) | (p[3] ^ mac[3]) | (p[4] ^ mac[4]) |
          (p[5] ^ mac[5])) == 0;
}

static inline int net_mac_is_bcast(const uint8_t *p) {
  return (p[0] & p[1] & p[2] & p[3] & p[4] & p[5]) == 0xff;
}

/*--------------------------------------------------------------------------*/
/* SipHash-2-4, written from the description in J.-P. Aumasson, D. J.
 * Bernstein, "SipHash: a fast short-input PRF" (2012): four 64-bit state
 * words initialised from the key and the constants "somepseudorandomly
 * generatedbytes"; each little-endian 8-byte message word m is absorbed by
 * v3 ^= m, two SipRounds, v0 ^= m; the last word holds the remaining bytes
 * and the length mod 256 in its top byte; then v2 ^= 0xff, four SipRounds,
 * and the result is v0 ^ v1 ^ v2 ^ v3. 64-bit additions, xors and
 * rotations only, so the SPARC build needs no libgcc helper. */
#define SIP_ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t sip_le64(const uint8_t *p, unsigned n) {
  uint64_t w = 0;
  while (n-- > 0) {
    w = (w << 8) | p[n];
  }
  return w;
}

static void sip_rounds(uint64_t v[4], unsigned n) {
  while (n-- > 0) {
    v[0] += v[1];
    v[1] = SIP_ROTL(v[1], 13);
    v[1] ^= v[0];
    v[0] = SIP_ROTL(v[0], 32);
    v[2] += v[3];
    v[3] = SIP_ROTL(v[3], 16);
    v[3] ^= v[2];
    v[0] += v[3];
    v[3] = SIP_ROTL(v[3], 21);
    v[3] ^= v[0];
    v[2] += v[1];
    v[1] = SIP_ROTL(v[1], 17);
    v[1] ^= v[2];
    v[2] = SIP_ROTL(v[2], 32);
  }
}

uint64_t net_siphash(const uint8_t key[16], const uint8_t *msg, unsigned len) {
  uint64_t k0 = sip_le64(key, 8), k1 = sip_le64(key + 8, 8), m;
  uint64_t v[4];
  unsigned i = 0;

  v[0] = k0 ^ 0x736f6d6570736575ull;
  v[1] = k1 ^ 0x646f72616e646f6dull;
  v[2] = k0 ^ 0x6c7967656e657261ull;
  v[3] = k1 ^ 0x7465646279746573ull;
  for (;;) {
    unsigned n = len - i < 8 ? len - i : 8;
    m = sip_le64(msg + i, n);
    if (n < 8) {
      m |= (uint64_t)(len & 0xffu) << 56;
    }
    v[3] ^= m;
    sip_rounds(v, 2);
    v[0] ^= m;
    i += n;
    if (n < 8) {
      break;
    }
  }
  v[2] ^= 0xff;
  sip_rounds(v, 4);
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/*--------------------------------------------------------------------------*/
/* Fold 32 bits of entropy (plus the interface's addresses) into the boot
 * secret: the new key is SipHash of the input under the old key, computed
 * twice for the two halves. Whatever the inputs, the secret is a PRF
 * output; its unpredictability is the entropy of the inputs (README.md,
 * "Hardening"). */
void net_add_entropy(uint32_t x) {
  uint8_t m[16];
  uint64_t h;
  unsigned i;

  net_put32(m, x);
  memcpy(m + 4, net_netif->hwaddr, 6);
  net_put32(m + 10, net_netif->ipaddr);
  for (i = 0; i < 2; i++) {
    m[14] = (uint8_t)i;
    m[15] = 0x5a;
    h = net_siphash(net_secret, m, 16);
    net_put32(net_secret + 8 * i, (uint32_t)(h >> 32));
    net_put32(net_secret + 8 * i + 4, (uint32_t)h);
  }
}

/*--------------------------------------------------------------------------*/
/* Entropy pool and rekeying. The port mixes a free-running timer into
 * net_pool at every received frame and timer interrupt (a rotate and an
 * add: net_entropy_mix()); on hardware each reading carries the jitter of
 * the frame's arrival. The pool reaches the secret (net_add_entropy(),
 * the hashing) only here:
 *  - when the first ISN is needed and none was issued under the current
 *    secret (so the first connection's key has every frame before it);
 *  - at the first ISN NET_SECRET_REKEY_MS or more after the last rekey
 *    (or the first ISN), so the secret an attacker could recover from
 *    ISNs of his own connections with a guess of the early timer readings
 *    is replaced, with the entropy of every frame since. Done when an
 *    ISN is needed rather than from the timer: net_timer_tick(), on every
 *    tick's path and early in the tuned code layout, stays as it was.
 * RFC 6528 3 lets the key change (after a time, after a number of ISNs)
 * but a new key moves the ISN space of later incarnations of a 4-tuple.
 * Here a rekey never moves an ISN back: for the period after it, F of a
 * 4-tuple is its old-key hash p plus ((n - p) / period) * elapsed, n its
 * new-key hash, so it walks forward from p to n (the last step, at the
 * next rekey, is (n - p) mod period, forward too). Each 4-tuple's ISN
 * then advances by at most 250 + 2^32 / period per ms, and for a period
 * of at least 2^19 ms, by less than 2^31 in 2 MSL (240 s): a reincarnation
 * within 2 MSL always starts above the old one's ISN (RFC 793's bound for
 * sequence comparisons). Costs a second SipHash per ISN during the period
 * after a rekey, nothing per frame. */
static void net_rekey(void) {
  net_rk.at = net_now;
  net_stats.rekeys++;
  memcpy(net_rk.prev, net_secret, sizeof net_rk.prev);
  net_rk.isn_state = ISN_MOVING;
  net_add_entropy(net_pool);
}

uint32_t net_isn_hash(const uint8_t *id, unsigned len) {
  uint32_t f, p, elapsed;

  if (net_rk.isn_state == ISN_UNUSED) {
    net_add_entropy(net_pool);
    net_rk.isn_state = ISN_USED;
    net_rk.at = net_now;
  } else if (net_now - net_rk.at >= NET_SECRET_REKEY_MS) {
    net_rekey();
  }
  f = (uint32_t)net_siphash(net_secret, id, len);
  elapsed = net_now - net_rk.at;
  if (net_rk.isn_state == ISN_MOVING && elapsed < NET_SECRET_REKEY_MS) {
    p = (uint32_t)net_siphash(net_rk.prev, id, len);
    f = p + (f - p) / NET_SECRET_REKEY_MS * elapsed;
  }
  return f;
}

/* RFC 7739 5.3-style identification: 8 counters, the one used and an
 * offset chosen by a keyed hash of the destination. A peer sees its own
 * bucket's counter from a secret start, not a global count of everything
 * sent (no idle scan), and the work per datagram is a few instructions
 * (the hash is a multiply-xorshift mixer, not SipHash: it hides the
 * traffic to other hosts, it does not protect anything that matters if
 * guessed, since every datagram has DF set and is never reassembled,
 * RFC 6864). */
uint16_t net_ip_id(uint32_t dst) {
  uint32_t h = dst ^ net_get32(net_secret + 12);
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return (uint16_t)((h >> 16) + net_id_ctr[h & 7u]++);
}

/* Out of line: net_init() keeps its size in the tuned code layout. */
static __attribute__((noinline)) void net_entropy_reset(void) {
  memset(&net_rk, 0, sizeof net_rk); /* isn_state ISN_UNUSED */
  net_pool = 0;
}

/*--------------------------------------------------------------------------*/
void net_init(struct netif *nif, uint32_t seed) {
  memset(&net_stats, 0, sizeof net_stats);
  memset(net_secret, 0, sizeof net_secret);
  memset(net_id_ctr, 0, sizeof net_id_ctr);
  net_entropy_reset();
  net_netif = nif;
  net_now = 0;
  net_add_entropy(seed);
  arp_init();
  ip_init();
  udp_init();
  tcp_init(net_get32(net_secret + 4));
}

/*--------------------------------------------------------------------------*/
/*--------------------------------------------------------------------------*/
net_err_t net_link_output(const uint8_t *frame, unsigned len) {
  struct netif *nif = net_netif;
  net_err_t err = nif->low_level_output(nif, frame, len);
  if (err == NET_OK) {
    net_stats.eth.tx++;
  } else {
    net_stats.eth.tx_err++;
    err = NET_ERR_IF;
  }
  return err;
}

uint8_t *net_tx_frame(void) {
  struct netif *nif = net_netif;
  uint8_t *frame = nif->tx_buffer != NULL ? nif->tx_buffer(nif) : NULL;
  return frame != NULL ? frame : net_buf;
}

/*--------------------------------------------------------------------------*/
static inline __attribute__((always_inline)) void net_input_frame(const uint8_t *frame, unsigned len) {
  const uint8_t *p;
  uint16_t type;

  NET_ERROR("net_input: not initialised", net_netif != NULL, return );
  NET_ERROR("net_input: frame == NULL", frame != NULL || len == 0, return );
  net_stats.eth.rx++;
  if (len < NET_ETH_HLEN) {
    net_stats.eth.drop_short++;
    return;
  }
  if (len > NET_BUF_SIZE) {
    net_stats.eth.drop_too_big++;
    return;
  }
#if NET_ZERO_COPY
  p = net_rx_frame = frame;
#else
  if (frame != net_buf) {
    NET_PHASE_ENTER(NET_PH_COPY);
    memcpy(net_buf, frame, len);
    NET_PHASE_LEAVE(NET_PH_COPY);
  }
  p = net_buf;
#endif
  if (!net_mac_is(p, net_netif->hwaddr) && !net_mac_is_bcast(p)) {
    net_stats.eth.drop_not_for_us++;
    return;
  }
  if (p[6] & 1) { /* group bit in the source MAC: no station sends that */
    net_stats.eth.drop_bad_src++;
    return;
  }
  type = ((uintptr_t)p & 1u) == 0 ? net_ld16a(p + 12) : net_get16(p + 12);
  if (type == NET_ETHTYPE_IP) {
    ip_input(p, len);
  } else if (type == NET_ETHTYPE_ARP) {
    arp_input(p, len);
  } else {
    net_stats.eth.drop_type++;
  }
}

void net_input_checked(const uint8_t *frame, unsigned len, unsigned checked) {
  /* Read only below this call (udp_input(), tcp_input()); every frame
   * sets it, and nothing after the call keeps net_input_frame() from
   * being a tail call (a register window per received frame). */
  net_rx_checked = checked;
  net_input_frame(frame, len);
}

/*--------------------------------------------------------------------------*/
void net_timer_tick(uint32_t ms) {
  net_now += ms;
  arp_timer();
  tcp_timer();
}
