/*
 * netopts.h - compile-time options of the leon3vp TCP/IP stack.
 *
 * Every option has a default here, guarded by #ifndef, so a build overrides
 * it with -DNAME=value (the CMake project does that for NET_CHECKSUM and
 * NET_ZERO_COPY) or by providing a "netopts_local.h" and compiling with
 * -DNET_HAVE_OPTS_LOCAL. Sizes are in bytes, times in milliseconds.
 */
#ifndef NET_NETOPTS_H
#define NET_NETOPTS_H

#ifdef NET_HAVE_OPTS_LOCAL
#include "netopts_local.h"
#endif

/* ---- Buffers and interface ------------------------------------------- */

/** Size of the global packet buffer: the largest Ethernet frame handled,
 *  without FCS (14-byte header + 1500-byte MTU). Frames longer than this are
 *  dropped (eth.drop_too_big). */
#ifndef NET_BUF_SIZE
#define NET_BUF_SIZE 1514
#endif

/** 1: zero-copy receive. net_input() processes the frame where the driver
 *  received it (its DMA buffer) and never writes to it; the global buffer is
 *  only used to build replies. 0: net_input() first copies the frame into the
 *  global buffer (uIP style: one buffer for receive and transmit). The
 *  board build's default is 1 (CMake NET_ZERO_COPY=ON, the fastest); the
 *  host tests and scripts/fw-size-table choose explicitly. */
#ifndef NET_ZERO_COPY
#define NET_ZERO_COPY 1
#endif

/* ---- Checksum ---------------------------------------------------------- */

#define NET_CHECKSUM_GENERIC8 1 /**< byte pairs, carry check per add */
#define NET_CHECKSUM_WORD32 2   /**< 16-bit adds into 32 bits, one fold */
#define NET_CHECKSUM_FAST 3     /**< 32-bit loads, addxcc chain, unrolled */
#define NET_CHECKSUM_HW                         \
  4 /**< the checksum engine (rtl/chksum), fast \
         below NET_CHECKSUM_HW_MIN or without it */

/** Which implementation net_chksum() uses. All three are always compiled
 *  (net_chksum_generic8/word32/fast) so they can be compared. */
#ifndef NET_CHECKSUM
#define NET_CHECKSUM NET_CHECKSUM_FAST
#endif

/** hw variant: buffers shorter than this many bytes are summed by the fast
 *  variant, not handed to the engine (its fixed cost of register accesses
 *  is not worth it there; docs/firmware.md "The hw variant" measures it). */
#ifndef NET_CHECKSUM_HW_MIN
#define NET_CHECKSUM_HW_MIN 128
#endif

/** 1: net_chksum() calls the implementation through a pointer that
 *  net_chksum_select() can change at run time (the board programs take it
 *  from the per-run parameters, `chksum`), starting with NET_CHECKSUM;
 *  costs one indirect call per checksum. 0: NET_CHECKSUM bound at build
 *  time (a direct call). */
#ifndef NET_CHECKSUM_RUNTIME
#define NET_CHECKSUM_RUNTIME 1
#endif

/* ---- ARP --------------------------------------------------------------- */

/** Number of ARP table entries. */
#ifndef NET_ICMP_CLIENT
/* 1: ip.h's ping client (icmp_echo_request, echo replies to the program's
 * icmp_echo_reply_in); the library fw_net_icmpc, linked by net_pinger. */
#define NET_ICMP_CLIENT 0
#endif

#ifndef NET_ARP_TABLE_SIZE
#define NET_ARP_TABLE_SIZE 8
#endif

/** An entry not refreshed for this long is removed (RFC 1122 2.3.2.1). */
#ifndef NET_ARP_MAXAGE_MS
#define NET_ARP_MAXAGE_MS 300000u
#endif

/** Interval between ARP requests for an unresolved address. */
#ifndef NET_ARP_REQUEST_MS
#define NET_ARP_REQUEST_MS 1000u
#endif

/** Requests sent before an address is given up (queued packet dropped). */
#ifndef NET_ARP_MAX_TRIES
#define NET_ARP_MAX_TRIES 3
#endif

/** 1: keep one outgoing packet (in a second NET_BUF_SIZE buffer) while its
 *  next hop is being resolved and send it when the reply arrives. 0: the
 *  packet is dropped (counted) and the upper layer retransmits. */
#ifndef NET_ARP_QUEUE
#define NET_ARP_QUEUE 1
#endif

/** 1: refresh/insert ARP entries from the source of received IPv4 frames of
 *  the local subnet (saves a round trip for every passive open, at the cost
 *  of trusting those frames). */
#ifndef NET_ARP_LEARN_FROM_IP
#define NET_ARP_LEARN_FROM_IP 1
#endif

