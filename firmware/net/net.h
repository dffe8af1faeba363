/*
 * net.h - core of the leon3vp TCP/IP stack: network interface, global
 * packet buffer, statistics, input and timer entry points.
 *
 * Design (see README.md): one global packet buffer, fixed tables, no
 * dynamic allocation, single-threaded. The driver calls net_input() for
 * every received frame and net_timer_tick() with the elapsed time; the
 * stack sends frames through the netif's low_level_output() callback.
 * IPv4 addresses are uint32_t in host order (NET_IP4(192,168,0,2)).
 */
#ifndef NET_NET_H
#define NET_NET_H

#include "net_arch.h"
#include "net_phase.h"

/** Error codes returned by the API. */
typedef int8_t net_err_t;
#define NET_OK 0
#define NET_ERR_ARG -1   /**< invalid argument */
#define NET_ERR_MEM -2   /**< table full */
#define NET_ERR_USE -3   /**< port already bound/listening */
#define NET_ERR_BUF -4   /**< data does not fit in the buffer */
#define NET_ERR_STATE -5 /**< not possible in the current state */
#define NET_ERR_IF -6    /**< low_level_output failed */
#define NET_ERR_ARP -7   /**< next hop unresolved: queued or dropped */
#define NET_ERR_RTE -8   /**< off-link destination and no gateway */

