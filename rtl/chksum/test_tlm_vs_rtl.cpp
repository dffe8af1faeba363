// RTL versus TLM (rtl.chksum.tlm_vs_rtl): the same random buffers, every
// LEN 0..1600 x ADDR alignment 0..3 with random initial sums, through the TLM
// model l3vp::Chksum (on the AHB controller with a zero-latency memory,
// driven over its APB socket) and through the verilated RTL (rtl_bench.h,
// no wait states, grant parked: the same bus conditions). SUM, STATUS and
// the IRQ must be equal; the completion times (START to DONE, in clocks)
// are compared under two AHB cost settings of the TLM bus (README "RTL
// versus TLM"):
//  * the platform default (transfer 1 + 1 per further beat): the TLM model
//    finishes exactly B clocks earlier than the RTL (B = bursts), the NONSEQ
//    address phases the TLM bus does not charge;
//  * transfer_cycles 2 (address phase + first beat): equal to the clock.
// rtl_bench.h (Verilator) first: verilated.h takes SystemC's sc_time_stamp()
// as its time source when SystemC's headers come before it.
#include "rtl_bench.h"  // NOLINT(build/include_order)

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <chrono>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <systemc>
#include <vector>

#include "ahb_ctrl.h"
#include "chksum.h"
#include "endian.h"
#include "memory.h"
#include "tb_util.h"

using l3vp::rtl_test::ChksumBench;
using l3vp::rtl_test::ref_bursts;
using l3vp::rtl_test::ref_checksum;
using l3vp::rtl_test::RunResult;

namespace {

constexpr uint32_t kMaxLen = 1600;
constexpr uint32_t kBase = ChksumBench::kMemBase;
const sc_core::sc_time kClk(25, sc_core::SC_NS);

struct Case {
  uint32_t off, len;
  uint16_t init;
  bool err = false;            // crosses the end of memory (an ERROR response there)
  std::vector<uint8_t> bytes;  // the covering words and a margin, from off & ~3
};

struct Outcome {
  uint32_t status = 0, sum = 0;
  unsigned irqs = 0;
  uint64_t clocks = 0;  // START to DONE
};

std::vector<Case> make_cases(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Case> cases;
  for (uint32_t len = 0; len <= kMaxLen; ++len) {
    for (uint32_t align = 0; align < 4; ++align) {
      Case c;
      c.off = (uint32_t(rng() % (ChksumBench::kMemSize - kMaxLen - 16)) & ~3u) + align;
      c.len = len;
      c.init = rng() % 8 == 0 ? 0 : uint16_t(rng());
      c.bytes.resize(len + 12);
      for (auto& b : c.bytes) b = uint8_t(rng());
      cases.push_back(std::move(c));
    }
  }
  // Buffers that run past the end of the 16 KiB memory (0x40004000, a 1 KiB
  // boundary, so the erroring word starts a burst in both: the words summed
  // before it are the same).
  for (int i = 0; i < 400; ++i) {
    Case c;
    c.len = 2 + uint32_t(rng() % (kMaxLen - 1));
    c.off = ChksumBench::kMemSize - 1 - uint32_t(rng() % (c.len - 1));
    c.init = uint16_t(rng());
    c.err = true;
    c.bytes.resize(ChksumBench::kMemSize - (c.off & ~3u));
    for (auto& b : c.bytes) b = uint8_t(rng());
    cases.push_back(std::move(c));
  }
  return cases;
}

// The TLM side: AHB controller, 1 MiB memory at 0x40000000, the model as AHB
// master 5, an APB initiator and an IRQ recorder.
class TlmBench : public sc_core::sc_module, public l3vp::IrqLineSink {
 public:
  l3vp::AhbCtrl ahb{"ahb"};
  l3vp::Memory mem{"mem", ChksumBench::kMemSize};  // the rest of the 1 MiB bar: ERROR
  l3vp::Chksum dev{"chksum"};
  tlm_utils::simple_initiator_socket<TlmBench> apb{"apb"};
  const std::vector<Case>& cases;
  std::vector<Outcome> out[2];  // [0] platform default AHB costs, [1] transfer 2
  bool finished = false;

