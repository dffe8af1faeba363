/* The stream checker of leon3vp (models/platform/stream_check.h,
 * docs/network.md "Checking received data").
 *
 *   STREAM_CHECK(id, data, len);
 *
 * hands a piece of received data of stream `id` (any 32-bit number, e.g. a
 * connection's) to the simulator, which compares its bytes with the
 * simulated host's stream pattern (byte i of a stream = i mod 251) in zero
 * simulated time; a new id starts at stream offset 0, each piece continues
 * where the last one of its id ended. Results are in --stats
 * "stream_check" (bytes, bad_bytes, per-stream table), not visible to the
 * firmware.
 *
 * Three 32-bit stores to APB slot 11 (0x80000B00), which is empty on the
 * GR-XC3S-1500 template: on the board the APB bridge drops them, so they
 * cost three uncached stores there as here and change nothing else.
 */
#ifndef STREAMCHECK_H
#define STREAMCHECK_H

#include <stdint.h>

#define STREAM_CHECK_BASE 0x80000B00
#define STREAM_CHECK_SELECT_OFF 0x0
#define STREAM_CHECK_ADDR_OFF 0x4
#define STREAM_CHECK_LEN_OFF 0x8

#define STREAM_CHECK(id, data, len)                                                                  \
  do {                                                                                               \
    *(volatile uint32_t *)(STREAM_CHECK_BASE + STREAM_CHECK_SELECT_OFF) = (uint32_t)(id);            \
    *(volatile uint32_t *)(STREAM_CHECK_BASE + STREAM_CHECK_ADDR_OFF) = (uint32_t)(uintptr_t)(data); \
    *(volatile uint32_t *)(STREAM_CHECK_BASE + STREAM_CHECK_LEN_OFF) = (uint32_t)(len);              \
  } while (0)

#endif
