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

/* A 32-bit one's complement sum of halfwords folded to 16 bits. */
static inline uint32_t ip_fold16(uint32_t sum) {
  sum = (sum & 0xffffu) + (sum >> 16);
  return (sum & 0xffffu) + (sum >> 16);
}

/* The folded sum (not complemented) of a 20-byte header with our fixed
 * fields (version 4, IHL 5, TOS 0, DF, TTL NET_IP_TTL) and checksum field
 * 0, from the field values in registers (RFC 1071 sum of the ten
 * halfwords), not by reading the header back from memory: the same value
 * as net_chksum() over it. ip_output_frame() and the in-place echo reply. */
static inline uint32_t ip_header_sum(uint32_t tot, uint16_t id, uint8_t proto, uint32_t src, uint32_t dst) {
  return ip_fold16(0x4500u + tot + id + 0x4000u + ((uint32_t)NET_IP_TTL << 8 | proto) + (src >> 16) +
                   (src & 0xffffu) + (dst >> 16) + (dst & 0xffffu));
}

/* Nothing to do: the identification counters are reset by net_init(). */
void ip_init(void) {}

/* Source address checks (RFC 1122 3.2.1.3; land attacks): our own address
 * is counted apart from the other impossible sources (0, loopback,
 * broadcast, multicast and class E). @return 1 to drop (counted). */
