/*
 * chksum_bench measures the stack's own checksum code: net_chksum.c is
 * compiled into this program directly (it needs nothing else of fw_net,
 * which only the net_* programs link). NET_CHECKSUM keeps its netopts.h
 * default here; it only decides net_chksum_selected, all four variants
 * are always built (hw without an engine is fast; chksum_hw_bench installs one).
 */
#include "../../net/net_chksum.c"
#include "../../net/net_chksum_hw.c"