/* ---- IPv4 / ICMP / UDP ------------------------------------------------- */

/** Time to live of outgoing datagrams. */
#ifndef NET_IP_TTL
#define NET_IP_TTL 64
#endif

/** 1: answer ICMP echo requests sent to a broadcast address
 *  (RFC 1122 3.2.2.6 makes that optional). */
#ifndef NET_ICMP_ECHO_BROADCAST
#define NET_ICMP_ECHO_BROADCAST 0
#endif

/** Number of UDP endpoints (bound local ports). */
#ifndef NET_UDP_ENDPOINTS
#define NET_UDP_ENDPOINTS 4
#endif

/** 1: compute the checksum of sent UDP datagrams (0 sends checksum 0). */
#ifndef NET_UDP_CHECKSUM_TX
#define NET_UDP_CHECKSUM_TX 1
#endif

/* ---- TCP --------------------------------------------------------------- */

/** Connection table size (every state but LISTEN and CLOSED uses a slot). */
#ifndef NET_TCP_CONNS
#define NET_TCP_CONNS 10
#endif

/** Number of listening ports. */
#ifndef NET_TCP_LISTENERS
#define NET_TCP_LISTENERS 4
#endif

/** Our maximum segment size (advertised in SYNs, upper bound for sending).
 *  Default: what fits in the buffer with 20-byte IP and TCP headers. */
#ifndef NET_TCP_MSS
#define NET_TCP_MSS (NET_BUF_SIZE - 14 - 20 - 20)
#endif

/** Send MSS assumed when the peer's SYN carries no MSS option (RFC 1122). */
#ifndef NET_TCP_DEFAULT_MSS
#define NET_TCP_DEFAULT_MSS 536
#endif

/** Initial advertised receive window; change at run time with
 *  tcp_set_rcv_wnd() (experiments sweep 100..1500). */
#ifndef NET_TCP_RCV_WND
#define NET_TCP_RCV_WND NET_TCP_MSS
#endif

/** Retransmission timeout: initial value and bounds (RFC 6298 2.1, 2.4, 2.5). */
#ifndef NET_TCP_RTO_INIT_MS
#define NET_TCP_RTO_INIT_MS 1000u
#endif
#ifndef NET_TCP_RTO_MIN_MS
#define NET_TCP_RTO_MIN_MS 200u
#endif
#ifndef NET_TCP_RTO_MAX_MS
#define NET_TCP_RTO_MAX_MS 60000u
#endif

/** Clock granularity G of RFC 6298 (RTO >= SRTT + max(G, 4*RTTVAR)). */
#ifndef NET_TCP_CLOCK_G_MS
#define NET_TCP_CLOCK_G_MS 10u
#endif

/** Retransmissions of a data/FIN segment before the connection is aborted
 *  (event NET_EV_TIMEDOUT, RST sent). */
#ifndef NET_TCP_MAX_RETRIES
#define NET_TCP_MAX_RETRIES 8
#endif

/** 1: uIP-style sending (the original design, kept for comparison and the
 *  delayed-ACK experiment): at most one segment in flight, no copy of sent
 *  data in the stack; on a timeout the application gets NET_EV_REXMIT and
 *  sends the same bytes again. 0 (default): a send buffer per connection
 *  (NET_TCP_SNDBUF), several segments in flight within min(cwnd, peer
 *  window), congestion control per RFC 5681 (slow start, congestion
 *  avoidance, fast retransmit/recovery), retransmission by the stack. */
#ifndef NET_TCP_UIP_SEND
#define NET_TCP_UIP_SEND 0
#endif

/** Send buffer (ring) per connection in bytes, a power of two; only with
 *  NET_TCP_UIP_SEND 0. tcp_send() copies into it; acknowledged bytes free it.
 *  RAM: NET_TCP_CONNS * NET_TCP_SNDBUF. It bounds the data in flight: 4 KiB
 *  (the size of the D-cache) is 2.8 full segments, as fast as 8 or 16 KiB
 *  on the 100 Mbit/s link, where the board's per-segment cost, not the
 *  window, is the limit (docs/firmware.md "TCP send: windows and congestion
 *  control"). */
#ifndef NET_TCP_SNDBUF
#define NET_TCP_SNDBUF 4096
#endif

/** Send references per connection (tcp_send_ref(), only with
 *  NET_TCP_UIP_SEND 0): the application hands the stack pointers to data it
 *  keeps unchanged until acknowledged, and the stack copies each segment
 *  from there straight into the transmit buffer (one copy, checksummed on
 *  the way). No send-buffer bytes and no application -> ring copy; the
 *  data in flight is bounded by the references (up to 64 KiB each), not by
 *  NET_TCP_SNDBUF. 4 one-MSS references keep the 100 Mbit/s link as busy
 *  as 8 (the board is CPU-bound) with less queueing delay for what
 *  arrives meanwhile (ACKs, a RST: board-net.rfc5961 expects its
 *  challenge ACK within 1 ms). RAM: 8 bytes per reference and
 *  connection. 0 removes tcp_send_ref(). */
