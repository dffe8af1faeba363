/*
 * arp.h - Ethernet address resolution (RFC 826) with ageing (RFC 1122
 * 2.3.2) and one queued packet per resolution in progress.
 */
#ifndef NET_ARP_H
#define NET_ARP_H

#include "net_arch.h"

#define ARP_STATE_FREE 0
#define ARP_STATE_PENDING 1 /**< request sent, no reply yet */
#define ARP_STATE_VALID 2
#define ARP_STATE_PROBE                              \
  3 /**< valid, but another MAC was claimed: the old \
         one is asked (unicast request) and kept     \
         until NET_ARP_REQUEST_MS pass unanswered */

struct arp_entry {
  uint32_t ip;
  uint8_t mac[6];
  uint8_t state;
  uint8_t tries; /**< requests sent (PENDING) */
  uint32_t time; /**< last refresh (VALID) or last request (PENDING) */
};

extern struct arp_entry arp_table[NET_ARP_TABLE_SIZE];

/** Empty the table and the queue. */
void arp_init(void);

/** Handle a received ARP frame (Ethernet header included). */
void arp_input(const uint8_t *frame, unsigned len);

/** Refresh/insert an entry from the source of a received IPv4 frame:
 *  arp_learn_ip() (net.h, inline: the fast path for the sender learned
 *  last) calls this for everything else.
 *  @return 1 when `ip` is on-link and its valid entry holds `mac` (a reply
 *  to `ip` would go to `mac`: the echo reply's fast path, icmp_input()),
 *  0 when that is not known (the reply then takes arp_output_ip_frame()). */
int arp_learn_ip_slow(uint32_t ip, const uint8_t *mac);

/** The entry arp_learn_ip_slow() learned or refreshed last (NULL: none). */
extern struct arp_entry *arp_last;

/** MAC compare for arp_learn_ip()'s fast path: three halfwords. An odd
 *  address (never on the stack's paths) counts as different and takes the
 *  slow path, which compares bytewise. */
typedef uint16_t arp_u16_alias __attribute__((may_alias));
static inline int arp_mac_eq(const uint8_t *a, const uint8_t *b) {
  const arp_u16_alias *aw = (const arp_u16_alias *)(const void *)a;
  const arp_u16_alias *bw = (const arp_u16_alias *)(const void *)b;

  if ((((uintptr_t)a | (uintptr_t)b) & 1u) != 0) {
    return 0;
  }
  return ((aw[0] ^ bw[0]) | (aw[1] ^ bw[1]) | (aw[2] ^ bw[2])) == 0;
}

/**
 * Send the IPv4 datagram of `len` bytes at net_buf + NET_ETH_HLEN to `dst`:
 * picks the next hop (dst on the local subnet, else the gateway), fills in
 * the Ethernet header and sends it, or queues it and sends an ARP request.
 * @return NET_OK if sent, NET_ERR_ARP if queued or dropped for lack of an
 *         address (counted), NET_ERR_RTE if dst is off-link and there is
 *         no gateway (ip.drop_no_route), NET_ERR_IF if the driver failed
 */
net_err_t arp_output_ip(uint32_t dst, unsigned len);
/** arp_output_ip() of a datagram in `frame` instead of net_buf. */
net_err_t arp_output_ip_frame(uint8_t *frame, uint32_t dst, unsigned len);

/** Look up a valid (or probing) entry. @return pointer to the MAC or NULL */
const uint8_t *arp_lookup(uint32_t ip);

/** Periodic work: ageing and request retries (called by net_timer_tick). */
void arp_timer(void);

#endif /* NET_ARP_H */
