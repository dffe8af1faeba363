/*
 * result.h - JSON result lines on the console UART.
 *
 * The tools (run_net.py, scripts/experiment, scripts/measure-net) read a
 * program's results from lines of the form
 *
 *   {"app":"<program>","type":"<type>","key":value,...}
 *
 * one JSON object per line; a program prints them at its end (the UART is
 * slow: 38400 baud, a line takes tens of ms). Experiment metrics address
 * them as uart.<type>.<key> (docs/experiments.md).
 *
 *   result_app("my_prog");
 *   result_begin("result");
 *   result_u("datagrams", n);
 *   result_s("mode", "irq");
 *   result_end();
 */
#ifndef L3VP_RESULT_H
#define L3VP_RESULT_H

#include <stdint.h>

/* The "app" of every following line (default "fw"). */
void result_app(const char *name);
void result_begin(const char *type);
void result_u(const char *key, uint32_t v);    /* ,"key":v */
void result_s(const char *key, const char *v); /* ,"key":"v" (no escaping) */
void result_ip(const char *key, uint32_t ip);  /* ,"key":"a.b.c.d" (host order) */
/* ,"key":v with one decimal of v/10 (e.g. microseconds from 0.1 us ticks) */
void result_tenths(const char *key, uint32_t tenths);
void result_end(void); /* }\n */

/* A uint32_t counter of a struct, printed under `key`: a table of these
 * prints a struct of counters as one line, so adding a counter is a row. */
struct result_counter {
  const char *key;
  uint16_t offset; /* offsetof() of the uint32_t in the struct */
};
/* ,"key":value for each of the n rows, read from the struct at `base`. */
void result_counters(const void *base, const struct result_counter *rows, unsigned n);

#endif /* L3VP_RESULT_H */
