/*
 * tcp_send_uip.h - the declarations of the uIP-style send model
 * (tcp_send_uip.c): none beyond struct tcp_conn's fields (tcp.h). The unit
 * includes the send model's header first (tcp_unit.cmake, tcp_send_buf.h).
 */
#ifndef TCP_SEND_UIP_H
#define TCP_SEND_UIP_H

#include "net.h"

#if !NET_TCP_UIP_SEND
#error "tcp_send_uip.c is the send model of NET_TCP_UIP_SEND=1 (tcp_send_buf.c is the other)"
#endif

#endif /* TCP_SEND_UIP_H */