static int ip_bad_source(uint32_t src) {
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
void ip_input(const uint8_t *frame, unsigned len) {
  const uint8_t *iph = frame + NET_ETH_HLEN;
  unsigned avail = len - NET_ETH_HLEN;
  unsigned hl, tot;
  uint32_t h0, w1, w2, w3, w4, h9; /* the fixed 20 bytes: 2 + 4 x 4 + 2 */
  uint8_t hdr[NET_IP_HLEN + 4] __attribute__((aligned(4)));
  const uint8_t *h = iph;
  uint32_t src, dst;
  uint16_t sum;
  int kind, at_mac;

  net_stats.ip.rx++;
  if (avail < NET_IP_HLEN) {
    net_stats.ip.drop_short++;
    return;
  }
  /* Read the fixed header once into registers; the checks, the checksum
   * and the fields all come from there: two halfword and four word loads
   * at the driver's frames' alignment (4-aligned frame, header at 14). A
   * header at any other alignment (host tests, a port with odd buffers) is
   * copied to a place that has it first: one copy of the load code. */
  if (((uintptr_t)iph & 3u) != 2) {
    memcpy(hdr + 2, iph, NET_IP_HLEN);
    h = hdr + 2;
  }
  h0 = net_ld16a(h);
  w1 = net_ld32a(h + 2);
  w2 = net_ld32a(h + 6);
  w3 = net_ld32a(h + 10);
  w4 = net_ld32a(h + 14);
  h9 = net_ld16a(h + 18);
  if ((h0 >> 12) != 4) {
    net_stats.ip.drop_version++;
    return;
  }
  hl = ((h0 >> 8) & 0x0fu) * 4u;
  if (hl < NET_IP_HLEN || hl > avail) {
    net_stats.ip.drop_hl++;
    return;
  }
  tot = w1 >> 16;
  if (tot > avail || tot < hl) {
    net_stats.ip.drop_len++;
    return;
  }
  NET_PHASE_ENTER(NET_PH_IPCHK);
  if (hl == NET_IP_HLEN) {
    /* From the registers, whichever implementation is selected (the
     * variants differ on payloads; ip_output_frame() likewise sums the
     * header it sends from its field values). */
    uint64_t acc = (uint64_t)h0 + w1 + w2 + w3 + w4 + h9;
    sum = (uint16_t)ip_fold16((uint32_t)acc + (uint32_t)(acc >> 32)); /* high part <= 4 */
  } else {
    sum = net_chksum(0, iph, hl);
  }
  NET_PHASE_LEAVE(NET_PH_IPCHK);
  if (sum != 0xffff) {
    net_stats.ip.drop_chksum++;
    return;
  }
  if (((w2 >> 16) & 0x3fffu) != 0) { /* MF flag or fragment offset */
    net_stats.ip.drop_frag++;
    return;
  }
  src = w3 << 16 | w4 >> 16;
  dst = w4 << 16 | h9;
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
  at_mac = arp_learn_ip(src, frame + 6);

  switch (w2 & 0xffu) { /* protocol */
    case NET_IPPROTO_ICMP:
      icmp_input(frame, src, kind, at_mac, iph + hl, tot - hl);
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
net_err_t ip_output(uint8_t proto, uint32_t dst, unsigned len) {
  return ip_output_frame(net_buf, proto, dst, len);
}

/* One header halfword: a single store when the header is 2-aligned (the
 * frames of the stack and the driver are), else two byte stores. */
typedef uint16_t ip_u16_alias __attribute__((may_alias));

static inline __attribute__((always_inline)) void ip_put16(uint8_t *p, uint16_t v, int al) {
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

static inline __attribute__((always_inline)) void ip_put_header(uint8_t *iph, int al, uint16_t tot,
                                                                uint16_t id, uint8_t proto, uint32_t src,
                                                                uint32_t dst, uint16_t ck) {
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

net_err_t ip_output_frame(uint8_t *frame, uint8_t proto, uint32_t dst, unsigned len) {
  uint8_t *iph = frame + NET_ETH_HLEN;
  unsigned tot = len + NET_IP_HLEN;
  uint32_t src = net_netif->ipaddr, sum;
  uint16_t id;

  if (len > NET_IP_MAX_PAYLOAD) {
    net_stats.ip.drop_too_big++;
    return NET_ERR_BUF;
  }
  id = net_ip_id(dst);
  NET_PHASE_ENTER(NET_PH_IPCHK);
  sum = ip_header_sum(tot, id, proto, src, dst);
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
/* The echo reply in the request's own frame, for the common case: a
 * unicast request without IP options from an on-link host whose ARP entry
 * holds the frame's source MAC (arp_learn_ip() said so), in an 8-aligned
 * frame. The reply is then the request with the MAC addresses, the IP
 * addresses, identification, flags, TTL and both checksums changed:
 * written as whole words, six or seven stores instead of the general
 * path's twenty-odd byte and halfword stores (each a bus write through
 * the write-through D-cache), and handed to the link without the ARP
 * lookup. The frame is bit for bit the one the general path builds (TOS
 * 0, DF, TTL NET_IP_TTL): host tests IpIcmp.InPlaceReplyIsTheGeneralPathsFrame
 * and IpIcmp.InPlaceReplyNeedsTheArpEntrysMac. */
static void icmp_echo_reply_in_place(uint8_t *fr, uint32_t src, unsigned len, uint16_t icmp_ck) {
  const struct netif *nif = net_netif;
  uint32_t me = nif->ipaddr;
  uint32_t tot = len + NET_IP_HLEN;
  uint32_t hw03 = net_ld32a(nif->hwaddr); /* hwaddr is 4-aligned */
  uint32_t hw45 = net_get16(nif->hwaddr + 4);
  uint32_t w4 = net_ld32a(fr + 4), w8 = net_ld32a(fr + 8); /* request's source MAC at 6..11 */
  uint16_t id = net_ip_id(src);
  uint32_t sum = ~ip_header_sum(tot, id, NET_IPPROTO_ICMP, me, src) & 0xffffu;

  net_st64a(fr, (w4 << 16) | (w8 >> 16), (w8 << 16) | (hw03 >> 16));
  net_st32a(fr + 8, (hw03 << 16) | hw45);
  if (net_ld32a(fr + 12) != ((uint32_t)NET_ETHTYPE_IP << 16 | 0x4500u)) { /* TOS */
    net_st32a(fr + 12, (uint32_t)NET_ETHTYPE_IP << 16 | 0x4500u);
  }
  net_st64a(fr + 16, tot << 16 | id, 0x4000u << 16 | (uint32_t)NET_IP_TTL << 8 | NET_IPPROTO_ICMP);
  net_st64a(fr + 24, sum << 16 | me >> 16, me << 16 | src >> 16);
  net_st32a(fr + 32, src << 16); /* type 0 (echo reply), code 0 */
  net_st16a(fr + 36, icmp_ck);
  net_link_output(fr, tot + NET_ETH_HLEN);
  net_stats.icmp.tx++; /* after the frame is on its way (same counts) */
  net_stats.icmp.echo_in_place++;
  net_stats.ip.tx++;
}

void icmp_input(const uint8_t *frame, uint32_t src, int dst_kind, int src_at_mac, const uint8_t *data,
                unsigned len) {
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
#if NET_ICMP_CLIENT
  if (data[0] == 0 && data[1] == 0) { /* an echo reply: to the program's ping client */
    icmp_echo_reply_in(src, data, len);
    return;
  }
#endif
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
  sum = ip_fold16(sum);
  /* sum 0xffff (-0) also comes out when the reply is all zero words, whose
   * only valid checksum is 0xffff; 0xffff is valid in the other case too
   * (found by fw-host.fuzz_input, reproducer fuzz/regress/). */
  sum = sum == 0xffffu ? 0xffffu : (~sum & 0xffffu);
  if (out == data && dst_kind == 1 && src_at_mac && ((uintptr_t)fr & 7u) == 0) {
    icmp_echo_reply_in_place(fr, src, len, (uint16_t)sum);
    return;
  }
  if (out != data) {
    memmove(out, data, len);
  }
  out[0] = 0; /* echo reply; code, identifier, sequence and data stay */
  net_put16(out + 2, (uint16_t)sum);
  net_stats.icmp.tx++;
  ip_output_frame(fr, NET_IPPROTO_ICMP, src, len);
}

#if NET_ICMP_CLIENT
net_err_t icmp_echo_request(uint32_t dst, uint16_t id, uint16_t seq, const uint8_t *data, unsigned len) {
  uint8_t *p = NET_IP_PAYLOAD;
  uint32_t sum;

  if (len > NET_IP_MAX_PAYLOAD - 8) return NET_ERR_BUF;
  p[0] = 8; /* echo request, code 0 */
  p[1] = 0;
  net_put16(p + 2, 0);
  net_put16(p + 4, id);
  net_put16(p + 6, seq);
  memcpy(p + 8, data, len);
  sum = net_chksum(0, p, len + 8);
  net_put16(p + 2, (uint16_t)~sum);
  net_stats.icmp.tx++;
  return ip_output(NET_IPPROTO_ICMP, dst, len + 8);
}
#endif
