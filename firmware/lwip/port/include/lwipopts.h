/*
 * lwipopts.h - lwIP 2.1 configured for the leon3vp board (GR-XC3S-1500:
 * LEON3 at 40 MHz, 64 MiB SDRAM, GRETH 10/100), bare metal.
 *
 * NO_SYS: no operating system, the raw (callback) API only, one main loop
 * (lwipapp.c) that polls the GRETH, runs lwIP's timers and powers down
 * while idle. IPv4 with ARP, ICMP echo, UDP and TCP; nothing else. Sizes
 * are chosen to match our stack's tests (ten TCP connections, 1 MB
 * transfers, 1472-byte datagrams) and are the port's choice, documented in
 * firmware/lwip/README.md.
 */
#ifndef LWIPOPTS_H
#define LWIPOPTS_H

/* ---- system ---- */
#define NO_SYS 1
#define SYS_LIGHTWEIGHT_PROT 0 /* no lwIP call from an interrupt handler */
#define LWIP_NETCONN 0
#define LWIP_SOCKET 0
#define LWIP_TIMERS 1

/* ---- memory: lwIP's own heap and pools, no malloc ---- */
#define MEM_ALIGNMENT 4
#define MEM_SIZE (24 * 1024)
#define MEMP_NUM_PBUF 16
#define MEMP_NUM_UDP_PCB 4
#define MEMP_NUM_TCP_PCB 12
#define MEMP_NUM_TCP_PCB_LISTEN 2
#define MEMP_NUM_TCP_SEG 48
#define PBUF_POOL_SIZE 32
/* one pool pbuf holds a whole frame (1514 bytes + ETH_PAD_SIZE) */
#define PBUF_POOL_BUFSIZE 1520

/* ---- link ---- */
#define LWIP_ARP 1
#define LWIP_ETHERNET 1
#define ARP_TABLE_SIZE 4
#define ARP_QUEUEING 0
/* Two bytes in front of the Ethernet header: the IP header is 4-aligned */
#define ETH_PAD_SIZE 2

/* ---- IPv4, ICMP, UDP, TCP ---- */
#define LWIP_IPV4 1
#define LWIP_IPV6 0
#define IP_REASSEMBLY 0 /* fragments are dropped, as in our stack */
#define IP_FRAG 0
#define LWIP_ICMP 1
#define LWIP_RAW 0
#define LWIP_UDP 1
#define LWIP_TCP 1
#define LWIP_DHCP 0
#define LWIP_AUTOIP 0
#define LWIP_IGMP 0
#define LWIP_DNS 0
#define LWIP_TCP_KEEPALIVE 0

#define TCP_MSS 1460
/* The advertised receive window is a run-time value (fw_params.window,
 * else 4 * TCP_MSS, lwIP's default): the sanity checks of lwIP's init.c
 * compare TCP_WND in the preprocessor, so they are off; the port checks
 * the window itself (lwipapp.c). */
extern unsigned lwip_port_tcp_wnd;
#define TCP_WND lwip_port_tcp_wnd
#define LWIP_DISABLE_TCP_SANITY_CHECKS 1
/* The send buffer is a run-time value too: lwip_tcpsend sets it from
 * fw_params.window (seed 002's "send window"), else 4 * TCP_MSS. */
extern unsigned lwip_port_tcp_sndbuf;
#define TCP_SND_BUF lwip_port_tcp_sndbuf
#define TCP_SND_QUEUELEN 32 /* segments queued: 2 x 16 KiB / MSS */
#define TCP_QUEUE_OOSEQ 1
#define LWIP_TCP_SACK_OUT 0

/* ---- checksums: computed and checked in software ---- */
#define CHECKSUM_GEN_IP 1
#define CHECKSUM_GEN_UDP 1
#define CHECKSUM_GEN_TCP 1
#define CHECKSUM_GEN_ICMP 1
#define CHECKSUM_CHECK_IP 1
#define CHECKSUM_CHECK_UDP 1
#define CHECKSUM_CHECK_TCP 1
#define CHECKSUM_CHECK_ICMP 1
/* Every checksum goes through the port's routine (port/chksum.c): it times
 * the L4CHK phase and calls lwIP's own 32-bit algorithm (3) or our stack's
 * net_chksum_fast, chosen at build time (CMake LWIP_CHKSUM=lwip|net). */
#define LWIP_CHKSUM_ALGORITHM 3
#define LWIP_CHKSUM lwip_port_chksum
#include <stdint.h>
uint16_t lwip_port_chksum(const void *data, int len);

/* ---- statistics: the "stack" result line ---- */
#define LWIP_STATS 1
#define LWIP_STATS_DISPLAY 0
#define LINK_STATS 1
#define ETHARP_STATS 1
#define IP_STATS 1
#define ICMP_STATS 1
#define UDP_STATS 1
#define TCP_STATS 1
#define MEM_STATS 0
#define MEMP_STATS 0
#define SYS_STATS 0
#define IPFRAG_STATS 0
#define LWIP_STATS_LARGE 1 /* 32-bit counters */
#define MIB2_STATS 1       /* retransmitted segments (mib2.tcpretranssegs) */

#define LWIP_NETIF_STATUS_CALLBACK 0
#define LWIP_NETIF_LINK_CALLBACK 0
#define LWIP_SINGLE_NETIF 1

#endif /* LWIPOPTS_H */
