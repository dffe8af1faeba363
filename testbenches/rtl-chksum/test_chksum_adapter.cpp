// ChksumRtl (the verilated engine behind its APB/AHB-master adapters) next to
// the TLM Chksum, each on its own AHB controller and memory, driven by the
// same random operations at the same times (rtl.chksum.adapter.*): SUM,
// STATUS, the IRQ time (= DONE) and the statistics must agree
// (rtl/adapters/README.md "ChksumRtl"):
//  * ahb.transfer_cycles = 2: equal to the clock, ERROR responses included;
//  * transfer_cycles = 1 (the platform default): the RTL exactly one clock
//    per burst later on error-free operations (its NONSEQ address phase).
// The memory adds 0..3 clocks of latency per transaction (a function of the
// address, so both sides see the same): wait states on the RTL's first beat.
// Buffers that run past the end of the 16 KiB memory get an ERROR response.
// Buffers near the top of the address space (the AHB plug&play area) that
// run past 0xFFFFFFFF end with ERR after the words up to the top, with the
// timing of an error-free operation, in both (a guest may ask for it).
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <systemc>
#include <vector>

#include "ahb_ctrl.h"
#include "chksum.h"
#include "chksum_rtl.h"
#include "memory.h"
#include "stats.h"
#include "tb_util.h"

namespace {

using sc_core::sc_time;
const sc_time kClk(25, sc_core::SC_NS);
constexpr uint32_t kBase = 0x40000000, kMemSize = 16384;

struct Op {
  uint32_t off, len;  // off: from kBase; with `top` the address itself
  uint16_t init;
  bool ie;
  bool top = false;
};
uint32_t addr_of(const Op& o) { return o.top ? o.off : kBase + o.off; }
// The buffer runs past 0xFFFFFFFF.
bool wraps(const Op& o) { return uint64_t(addr_of(o)) + o.len > 0x100000000ull; }
struct Result {
  uint32_t status = 0, sum = 0;
  std::vector<sc_time> irqs;  // pulse times
  sc_time start;
};

// One side: AHB controller, memory, the device (TLM or RTL) as master 5.
class Side : public sc_core::sc_module, public l3vp::TimedIrqLineSink {
 public:
  l3vp::AhbCtrl ahb{"ahb"};
  l3vp::Memory mem{"mem", kMemSize};
  l3vp::ApbDevice* dev;
  tlm_utils::simple_initiator_socket<Side> apb{"apb"};
  std::vector<Result> out;

  Side(sc_core::sc_module_name n, bool rtl, unsigned transfer_cycles) : sc_module(n) {
    l3vp::ChksumParams p;
    p.clk_period = kClk;
    if (rtl) {
      auto* d = new l3vp::ChksumRtl("chksum", p, {transfer_cycles, 1});
      d->bind_ahb(ahb);
      dev = d;
    } else {
      auto* d = new l3vp::Chksum("chksum", p);
      ahb.bind_master(d->isock, 5, d->ahb_pnp(), "chksum");
      dev = d;
    }
    l3vp::AhbPnp mp;
    mp.id = l3vp::pnp_id(0x01, 0x00F, 0, 0);
    mp.bar[0] = l3vp::pnp_bar(0x400, 0xFFF, true, true, l3vp::BAR_AHBMEM);
    ahb.bind_slave(mem.tsock, 0, mp, "mem");
    l3vp::AhbCtrl::Timing t;
    t.clock = kClk;
    t.transfer_cycles = transfer_cycles;
    t.burst_cycles_per_word = 1;
    t.arbitration = true;
    ahb.set_timing(t);
    // Slave latency 0..3 clocks, by address.
    ahb.set_delay_fn([](unsigned, unsigned, const tlm::tlm_generic_payload& gp) {
      return kClk * double((gp.get_address() >> 6) & 3);
    });
    apb.bind(dev->tsock);
    dev->connect_irq(this);
  }

  void irq_pulse(unsigned line) override { irq_pulse_at(line, sc_core::sc_time_stamp()); }
  void irq_pulse_at(unsigned line, const sc_time& t) override {
    if (line == 10 && !out.empty()) out.back().irqs.push_back(t);
  }

