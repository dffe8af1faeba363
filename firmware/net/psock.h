/*
 * psock.h - protosockets: sequential-looking TCP code on top of the
 * event-driven interface, built from protothreads (pt.h).
 *
 * Use: keep a struct psock per connection (e.g. in the application state
 * that conn->arg points to). In the connection's callback call
 * psock_feed(&ps, events) and then the protothread that uses the PSOCK_*
 * macros:
 *
 *   static PT_THREAD(greeter(struct psock *ps)) {
 *     PSOCK_BEGIN(ps);
 *     PSOCK_SEND_STR(ps, "name?\n");
 *     PSOCK_READTO(ps, '\n');
 *     PSOCK_SEND_STR(ps, "bye\n");
 *     PSOCK_CLOSE(ps);
 *     PSOCK_END(ps);
 *   }
 *
 * Limits: received data is only valid during one callback (no receive
 * buffering in the stack), so input left over when the thread blocks on
 * something else is discarded (counted in ps->discarded); data given to
 * PSOCK_SEND must stay valid until the send completes (it is re-read on
 * retransmission).
 */
#ifndef NET_PSOCK_H
#define NET_PSOCK_H

#include "pt.h"
#include "tcp.h"

struct psock {
  struct pt pt;
  struct tcp_conn *conn;
  unsigned events; /* events of the current callback */
  uint8_t *buf;    /* read buffer */
  uint16_t bufsize;
  uint16_t readlen; /* bytes in buf from the last completed read */
  uint8_t reading;
  uint8_t sending;
  const uint8_t *in; /* unread input of the current callback */
  uint16_t inleft;
  const uint8_t *out; /* unsent/unacknowledged part of a PSOCK_SEND */
  uint16_t outleft;
  uint16_t outchunk;  /* bytes of it in flight */
  uint32_t discarded; /* input bytes dropped (see above) */
};

/** Bind a protosocket to a connection with a read buffer. */
void psock_init(struct psock *ps, struct tcp_conn *conn, uint8_t *buf, unsigned bufsize);

/** Give the protosocket the events (and data) of the current callback. */
void psock_feed(struct psock *ps, unsigned events);

/* Steps behind the macros: return 1 when the operation has completed. */
int psock_readto_step(struct psock *ps, uint8_t delim);
int psock_send_step(struct psock *ps, const void *data, unsigned len);

#define PSOCK_INIT(ps, conn, buf, size) psock_init(ps, conn, buf, size)
#define PSOCK_BEGIN(ps) PT_BEGIN(&(ps)->pt)
#define PSOCK_END(ps) PT_END(&(ps)->pt)
#define PSOCK_EXIT(ps) PT_EXIT(&(ps)->pt)

/** Read into the buffer up to and including `c`, or until it is full. */
#define PSOCK_READTO(ps, c) PT_WAIT_UNTIL(&(ps)->pt, psock_readto_step(ps, c))

/** Send `len` bytes: default build, until all of them are in the stack's
 *  send buffer; NET_TCP_UIP_SEND, in MSS/window-sized segments until they
 *  are acknowledged (the data must stay valid until then). */
#define PSOCK_SEND(ps, data, len) PT_WAIT_UNTIL(&(ps)->pt, psock_send_step(ps, data, len))

/** Send a NUL-terminated string. */
#define PSOCK_SEND_STR(ps, str) PT_WAIT_UNTIL(&(ps)->pt, psock_send_step(ps, str, (unsigned)strlen(str)))

/** Close the connection (FIN once everything sent is acknowledged). */
#define PSOCK_CLOSE(ps) tcp_close((ps)->conn)

/** Close and leave the thread. */
#define PSOCK_CLOSE_EXIT(ps) \
  do {                       \
    PSOCK_CLOSE(ps);         \
    PSOCK_EXIT(ps);          \
  } while (0)

/** Bytes read by the last PSOCK_READTO. */
#define PSOCK_DATALEN(ps) ((ps)->readlen)

/** True if unread input is available in this callback. */
#define PSOCK_NEWDATA(ps) ((ps)->inleft > 0)

#define PSOCK_WAIT_UNTIL(ps, cond) PT_WAIT_UNTIL(&(ps)->pt, cond)

/** True if the connection ended (peer FIN, reset or timeout). */
#define PSOCK_PEER_GONE(ps) (((ps)->events & (NET_EV_CLOSED | NET_EV_ABORTED | NET_EV_TIMEDOUT)) != 0)

#endif /* NET_PSOCK_H */
