// Cycle-accurate C++ bench around the verilated chksum (Vchksum): an APB
// master, an AHB arbiter (parked grant or a random grant delay) and an AHB
// slave memory with wait states and an ERROR address, plus a checker of the
// burst rules of rtl/chksum/README.md. Used by the random test and the
// RTL-versus-TLM comparison.
#pragma once

#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vchksum.h"
#include "verilated.h"

namespace l3vp::rtl_test {

// RFC 1071 by the book: big-endian 16-bit words from the buffer's start, an
// odd last byte padded with zero, carries kept in a wide sum, folded at the end.
inline uint16_t ref_checksum(const uint8_t* p, size_t len, uint16_t init) {
  uint64_t acc = init;
  for (size_t i = 0; i + 1 < len; i += 2) acc += (uint32_t(p[i]) << 8) | p[i + 1];
  if (len & 1) acc += uint32_t(p[len - 1]) << 8;
  while (acc >> 16) acc = (acc & 0xFFFF) + (acc >> 16);
  return uint16_t(acc);
}

// Number of bursts the contract prescribes for nwords words from word address
// first (<= 16 beats, none across 1 KiB).
inline unsigned ref_bursts(uint32_t first_byte, uint32_t nwords) {
  unsigned b = 0;
  uint32_t a = first_byte & ~3u;
  while (nwords) {
    uint32_t to_kib = (1024 - (a & 1023)) / 4;
    uint32_t n = std::min<uint32_t>({16, nwords, to_kib});
    a += 4 * n;
    nwords -= n;
    ++b;
  }
  return b;
}

struct BusConfig {
  unsigned wait_min = 0, wait_max = 0;  // wait states per data beat, uniform
  bool parked_grant = true;             // hgrant always 1 (no other master)
  unsigned grant_delay_max = 0;         // else: request-to-grant delay 0..max clocks
  unsigned steal_percent = 0;           // per clock: chance the grant is withdrawn
  uint32_t err_addr = 0xFFFFFFFF;       // word that answers ERROR (none by default)
};

struct RunResult {
  uint32_t status = 0, sum = 0;
  uint64_t start_edge = 0;  // edge that took the START write
  uint64_t done_edge = 0;   // edge at which DONE (and the IRQ pulse) rose
  uint64_t last_beat = 0;   // edge at which the last data beat completed
  unsigned beats = 0, bursts = 0, max_burst = 0, irq_pulses = 0, irq_width_bad = 0;
  std::vector<std::string> violations;
};

class ChksumBench {
 public:
  static constexpr uint32_t kMemBase = 0x40000000;
  static constexpr uint32_t kMemSize = 16384;

  // The last 64 KiB of the address space answer top_word(address): buffers
  // that run past 0xFFFFFFFF.
  static constexpr uint32_t kTopBase = 0xFFFF0000;
  static uint32_t top_word(uint32_t a) { return (a & ~3u) * 0x9E3779B1u ^ 0x5A5A0F0Fu; }

  explicit ChksumBench(uint64_t seed = 1) : rng_(seed), mem_(kMemSize) {
    ctx_.reset(new VerilatedContext);
    m_.reset(new Vchksum(ctx_.get()));
    m_->rstn = 0;
    m_->hready = 1;
    m_->hresp = 0;
    m_->hgrant = 1;
    for (int i = 0; i < 3; ++i) edge();
    m_->rstn = 1;
  }
  ~ChksumBench() { m_->final(); }

  std::vector<uint8_t>& mem() { return mem_; }
  std::mt19937_64& rng() { return rng_; }
  BusConfig bus;
  uint64_t edges() const { return edges_; }

  void apb_write(uint32_t off, uint32_t v) {
    m_->psel = 1;
    m_->penable = 0;
    m_->pwrite = 1;
    m_->paddr = 0x80000500 + off;
    m_->pwdata = v;
    edge();
    m_->penable = 1;
    edge();
    m_->psel = m_->penable = m_->pwrite = 0;
  }
  uint32_t apb_read(uint32_t off) {
    m_->psel = 1;
    m_->penable = 0;
    m_->pwrite = 0;
    m_->paddr = 0x80000500 + off;
    edge();
    m_->penable = 1;
    m_->eval();
    uint32_t v = m_->prdata;  // sampled at the edge that ends the access
    edge();
    m_->psel = m_->penable = 0;
    return v;
  }

  // One operation: ADDR, LEN, SUM, then START|IE; runs until DONE and two
  // more clocks (to see the IRQ pulse end), then reads STATUS and SUM.
  RunResult run(uint32_t addr, uint32_t len, uint16_t init) {
    r_ = RunResult{};
    cov_lo_ = addr & ~3u;
    // A buffer past 0xFFFFFFFF: the engine reads up to the top word only.
    cov_hi_ = len ? uint32_t(std::min<uint64_t>(uint64_t(addr) + len - 1, 0xFFFFFFFFu) & ~3u) : 0;
    expect_ = cov_lo_;
    len_ = len;
    apb_write(0x08, addr);
    apb_write(0x0C, len);
    apb_write(0x10, init);
    apb_write(0x00, 3);
    r_.start_edge = edges_;
    for (unsigned guard = 0; !r_.done_edge; ++guard) {
      edge();
      if (guard > 200000) {
        r_.violations.push_back("no DONE");
        return r_;
      }
    }
    edge();
    edge();
    r_.status = apb_read(0x04);
    r_.sum = apb_read(0x10);
    apb_write(0x04, 6);
    return r_;
  }

