/* bench_compute_nocache - the bench_compute workload with both caches
 * turned off at the start of main (CCR = 0) and 10 rounds (about ten million
 * instructions): the speed of the uncached paths (scripts/bench-speed
 * --callgrind). */
#define BENCH_CACHES_OFF 1
#define BENCH_ROUNDS 10
#include "../bench_compute/main.c"