  // One APB access at the current time (a CPU makes at most one per clock:
  // the bench waits a clock between a side's accesses).
  uint32_t access(bool write, uint32_t off, uint32_t v) {
    return l3vp::test::socket_word32(apb, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, off, v);
  }
};

unsigned g_tc;  // ahb.transfer_cycles of the run (argv[1])

class Bench : public sc_core::sc_module {
 public:
  Side tlm, rtl;
  std::vector<Op> ops;
  bool finished = false;

  SC_HAS_PROCESS(Bench);
  Bench(sc_core::sc_module_name n, unsigned tc, uint64_t seed)
      : sc_module(n), tlm("tlm", false, tc), rtl("rtl", true, tc) {
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> image(kMemSize);
    for (auto& b : image) b = uint8_t(rng());
    tlm.mem.load(0, image.data(), image.size());
    rtl.mem.load(0, image.data(), image.size());
    for (int i = 0; i < 1500; ++i) {
      Op o;
      o.len = rng() % 8 == 0 ? uint32_t(rng() % 8) : uint32_t(rng() % 1601);
      o.off = uint32_t(rng() % (kMemSize - 1600));
      if (rng() % 16 == 0) o.off = kMemSize - 1 - uint32_t(rng() % 1200), o.len = 1300;  // ERROR
      o.init = uint16_t(rng());
      o.ie = rng() % 4 != 0;
      ops.push_back(o);
    }
    std::mt19937_64 rng2(seed + 1);
    for (int i = 0; i < 120; ++i) {
      Op o;
      o.top = true;
      o.off = 0xFFFFFFFFu - uint32_t(rng2() % 2500);
      o.len = uint32_t(rng2() % 3000);
      o.init = uint16_t(rng2());
      o.ie = true;
      ops.push_back(o);
    }
    SC_THREAD(run);
  }