#ifndef NET_TCP_SNDREFS
#define NET_TCP_SNDREFS 4
#endif

/** 1: loss probe (RFC 8985 section 7, the tail loss probe, without SACK)
 *  for the window too small for three duplicate ACKs: one or two duplicate
 *  ACKs arrived, nothing new can be sent (limited transmit, RFC 3042, has
 *  no data: the send buffer or NET_TCP_SNDREFS references are all in
 *  flight) and no further ACK came within PTO = 2 * SRTT +
 *  NET_TCP_PTO_MIN_MS: the last segment is sent again (once per stall), so
 *  the receiver, which holds data beyond a hole, sends the third duplicate
 *  ACK and fast retransmit repairs the hole instead of the RTO (at least
 *  NET_TCP_RTO_MIN_MS). A receiver that acknowledges every second segment
 *  makes this the common case of a 4-segment flight: the ACK that its
 *  first out-of-order segment triggers covers the delayed segment, i.e. it
 *  advances SND.UNA and is no duplicate (docs/firmware.md "The stack
 *  shoot-out"). No probe without an RTT sample or when PTO >= RTO. */
#ifndef NET_TCP_LOSS_PROBE
#define NET_TCP_LOSS_PROBE 1
#endif

/** The constant of the PTO above (ms; Linux: TCP_TIMEOUT_MIN, 2 jiffies). */
#ifndef NET_TCP_PTO_MIN_MS
#define NET_TCP_PTO_MIN_MS 2u
#endif

/** Zero peer window: window probes (persist timer, RFC 1122 4.2.2.17) start
 *  after the current RTO and back off exponentially up to
 *  NET_TCP_RTO_MAX_MS; this long after the first probe without the window
 *  opening the connection is aborted (RST, NET_EV_TIMEDOUT), so a peer
 *  that never opens its window cannot hold a slot forever. 100 s: the 8
 *  probes of the old count limit with the minimum RTO. Run time:
 *  tcp_set_policy() persist_max_ms (fw param persist_max_ms). */
#ifndef NET_TCP_PERSIST_MAX_MS
#define NET_TCP_PERSIST_MAX_MS 100000u
#endif

/* ---- Slot policy (tcp_slots.c, README.md) ----------------------- */

/** Period of the slow timer that measures idle time, sends keep-alives and
 *  applies the idle timeout: their resolution. */
#ifndef NET_TCP_SLOW_MS
#define NET_TCP_SLOW_MS 100u
#endif

/** Idle timeout of passively opened connections (no data received and none
 *  of ours acknowledged for this long: RST, NET_EV_TIMEDOUT). 0 = none
 *  (plain TCP); the network programs set their own (fw param conn_idle_ms). */
#ifndef NET_TCP_IDLE_MS
#define NET_TCP_IDLE_MS 0u
#endif

/** Keep-alive (RFC 1122 4.2.3.6): off (0) by default; else the first probe
 *  after this long without a sign of life from the peer, then every
 *  NET_TCP_KEEPALIVE_INTVL_MS, and after NET_TCP_KEEPALIVE_PROBES
 *  unanswered probes the connection is reset (NET_EV_TIMEDOUT). */
#ifndef NET_TCP_KEEPALIVE_MS
#define NET_TCP_KEEPALIVE_MS 0u
#endif
#ifndef NET_TCP_KEEPALIVE_INTVL_MS
#define NET_TCP_KEEPALIVE_INTVL_MS 1000u
#endif
#ifndef NET_TCP_KEEPALIVE_PROBES
#define NET_TCP_KEEPALIVE_PROBES 4u
#endif

/** A SYN that finds the table full, or a handshake completing beyond its
 *  listener's limit (tcp_listen_limit), evicts the passive connection idle
 *  longest if it has been idle at least this long (0 = never evict): a
 *  connection moving data at least this often is never evicted. */
#ifndef NET_TCP_EVICT_IDLE_MS
#define NET_TCP_EVICT_IDLE_MS 1000u
#endif

/** Retransmissions of a SYN or SYN-ACK before giving up. */
#ifndef NET_TCP_SYN_RETRIES
#define NET_TCP_SYN_RETRIES 5
#endif

