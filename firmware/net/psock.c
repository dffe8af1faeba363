/*
 * psock.c - protosocket operations (see psock.h).
 */
#include "net.h"
#include "psock.h"

void psock_init(struct psock *ps, struct tcp_conn *conn, uint8_t *buf, unsigned bufsize) {
  NET_ERROR("psock_init: ps == NULL", ps != NULL, return );
  memset(ps, 0, sizeof *ps);
  PT_INIT(&ps->pt);
  ps->conn = conn;
  ps->buf = buf;
  ps->bufsize = (uint16_t)(bufsize > 0xffffu ? 0xffffu : bufsize);
}

void psock_feed(struct psock *ps, unsigned events) {
  ps->discarded += ps->inleft; /* last callback's data is gone */
  ps->events = events;
  if (events & NET_EV_NEWDATA) {
    ps->in = tcp_appdata;
    ps->inleft = tcp_applen;
  } else {
    ps->in = NULL;
    ps->inleft = 0;
  }
}

/*--------------------------------------------------------------------------*/
int psock_readto_step(struct psock *ps, uint8_t delim) {
  if (!ps->reading) {
    ps->reading = 1;
    ps->readlen = 0;
  }
  while (ps->inleft > 0) {
    uint8_t b = *ps->in++;
    ps->inleft--;
    if (ps->readlen < ps->bufsize) {
      ps->buf[ps->readlen++] = b;
    }
    if (b == delim || ps->readlen >= ps->bufsize) {
      ps->reading = 0;
      return 1;
    }
  }
  return 0;
}

/*--------------------------------------------------------------------------*/
#if !NET_TCP_UIP_SEND
/* The stack copies into its send buffer: the send completes when all the
 * data is in it (the caller's buffer is free again); more room comes with
 * NET_EV_ACKED. */
int psock_send_step(struct psock *ps, const void *data, unsigned len) {
  int n;
  if (!ps->sending) {
    ps->sending = 1;
    ps->out = (const uint8_t *)data;
    ps->outleft = (uint16_t)len;
  }
  if (ps->events & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) {
    ps->sending = 0; /* connection gone: give up */
    return 1;
  }
  n = ps->outleft ? tcp_send(ps->conn, ps->out, ps->outleft) : 0;
  if (n > 0) {
    ps->out += n;
    ps->outleft = (uint16_t)(ps->outleft - n);
  }
  if (ps->outleft == 0) {
    ps->sending = 0;
    return 1;
  }
  return 0;
}
#else
int psock_send_step(struct psock *ps, const void *data, unsigned len) {
  if (!ps->sending) {
    ps->sending = 1;
    ps->out = (const uint8_t *)data;
    ps->outleft = (uint16_t)len;
    ps->outchunk = 0;
  }
  if ((ps->events & NET_EV_ACKED) && ps->outchunk) {
    ps->out += ps->outchunk;
    ps->outleft = (uint16_t)(ps->outleft - ps->outchunk);
    ps->outchunk = 0;
  }
  if (ps->outleft == 0) {
    ps->sending = 0;
    return 1;
  }
  if (ps->events & (NET_EV_ABORTED | NET_EV_TIMEDOUT)) {
    ps->sending = 0; /* connection gone: give up */
    return 1;
  }
  if ((ps->events & NET_EV_REXMIT) && ps->outchunk) {
    tcp_send(ps->conn, ps->out, ps->outchunk);
  } else if (ps->outchunk == 0) {
    unsigned n = tcp_sndmax(ps->conn);
    if (n > ps->outleft) {
      n = ps->outleft;
    }
    if (n > 0 && tcp_send(ps->conn, ps->out, n) == (int)n) {
      ps->outchunk = (uint16_t)n;
    }
  }
  return 0;
}
#endif
