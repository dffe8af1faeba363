/* Measured regions for leon3vp (docs/timing.md, "Regions").
 *
 *   REGION_BEGIN(id);  ... code to measure ...  REGION_END(id);
 *
 * Each macro is one 32-bit store of `id` to APB slot 12 (0x80000C00 BEGIN,
 * 0x80000C04 END). That slot is empty on the GR-XC3S-1500 template: the
 * APB bridge drops the store, so on the board the markers cost exactly one
 * uncached store each (plus setting up the address) and change nothing else.
 * leon3vp puts an invisible marker device there and accumulates, per id,
 * cycles, instructions (by class), stalls, cache misses and entries between
 * the BEGIN store (included) and the END store (excluded); see --stats
 * "regions" and --profile.
 *
 * Ids are any 32-bit values; different ids may nest or overlap. The slot is
 * not in the plug&play table, so scans do not see it. Usable from assembly
 * too (REGION_MARKER_BASE, REGION_BEGIN_OFF, REGION_END_OFF).
 *
 *   REGION_NAME(id, "name");   at file scope
 *
 * names a region for the tools (the waveform's region signals, leon3vp
 * --vcd): a 64-byte record in the section ".l3vp.regions", which the linker
 * script keeps out of memory (INFO), so it costs the board nothing. Names are
 * 1..59 characters of A-Za-z0-9_.- (leon3vp rejects others).
 */
#ifndef REGION_H
#define REGION_H

#define REGION_MARKER_BASE 0x80000C00
#define REGION_BEGIN_OFF 0x0
#define REGION_END_OFF 0x4

#ifndef __ASSEMBLER__
#include <stdint.h>

#define REGION_BEGIN(id) (*(volatile uint32_t*)(REGION_MARKER_BASE + REGION_BEGIN_OFF) = (uint32_t)(id))
#define REGION_END(id) (*(volatile uint32_t*)(REGION_MARKER_BASE + REGION_END_OFF) = (uint32_t)(id))

struct region_name_rec {
  uint32_t id;
  char name[60];
};
#define REGION_NAME_CAT2(a, b) a##b
#define REGION_NAME_CAT(a, b) REGION_NAME_CAT2(a, b)
#define REGION_NAME(id, str)                                                         \
  static const struct region_name_rec REGION_NAME_CAT(region_name_rec_, __COUNTER__) \
      __attribute__((section(".l3vp.regions"), used, aligned(4))) = {(uint32_t)(id), str}
#endif

#endif /* REGION_H */
