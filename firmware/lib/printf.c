/*
 * printf.c - small formatted output: fw_vformat() plus printf/snprintf.
 */
#include "fwlibc.h"

static int emit_padded(void (*out)(char, void *), void *ctx, const char *s, int len, int width, int left,
                       char pad, int neg) {
  int n = 0, fill = width - len - neg;

  if (neg && pad == '0') {
    out('-', ctx);
    n++;
  }
  if (!left) {
    for (; fill > 0; fill--, n++) out(pad, ctx);
  }
  if (neg && pad != '0') {
    out('-', ctx);
    n++;
  }
  for (; len > 0; len--, n++) out(*s++, ctx);
  for (; fill > 0; fill--, n++) out(' ', ctx);
  return n;
}

int fw_vformat(void (*out)(char, void *), void *ctx, const char *fmt, va_list ap) {
  int count = 0;
  char buf[12];

  for (; *fmt; fmt++) {
    int left = 0, width = 0, neg = 0, len;
    char pad = ' ';
    const char *s;
    const char *digits = "0123456789abcdef";
    unsigned base = 10;
    uint32_t v;
    char *p;

    if (*fmt != '%') {
      out(*fmt, ctx);
      count++;
      continue;
    }
    fmt++;
    for (;; fmt++) {
      if (*fmt == '-')
        left = 1;
      else if (*fmt == '0')
        pad = '0';
      else
        break;
    }
    while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
    while (*fmt == 'l') fmt++;
    if (left) pad = ' ';

    switch (*fmt) {
      case '\0':
        return count;
      case '%':
        out('%', ctx);
        count++;
        continue;
      case 'c':
        buf[0] = (char)va_arg(ap, int);
        count += emit_padded(out, ctx, buf, 1, width, left, ' ', 0);
        continue;
      case 's':
        s = va_arg(ap, const char *);
        if (!s) s = "(null)";
        count += emit_padded(out, ctx, s, (int)strlen(s), width, left, ' ', 0);
        continue;
      case 'd':
      case 'i': {
        int32_t sv = va_arg(ap, int32_t);
        neg = sv < 0;
        v = neg ? 0u - (uint32_t)sv : (uint32_t)sv;
        break;
      }
      case 'u':
        v = va_arg(ap, uint32_t);
        break;
      case 'X':
        digits = "0123456789ABCDEF";
        /* fall through */
      case 'x':
        v = va_arg(ap, uint32_t);
        base = 16;
        break;
      case 'p':
        v = (uint32_t)(uintptr_t)va_arg(ap, void *);
        out('0', ctx);
        out('x', ctx);
        count += 2;
        base = 16;
        pad = '0';
        width = 8;
        left = 0;
        break;
      default: /* unknown conversion: print it verbatim */
        out('%', ctx);
        out(*fmt, ctx);
        count += 2;
        continue;
    }
    p = buf + sizeof(buf);
    do {
      *--p = digits[v % base];
      v /= base;
    } while (v);
    len = (int)(buf + sizeof(buf) - p);
    count += emit_padded(out, ctx, p, len, width, left, pad, neg);
  }
  return count;
}

/* ---- console ---- */
#include "bsp.h"
#include "apbuart.h"

int putchar(int c) {
  if (bsp_uart_base) apbuart_putc(bsp_uart_base, (char)c);
  return (unsigned char)c;
}

int puts(const char *s) {
  while (*s) putchar(*s++);
  putchar('\n');
  return 0;
}

static void out_console(char c, void *ctx) {
  (void)ctx;
  putchar(c);
}

int vprintf(const char *fmt, va_list ap) { return fw_vformat(out_console, 0, fmt, ap); }

int printf(const char *fmt, ...) {
  va_list ap;
  int n;

  va_start(ap, fmt);
  n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}

/* ---- string output ---- */
struct sbuf {
  char *buf;
  size_t size;
  size_t pos;
};

static void out_buf(char c, void *ctx) {
  struct sbuf *b = ctx;

  if (b->pos + 1 < b->size) b->buf[b->pos] = c;
  b->pos++;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap) {
  struct sbuf b = {buf, size, 0};
  int n = fw_vformat(out_buf, &b, fmt, ap);

  if (size) buf[b.pos < size ? b.pos : size - 1] = '\0';
  return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  int n;

  va_start(ap, fmt);
  n = vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  return n;
}