  // One rising clock edge. The slave, arbiter and checker look at the
  // values before the edge (the DUT's registered outputs) and drive their
  // registered outputs for the next cycle after it.
  void edge() {
    m_->clk = 0;
    m_->eval();
    const uint8_t htrans = m_->htrans;
    const uint32_t haddr = m_->haddr;
    const bool hready = m_->hready;
    const bool hbusreq = m_->hbusreq;
    const bool irq = m_->irq;
    m_->clk = 1;
    m_->eval();
    ++edges_;
    // IRQ: a one-clock pulse. `irq` was set by the previous edge.
    if (irq) {
      ++r_.irq_pulses;
      if (irq_prev_) ++r_.irq_width_bad;
      if (!r_.done_edge) r_.done_edge = edges_ - 1;
    }
    irq_prev_ = irq;
    slave_edge(htrans, haddr, hready);
    arbiter_edge(hbusreq, hready);
    m_->eval();
  }

 private:
  void violation(const std::string& s) {
    if (r_.violations.size() < 10) r_.violations.push_back(s);
  }

  uint32_t mem_word(uint32_t a) const {
    if (a >= kTopBase) return top_word(a);
    uint32_t off = a - kMemBase;
    if (off + 4 > kMemSize) return 0xDEADBEEF;
    return (uint32_t(mem_[off]) << 24) | (uint32_t(mem_[off + 1]) << 16) | (uint32_t(mem_[off + 2]) << 8) |
           mem_[off + 3];
  }

  void slave_edge(uint8_t htrans, uint32_t haddr, bool hready) {
    if (hready) {
      if (d_pend_ && !d_err_) {
        ++r_.beats;
        r_.last_beat = edges_;
      }
      d_pend_ = false;
      if (htrans == 2 || htrans == 3) {
        if (m_->hwrite) violation("write");
        if (m_->hsize != 2) violation("hsize not word");
        if (m_->hburst != 1) violation("hburst not INCR");
        if (haddr != expect_ || haddr < cov_lo_ || haddr > cov_hi_ || !len_)
          violation("read of " + hex(haddr) + ", expected " + hex(expect_));
        if (htrans == 2) {
          // a new burst starts after an idle clock (no data phase pending)
          if (prev_htrans_ != 0) violation("NONSEQ right after a transfer");
          beats_ = 1;
          ++r_.bursts;
        } else {
          if (prev_htrans_ == 0) violation("SEQ after IDLE");
          ++beats_;
          if ((haddr & 1023) == 0) violation("burst crosses 1 KiB at " + hex(haddr));
        }
        if (beats_ > 16) violation("burst longer than 16 beats");
        r_.max_burst = std::max(r_.max_burst, beats_);
        expect_ = haddr + 4;
        d_pend_ = true;
        d_addr_ = haddr;
        d_err_ = (haddr & ~3u) == bus.err_addr;
        err_phase_ = 0;
        wcnt_ = bus.wait_min + unsigned(rng_() % (bus.wait_max - bus.wait_min + 1));
      } else if (htrans == 1) {
        violation("BUSY transfer");
      }
      prev_htrans_ = htrans;
    }
    bool rdy = true;
    m_->hresp = 0;
    if (d_pend_) {
      if (d_err_) {
        m_->hresp = 1;
        if (++err_phase_ == 1) rdy = false;
      } else if (wcnt_ > 0) {
        --wcnt_;
        rdy = false;
      } else {
        m_->hrdata = mem_word(d_addr_);
      }
    }
    m_->hready = rdy;
  }

  void arbiter_edge(bool hbusreq, bool hready) {
    if (bus.parked_grant) {
      m_->hgrant = 1;
      return;
    }
    if (!hready) return;  // grant changes take effect at hready edges only
    if (m_->hgrant) {
      if (!hbusreq || (bus.steal_percent && rng_() % 100 < bus.steal_percent)) {
        m_->hgrant = 0;
        delay_ = bus.grant_delay_max ? unsigned(rng_() % (bus.grant_delay_max + 1)) : 0;
      }
    } else if (hbusreq) {
      if (delay_ == 0)
        m_->hgrant = 1;
      else
        --delay_;
    }
  }

  static std::string hex(uint32_t v) {
    char b[16];
    snprintf(b, sizeof b, "0x%08x", v);
    return b;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vchksum> m_;
  std::mt19937_64 rng_;
  std::vector<uint8_t> mem_;
  uint64_t edges_ = 0;
  RunResult r_;
  bool irq_prev_ = false;
  // slave / checker
  bool d_pend_ = false, d_err_ = false;
  uint32_t d_addr_ = 0, expect_ = 0, cov_lo_ = 0, cov_hi_ = 0, len_ = 0;
  unsigned wcnt_ = 0, err_phase_ = 0, beats_ = 0;
  uint8_t prev_htrans_ = 0;
  unsigned delay_ = 0;
};

}  // namespace l3vp::rtl_test
