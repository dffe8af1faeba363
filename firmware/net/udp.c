/*
 * udp.c - UDP (RFC 768, RFC 1122 4.1).
 *
 * Received checksums are verified unless the field is 0 (none sent) or
 * the MAC confirmed them (NET_RXCK_UDP, receive checksum offload); sent
 * datagrams carry a checksum (0 is sent as 0xffff) unless
 * NET_UDP_CHECKSUM_TX is 0. A UDP length above the IP payload or below 8
 * is dropped; a shorter one ends the datagram (the rest is ignored).
 * Datagrams to unbound ports are dropped and counted (no ICMP port
 * unreachable is sent).
 */
#include "net.h"
#include "net_chksum.h"

static struct udp_ep udp_eps[NET_UDP_ENDPOINTS];

void udp_init(void) { memset(udp_eps, 0, sizeof udp_eps); }

/*--------------------------------------------------------------------------*/
struct udp_ep *udp_bind(uint16_t lport, udp_recv_fn recv, void *arg, net_err_t *err) {
  struct udp_ep *free_ep = NULL;
  unsigned i;

  if (err != NULL) {
    *err = NET_ERR_ARG;
  }
  NET_ERROR("udp_bind: port 0", lport != 0, return NULL);
  NET_ERROR("udp_bind: recv == NULL", recv != NULL, return NULL);
  for (i = 0; i < NET_UDP_ENDPOINTS; i++) {
    if (udp_eps[i].lport == lport) {
      if (err != NULL) {
        *err = NET_ERR_USE;
      }
      return NULL;
    }
    if (udp_eps[i].lport == 0 && free_ep == NULL) {
      free_ep = &udp_eps[i];
    }
  }
  if (free_ep == NULL) {
    if (err != NULL) {
      *err = NET_ERR_MEM;
    }
    return NULL;
  }
  free_ep->lport = lport;
  free_ep->recv = recv;
  free_ep->arg = arg;
  if (err != NULL) {
    *err = NET_OK;
  }
  return free_ep;
}

void udp_unbind(struct udp_ep *ep) {
  NET_ERROR("udp_unbind: ep == NULL", ep != NULL, return );
  ep->lport = 0;
}

/*--------------------------------------------------------------------------*/
void udp_input(uint32_t src, uint32_t dst, int dst_kind, const uint8_t *seg, unsigned len) {
  unsigned ulen, i;
  uint16_t dport, sum;

  (void)dst_kind;
  net_stats.udp.rx++;
  if (len < NET_UDP_HLEN) {
    net_stats.udp.drop_short++;
    return;
  }
  ulen = net_get16(seg + 4);
  if (ulen < NET_UDP_HLEN || ulen > len) {
    net_stats.udp.drop_len++;
    return;
  }
  if (net_rx_checked & NET_RXCK_UDP) {
    net_stats.udp.chk_hw++;
  } else if (net_get16(seg + 6) != 0) {
    NET_PHASE_ENTER(NET_PH_L4CHK);
    sum = net_chksum_pseudo(src, dst, NET_IPPROTO_UDP, seg, ulen);
    NET_PHASE_LEAVE(NET_PH_L4CHK);
    if (sum != 0xffff) {
      net_stats.udp.drop_chksum++;
      return;
    }
  }
  dport = net_get16(seg + 2);
  for (i = 0; i < NET_UDP_ENDPOINTS; i++) {
    if (udp_eps[i].lport == dport && dport != 0) {
      NET_PHASE_ENTER(NET_PH_APP);
      udp_eps[i].recv(&udp_eps[i], src, net_get16(seg), seg + NET_UDP_HLEN, ulen - NET_UDP_HLEN);
      NET_PHASE_LEAVE(NET_PH_APP);
      return;
    }
  }
  net_stats.udp.drop_no_port++;
}

/*--------------------------------------------------------------------------*/
net_err_t udp_sendto(struct udp_ep *ep, uint32_t dst, uint16_t dport, const void *data, unsigned len) {
  uint8_t *u = NET_IP_PAYLOAD;
  unsigned ulen = len + NET_UDP_HLEN;
  net_err_t err;

  NET_ERROR("udp_sendto: bad endpoint", ep != NULL && ep->lport != 0, return NET_ERR_ARG);
  NET_ERROR("udp_sendto: port 0", dport != 0, return NET_ERR_ARG);
  NET_ERROR("udp_sendto: data == NULL", data != NULL || len == 0, return NET_ERR_ARG);
  if (len > NET_IP_MAX_PAYLOAD - NET_UDP_HLEN) {
    net_stats.ip.drop_too_big++;
    return NET_ERR_BUF;
  }
  NET_PHASE_ENTER(NET_PH_PROTO);
  if (len) {
    NET_PHASE_ENTER(NET_PH_APPCOPY);
    memmove(u + NET_UDP_HLEN, data, len);
    NET_PHASE_LEAVE(NET_PH_APPCOPY);
  }
  net_put16(u, ep->lport);
  net_put16(u + 2, dport);
  net_put16(u + 4, (uint16_t)ulen);
  net_put16(u + 6, 0);
#if NET_UDP_CHECKSUM_TX
  {
    uint16_t c;
    NET_PHASE_ENTER(NET_PH_L4CHK);
    c = (uint16_t)~net_chksum_pseudo(net_netif->ipaddr, dst, NET_IPPROTO_UDP, u, ulen);
    NET_PHASE_LEAVE(NET_PH_L4CHK);
    net_put16(u + 6, c == 0 ? 0xffff : c);
  }
#endif
  net_stats.udp.tx++;
  err = ip_output(NET_IPPROTO_UDP, dst, ulen);
  NET_PHASE_LEAVE(NET_PH_PROTO);
  return err;
}