  SC_HAS_PROCESS(TlmBench);
  TlmBench(sc_core::sc_module_name n, const std::vector<Case>& c) : sc_module(n), cases(c) {
    l3vp::AhbPnp mp;
    mp.id = l3vp::pnp_id(0x01, 0x00F, 0, 0);
    mp.bar[0] = l3vp::pnp_bar(0x400, 0xFFF, true, true, l3vp::BAR_AHBMEM);
    ahb.bind_master(dev.isock, 5, dev.ahb_pnp(), "chksum");
    ahb.bind_slave(mem.tsock, 0, mp, "mem");
    apb.bind(dev.tsock);
    dev.connect_irq(this);
    SC_THREAD(run);
  }

  void irq_pulse(unsigned line) override {
    if (line == dev.params().pirq) {
      ++irqs_;
      done_at_ = sc_core::sc_time_stamp();
      done_ev_.notify(sc_core::SC_ZERO_TIME);
    }
  }

 private:
  uint32_t access(bool write, uint32_t off, uint32_t v) {
    const uint32_t r =
        l3vp::test::socket_word32(apb, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, off, v);
    // Settle the access cost on a clock edge so every START is on an edge.
    sc_core::wait(kClk);
    return r;
  }

  void run() {
    for (int cfg = 0; cfg < 2; ++cfg) {
      l3vp::AhbCtrl::Timing t;
      t.clock = kClk;
      t.transfer_cycles = cfg == 0 ? 1 : 2;
      t.burst_cycles_per_word = 1;
      ahb.set_timing(t);
      for (const Case& c : cases) {
        mem.load(c.off & ~3u, c.bytes.data(), c.bytes.size());
        access(true, 0x08, kBase + c.off);
        access(true, 0x0C, c.len);
        access(true, 0x10, c.init);
        irqs_ = 0;
        done_at_ = sc_core::SC_ZERO_TIME;
        const sc_core::sc_time start = sc_core::sc_time_stamp();
        uint8_t b[4];
        l3vp::put_be32(b, 3);  // START | IE, at `start` exactly
        tlm::tlm_generic_payload gp;
        gp.set_command(tlm::TLM_WRITE_COMMAND);
        gp.set_address(0x00);
        gp.set_data_ptr(b);
        gp.set_data_length(4);
        gp.set_streaming_width(4);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        apb->b_transport(gp, d);
        sc_core::wait(done_ev_);
        sc_core::wait(2 * kClk);  // a second pulse would show here
        Outcome o;
        o.clocks = uint64_t((done_at_ - start) / kClk);
        o.irqs = irqs_;
        o.status = access(false, 0x04, 0);
        o.sum = access(false, 0x10, 0);
        access(true, 0x04, 6);
        out[cfg].push_back(o);
      }
    }
    finished = true;
    sc_core::sc_stop();
  }

