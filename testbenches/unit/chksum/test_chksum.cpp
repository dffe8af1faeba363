// CHKSUM TLM model (rtl/chksum/README.md): the function on random buffers of
// every length 0..1600 at every alignment against an independent reference,
// the burst pattern, the timing contract on the AHB cost model, ERR on an
// AHB error response, IRQ, register rules and contention with another master.
//
//   APB initiator (test code) --> Chksum.tsock
//   Chksum.isock --> AhbCtrl (timing on) --> RAM 0x40000000 (64 KiB, 7 read ws)
//   TestMaster (another AHB master, index 4) --> AhbCtrl
// No CPU: test code drives the APB socket between sc_start() calls.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <random>
#include <systemc>
#include <tlm>
#include <vector>

#include "ahb_ctrl.h"
#include "chksum.h"
#include "memory.h"
#include "payload.h"
#include "tb_util.h"

namespace l3vp::test {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using C = Chksum;

const sc_time kClk(25, SC_NS);
constexpr uint32_t kRam = 0x40000000, kHole = 0x20000000;
constexpr unsigned kRamSize = 1 << 16, kReadWs = 7;

struct IrqRec : IrqLineSink {
  std::vector<std::pair<unsigned, sc_time>> pulses;
  void irq_pulse(unsigned line) override { pulses.emplace_back(line, sc_core::sc_time_stamp()); }
};

struct Burst {
  sc_time t;
  unsigned master;
  uint32_t addr;
  unsigned len;
};

class Bench : public sc_core::sc_module {
 public:
  using Sock = tlm_utils::simple_initiator_socket<Bench>;
  Chksum ck;
  AhbCtrl ahb;
  Memory ram;
  Sock apb, other;  // the APB side of the engine; a second AHB master
  IrqRec irq;
  std::vector<Burst> bursts;       // every routed AHB access
  std::vector<ChksumOpEvent> ops;  // every completed operation (the probe)

  explicit Bench(sc_core::sc_module_name n)
      : sc_module(n), ck("chksum"), ahb("ahb"), ram("ram", kRamSize), apb("apb"), other("other") {
    apb.bind(ck.tsock);
    ck.connect_irq(&irq);
    ahb.bind_master(ck.isock, 5, ck.ahb_pnp(), "chksum");
    AhbPnp om;
    ahb.bind_master(other, 4, om, "other");
    AhbPnp pr;
    pr.bar[0] = pnp_bar(0x400, 0xFFF, true, true, BAR_AHBMEM);
    ahb.bind_slave(ram.tsock, 0, pr, "ram");
    AhbCtrl::Timing t;
    t.clock = kClk;
    t.transfer_cycles = 1;
    t.burst_cycles_per_word = 1;
    t.arbitration = true;
    ahb.set_timing(t);
    ram.set_latency(kClk * double(kReadWs), kClk * 4.0);
    ahb.set_delay_fn([this](unsigned m, unsigned, const tlm::tlm_generic_payload& gp) {
      bursts.push_back({sc_core::sc_time_stamp(), m, uint32_t(gp.get_address()), gp.get_data_length()});
      return sc_core::SC_ZERO_TIME;
    });
    ck.on_op.listen([this](const ChksumOpEvent& e) { ops.push_back(e); });
    Log::enable(LogCat::GuestError, false);
  }

