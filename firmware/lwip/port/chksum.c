/*
 * chksum.c - the checksum routine lwIP uses for every Internet checksum
 * (LWIP_CHKSUM, lwipopts.h): lwIP's own 32-bit algorithm or our stack's
 * net_chksum_fast (firmware/net/net_chksum.c), chosen at build time with
 * the CMake option LWIP_CHKSUM=lwip|net. Both return the folded one's
 * complement sum, not complemented, in network order (= host order on
 * SPARC). The call is the port's L4CHK phase: lwIP sums the IP header
 * through the same routine, so the port cannot tell the two apart (IPCHK
 * stays empty; firmware/lwip/README.md).
 */
#include "lwip/opt.h"
#include "net_chksum.h"
#include "net_phase.h"

#if LWIP_PORT_CHKSUM_NET
const char *const lwip_port_chksum_name = "net_fast";
#else
u16_t lwip_standard_chksum(const void *dataptr, int len);
const char *const lwip_port_chksum_name = "lwip";
#endif

uint16_t lwip_port_chksum(const void *data, int len) {
  uint16_t s;

  NET_PHASE_ENTER(NET_PH_L4CHK);
#if LWIP_PORT_CHKSUM_NET
  s = net_chksum_fast(0, data, (unsigned)len);
#else
  s = lwip_standard_chksum(data, len);
#endif
  NET_PHASE_LEAVE(NET_PH_L4CHK);
  return s;
}
