/*
 * bench_compute - compute-heavy speed benchmark for the simulator itself
 * (scripts/bench-speed, docs/performance.md).
 *
 * Three kernels, all on data in SDRAM, no device access inside the loops
 * (the UART is only used for the result lines at the end):
 *   1. checksums:  Fletcher-32-style and CRC-32 (bitwise, table-free) over a
 *                  4 KiB buffer
 *   2. memcpy:     copies of several sizes/alignments through the libc memcpy
 *   3. protocol:   build UDP/IPv4-like packets (header fields, big-endian
 *                  stores), compute the Internet checksum, parse them back
 *                  with a small state machine, keep per-port statistics
 *
 * BENCH_ROUNDS scales the run: the default (1000) executes a few hundred
 * million instructions; bench_compute_short defines it as 1 (about one
 * million instructions, cheap enough for a golden test). The output is
 * deterministic and identical on leon3vp (both modes) and QEMU.
 */
#include <stdint.h>

#include "bsp.h"
#include "fwlibc.h"

#ifndef BENCH_ROUNDS
#define BENCH_ROUNDS 1000
#endif

#define BUF_BYTES 4096u

struct port_stats {
  uint32_t packets, bytes, sum;
};

/* Every variable the kernels write lives in this page-aligned block, so no
 * written data shares a 4 KiB page with code: QEMU (the comparison in
 * scripts/bench-speed) would otherwise retranslate that page's code after
 * every store and run several times slower than it can. */
static struct {
  uint8_t buf_a[BUF_BYTES];
  uint8_t buf_b[BUF_BYTES + 8];
  struct port_stats ports[16];
  uint32_t rng_state;
} bench __attribute__((aligned(4096)));
#define buf_a bench.buf_a
#define buf_b bench.buf_b
#define ports bench.ports

static uint32_t rng(void) { return fw_xorshift32(&bench.rng_state); }

/* ---- 1. checksums ------------------------------------------------------ */
static uint32_t fletcher32(const uint8_t *p, uint32_t n) {
  uint32_t s1 = 0xffff, s2 = 0xffff;
  while (n) {
    uint32_t blk = n > 360 ? 360 : n;
    n -= blk;
    while (blk--) {
      s1 += *p++;
      s2 += s1;
    }
    s1 = (s1 & 0xffff) + (s1 >> 16);
    s2 = (s2 & 0xffff) + (s2 >> 16);
  }
  return (s2 << 16) | s1;
}