  uint32_t access(bool write, uint32_t off, uint32_t v) {
    return test::socket_word32(apb, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, off, v);
  }
  uint32_t rd(uint32_t off) { return access(false, off, 0); }
  void wr(uint32_t off, uint32_t v) { access(true, off, v); }
  // A read of the other master at the current time; returns its delay.
  sc_time other_read(uint32_t addr, unsigned len) {
    std::vector<uint8_t> b(len);
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(b.data());
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time d = sc_core::SC_ZERO_TIME;
    other->b_transport(gp, d);
    return d;
  }
};

Bench& bench() {
  static Bench* b = [] {
    auto* x = new Bench("bench");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return x;
  }();
  return *b;
}

// Reference (written from RFC 1071, independent of the model's byte loop):
// 16-bit big-endian words, an odd last byte padded with a zero low byte,
// 32-bit accumulation, carries folded at the end.
uint16_t reference(const uint8_t* p, unsigned len, uint16_t init) {
  uint32_t acc = init;
  unsigned i = 0;
  for (; i + 1 < len; i += 2) acc += uint32_t(p[i]) << 8 | p[i + 1];
  if (i < len) acc += uint32_t(p[i]) << 8;
  while (acc > 0xFFFF) acc = (acc & 0xFFFF) + (acc >> 16);
  return static_cast<uint16_t>(acc);
}

class ChksumTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sc_core::sc_start(sc_time(10, sc_core::SC_US));  // the previous test's operation drains
    b.ck.reset();
    b.irq.pulses.clear();
    b.bursts.clear();
    s0 = b.ck.stats();
  }
  // Starts an operation; returns the time START was written.
  sc_time start(uint32_t addr, unsigned len, uint16_t init = 0, bool ie = false) {
    b.wr(C::ADDR, addr);
    b.wr(C::LEN, len);
    b.wr(C::SUM, init);
    b.wr(C::CTRL, C::CTRL_START | (ie ? uint32_t(C::CTRL_IE) : 0u));
    return sc_core::sc_time_stamp();
  }
  // Runs until the operation is over; returns DONE's time (the probe's).
  sc_time run_to_done() {
    const size_t n = b.ops.size();
    sc_core::sc_start(sc_time(20, sc_core::SC_US));
    EXPECT_TRUE(b.rd(C::STATUS) & C::ST_DONE);
    if (b.ops.size() != n + 1) {
      ADD_FAILURE() << "no DONE";
      return sc_core::SC_ZERO_TIME;
    }
    return b.ops.back().end;
  }
  Bench& b = bench();
  ChksumStats s0;
};

TEST_F(ChksumTest, ResetValuesAndPnp) {
  EXPECT_EQ(b.rd(C::CTRL), 0u);
  EXPECT_EQ(b.rd(C::STATUS), 0u);
  EXPECT_EQ(b.rd(C::ADDR), 0u);
  EXPECT_EQ(b.rd(C::LEN), 0u);
  EXPECT_EQ(b.rd(C::SUM), 0xFFFF0000u);  // sum 0, complement 0xFFFF
  EXPECT_EQ(b.rd(C::INFO), 16u);
  EXPECT_EQ(b.rd(0x18), 0u);              // unmapped
  EXPECT_EQ(b.ck.pnp().id, 0x090C500Au);  // vendor 0x09, device 0x0C5, IRQ 10
  EXPECT_EQ(b.ck.pnp().bar, 0x0050FFF1u);
  EXPECT_EQ(b.ck.ahb_pnp().id, 0x090C5000u);
  b.wr(C::LEN, 0xABCD1234u);
  EXPECT_EQ(b.rd(C::LEN), 0x1234u);  // bits 31:16 read 0
  b.wr(C::CTRL, 0xFFFFFFFEu);
  EXPECT_EQ(b.rd(C::CTRL), uint32_t(C::CTRL_IE));  // START reads 0
}