#define NET_IP4(a, b, c, d) \
  (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
#define NET_IP4_BROADCAST 0xffffffffu

#define NET_ETH_HLEN 14
#define NET_IP_HLEN 20
#define NET_UDP_HLEN 8
#define NET_TCP_HLEN 20
#define NET_ETHTYPE_IP 0x0800
#define NET_ETHTYPE_ARP 0x0806
#define NET_IPPROTO_ICMP 1
#define NET_IPPROTO_TCP 6
#define NET_IPPROTO_UDP 17

struct netif;

/** Transmit one complete Ethernet frame (no FCS). The frame lives in the
 *  stack's buffer and may be reused after the call returns. */
typedef net_err_t (*netif_output_fn)(struct netif *nif, const uint8_t *frame, unsigned len);

/** Optional: a buffer of at least NET_BUF_SIZE bytes, 8-aligned, that
 *  low_level_output() sends without copying when the frame is built in it
 *  (the driver's next free transmit buffer), or NULL (none free). It stays
 *  valid until the next low_level_output() call. */
typedef uint8_t *(*netif_tx_buffer_fn)(struct netif *nif);

/** Optional (zero-copy receive): keep the frame net_input() is processing
 *  (`frame`, `len` bytes) after net_input() returns, until rx_unhold().
 *  Returns where its bytes stay valid (the GRETH keeps the DMA buffer
 *  itself and puts a spare one in its receive descriptor) or NULL when
 *  nothing can be held now. TCP holds out-of-order segments this way
 *  (tcp_hold.c). */
typedef const uint8_t *(*netif_rx_hold_fn)(struct netif *nif, const uint8_t *frame, unsigned len);
/** Give a buffer returned by rx_hold back to the driver. */
typedef void (*netif_rx_unhold_fn)(struct netif *nif, const uint8_t *held);

/** The one network interface. */
struct netif {
  uint8_t hwaddr[6];
  uint32_t ipaddr;
  uint32_t netmask;
  uint32_t gw;
  netif_output_fn low_level_output;
  void *state;                  /**< for the driver */
  netif_tx_buffer_fn tx_buffer; /**< NULL: frames are always copied */
  netif_rx_hold_fn rx_hold;     /**< NULL: received frames are never held */
  netif_rx_unhold_fn rx_unhold;
};
/* hwaddr is read as a word and a halfword on the per-frame paths
 * (net_input(), icmp_input()): it must stay 4-aligned. */
typedef char net_netif_hwaddr_aligned[offsetof(struct netif, hwaddr) % 4 == 0 ? 1 : -1];

/** Drop and traffic counters, one field per reason. A frame handed to
 *  net_input() is either processed or counted in exactly one drop_*
 *  counter (tcp.dup, trimmed and urg_ignored count processed segments). */
struct net_stats {
  uint32_t err_arg; /**< failed argument checks */
  struct {
    uint32_t rx, tx;
    uint32_t drop_short;      /**< shorter than an Ethernet header */
    uint32_t drop_too_big;    /**< longer than NET_BUF_SIZE */
    uint32_t drop_not_for_us; /**< destination MAC neither ours nor broadcast */
    uint32_t drop_type;       /**< EtherType not IPv4/ARP */
    uint32_t drop_bad_src;    /**< group (multicast/broadcast) source MAC */
    uint32_t tx_err;          /**< low_level_output failed */
  } eth;
  struct {
    uint32_t rx, req_rx, reply_rx, req_tx, reply_tx;
    uint32_t drop_malformed;   /**< short, wrong hw/proto type or lengths */
    uint32_t drop_op;          /**< unknown operation */
    uint32_t drop_not_for_us;  /**< valid, but neither for us nor cached */
    uint32_t expired;          /**< entries aged out */
    uint32_t evicted;          /**< entries replaced because the table was full */
    uint32_t queued;           /**< packets kept while resolving */
    uint32_t queue_sent;       /**< ... and sent after the reply */
    uint32_t drop_queue_full;  /**< packet dropped: queue slot busy / no queue */
    uint32_t drop_unresolved;  /**< queued packet dropped: no reply */
    uint32_t conflict;         /**< ARP/IP claimed another MAC for a valid entry */
    uint32_t conflict_kept;    /**< ... and the old MAC answered the probe */
    uint32_t conflict_dropped; /**< ... no answer: entry dropped, re-resolved */
    uint32_t learn_fast;       /**< IP frames from the last learned sender, entry
                                    valid and MAC unchanged: only its time set */
    uint32_t timer_scans;      /**< arp_timer() ticks that walked the table (the
                                    others came before the earliest deadline) */
    uint32_t drop_land;        /**< sender address is ours (land-style claim) */
  } arp;
  struct {
    uint32_t rx, tx;
    uint32_t drop_short;      /**< frame shorter than 20-byte header */
    uint32_t drop_version;    /**< version != 4 */
    uint32_t drop_hl;         /**< IHL < 5 or header beyond total length/frame */
    uint32_t drop_len;        /**< total length above the frame or below IHL */
    uint32_t drop_chksum;     /**< bad header checksum */
    uint32_t drop_frag;       /**< fragments (MF set or offset != 0) */
    uint32_t drop_not_for_us; /**< destination not our address/broadcast */
    uint32_t drop_src;        /**< source 0, 127/8, broadcast, multicast, class E */
    uint32_t drop_land;       /**< source is our own address (land attack) */
    uint32_t drop_proto;      /**< protocol not ICMP/UDP/TCP */
    uint32_t opts_skipped;    /**< datagrams with options (delivered) */
    uint32_t drop_too_big;    /**< output larger than the buffer */
    uint32_t drop_no_route;   /**< output off-link without a gateway */
  } ip;
  struct {
    uint32_t rx, tx, echo_rx;
    uint32_t drop_short;
    uint32_t drop_chksum;
    uint32_t drop_type;     /**< not an echo request */
    uint32_t drop_bcast;    /**< echo request to a broadcast address */
    uint32_t echo_in_place; /**< replies of them (tx) written as words in
                                 the request's frame (icmp_input()) */
  } icmp;
  struct {
    uint32_t rx, tx;
    uint32_t drop_short;
    uint32_t drop_len; /**< UDP length field inconsistent */
    uint32_t drop_chksum;
    uint32_t drop_no_port; /**< no endpoint bound */
    uint32_t chk_hw;       /**< checksum confirmed by the MAC (NET_RXCK_UDP), not summed */
  } udp;
  struct {
    uint32_t rx, tx;
    uint32_t drop_short;
    uint32_t drop_chksum;
    uint32_t drop_offset;  /**< data offset < 5 or beyond the segment */
    uint32_t drop_opt;     /**< option length 0/1 or overrunning */
    uint32_t drop_no_conn; /**< no connection/listener (RST sent unless RST) */
    uint32_t drop_no_slot; /**< SYN for a listener, table full */
    uint32_t drop_bad_ack; /**< unacceptable ACK (RST or ACK sent) */
    uint32_t drop_seq;     /**< outside the receive window (ACK sent) */
    uint32_t drop_ooo;     /**< data after a gap: not held (no buffer), dup ACK sent */
    uint32_t drop_no_ack;  /**< no ACK flag on a synchronised connection */
    uint32_t drop_state;   /**< nothing to do with it in this state */
    uint32_t drop_bcast;   /**< to a broadcast address */
    uint32_t dup;          /**< complete duplicates (re-acknowledged) */
    uint32_t trimmed;      /**< segments cut to the receive window */
    uint32_t urg_ignored;  /**< URG set: pointer ignored, data in line */
    uint32_t rst_rx, rst_tx;
    uint32_t rexmit;            /**< retransmissions */
    uint32_t timeouts;          /**< connections aborted after the retry limit */
    uint32_t tw_recycled;       /**< TIME-WAIT slots reused for a new SYN */
    uint32_t dupacks;           /**< duplicate ACKs received (send side) */
    uint32_t fast_rexmit;       /**< fast retransmits (3 duplicate ACKs) */
    uint32_t persist_probes;    /**< zero-window probes sent */
    uint32_t syn_evicted;       /**< half-open slots reused for a new SYN */
    uint32_t syn_expired;       /**< half-open connections past NET_TCP_SYN_RCVD_MS */
    uint32_t drop_challenge;    /**< RST/SYN answered by a challenge ACK (RFC 5961) */
    uint32_t challenge_limited; /**< ... of which no ACK sent (rate limit) */
    uint32_t ooo_held;          /**< out-of-order segments held (rx_hold), dup ACK sent */
    uint32_t ooo_delivered;     /**< ... delivered in order once the gap was filled */
    uint32_t ooo_dup;           /**< out-of-order data already held (trimmed or dropped) */
    uint32_t app_held;          /**< received data kept by the application (tcp_recv_hold) */
    uint32_t app_hold_fail;     /**< tcp_recv_hold refused (no entry, no spare buffer, copy build) */
    uint32_t chk_hw;            /**< checksum confirmed by the MAC (NET_RXCK_TCP), not summed */
    uint32_t loss_probes;       /**< loss probes sent (NET_TCP_LOSS_PROBE; also in rexmit) */
    /* slot policy (tcp_slots.c) */
    uint32_t idle_timeouts;    /**< passive connections reset after the idle timeout */
    uint32_t idle_evicted;     /**< idle connections reset to make room for a new peer */
    uint32_t drop_listen_full; /**< new peers refused: listener at its limit, none idle enough */
    uint32_t ka_probes;        /**< keep-alive probes sent */
    uint32_t ka_dropped;       /**< connections reset after unanswered keep-alive probes */
  } tcp;
  uint32_t rekeys; /**< secret rekeyed from the entropy pool (net.c) */
};

extern struct net_stats net_stats;

/** The global packet buffer (transmit, and receive when NET_ZERO_COPY=0),
 *  aligned to 16 bytes (a D-cache line). */
extern uint8_t net_buf[NET_BUF_SIZE];

/** Zero-copy builds: the frame net_input() processes (valid during the call). */
extern const uint8_t *net_rx_frame;

/** Current stack time in ms (advanced only by net_timer_tick()). */
extern uint32_t net_now;

/** The interface given to net_init(). */
extern struct netif *net_netif;

/** The secret (128-bit SipHash key) behind initial sequence numbers,
 *  IP identification and ephemeral ports; set by net_init(), rekeyed
 *  from the entropy pool (net_entropy_mix()) before the first ISN and
 *  at the first ISN every NET_SECRET_REKEY_MS. */
extern uint8_t net_secret[16];

/** The entropy pool: the port mixes a timer reading into it at every
 *  received frame and timer interrupt (net_entropy_mix()); the stack
 *  folds it into net_secret when it rekeys. */
extern uint32_t net_pool;

/**
 * Mix 32 bits (a free-running timer read when a frame arrived or an
 * interrupt woke the CPU: its jitter is the entropy) into the pool. A
 * rotate and an add, so cheap enough for every frame; the hashing is done
 * only when the secret is rekeyed.
 */
static inline void net_entropy_mix(uint32_t x) {
  uint32_t p = net_pool;
  net_pool = ((p << 7) | (p >> 25)) + x;
}

/**
 * Reset every table and counter and attach the interface.
 * @param nif  interface with hwaddr, addresses and low_level_output set
 * @param seed entropy for the boot secret (net_secret): mixed with the MAC
 *             and IP address of `nif`, so boards differ even with the same
 *             seed; the port passes timer jitter and a parameter
 */
void net_init(struct netif *nif, uint32_t seed);

/**
 * Fold 32 more bits of entropy (e.g. a timer read whose value depends on
 * when the link came up) into the secret at once (SipHash, twice). For
 * start-up: a change of the secret after the first ISN moves the ISNs of
 * every 4-tuple; net_entropy_mix() is the way to add entropy later.
 */
void net_add_entropy(uint32_t x);

/** Checksums a MAC with receive checksum offload confirmed for a frame
 *  (net_input_checked()): a driver passes them only for an unfragmented
 *  IPv4 datagram whose header and UDP or TCP checksum the MAC found right.
 *  The stack then does not sum that datagram itself (udp.chk_hw,
 *  tcp.chk_hw); everything else it still checks. */
#define NET_RXCK_UDP 1u /**< the UDP checksum is right (or none was sent) */
#define NET_RXCK_TCP 2u /**< the TCP checksum is right */

/** The NET_RXCK_* of the frame being processed: set by every
 *  net_input_checked() and net_input() (0), read only during the call. */
extern unsigned net_rx_checked;

/**
 * Process one received Ethernet frame (without FCS). With NET_ZERO_COPY=1
 * the frame is read in place and never written; the caller may reuse it
 * when the call returns. With NET_ZERO_COPY=0 it is copied into net_buf
 * first (frame may then be net_buf itself). `checked`: NET_RXCK_* the
 * MAC confirmed, 0 for none.
 */
void net_input_checked(const uint8_t *frame, unsigned len, unsigned checked);

/** net_input_checked() with nothing confirmed. */
static inline void net_input(const uint8_t *frame, unsigned len) { net_input_checked(frame, len, 0); }

/**
 * Advance time by ms milliseconds and run all timers: ARP ageing and
 * request retries, TCP retransmission, delayed ACK, TIME-WAIT, polls.
 */
void net_timer_tick(uint32_t ms);

/* Internal: send the frame of `len` bytes in net_buf (Ethernet header
 * included). Counts eth.tx / eth.tx_err. */
net_err_t net_link_output(const uint8_t *frame, unsigned len);

/* Internal: where to build a frame for the bulk send path: the driver's
 * transmit buffer (netif tx_buffer) if it hands one out, else net_buf. */
uint8_t *net_tx_frame(void);

/* Is `ip` an address we accept as destination? 1 unicast, 2 broadcast.
 * Inline: every received datagram asks it twice (ip_input()). */
static inline int net_ip_is_ours(uint32_t ip) {
  const struct netif *nif = net_netif;
  if (ip == nif->ipaddr && ip != 0) {
    return 1;
  }
  if (ip == NET_IP4_BROADCAST ||
      (((ip ^ nif->ipaddr) & nif->netmask) == 0 && (ip | nif->netmask) == NET_IP4_BROADCAST)) {
    return 2;
  }
  return 0;
}

/** SipHash-2-4 (Aumasson & Bernstein 2012) of `len` bytes under a 128-bit
 *  key: the keyed PRF of the ISNs (RFC 6528). */
uint64_t net_siphash(const uint8_t key[16], const uint8_t *msg, unsigned len);

/* Internal: the IP identification of the next datagram to `dst`. */
uint16_t net_ip_id(uint32_t dst);

/* Internal: F of RFC 6528 for a connection identifier of `len` bytes: the
 * keyed hash under the current secret, or during the period after a
 * rekey a value moving from the old key's hash to the new one's
 * (net.c). Folds the pool into the secret first if no ISN was issued
 * under it yet. */
uint32_t net_isn_hash(const uint8_t *id, unsigned len);

#include "arp.h"
#include "ip.h"
#include "udp.h"
#include "tcp.h"

/* arp_learn_ip()'s fast path, inline in ip_input(): the sender learned
 * last (arp_last), still valid, same MAC. All that arp_update() would
 * change is the time (a later expiry: the timer's next wake stays), so
 * set just that. The checks of arp_learn_ip_slow() passed for this
 * address and MAC when the entry was learned, and arp_last is only ever
 * an on-link entry: a reply to `ip` goes to `mac` (returns 1). */
static inline int arp_learn_ip(uint32_t ip, const uint8_t *mac) {
#if NET_ARP_LEARN_FROM_IP
  struct arp_entry *e = arp_last;
  if (e != NULL && e->state == ARP_STATE_VALID && e->ip == ip && arp_mac_eq(e->mac, mac)) {
    e->time = net_now;
    net_stats.arp.learn_fast++;
    return 1;
  }
#endif
  return arp_learn_ip_slow(ip, mac);
}

#endif /* NET_NET_H */
