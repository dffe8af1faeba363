/*
 * net_phase.c - exclusive phase timing with a free-running timer and
 * leon3vp region markers (see net_phase.h).
 */
#include "net_phase.h"

const char *const net_phase_names[NET_PH_N] = {"driver", "copy", "ipchk", "l4chk", "proto", "appcopy", "app"};

#if NET_PHASES
#include "region.h"

/* Names of the phase regions for the tools (leon3vp --vcd regions.*). */
REGION_NAME(NET_PH_REGION(NET_PH_DRIVER), "net.driver");
REGION_NAME(NET_PH_REGION(NET_PH_COPY), "net.copy");
REGION_NAME(NET_PH_REGION(NET_PH_IPCHK), "net.ipchk");
REGION_NAME(NET_PH_REGION(NET_PH_L4CHK), "net.l4chk");
REGION_NAME(NET_PH_REGION(NET_PH_PROTO), "net.proto");
REGION_NAME(NET_PH_REGION(NET_PH_APPCOPY), "net.appcopy");
REGION_NAME(NET_PH_REGION(NET_PH_APP), "net.app");

struct net_phases net_phases;

/* All run-time state in one place: one address to form per hook. */
static struct {
  const volatile uint32_t *clock; /* NULL: measurement off */
  uint32_t last;                  /* counter value at the last transition */
  unsigned depth;
  uint32_t tick_hz;
  uint8_t stack[NET_PH_DEPTH];
} ph;

void net_phase_start(const volatile uint32_t *clock, uint32_t tick_hz) {
  unsigned i;

  for (i = 0; i < NET_PH_N; i++) {
    net_phases.ticks[i] = 0;
    net_phases.count[i] = 0;
  }
  net_phases.overflow = 0;
  net_phases.mismatch = 0;
  ph.depth = 0;
  ph.tick_hz = clock ? tick_hz : 0;
  ph.clock = clock;
}

uint32_t net_phase_tick_hz(void) { return ph.tick_hz; }

#define MARK_BEGIN(id) (*(volatile uint32_t *)(REGION_MARKER_BASE + REGION_BEGIN_OFF) = (id))
#define MARK_END(id) (*(volatile uint32_t *)(REGION_MARKER_BASE + REGION_END_OFF) = (id))

/* The timer read sits right between the marker stores of a transition
 * (END of the phase that stops, read, BEGIN of the phase that starts), so
 * the firmware's intervals and the simulator's regions differ only by
 * those few instructions at each end. */
void net_phase_enter(unsigned p) {
  const volatile uint32_t *clock = ph.clock;
  unsigned depth = ph.depth;
  uint32_t now;

  if (!clock) return;
  if (depth == NET_PH_DEPTH) {
    net_phases.overflow++;
    return;
  }
  if (depth) { /* pause the running phase */
    unsigned cur = ph.stack[depth - 1];
    MARK_END(NET_PH_REGION(cur));
    now = *clock;
    MARK_BEGIN(NET_PH_REGION(p));
    net_phases.ticks[cur] += ph.last - now; /* the counter counts down */
  } else {
    now = *clock;
    MARK_BEGIN(NET_PH_REGION(p));
  }
  ph.stack[depth] = (uint8_t)p;
  ph.depth = depth + 1;
  ph.last = now;
  net_phases.count[p]++;
}

void net_phase_leave(unsigned p) {
  const volatile uint32_t *clock = ph.clock;
  unsigned depth = ph.depth;
  uint32_t now;

  if (!clock) return;
  if (depth == 0 || ph.stack[depth - 1] != p) {
    /* An enter that overflowed, or unbalanced hooks: keep the stack. */
    if (net_phases.overflow == 0 || depth != NET_PH_DEPTH) net_phases.mismatch++;
    return;
  }
  MARK_END(NET_PH_REGION(p));
  now = *clock;
  if (--depth) /* resume the phase this one interrupted */
    MARK_BEGIN(NET_PH_REGION(ph.stack[depth - 1]));
  net_phases.ticks[p] += ph.last - now;
  ph.depth = depth;
  ph.last = now;
}
#endif