// Every length 0..1600 at every alignment 0..3, random data and random
// initial sums, against the reference; also the burst rules on every run.
TEST_F(ChksumTest, RandomBuffersAllLengthsAndAlignments) {
  std::mt19937 rng(14);
  uint8_t* mem = b.ram.data();
  unsigned checked = 0;
  for (unsigned align = 0; align < 4; ++align) {
    for (unsigned len = 0; len <= 1600; ++len) {
      // Buffers placed to cross 1 KiB boundaries at varying offsets.
      const uint32_t off = 0x1000 + ((len * 52 + align * 300) % 0x2000 & ~3u) + align;
      for (unsigned i = 0; i < len + 8; ++i) mem[off - align + i] = uint8_t(rng());
      const uint16_t init = (len % 7 == 0) ? uint16_t(rng()) : 0;
      b.bursts.clear();
      start(kRam + off, len, init);
      run_to_done();
      const uint16_t want = reference(mem + off, len, init);
      const uint32_t sum = b.rd(C::SUM);
      ASSERT_EQ(sum & 0xFFFF, want) << "len " << len << " align " << align;
      ASSERT_EQ(sum >> 16, uint16_t(~want)) << "len " << len << " align " << align;
      ASSERT_EQ(b.rd(C::STATUS), uint32_t(C::ST_DONE));
      // The covering words, in order, in bursts of <= 16 beats inside 1 KiB.
      uint32_t next = (kRam + off) & ~3u;
      for (const Burst& x : b.bursts) {
        ASSERT_EQ(x.master, 5u);
        ASSERT_EQ(x.addr, next);
        ASSERT_EQ(x.len % 4, 0u);
        ASSERT_LE(x.len, 64u);
        ASSERT_EQ(x.addr >> 10, (x.addr + x.len - 1) >> 10) << "burst crosses 1 KiB";
        next += x.len;
      }
      const uint32_t words = len ? ((kRam + off + len - 1) / 4 - (kRam + off) / 4 + 1) : 0;
      ASSERT_EQ(next - ((kRam + off) & ~3u), 4 * words);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4u * 1601u);
  EXPECT_EQ(b.ck.stats().ops - s0.ops, 4u * 1601u);
  EXPECT_EQ(b.ck.stats().errors, s0.errors);
}

// Special sums: all-zero data gives 0x0000, all-0xFF gives 0xFFFF.
TEST_F(ChksumTest, ZeroAndOnesSums) {
  b.ram.fill(0x100, 0, 64);
  start(kRam + 0x100, 64);
  run_to_done();
  EXPECT_EQ(b.rd(C::SUM), 0xFFFF0000u);
  b.ram.fill(0x100, 0xFF, 64);
  start(kRam + 0x100, 64);
  run_to_done();
  EXPECT_EQ(b.rd(C::SUM), 0x0000FFFFu);
}

// Timing contract on the bus model: bus request one clock after START,
// each burst its AHB cost (transfer + further beats + 7 read wait states),
// DONE one clock after the last beat; LEN 0: DONE one clock after START.
TEST_F(ChksumTest, TimingFollowsTheBus) {
  const sc_time t0 = start(kRam + 0x400, 64 * 4 + 8);  // 66 words: bursts 16,16,16,16,2
  const sc_time done = run_to_done();
  ASSERT_EQ(b.bursts.size(), 5u);
  EXPECT_EQ(b.bursts[0].t, t0 + kClk);
  sc_time t = t0 + kClk;
  for (const Burst& x : b.bursts) {
    EXPECT_EQ(x.t, t);
    t += kClk * double(1 + (x.len / 4 - 1) + kReadWs);
  }
  EXPECT_EQ(done, t + kClk);
  EXPECT_EQ(b.ck.stats().busy_cycles - s0.busy_cycles, uint64_t((done - t0) / kClk));
  EXPECT_EQ(b.ck.stats().beats - s0.beats, 66u);
  EXPECT_EQ(b.ck.stats().bursts - s0.bursts, 5u);
  EXPECT_EQ(b.ck.stats().bytes - s0.bytes, 264u);

  b.wr(C::STATUS, C::ST_DONE);
  EXPECT_EQ(b.rd(C::STATUS), 0u);
  b.wr(C::SUM, 0x1234);
  const sc_time t1 = start(kRam, 0, 0x1234);
  const sc_time d1 = run_to_done();
  EXPECT_EQ(d1, t1 + kClk);
  EXPECT_EQ(b.rd(C::SUM) & 0xFFFF, 0x1234u);  // unchanged
  EXPECT_TRUE(b.bursts.size() == 5u);         // no bus access
}

TEST_F(ChksumTest, InterruptWithIeOnly) {
  start(kRam, 100, 0, true);
  const sc_time done = run_to_done();
  ASSERT_EQ(b.irq.pulses.size(), 1u);
  EXPECT_EQ(b.irq.pulses[0].first, 10u);
  EXPECT_EQ(b.irq.pulses[0].second, done);
  start(kRam, 100, 0, false);
  run_to_done();
  EXPECT_EQ(b.irq.pulses.size(), 1u);
  EXPECT_EQ(b.ck.stats().irq_pulses - s0.irq_pulses, 1u);
}

TEST_F(ChksumTest, AhbErrorSetsErrAndDone) {
  start(kHole, 64, 0, true);
  run_to_done();
  EXPECT_EQ(b.rd(C::STATUS), uint32_t(C::ST_DONE | C::ST_ERR));
  EXPECT_EQ(b.irq.pulses.size(), 1u);
  EXPECT_EQ(b.ck.stats().errors - s0.errors, 1u);
  EXPECT_EQ(b.ck.stats().bursts - s0.bursts, 1u);  // stops at the first error
  b.wr(C::STATUS, C::ST_ERR);
  EXPECT_EQ(b.rd(C::STATUS), uint32_t(C::ST_DONE));
  // A new operation clears DONE and ERR.
  start(kHole, 4);
  EXPECT_EQ(b.rd(C::STATUS), uint32_t(C::ST_BUSY));
  run_to_done();
}

// A buffer that runs past 0xFFFFFFFF (a guest may ask for it): the words up to the top
// (here the AHB plug&play area) are read and summed, then the operation ends
// with ERR like an error-free one ends (DONE one clock after the last beat),
// with no bus access past the top and no wrap to 0x00000000 — the RTL
// engine does the same (rtl/chksum/README.md "Function").
TEST_F(ChksumTest, BufferPastTheTopStopsWithErr) {
  const uint64_t err0 = b.ahb.master_stats()[0].errors;
  std::vector<uint8_t> top(16);
  tlm::tlm_generic_payload gp;
  set_burst(gp, tlm::TLM_READ_COMMAND, 0xFFFFFFF0u, top.data(), 16);
  ASSERT_EQ(b.other->transport_dbg(gp), 16u);
  struct Case {
    uint32_t addr;
    unsigned len, bursts, beats;
    bool wraps;
  };
  for (const Case& c : {Case{0xFFFFFFF6u, 20, 1, 3, true}, Case{0xFFFFFFFFu, 2, 1, 1, true},
                        Case{0xFFFFFFF0u, 16, 1, 4, false}, Case{0xFFFFFFFFu, 1, 1, 1, false},
                        Case{0xFFFFF800u, 0xFFFF, 32, 512, true}}) {
    const ChksumStats s1 = b.ck.stats();
    const sc_time t0 = start(c.addr, c.len, 0x55);
    const sc_time done = run_to_done();
    const std::string what = hex(c.addr) + " len " + std::to_string(c.len);
    EXPECT_EQ(b.rd(C::STATUS), uint32_t(C::ST_DONE | (c.wraps ? C::ST_ERR : 0u))) << what;
    EXPECT_EQ(b.ck.stats().bursts - s1.bursts, c.bursts) << what;
    EXPECT_EQ(b.ck.stats().beats - s1.beats, c.beats) << what;
    EXPECT_EQ(b.ck.stats().errors - s1.errors, c.wraps ? 1u : 0u) << what;
    if (c.addr >= 0xFFFFFFF0u) {
      // SUM: the bytes below the top (a P&P record's last words).
      const unsigned n = unsigned(std::min<uint64_t>(c.len, 0x100000000ull - c.addr));
      EXPECT_EQ(b.rd(C::SUM) & 0xFFFF, reference(top.data() + (c.addr - 0xFFFFFFF0u), n, 0x55)) << what;
      // One burst (P&P: transfer + a response clock + a clock per further
      // word) at START + 1, DONE one clock after it.
      EXPECT_EQ(done, t0 + kClk * double(1 + (1 + 1 + (c.beats - 1)) + 1)) << what;
    }
    b.wr(C::STATUS, C::ST_DONE | C::ST_ERR);
  }
  EXPECT_EQ(b.ahb.master_stats()[0].errors, err0) << "an AHB access past 0xFFFFFFFF";
}

TEST_F(ChksumTest, WritesWhileBusyIgnored) {
  for (unsigned i = 0; i < 256; ++i) b.ram.data()[0x800 + i] = uint8_t(i * 3);
  start(kRam + 0x800, 256, 0x55);
  EXPECT_EQ(b.rd(C::STATUS), uint32_t(C::ST_BUSY));
  b.wr(C::ADDR, kRam);
  b.wr(C::LEN, 3);
  b.wr(C::SUM, 0);
  b.wr(C::CTRL, C::CTRL_START);
  EXPECT_EQ(b.rd(C::ADDR), kRam + 0x800);
  EXPECT_EQ(b.rd(C::LEN), 256u);
  run_to_done();
  EXPECT_EQ(b.rd(C::SUM) & 0xFFFF, reference(b.ram.data() + 0x800, 256, 0x55));
  EXPECT_EQ(b.ck.stats().ignored_starts - s0.ignored_starts, 1u);
  EXPECT_EQ(b.ck.stats().ops - s0.ops, 1u);
}

// The engine's bursts and another master's accesses wait for each other
// (the AHB controller's arbitration, as the GRETH's DMA gets it).
TEST_F(ChksumTest, ContentionWithAnotherMaster) {
  const sc_time t0 = start(kRam, 64);  // one 16-beat burst at t0 + 1 clock
  sc_core::sc_start(kClk * 2.0);       // the burst is on the bus now
  const sc_time d = b.other_read(kRam + 0x2000, 16);
  // Alone it costs 1 + 3 + 7 clocks; it waited for the engine's burst
  // (t0 + 1 .. t0 + 1 + 1 + 15 + 7).
  const sc_time burst_end = t0 + kClk * double(1 + 1 + 15 + kReadWs);
  EXPECT_EQ(sc_core::sc_time_stamp() + d, burst_end + kClk * double(1 + 3 + kReadWs));
  const auto& ms = b.ahb.master_stats();
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_GE(ms[1].waits, 1u);
  run_to_done();
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
