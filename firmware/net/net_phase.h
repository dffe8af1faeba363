/*
 * net_phase.h - per-phase time measurement of the receive/transmit path
 * (docs/firmware.md, "Phase measurements").
 *
 * Seven phases, *exclusive*: entering a phase pauses the one that is running
 * and leaving it resumes that one, so a phase's total never contains the
 * time of a phase nested in it (the phases of one frame add up to the time
 * spent in them, without double counting):
 *
 *   DRIVER  RX descriptor handling (status, counters, re-enable) and TX
 *           queueing (greth_send: reclaim, copy into the TX buffer,
 *           descriptor, TE)
 *   COPY    copy mode: the received frame from the DMA buffer into net_buf
 *   IPCHK   IPv4 header checksum, verified on input and generated on output
 *   L4CHK   UDP/TCP checksum (pseudo header + segment) verified/generated,
 *           and the ICMP checksum
 *   PROTO   everything else of the stack: net_input() and udp_sendto()
 *           minus the other phases (parsing, demultiplexing, TCP state,
 *           building headers, ARP)
 *   APPCOPY moving application data: the application copying received
 *           payload out (net_udprx's secondary buffer) and the stack
 *           copying the payload to send into net_buf (udp_sendto, TCP
 *           segments)
 *   APP     the application's callbacks (UDP receive function, TCP
 *           appcall) minus the phases nested in them: what the program
 *           itself does with the data (pattern checks, protothreads)
 *
 * Each phase is timed twice, by independent means:
 *  - the firmware reads a free-running, down-counting GPTIMER counter at
 *    every transition and adds the elapsed ticks to the running phase
 *    (net_phases.ticks[]); net_phases.count[] counts the entries;
 *  - each transition also stores a leon3vp region marker (bsp/region.h):
 *    region id NET_PH_REGION(ph) = 0x50480001 + ph ("PH"), BEGIN when the
 *    phase starts or resumes and END when it is left or paused, so the
 *    simulator's "regions" statistics (--stats) give cycles, instruction
 *    classes and cache misses of exactly the same intervals (its "entries"
 *    count resumptions too).
 *
 * The clock is given at run time (net_phase_start); until then, and on
 * boards without a second timer, every hook is one load and a branch. With
 * NET_PHASES 0 (the host build's default) the hooks compile to nothing.
 * Only code running outside interrupt handlers may use the hooks.
 */
#ifndef NET_PHASE_H
#define NET_PHASE_H

#include <stdint.h>
#include "netopts.h"

#define NET_PH_DRIVER 0
#define NET_PH_COPY 1
#define NET_PH_IPCHK 2
#define NET_PH_L4CHK 3
#define NET_PH_PROTO 4
#define NET_PH_APPCOPY 5
#define NET_PH_APP 6
#define NET_PH_N 7

/* Region marker id of phase ph: 0x50480001 (DRIVER) .. 0x50480007 (APP). */
#define NET_PH_REGION_BASE 0x50480001u
#define NET_PH_REGION(ph) (NET_PH_REGION_BASE + (uint32_t)(ph))

/* Deepest nesting of phases kept (deeper enters are counted in overflow). */
#define NET_PH_DEPTH 8

struct net_phases {
  uint32_t ticks[NET_PH_N]; /* exclusive time per phase, clock ticks */
  uint32_t count[NET_PH_N]; /* entries per phase */
  uint32_t overflow;        /* enters beyond NET_PH_DEPTH (not timed) */
  uint32_t mismatch;        /* leave of a phase that is not the running one */
};

extern const char *const net_phase_names[NET_PH_N];

#if NET_PHASES
extern struct net_phases net_phases;

/* Start measuring with a down-counting 32-bit counter (e.g. a free-running
 * GPTIMER's TCNTVAL register) that ticks at tick_hz; clears the totals.
 * clock == NULL switches the measurement off. */
void net_phase_start(const volatile uint32_t *clock, uint32_t tick_hz);
/* Clock rate given to net_phase_start (0: off). */
uint32_t net_phase_tick_hz(void);
void net_phase_enter(unsigned ph);
void net_phase_leave(unsigned ph);
#define NET_PHASE_ENTER(ph) net_phase_enter(ph)
#define NET_PHASE_LEAVE(ph) net_phase_leave(ph)
#else
#define NET_PHASE_ENTER(ph) ((void)0)
#define NET_PHASE_LEAVE(ph) ((void)0)
#endif

#endif /* NET_PHASE_H */