  sc_core::sc_event done_ev_;
  sc_core::sc_time done_at_;
  unsigned irqs_ = 0;
};

std::vector<Case>* g_cases;
TlmBench* g_tlm;

void build() {
  g_cases = new std::vector<Case>(make_cases(14));
  g_tlm = new TlmBench("tlm", *g_cases);
}

TEST(tlm_vs_rtl, every_length_alignment) {
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  ASSERT_TRUE(g_tlm->finished);
  const double t_tlm = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  ChksumBench rtl(14);
  unsigned failures = 0, equal_time[2] = {0, 0};
  uint64_t diff_sum = 0;
  std::map<int64_t, unsigned> err_diff[2];  // RTL minus TLM clocks -> operations
  for (size_t i = 0; i < g_cases->size() && failures < 10; ++i) {
    const Case& c = (*g_cases)[i];
    std::copy(c.bytes.begin(), c.bytes.end(), rtl.mem().begin() + (c.off & ~3u));
    rtl.bus.err_addr = c.err ? kBase + ChksumBench::kMemSize : 0xFFFFFFFF;
    const RunResult r = rtl.run(kBase + c.off, c.len, c.init);
    // with an ERROR: the sum of the bytes before the end of memory
    const uint32_t summed = c.err ? ChksumBench::kMemSize - c.off : c.len;
    const uint16_t ref = ref_checksum(&c.bytes[c.off & 3], summed, c.init);
    const uint64_t rtl_clocks = r.done_edge - r.start_edge;
    const uint32_t n = c.len ? ((c.off + c.len - 1) >> 2) - (c.off >> 2) + 1 : 0;
    const unsigned bursts = ref_bursts(kBase + c.off, n);
    const std::string what = "len " + std::to_string(c.len) + " align " + std::to_string(c.off & 3);
    bool ok =
        r.violations.empty() && (r.sum & 0xFFFF) == ref && r.irq_pulses == 1 && r.status == (c.err ? 6u : 2u);
    EXPECT_TRUE(ok) << "RTL wrong: " << what;
    for (int cfg = 0; cfg < 2; ++cfg) {
      const Outcome& o = g_tlm->out[cfg][i];
      const bool same = o.status == r.status && o.sum == r.sum && o.irqs == r.irq_pulses;
      EXPECT_TRUE(same) << what << " cfg " << cfg << ": TLM status " << o.status << " sum " << std::hex
                        << o.sum << std::dec << " irqs " << o.irqs << ", RTL status " << r.status << " sum "
                        << std::hex << r.sum << std::dec << " irqs " << r.irq_pulses;
      ok = ok && same;
      // Completion: equal with transfer_cycles 2; B clocks apart with 1.
      if (c.err) {
        // RTL: the erroring NONSEQ ends after the two-clock ERROR response.
        // TLM: the bus charges the whole burst it was asked for (k words).
        const uint32_t n_ok = (ChksumBench::kMemSize - (c.off & ~3u)) / 4;
        const unsigned b_ok = ref_bursts(kBase + c.off, n_ok);
        const uint32_t k = std::min<uint32_t>(16, n - n_ok);
        const int64_t expect_diff = cfg == 1 ? 2 - int64_t(k) : 3 + int64_t(b_ok) - int64_t(k);
        const int64_t diff = int64_t(rtl_clocks) - int64_t(o.clocks);
        EXPECT_EQ(diff, expect_diff) << what << " cfg " << cfg << " error after " << n_ok
                                     << " words, burst of " << k;
        ok = ok && diff == expect_diff;
        ++err_diff[cfg][diff];
        continue;
      }
      const uint64_t expect_tlm = cfg == 1 ? rtl_clocks : rtl_clocks - bursts;
      EXPECT_EQ(o.clocks, expect_tlm) << what << " cfg " << cfg << ": TLM " << o.clocks << " clocks, RTL "
                                      << rtl_clocks << ", bursts " << bursts;
      ok = ok && o.clocks == expect_tlm;
      if (o.clocks == rtl_clocks) ++equal_time[cfg];
      if (cfg == 0) diff_sum += rtl_clocks - o.clocks;
    }
    if (!ok) ++failures;
  }
  const double t_all = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "%zu operations; error-free ones complete equal to the clock: %u with transfer_cycles 2, %u with the "
      "default 1 (RTL later by %llu clocks in all = the bursts' NONSEQ address phases); "
      "TLM %.2f s, all %.2f s\n",
      g_cases->size(), equal_time[1], equal_time[0], (unsigned long long)diff_sum, t_tlm, t_all);
  unsigned n_err = 0, err_equal = 0;
  for (const auto& [d, k] : err_diff[1]) {
    n_err += k;
    if (d == 0) err_equal += k;
  }
  std::printf(
      "%u ERROR operations: SUM, STATUS, IRQ equal; completion equal in %u (burst of 2 "
      "words), otherwise the TLM model later by (burst words - 2) clocks\n",
      n_err, err_equal);
  EXPECT_EQ(equal_time[1], g_cases->size() - n_err);
  EXPECT_EQ(n_err, 400u);
}

}  // namespace

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  build();
  return RUN_ALL_TESTS();
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
