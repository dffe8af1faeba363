/*
 * ip.c - IPv4 input validation and output (RFC 791, RFC 1122 3.2.1),
 * ICMP echo (RFC 792).
 *
 * Input checks, in order, each with its own drop counter: header fits in
 * the frame, version 4, IHL >= 5 and inside the frame, total length not
 * above the frame and not below the header, header checksum, not a
 * fragment (MF or offset: reassembly is not supported), destination is us
 * or a broadcast, source not ours, 0, loopback, broadcast or multicast
 * (ip_bad_source). Options are
 * skipped (the payload starts at IHL * 4). Ethernet padding after the total
 * length is ignored.
 */
#include "net.h"
#include "net_chksum.h"

void ip_init(void)
{
  /* nothing: the identification counters are reset by net_init() */
}

/* Source address checks (RFC 1122 3.2.1.3; land attacks): our own address
 * is counted apart from the other impossible sources (0, loopback,
 * broadcast, multicast and class E). @return 1 to drop (counted). */
static int ip_bad_source(uint32_t src)
{
  int kind = net_ip_is_ours(src);
  if (kind == 1) {
    net_stats.ip.drop_land++;
    return 1;
  }
  if (kind == 2 || src == 0 || (src >> 24) == 127 || (src >> 28) >= 0xe) {
    net_stats.ip.drop_src++;
    return 1;
  }
  return 0;
}

/*--------------------------------------------------------------------------*/
void ip_input(const uint8_t *frame, unsigned len)
{
  const uint8_t *iph = frame + NET_ETH_HLEN;
  unsigned avail = len - NET_ETH_HLEN;
  unsigned hl, tot;
  uint32_t src, dst;
  uint16_t sum;
  int kind;

  net_stats.ip.rx++;
  if (avail < NET_IP_HLEN) {
    net_stats.ip.drop_short++;
    return;
  }
  if ((iph[0] >> 4) != 4) {
    net_stats.ip.drop_version++;
    return;
  }
  hl = (iph[0] & 0x0fu) * 4u;
  if (hl < NET_IP_HLEN || hl > avail) {
    net_stats.ip.drop_hl++;
    return;
  }
  tot = net_get16(iph + 2);
  if (tot > avail || tot < hl) {
    net_stats.ip.drop_len++;
    return;
  }
  NET_PHASE_ENTER(NET_PH_IPCHK);
  sum = net_chksum(0, iph, hl);
  NET_PHASE_LEAVE(NET_PH_IPCHK);
  if (sum != 0xffff) {
    net_stats.ip.drop_chksum++;
    return;
  }
  if ((net_get16(iph + 6) & 0x3fffu) != 0) { /* MF flag or fragment offset */
    net_stats.ip.drop_frag++;
    return;
  }
  src = net_get32(iph + 12);
  dst = net_get32(iph + 16);
  kind = net_ip_is_ours(dst);
  if (kind == 0) {
    net_stats.ip.drop_not_for_us++;
    return;
  }
  if (ip_bad_source(src)) {
    return;
  }
  if (hl > NET_IP_HLEN) {
    net_stats.ip.opts_skipped++;
  }
  arp_learn_ip(src, frame + 6);

  switch (iph[9]) {
  case NET_IPPROTO_ICMP:
    icmp_input(frame, src, kind, iph + hl, tot - hl);
    break;
  case NET_IPPROTO_UDP:
    udp_input(src, dst, kind, iph + hl, tot - hl);
    break;
  case NET_IPPROTO_TCP:
    tcp_input(src, dst, kind, iph + hl, tot - hl);
    break;
  default:
    net_stats.ip.drop_proto++;
    break;
  }
}

/*--------------------------------------------------------------------------*/
net_err_t ip_output(uint8_t proto, uint32_t dst, unsigned len)
{
  return ip_output_frame(net_buf, proto, dst, len);
}

/* One header halfword: a single store when the header is 2-aligned (the
 * frames of the stack and the driver are), else two byte stores. */
typedef uint16_t ip_u16_alias __attribute__((may_alias));

static inline __attribute__((always_inline)) void ip_put16(uint8_t *p, uint16_t v, int al)
{
  if (al) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    *(ip_u16_alias *)(void *)p = v;
#else
    *(ip_u16_alias *)(void *)p = net_swap16(v);
#endif
  } else {
    net_put16(p, v);
  }
}

