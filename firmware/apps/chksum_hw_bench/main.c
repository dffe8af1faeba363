/*
 * chksum_hw_bench - chksum_bench (../chksum_bench/main.c) with a fourth
 * variant, hw, on the checksum engine (drivers/chksum.c; run with leon3vp
 * --set chksum.enable=true, else it exits 2). Every length goes to the
 * engine (threshold 1), so the regions of variant 3 measure the engine's
 * whole cost: register writes, the DMA, the polls. Built from the same
 * sources, so the software variants run the same code as in chksum_bench.
 */
#define CHKSUM_BENCH_HW 1
#include "../chksum_bench/main.c"
#include "../chksum_bench/net_chksum_impl.c"
#include "../../drivers/chksum.c"
