/*
 * arp.c - Ethernet ARP (RFC 826).
 *
 * Table: NET_ARP_TABLE_SIZE entries, each FREE, PENDING (request sent) or
 * VALID. Valid entries expire NET_ARP_MAXAGE_MS after their last refresh;
 * pending ones are re-requested every NET_ARP_REQUEST_MS and given up after
 * NET_ARP_MAX_TRIES requests. While an address is being resolved, one
 * outgoing packet is kept in a queue buffer (NET_ARP_QUEUE) and sent when
 * the reply arrives; further packets to unresolved hosts are dropped and
 * counted (their senders retransmit).
 *
 * Conflicts (README.md "ARP"): an ARP packet or IPv4 frame that claims a
 * different MAC for an address with a valid entry does not replace it. The
 * entry goes to PROBE (still used), a unicast request asks the old MAC;
 * its answer makes the entry VALID again, silence for NET_ARP_REQUEST_MS
 * frees it, and the next packet to the address resolves it afresh by
 * broadcast.
 */
#include "net.h"

#define ARP_HLEN 28
#define ARP_OP_REQUEST 1
#define ARP_OP_REPLY 2

struct arp_entry arp_table[NET_ARP_TABLE_SIZE];

#if NET_ARP_QUEUE
static uint8_t arp_qbuf[NET_BUF_SIZE] __attribute__((aligned(4)));
static unsigned arp_qlen; /* 0: queue empty */
static uint32_t arp_qhop; /* next hop the queued packet waits for */
#endif

/* No entry needs arp_timer() before this time (its deadlines: expiry of a
 * valid entry, retry of a pending one, probe of a conflicting one): the
 * ticks before it return at once instead of walking the table. Lowered by
 * arp_wake() wherever an entry gets an earlier deadline; a deadline that
 * moves later (a refresh) leaves it, and the scan at the old time finds
 * nothing due and computes the next one. */
static uint32_t arp_next;
/* The entry the last IP frame's sender was learned into: the next frame
 * is almost always from the same host (arp_learn_ip's fast path). */
struct arp_entry *arp_last;