static inline __attribute__((always_inline)) void
ip_put_header(uint8_t *iph, int al, uint16_t tot, uint16_t id, uint8_t proto,
              uint32_t src, uint32_t dst, uint16_t ck)
{
  ip_put16(iph, 0x4500, al); /* version 4, IHL 5, TOS 0 */
  ip_put16(iph + 2, tot, al);
  ip_put16(iph + 4, id, al);
  ip_put16(iph + 6, 0x4000, al); /* DF: we never fragment */
  ip_put16(iph + 8, (uint16_t)(NET_IP_TTL << 8 | proto), al);
  ip_put16(iph + 10, ck, al);
  ip_put16(iph + 12, (uint16_t)(src >> 16), al);
  ip_put16(iph + 14, (uint16_t)src, al);
  ip_put16(iph + 16, (uint16_t)(dst >> 16), al);
  ip_put16(iph + 18, (uint16_t)dst, al);
}

net_err_t ip_output_frame(uint8_t *frame, uint8_t proto, uint32_t dst,
                          unsigned len)
{
  uint8_t *iph = frame + NET_ETH_HLEN;
  unsigned tot = len + NET_IP_HLEN;
  uint32_t src = net_netif->ipaddr, sum;
  uint16_t id;

  if (len > NET_IP_MAX_PAYLOAD) {
    net_stats.ip.drop_too_big++;
    return NET_ERR_BUF;
  }
  id = net_ip_id(dst);
  /* The header checksum from the field values in registers (RFC 1071 sum
   * of the ten halfwords, checksum field 0), not by reading the header
   * back from memory: the same value as net_chksum() over it. */
  NET_PHASE_ENTER(NET_PH_IPCHK);
  sum = 0x4500u + tot + id + 0x4000u + ((uint32_t)NET_IP_TTL << 8 | proto) +
        (src >> 16) + (src & 0xffffu) + (dst >> 16) + (dst & 0xffffu);
  sum = (sum & 0xffffu) + (sum >> 16);
  sum = (sum & 0xffffu) + (sum >> 16);
  NET_PHASE_LEAVE(NET_PH_IPCHK);
  if (((uintptr_t)iph & 1u) == 0) {
    ip_put_header(iph, 1, (uint16_t)tot, id, proto, src, dst, (uint16_t)~sum);
  } else {
    ip_put_header(iph, 0, (uint16_t)tot, id, proto, src, dst, (uint16_t)~sum);
  }
  net_stats.ip.tx++;
  return arp_output_ip_frame(frame, dst, tot);
}

/*--------------------------------------------------------------------------*/
void icmp_input(const uint8_t *frame, uint32_t src, int dst_kind,
                const uint8_t *data, unsigned len)
{
#if NET_ZERO_COPY
  /* The reply is built in the received frame itself and sent from there
   * (the driver hands that buffer to the MAC without a copy, greth.c): the
   * one write of the stack to a received frame (net.h, net_input()). */
  uint8_t *fr = (uint8_t *)(uintptr_t)frame;
#else
  uint8_t *fr = net_buf; /* copy mode: frame is net_buf */
  (void)frame;
#endif
  uint8_t *out = fr + NET_ETH_HLEN + NET_IP_HLEN;
  uint32_t sum;

  net_stats.icmp.rx++;
  if (len < 8) {
    net_stats.icmp.drop_short++;
    return;
  }
  NET_PHASE_ENTER(NET_PH_L4CHK);
  sum = net_chksum(0, data, len);
  NET_PHASE_LEAVE(NET_PH_L4CHK);
  if (sum != 0xffff) {
    net_stats.icmp.drop_chksum++;
    return;
  }
  if (data[0] != 8 || data[1] != 0) { /* only echo requests are served */
    net_stats.icmp.drop_type++;
    return;
  }
  if (dst_kind == 2 && !NET_ICMP_ECHO_BROADCAST) {
    net_stats.icmp.drop_bcast++;
    return;
  }
  net_stats.icmp.echo_rx++;
  /* The reply differs from the request only in the type byte (8 -> 0):
   * update the checksum incrementally (RFC 1624 eqn. 3, HC' = ~(~HC + ~m +
   * m') with m = 0x0800 the old type/code word and m' = 0x0000) instead
   * of summing the data again. Read the old checksum before writing: the
   * request already is in place (out == data) unless it had IP options,
   * when it moves down over them within the same frame. */
  sum = (uint16_t)~net_get16(data + 2);
  sum += (uint16_t)~0x0800u; /* + ~m; + m' = 0 adds nothing */
  sum = (sum & 0xffffu) + (sum >> 16);
  sum = (sum & 0xffffu) + (sum >> 16);
  if (out != data) {
    memmove(out, data, len);
  }
  out[0] = 0; /* echo reply; code, identifier, sequence and data stay */
  /* sum 0xffff (-0) also comes out when the reply is all zero words, whose
   * only valid checksum is 0xffff; 0xffff is valid in the other case too
   * (found by fw-host.fuzz_input, reproducer fuzz/regress/). */
  net_put16(out + 2, (uint16_t)(sum == 0xffffu ? 0xffffu : ~sum));
  net_stats.icmp.tx++;
  ip_output_frame(fr, NET_IPPROTO_ICMP, src, len);
}
