/* stdio.h for lwIP on the board: printf comes from the BSP (lib/fwlibc.h),
 * through arch/cc.h. */
#ifndef LWIP_PORT_STDIO_H
#define LWIP_PORT_STDIO_H
#include "fwlibc.h"
#endif