static const uint8_t arp_bcast_mac[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
static const uint8_t arp_zero_mac[6] = {0};

/* Copy a MAC address on the per-frame paths (learning from every IP frame,
 * addressing every IP frame sent): inline, three halfwords when both ends
 * are 2-aligned (frames and table entries are), else six bytes. A memcpy()
 * call cost about 40 instructions per address. */
static inline void arp_mac_copy(uint8_t *d, const uint8_t *s) {
  if ((((uintptr_t)d | (uintptr_t)s) & 1u) == 0) {
    arp_u16_alias *dw = (arp_u16_alias *)(void *)d;
    const arp_u16_alias *sw = (const arp_u16_alias *)(const void *)s;
    dw[0] = sw[0];
    dw[1] = sw[1];
    dw[2] = sw[2];
  } else {
    d[0] = s[0];
    d[1] = s[1];
    d[2] = s[2];
    d[3] = s[3];
    d[4] = s[4];
    d[5] = s[5];
  }
}

/* An entry needs arp_timer() at time t (or later). */
static inline void arp_wake(uint32_t t) {
  if ((int32_t)(t - arp_next) < 0) {
    arp_next = t;
  }
}

/*--------------------------------------------------------------------------*/
void arp_init(void) {
  memset(arp_table, 0, sizeof arp_table);
  arp_next = net_now;
  arp_last = NULL;
#if NET_ARP_QUEUE
  arp_qlen = 0;
  arp_qhop = 0;
#endif
}

/*--------------------------------------------------------------------------*/
static struct arp_entry *arp_find(uint32_t ip) {
  unsigned i;
  for (i = 0; i < NET_ARP_TABLE_SIZE; i++) {
    if (arp_table[i].state != ARP_STATE_FREE && arp_table[i].ip == ip) {
      return &arp_table[i];
    }
  }
  return NULL;
}

/* A free entry, else the oldest valid one, else the oldest pending one.
 * Not per frame: noinline keeps it out of arp_learn_ip()'s hot lines. */
static __attribute__((noinline)) struct arp_entry *arp_alloc(void) {
  struct arp_entry *oldest = NULL;
  unsigned i;
  for (i = 0; i < NET_ARP_TABLE_SIZE; i++) {
    struct arp_entry *e = &arp_table[i];
    if (e->state == ARP_STATE_FREE) {
      return e;
    }
    if (oldest == NULL || (e->state == ARP_STATE_VALID && oldest->state != ARP_STATE_VALID) ||
        (e->state == oldest->state && (int32_t)(net_now - e->time) > (int32_t)(net_now - oldest->time))) {
      oldest = e;
    }
  }
  net_stats.arp.evicted++;
#if NET_ARP_QUEUE
  if (arp_qlen && oldest->state == ARP_STATE_PENDING && oldest->ip == arp_qhop) {
    arp_qlen = 0;
    net_stats.arp.drop_unresolved++;
  }
#endif
  return oldest;
}

/*--------------------------------------------------------------------------*/
const uint8_t *arp_lookup(uint32_t ip) {
  struct arp_entry *e = arp_find(ip);
  return (e != NULL && e->state >= ARP_STATE_VALID) ? e->mac : NULL;
}

/*--------------------------------------------------------------------------*/
/* Build an ARP packet in net_buf and send it. */
static void arp_send(uint16_t op, const uint8_t *eth_dst, const uint8_t *tha, uint32_t tpa) {
  struct netif *nif = net_netif;
  uint8_t *p = net_buf;

  memcpy(p, eth_dst, 6);
  memcpy(p + 6, nif->hwaddr, 6);
  net_put16(p + 12, NET_ETHTYPE_ARP);
  p += NET_ETH_HLEN;
  net_put16(p, 1); /* hardware: Ethernet */
  net_put16(p + 2, NET_ETHTYPE_IP);
  p[4] = 6;
  p[5] = 4;
  net_put16(p + 6, op);
  memcpy(p + 8, nif->hwaddr, 6);
  net_put32(p + 14, nif->ipaddr);
  memcpy(p + 18, tha, 6);
  net_put32(p + 24, tpa);
  /* 42 bytes; pad to the 60-byte Ethernet minimum (the MAC may not). */
  memset(net_buf + NET_ETH_HLEN + ARP_HLEN, 0, 60 - NET_ETH_HLEN - ARP_HLEN);
  if (op == ARP_OP_REQUEST) {
    net_stats.arp.req_tx++;
  } else {
    net_stats.arp.reply_tx++;
  }
  net_link_output(net_buf, 60);
}

static void arp_request(uint32_t ip) { arp_send(ARP_OP_REQUEST, arp_bcast_mac, arp_zero_mac, ip); }

/*--------------------------------------------------------------------------*/
/* An entry for `ip` became valid: send the packet waiting for it. */
static void arp_flush_queue(uint32_t ip, const uint8_t *mac) {
#if NET_ARP_QUEUE
  if (arp_qlen && arp_qhop == ip) {
    unsigned len = arp_qlen;
    arp_qlen = 0;
    memcpy(arp_qbuf, mac, 6);
    net_stats.arp.queue_sent++;
    net_link_output(arp_qbuf, len);
  }
#else
  (void)ip;
  (void)mac;
#endif
}

static __attribute__((noinline)) void arp_update(struct arp_entry *e, uint32_t ip, const uint8_t *mac) {
  if (e->state >= ARP_STATE_VALID && e->ip == ip && memcmp(e->mac, mac, 6) != 0) {
    /* Someone claims another MAC for an address in use: keep the entry,
     * ask the old MAC once (a unicast request at the next tick; the old
     * owner answers, which refreshes the entry below) and let arp_timer
     * drop it if it stays silent. */
    net_stats.arp.conflict++;
    if (e->state == ARP_STATE_VALID) {
      e->state = ARP_STATE_PROBE;
      e->tries = 0; /* arp_timer sends the probe: net_buf may hold the
                       frame being processed (learning from IP) */
      e->time = net_now;
      arp_wake(net_now);
    }
    return;
  }
  if (e->state == ARP_STATE_PROBE) {
    net_stats.arp.conflict_kept++;
  }
  e->ip = ip;
  arp_mac_copy(e->mac, mac);
  e->state = ARP_STATE_VALID;
  e->tries = 0;
  e->time = net_now;
  arp_wake(net_now + NET_ARP_MAXAGE_MS);
  arp_flush_queue(ip, mac);
}

/*--------------------------------------------------------------------------*/
int arp_learn_ip_slow(uint32_t ip, const uint8_t *mac) {
#if NET_ARP_LEARN_FROM_IP
  struct netif *nif = net_netif;
  struct arp_entry *e;
  uint8_t m[6];

  if (((ip ^ nif->ipaddr) & nif->netmask) != 0 || ip == 0 || (ip | nif->netmask) == NET_IP4_BROADCAST ||
      (mac[0] & 1)) {
    return 0; /* off-link, unspecified, subnet broadcast or group MAC */
  }
  arp_mac_copy(m, mac); /* mac may point into net_buf (flushing the queue
                        does not touch net_buf, but be safe) */
  e = arp_find(ip);
  if (e == NULL) {
    e = arp_alloc();
  }
  arp_update(e, ip, m);
  arp_last = e;
  /* arp_update() keeps an entry in use that another MAC claims */
  return e->state == ARP_STATE_VALID && arp_mac_eq(e->mac, m);
#else
  (void)ip;
  (void)mac;
  return 0;
#endif
}

/*--------------------------------------------------------------------------*/
void arp_input(const uint8_t *frame, unsigned len) {
  struct netif *nif = net_netif;
  const uint8_t *a = frame + NET_ETH_HLEN;
  uint8_t sha[6];
  uint32_t spa, tpa;
  uint16_t op;
  struct arp_entry *e;
  int for_us;

  net_stats.arp.rx++;
  if (len < NET_ETH_HLEN + ARP_HLEN || net_get16(a) != 1 || net_get16(a + 2) != NET_ETHTYPE_IP || a[4] != 6 ||
      a[5] != 4) {
    net_stats.arp.drop_malformed++;
    return;
  }
  op = net_get16(a + 6);
  if (op != ARP_OP_REQUEST && op != ARP_OP_REPLY) {
    net_stats.arp.drop_op++;
    return;
  }
  /* Parse everything first: in copy mode `frame` is net_buf, which the
   * reply below overwrites. */
  memcpy(sha, a + 8, 6);
  spa = net_get32(a + 14);
  tpa = net_get32(a + 24);
  for_us = nif->ipaddr != 0 && tpa == nif->ipaddr;
  if (op == ARP_OP_REQUEST) {
    net_stats.arp.req_rx++;
  } else {
    net_stats.arp.reply_rx++;
  }
  if (sha[0] & 1) { /* group address as sender: bogus */
    net_stats.arp.drop_malformed++;
    return;
  }
  if (spa != 0 && spa == nif->ipaddr) {
    /* Someone claims our address (land-style, or a host configured with
     * it): never answered, never learnt (it would make an entry for our
     * own address), as ip_input() drops IPv4 from our own address. */
    net_stats.arp.drop_land++;
    return;
  }

  /* RFC 826 merge: refresh a known sender; add it if we are the target. */
  e = (spa != 0) ? arp_find(spa) : NULL;
  if (e != NULL) {
    arp_update(e, spa, sha);
  } else if (for_us && spa != 0) {
    arp_update(arp_alloc(), spa, sha);
  } else if (!for_us) {
    net_stats.arp.drop_not_for_us++;
    return;
  }
  if (op == ARP_OP_REQUEST && for_us) {
    arp_send(ARP_OP_REPLY, sha, sha, spa);
  }
}

/*--------------------------------------------------------------------------*/
net_err_t arp_output_ip(uint32_t dst, unsigned len) { return arp_output_ip_frame(net_buf, dst, len); }

net_err_t arp_output_ip_frame(uint8_t *frame, uint32_t dst, unsigned len) {
  struct netif *nif = net_netif;
  uint32_t hop;
  const uint8_t *mac;
  struct arp_entry *e;

  len += NET_ETH_HLEN;
  arp_mac_copy(frame + 6, nif->hwaddr);
  net_put16(frame + 12, NET_ETHTYPE_IP);

  if (dst == NET_IP4_BROADCAST ||
      (((dst ^ nif->ipaddr) & nif->netmask) == 0 && (dst | nif->netmask) == NET_IP4_BROADCAST)) {
    arp_mac_copy(frame, arp_bcast_mac);
    return net_link_output(frame, len);
  }
  hop = (((dst ^ nif->ipaddr) & nif->netmask) == 0) ? dst : nif->gw;
  if (((hop ^ nif->ipaddr) & nif->netmask) != 0) {
    /* Off-link without an on-link gateway (or to 0.0.0.0): never ARP for
     * 0.0.0.0 or for the off-link address itself. */
    net_stats.ip.drop_no_route++;
    return NET_ERR_RTE;
  }
  mac = arp_lookup(hop);
  if (mac != NULL) {
    arp_mac_copy(frame, mac);
    return net_link_output(frame, len);
  }

  /* Unresolved: keep the packet if the queue is free, then request. */
#if NET_ARP_QUEUE
  if (arp_qlen == 0 || arp_qhop == hop) {
    memcpy(arp_qbuf, frame, len);
    arp_qlen = len;
    arp_qhop = hop;
    net_stats.arp.queued++;
  } else {
    net_stats.arp.drop_queue_full++;
  }
#else
  net_stats.arp.drop_queue_full++;
#endif
  e = arp_find(hop);
  if (e == NULL) {
    e = arp_alloc();
    e->ip = hop;
    e->state = ARP_STATE_PENDING;
    e->tries = 1;
    e->time = net_now;
    arp_wake(net_now + NET_ARP_REQUEST_MS);
    arp_request(hop);
  }
  return NET_ERR_ARP;
}

/*--------------------------------------------------------------------------*/
/* The walk over the table: a function of its own (noinline), placed
 * with the cold code by leon3.ld, so that a tick runs only the few lines
 * of arp_timer() below. */
static __attribute__((noinline)) void arp_timer_scan(void) {
  uint32_t next = net_now + 0x40000000u; /* nothing due: look again in 12 days */
  unsigned i;

  net_stats.arp.timer_scans++;
  for (i = 0; i < NET_ARP_TABLE_SIZE; i++) {
    struct arp_entry *e = &arp_table[i];
    uint32_t age = net_now - e->time;
    if (e->state == ARP_STATE_VALID && age >= NET_ARP_MAXAGE_MS) {
      e->state = ARP_STATE_FREE;
      net_stats.arp.expired++;
    } else if (e->state == ARP_STATE_PROBE && e->tries == 0) {
      e->tries = 1;
      e->time = net_now;
      arp_send(ARP_OP_REQUEST, e->mac, arp_zero_mac, e->ip);
    } else if (e->state == ARP_STATE_PROBE && age >= NET_ARP_REQUEST_MS) {
      e->state = ARP_STATE_FREE; /* the old MAC is gone: resolve afresh */
      net_stats.arp.conflict_dropped++;
    } else if (e->state == ARP_STATE_PENDING && age >= NET_ARP_REQUEST_MS) {
      if (e->tries >= NET_ARP_MAX_TRIES) {
        e->state = ARP_STATE_FREE;
#if NET_ARP_QUEUE
        if (arp_qlen && arp_qhop == e->ip) {
          arp_qlen = 0;
          net_stats.arp.drop_unresolved++;
        }
#endif
      } else {
        e->tries++;
        e->time = net_now;
        arp_request(e->ip);
      }
    }
    /* This entry's next deadline (after what was done above). */
    if (e->state == ARP_STATE_VALID) {
      age = e->time + NET_ARP_MAXAGE_MS;
    } else if (e->state == ARP_STATE_PROBE && e->tries == 0) {
      age = net_now;
    } else if (e->state != ARP_STATE_FREE) {
      age = e->time + NET_ARP_REQUEST_MS;
    } else {
      continue;
    }
    if ((int32_t)(age - next) < 0) {
      next = age;
    }
  }
  arp_next = next;
}

void arp_timer(void) {
  /* With nothing due before arp_next, the table is not walked: every tick
   * otherwise cost about 350 instructions and ten I-cache lines. */
  if ((int32_t)(net_now - arp_next) >= 0) {
    arp_timer_scan();
  }
}
