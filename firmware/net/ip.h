/*
 * ip.h - IPv4 (RFC 791, RFC 1122 3.2.1) and ICMP echo (RFC 792).
 */
#ifndef NET_IP_H
#define NET_IP_H

#include "net_arch.h"

/** Where the transport header of an outgoing datagram goes in net_buf. */
#define NET_IP_PAYLOAD (net_buf + NET_ETH_HLEN + NET_IP_HLEN)
/** Largest transport payload (header included) one datagram carries. */
#define NET_IP_MAX_PAYLOAD (NET_BUF_SIZE - NET_ETH_HLEN - NET_IP_HLEN)

void ip_init(void);

/** Validate and demultiplex a received IPv4 frame (Ethernet header incl.). */
void ip_input(const uint8_t *frame, unsigned len);

/**
 * Send the `len` bytes at NET_IP_PAYLOAD as one datagram to `dst`: writes
 * the 20-byte header (no options, TTL NET_IP_TTL) and hands it to ARP.
 * @return NET_OK, NET_ERR_BUF (too long), or an arp_output_ip() error
 */
net_err_t ip_output(uint8_t proto, uint32_t dst, unsigned len);

/** ip_output() of a datagram built in `frame` instead of net_buf (payload
 *  at frame + NET_ETH_HLEN + NET_IP_HLEN): the zero-copy echo reply is
 *  built in the received frame and sent from there (icmp_input()). */
net_err_t ip_output_frame(uint8_t *frame, uint8_t proto, uint32_t dst, unsigned len);

/** Answer echo requests; count and drop everything else (RFC 792).
 *  `frame` is the received frame (Ethernet header first) that `data` lies
 *  in: with NET_ZERO_COPY the reply is built in it (see net_input()).
 *  `src_at_mac`: arp_learn_ip() said a frame to `src` goes to the frame's
 *  source MAC, so the reply may be addressed from the frame itself. */
void icmp_input(const uint8_t *frame, uint32_t src, int dst_kind, int src_at_mac, const uint8_t *data,
                unsigned len);

#if NET_ICMP_CLIENT
/* The ping client of the library variant fw_net_icmpc (NET_ICMP_CLIENT=1;
 * the other programs' images stay as they are without it). */

/** Send an echo request (identifier, sequence number, `len` data bytes)
 *  to `dst` through ip_output() (the ARP queue holds one while the
 *  address is resolved). @return as ip_output() */
net_err_t icmp_echo_request(uint32_t dst, uint16_t id, uint16_t seq, const uint8_t *data, unsigned len);

/** Supplied by the program: an echo reply from `src` with a valid
 *  checksum (`data`: the ICMP message, header included, `len` bytes). */
void icmp_echo_reply_in(uint32_t src, const uint8_t *data, unsigned len);
#endif

#endif /* NET_IP_H */