 private:
  void run() {
    for (const Op& o : ops) {
      for (uint32_t reg : {0x08u, 0x0Cu, 0x10u}) {
        const uint32_t v = reg == 0x08 ? addr_of(o) : reg == 0x0C ? o.len : o.init;
        tlm.access(true, reg, v);
        rtl.access(true, reg, v);
        sc_core::wait(kClk);
      }
      for (Side* s : {&tlm, &rtl}) {
        s->out.emplace_back();
        s->out.back().start = sc_core::sc_time_stamp();
        s->access(true, 0x00, o.ie ? 3 : 1);  // START at this clock edge, both sides
      }
      // Poll both every clock (the accesses step the RTL lazily) until DONE.
      for (unsigned n = 0;; ++n) {
        sc_core::wait(kClk);
        // Like the CPU after a sync: every process due now runs first.
        while (sc_core::sc_pending_activity_at_current_time()) sc_core::wait(sc_core::SC_ZERO_TIME);
        const bool busy_t = tlm.access(false, 0x04, 0) & 1, busy_r = rtl.access(false, 0x04, 0) & 1;
        if (g_tc == 2) {
          EXPECT_EQ(busy_t, busy_r) << "STATUS.BUSY at clock " << n << " of op " << tlm.out.size()
                                    << " (ADDR " << std::hex << addr_of(o) << std::dec << " LEN " << o.len
                                    << ")";
        }
        if (!busy_t && !busy_r) break;
        if (n > 100000) {
          ADD_FAILURE() << "no DONE";
          break;
        }
      }
      sc_core::wait(2 * kClk);
      for (Side* s : {&tlm, &rtl}) s->out.back().status = s->access(false, 0x04, 0);
      for (Side* s : {&tlm, &rtl}) s->out.back().sum = s->access(false, 0x10, 0);
      sc_core::wait(kClk);
      for (Side* s : {&tlm, &rtl}) s->access(true, 0x04, 6);
      sc_core::wait(kClk);
      // Idle for a while (the RTL is not stepped then).
      sc_core::wait(kClk * double(ops.size() % 7 + 3));
    }
    finished = true;
    sc_core::sc_stop();
  }
};

uint64_t stat(l3vp::ApbDevice& d, const char* name) {
  l3vp::StatsRegistry reg;
  d.register_stats(reg.root());
  return reg.to_json()[name].get<uint64_t>();
}

// Bursts of an error-free operation (of the words up to the top for a buffer
// past 0xFFFFFFFF).
unsigned bursts_of(uint32_t addr, uint32_t len) {
  if (!len) return 0;
  const uint64_t last = std::min<uint64_t>(uint64_t(addr) + len - 1, 0xFFFFFFFFu);
  uint32_t a = addr & ~3u, words = uint32_t(last / 4 - addr / 4 + 1);
  unsigned b = 0;
  while (words) {
    const uint32_t n = std::min<uint32_t>({16, words, (1024 - (a & 1023)) / 4});
    a += 4 * n, words -= n, ++b;
  }
  return b;
}

Bench* g_bench;

TEST(adapter, random_operations) {
  sc_core::sc_start();
  ASSERT_TRUE(g_bench->finished);
  const auto& t = g_bench->tlm.out;
  const auto& r = g_bench->rtl.out;
  ASSERT_EQ(t.size(), r.size());
  unsigned errors = 0, failures = 0, wrapped = 0;
  for (size_t i = 0; i < t.size() && failures < 10; ++i) {
    const Op& o = g_bench->ops[i];
    // Past the top: ERR, but SUM and the timing of an error-free operation.
    const bool wrap = wraps(o);
    const bool err = (t[i].status & 4) && !wrap;
    errors += err;
    wrapped += wrap;
    if (wrap) {
      EXPECT_EQ(t[i].status, 6u) << "op " << i << ": past 0xFFFFFFFF without ERR";
    }
    bool ok = t[i].status == r[i].status && (err || t[i].sum == r[i].sum) &&
              t[i].irqs.size() == (o.ie ? 1u : 0u) && r[i].irqs.size() == t[i].irqs.size();
    EXPECT_TRUE(ok) << "op " << i << " len " << o.len << ": STATUS " << t[i].status << "/" << r[i].status
                    << " SUM " << std::hex << t[i].sum << "/" << r[i].sum << std::dec << " irqs "
                    << t[i].irqs.size() << "/" << r[i].irqs.size();
    if (ok && o.ie) {
      const int64_t dt = int64_t((t[i].irqs[0] - t[i].start) / kClk);
      const int64_t dr = int64_t((r[i].irqs[0] - r[i].start) / kClk);
      const int64_t want = g_tc == 2 ? 0 : err ? dr - dt : int64_t(bursts_of(addr_of(o), o.len));
      EXPECT_EQ(dr - dt, want) << "op " << i << " len " << o.len << " off " << o.off << (err ? " ERROR" : "")
                               << ": DONE after " << dt << " (TLM) / " << dr << " (RTL) clocks";
      ok = dr - dt == want;
    }
    if (!ok) ++failures;
  }
  EXPECT_GT(errors, 30u);
  EXPECT_GT(wrapped, 40u);
  for (const char* k : {"ops", "bytes", "bursts", "beats", "errors", "irq_pulses", "ignored_starts"})
    EXPECT_EQ(stat(*g_bench->tlm.dev, k), stat(*g_bench->rtl.dev, k)) << k;
  if (g_tc == 2) {
    EXPECT_EQ(stat(*g_bench->tlm.dev, "busy_cycles"), stat(*g_bench->rtl.dev, "busy_cycles"));
  }
  EXPECT_EQ(stat(*g_bench->rtl.dev, "rtl_unplanned_beats"), 0u);
  std::printf(
      "%zu operations (%u ERROR), transfer_cycles %u: busy_cycles TLM %llu, RTL %llu; %llu RTL edges\n",
      t.size(), errors, g_tc, (unsigned long long)stat(*g_bench->tlm.dev, "busy_cycles"),
      (unsigned long long)stat(*g_bench->rtl.dev, "busy_cycles"),
      (unsigned long long)stat(*g_bench->rtl.dev, "rtl_edges"));
}

}  // namespace

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  g_tc = argc > 1 ? unsigned(std::atoi(argv[1])) : 2;
  g_bench = new Bench("bench", g_tc, 15);
  return RUN_ALL_TESTS();
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