/** 1 (default): delayed ACKs (RFC 1122 4.2.3.2, RFC 5681 4.2): a lone
 *  in-order data segment is acknowledged after NET_TCP_DELACK_MS unless a
 *  reply or a second segment comes first (so every second segment is
 *  acknowledged at once), or at once when it leaves the peer at most one
 *  MSS of the window we advertised (with less the peer could send nothing
 *  more and would wait for the timer; with a two-segment window it would
 *  wait a round trip after every segment). Out-of-order segments and the segment that
 *  fills a gap are acknowledged at once. 0: every data segment is
 *  acknowledged at once (the uIP behaviour, kept for comparison). */
#ifndef NET_TCP_DELAYED_ACK
#define NET_TCP_DELAYED_ACK 1
#endif
#ifndef NET_TCP_DELACK_MS
#define NET_TCP_DELACK_MS 200u
#endif

/** Out-of-order segments held for reassembly, all connections together
 *  (tcp_hold.c). Only with a netif that can hold received frames
 *  (rx_hold: the GRETH in zero-copy builds, which swaps a spare buffer into
 *  the ring; it has GRETH_RX_SPARES >= this); the copy build and netifs
 *  without rx_hold drop out-of-order data (tcp.drop_ooo). The receive
 *  window advertised is then also capped at (free holds + 1) * MSS beyond
 *  the data already held, so the peer never has more in flight beyond a
 *  gap than can be kept. 0: never hold. RAM: 16 bytes per entry. */
#ifndef NET_TCP_RX_HOLD
#define NET_TCP_RX_HOLD 8
#endif

/** Lifetime of a passive half-open (SYN_RCVD) connection: after it the
 *  slot is freed silently (tcp.syn_expired), SYN floods included. With
 *  the 1 s initial RTO the SYN-ACK is sent at 0, 1 and 3 s. A full table
 *  also frees the oldest half-open slot for a new SYN (tcp.syn_evicted). */
#ifndef NET_TCP_SYN_RCVD_MS
#define NET_TCP_SYN_RCVD_MS 5000u
#endif

/** Youngest half-open connection a new SYN may evict: handshakes in
 *  progress (the ACK one round trip away, or queued behind the SYN) are
 *  spared. A flood of more than NET_TCP_CONNS SYNs per this time still
 *  keeps every slot young and locks new peers out while it lasts. */
#ifndef NET_TCP_SYN_EVICT_MS
#define NET_TCP_SYN_EVICT_MS 50u
#endif

/** Challenge ACKs (RFC 5961) sent per second at most, per connection;
 *  the others are counted in tcp.challenge_limited. Per connection, not
 *  for all together: a shared budget tells an attacker on a connection of
 *  his own whether his spoofed RSTs hit another connection's window
 *  (CVE-2016-5696). At most NET_TCP_CONNS times this many per second. */
#ifndef NET_TCP_CHALLENGE_ACKS
#define NET_TCP_CHALLENGE_ACKS 10u
#endif

/** Period of the secret's rekeying (net.c "Entropy pool"), a power of two
 *  of at least 2^19 ms (8.7 min): the first ISN this long after the last
 *  rekey folds the entropy pool into the secret, and each 4-tuple's ISN
 *  moves from the old key's to the new key's value during the next period,
 *  forward only, at most 2^32 / period per ms. With the clock's 250 per ms that keeps every 4-tuple's
 *  ISNs advancing by less than 2^31 in 2 MSL (240 s). */
#ifndef NET_SECRET_REKEY_MS
#define NET_SECRET_REKEY_MS 524288u
#endif

/** Time spent in TIME-WAIT (2 * MSL). */
#ifndef NET_TCP_TIME_WAIT_MS
#define NET_TCP_TIME_WAIT_MS 60000u
#endif

/** Interval of NET_EV_POLL calls to idle established connections. */
#ifndef NET_TCP_POLL_MS
#define NET_TCP_POLL_MS 500u
#endif

/* ---- Measurement ------------------------------------------------------- */

/** 1: per-phase timing hooks (net_phase.h: driver, copy, IP checksum,
 *  UDP/TCP checksum, protocol, application copy), each phase also a leon3vp
 *  region marker. Active only once a clock is given (net_phase_start); the
 *  board runtime does that. Default: on for the firmware, compiled out to
 *  nothing for hosted builds (host unit tests). */
#ifndef NET_PHASES
#ifdef NET_ARCH_HOSTED
#define NET_PHASES 0
#else
#define NET_PHASES 1
#endif
#endif

/* ---- Diagnostics ------------------------------------------------------- */

/** 1: check API arguments (NET_ERROR) and count violations in
 *  net_stats.err_arg. */
#ifndef NET_ARG_CHECK
#define NET_ARG_CHECK 1
#endif

/** Hook called with a message when an argument check fails (default:
 *  nothing; the host tests and firmware may set it to a printf). */
#ifndef NET_DIAG
#define NET_DIAG(msg) ((void)0)
#endif

#endif /* NET_NETOPTS_H */
