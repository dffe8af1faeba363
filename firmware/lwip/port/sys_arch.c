/*
 * sys_arch.c - what lwIP (NO_SYS) needs of the platform: the time in
 * milliseconds, random numbers and the assertion handler.
 */
#include "arch/cc.h"
#include "bsp.h"
#include "lwip/sys.h"
#include "lwipapp.h"
#include "result.h"
#include "tick.h"

/* lwIP's timers (sys_check_timeouts) run on the GPTIMER's 1 ms tick. */
u32_t sys_now(void) { return tick_ms(); }

static uint32_t rand_state = 1;

void lwip_port_seed(uint32_t seed) { rand_state = seed ? seed : 1; }

unsigned lwip_port_rand(void) { return fw_xorshift32(&rand_state); }

void lwip_port_assert(const char *msg, int line, const char *file) {
  result_begin("error");
  result_s("what", "lwip assertion");
  result_s("msg", msg);
  result_s("file", file);
  result_u("line", (uint32_t)line);
  result_end();
  exit(LWIPAPP_EXIT_ASSERT);
}