static uint32_t crc32_bitwise(const uint8_t *p, uint32_t n, uint32_t crc) {
  crc = ~crc;
  while (n--) {
    crc ^= *p++;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

/* ---- 2. memcpy ----------------------------------------------------------- */
static uint32_t copy_round(uint32_t round) {
  static const uint32_t sizes[] = {16, 64, 200, 1024, 1500, 4096};
  uint32_t acc = 0;
  for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
    uint32_t off = (round + i) & 7u;
    uint32_t len = sizes[i];
    if (len + off > BUF_BYTES) len = BUF_BYTES - off;
    memcpy(buf_b + off, buf_a, len);
    acc = acc * 31u + buf_b[off + len - 1] + buf_b[off];
    memcpy(buf_a, buf_b + off, len); /* and back (unaligned source) */
  }
  return acc;
}

/* ---- 3. protocol-like workload ------------------------------------------ */
static void put16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static void put32(uint8_t *p, uint32_t v) {
  put16(p, v >> 16);
  put16(p + 2, v);
}
static uint32_t get16(const uint8_t *p) { return ((uint32_t)p[0] << 8) | p[1]; }
static uint32_t get32(const uint8_t *p) { return (get16(p) << 16) | get16(p + 2); }

static uint32_t inet_sum(const uint8_t *p, uint32_t n, uint32_t sum) {
  const uint16_t *w = (const uint16_t *)p; /* big-endian target: host order = network order */
  while (n > 1) {
    sum += *w++;
    n -= 2;
  }
  if (n) sum += (uint32_t)(*(const uint8_t *)w) << 8;
  return sum;
}
static uint32_t fold(uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return sum;
}

/* Builds one packet in buf_b: 20-byte IPv4 header + 8-byte UDP header + payload. */
static uint32_t build_packet(uint32_t seq, uint32_t plen) {
  uint8_t *ip = buf_b;
  uint8_t *udp = ip + 20;
  uint8_t *pl = udp + 8;
  for (uint32_t i = 0; i < plen; ++i) pl[i] = (uint8_t)(seq * 7u + i * 13u);
  ip[0] = 0x45;
  ip[1] = 0;
  put16(ip + 2, 28 + plen);
  put16(ip + 4, seq & 0xffff);
  put16(ip + 6, 0x4000);
  ip[8] = 64;
  ip[9] = 17;
  put16(ip + 10, 0);
  put32(ip + 12, 0x0a000001u + (seq & 0xff));
  put32(ip + 16, 0x0a000002u);
  put16(ip + 10, ~fold(inet_sum(ip, 20, 0)) & 0xffff);
  put16(udp + 0, 1024 + (seq & 15));
  put16(udp + 2, 7);
  put16(udp + 4, 8 + plen);
  put16(udp + 6, 0);
  uint32_t ph = 0x0a00 + 0x0001 + (seq & 0xff) + 0x0a00 + 0x0002 + 17 + 8 + plen;
  uint32_t c = ~fold(inet_sum(udp, 8 + plen, ph)) & 0xffff;
  put16(udp + 6, c ? c : 0xffff);
  return 28 + plen;
}

enum { ST_IP, ST_UDP, ST_DATA, ST_DONE, ST_DROP };

/* Parses the packet with a byte-oriented state machine; returns 1 if accepted. */
static int parse_packet(const uint8_t *p, uint32_t len) {
  int st = ST_IP;
  uint32_t pos = 0, ulen = 0, port = 0, sum = 0;
  while (st != ST_DONE && st != ST_DROP) {
    switch (st) {
      case ST_IP:
        if ((p[0] >> 4) != 4 || get16(p + 2) != len || p[9] != 17 || fold(inet_sum(p, 20, 0)) != 0xffff)
          st = ST_DROP;
        else {
          pos = (p[0] & 15u) * 4u;
          st = ST_UDP;
        }
        break;
      case ST_UDP:
        port = get16(p + pos);
        ulen = get16(p + pos + 4);
        if (ulen + pos != len)
          st = ST_DROP;
        else {
          uint32_t ph = get16(p + 12) + get16(p + 14) + get16(p + 16) + get16(p + 18) + 17 + ulen;
          st = fold(inet_sum(p + pos, ulen, ph)) == 0xffff ? ST_DATA : ST_DROP;
        }
        break;
      case ST_DATA:
        for (uint32_t i = pos + 8; i < len; ++i) sum = (sum << 1 | sum >> 31) ^ p[i];
        st = ST_DONE;
        break;
    }
  }
  if (st == ST_DROP) return 0;
  struct port_stats *ps = &ports[port & 15];
  ps->packets++;
  ps->bytes += len;
  ps->sum += sum ^ get32(p + 12);
  return 1;
}

static uint32_t protocol_round(uint32_t round) {
  uint32_t accepted = 0;
  for (uint32_t k = 0; k < 24; ++k) {
    uint32_t seq = round * 24u + k;
    uint32_t len = build_packet(seq, 18 + (rng() % 1000));
    if (k % 11 == 5) buf_b[30] ^= 0x40; /* corrupt some payloads: dropped */
    accepted += (uint32_t)parse_packet(buf_b, len);
  }
  return accepted;
}

int main(void) {
  uint32_t fl = 0, crc = 0, cp = 0, acc = 0;
#ifdef BENCH_CACHES_OFF
  /* Both caches off (CCR = 0): every fetch and load goes to the bus. */
  __asm__ volatile("sta %%g0, [%%g0] 2" ::: "memory");
#endif
  bench.rng_state = 0x12345678u;
  for (uint32_t i = 0; i < BUF_BYTES; ++i) buf_a[i] = (uint8_t)rng();
  for (uint32_t r = 0; r < BENCH_ROUNDS; ++r) {
    fl ^= fletcher32(buf_a, BUF_BYTES) + r;
    crc = crc32_bitwise(buf_a, 512, crc);
    cp = cp * 33u + copy_round(r);
    acc += protocol_round(r);
    buf_a[r & (BUF_BYTES - 1)] ^= (uint8_t)crc;
  }
  uint32_t pst = 0;
  for (unsigned i = 0; i < 16; ++i) pst = pst * 131u + ports[i].packets + ports[i].bytes + ports[i].sum;
  printf("bench_compute: rounds %u\n", (unsigned)BENCH_ROUNDS);
  printf("bench_compute: fletcher %08x crc %08x copy %08x\n", (unsigned)fl, (unsigned)crc, (unsigned)cp);
  printf("bench_compute: packets %u ports %08x\n", (unsigned)acc, (unsigned)pst);
  printf("bench_compute: done\n");
  return 0;
}
