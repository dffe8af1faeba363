/* bench_compute_short - the bench_compute workload with one round (about one
 * million instructions): cheap enough for a golden test. */
#define BENCH_ROUNDS 1
#include "../bench_compute/main.c"
