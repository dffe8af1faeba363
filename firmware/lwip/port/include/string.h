/* string.h for lwIP on the board: the BSP's tiny libc (lib/fwlibc.h). */
#ifndef LWIP_PORT_STRING_H
#define LWIP_PORT_STRING_H
#include "fwlibc.h"
#endif
