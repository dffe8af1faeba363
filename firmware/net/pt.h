/*
 * pt.h - protothreads: stackless threads for event-driven code.
 *
 * A protothread is a function that returns whenever it has to wait and,
 * when called again, resumes where it stopped. The resume point is a line
 * number kept in `struct pt`; PT_BEGIN opens a switch on it and every wait
 * point is a `case __LINE__:` label inside that switch (the C switch may
 * jump into nested blocks). Consequences:
 *  - local variables do not survive a wait: keep state in a struct;
 *  - at most one wait point per source line;
 *  - no `switch` of your own may enclose a wait point.
 *
 *   static PT_THREAD(blink(struct pt *pt)) {
 *     PT_BEGIN(pt);
 *     for (;;) { PT_WAIT_UNTIL(pt, tick_due()); toggle(); }
 *     PT_END(pt);
 *   }
 */
#ifndef NET_PT_H
#define NET_PT_H

struct pt {
  unsigned short resume; /* 0: start; else the line to continue at */
};

/* Return values of a protothread function. */
#define PT_WAITING 0 /**< blocked in PT_WAIT_* */
#define PT_YIELDED 1 /**< gave up the processor in PT_YIELD */
#define PT_EXITED 2  /**< left with PT_EXIT */
#define PT_ENDED 3   /**< ran to PT_END */

/** Declare a protothread function. */
#define PT_THREAD(name_and_args) char name_and_args

/** (Re)start the thread from the top on its next call. */
#define PT_INIT(p) ((p)->resume = 0)

#define PT_BEGIN(p)        \
  {                        \
    char pt_yielding_ = 1; \
    (void)pt_yielding_;    \
    switch ((p)->resume) { \
      case 0:

#define PT_END(p)    \
  default:           \
    break;           \
    }                \
    PT_INIT(p);      \
    return PT_ENDED; \
    }

/** Block until cond is true (evaluated on every call). */
#define PT_WAIT_UNTIL(p, cond) \
  do {                         \
    (p)->resume = __LINE__;    \
    /* FALLTHROUGH */          \
    case __LINE__:             \
      if (!(cond)) {           \
        return PT_WAITING;     \
      }                        \
  } while (0)

#define PT_WAIT_WHILE(p, cond) PT_WAIT_UNTIL(p, !(cond))

/** Run a child protothread until it exits or ends. */
#define PT_WAIT_THREAD(p, thread) PT_WAIT_WHILE(p, PT_SCHEDULE(thread))

/** Initialise a child and wait for it. */
#define PT_SPAWN(p, child, thread) \
  do {                             \
    PT_INIT(child);                \
    PT_WAIT_THREAD(p, thread);     \
  } while (0)

/** Return once, continue here on the next call. */
#define PT_YIELD(p)            \
  do {                         \
    pt_yielding_ = 0;          \
    (p)->resume = __LINE__;    \
    /* FALLTHROUGH */          \
    case __LINE__:             \
      if (pt_yielding_ == 0) { \
        return PT_YIELDED;     \
      }                        \
  } while (0)

/** Leave the thread; the next call starts it from the top. */
#define PT_EXIT(p)    \
  do {                \
    PT_INIT(p);       \
    return PT_EXITED; \
  } while (0)

/** Start over from the top on the next call. */
#define PT_RESTART(p)  \
  do {                 \
    PT_INIT(p);        \
    return PT_WAITING; \
  } while (0)

/** Call a thread; true while it is still running (waiting or yielded). */
#define PT_SCHEDULE(call) ((call) < PT_EXITED)

#endif /* NET_PT_H */
