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
struct netif *net_netif;

/* Destination MAC checks of net_input(), inline: a memcmp() call per
 * frame (two for a broadcast) cost more than the six byte compares. */
static inline int net_mac_is(const uint8_t *p, const uint8_t *mac)
{
  return ((p[0] ^ mac[0]) | (p[1] ^ mac[1]) | (p[2] ^ mac[2]) |
          (p[3] ^ mac[3]) | (p[4] ^ mac[4]) | (p[5] ^ mac[5])) == 0;
}

static inline int net_mac_is_bcast(const uint8_t *p)
{
  return (p[0] & p[1] & p[2] & p[3] & p[4] & p[5]) == 0xff;
}

/*--------------------------------------------------------------------------*/
void net_init(struct netif *nif, uint32_t seed)
{
  memset(&net_stats, 0, sizeof net_stats);
  net_netif = nif;
  net_now = 0;
  arp_init();
  ip_init();
  udp_init();
  tcp_init(seed);
}

/*--------------------------------------------------------------------------*/
int net_ip_is_ours(uint32_t ip)
{
  const struct netif *nif = net_netif;
  if (ip == nif->ipaddr && ip != 0) {
    return 1;
  }
  if (ip == NET_IP4_BROADCAST ||
      (((ip ^ nif->ipaddr) & nif->netmask) == 0 &&
       (ip | nif->netmask) == NET_IP4_BROADCAST)) {
    return 2;
  }
  return 0;
}

/*--------------------------------------------------------------------------*/
net_err_t net_link_output(const uint8_t *frame, unsigned len)
{
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

/*--------------------------------------------------------------------------*/
void net_input(const uint8_t *frame, unsigned len)
{
  const uint8_t *p;
  uint16_t type;

  NET_ERROR("net_input: not initialised", net_netif != NULL, return);
  NET_ERROR("net_input: frame == NULL", frame != NULL || len == 0, return);
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
  p = frame;
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
  type = net_get16(p + 12);
  if (type == NET_ETHTYPE_IP) {
    ip_input(p, len);
  } else if (type == NET_ETHTYPE_ARP) {
    arp_input(p, len);
  } else {
    net_stats.eth.drop_type++;
  }
}

/*--------------------------------------------------------------------------*/
void net_timer_tick(uint32_t ms)
{
  net_now += ms;
  arp_timer();
  tcp_timer();
}
