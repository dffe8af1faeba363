// GPTIMER register and timing tests (hw-reference §4). Clock-exact
// expectations follow the model's documented semantics: the prescaler
// reloads at edge T (tick), timer n is decremented at edge T + 1 + n.
#include "bench.h"

namespace l3vp::test {
namespace {

enum : uint32_t { SCALER = 0x00, SRELOAD = 0x04, CONFIG = 0x08, LATCHCFG = 0x0C };
constexpr uint32_t CNT(unsigned n) { return 0x10 * n; }
constexpr uint32_t RLD(unsigned n) { return 0x10 * n + 4; }
constexpr uint32_t CTRL(unsigned n) { return 0x10 * n + 8; }
enum : uint32_t { EN = 1, RS = 2, LD = 4, IE = 8, IP = 0x10, CH = 0x20 };

class GptimerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    b.gpt.reset();
    b.gpt3.reset();
    t0 = align();
    b.irq_gpt.pulses.clear();
    b.irq_gpt3.pulses.clear();
  }
  uint32_t rd(uint32_t off, sc_core::sc_time d = sc_core::SC_ZERO_TIME) { return Bench::rd(b.s_gpt, off, d); }
  void wr(uint32_t off, uint32_t v, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    Bench::wr(b.s_gpt, off, v, d);
  }
  // Advance to exactly t0 + n clocks.
  void to(uint64_t n) {
    const sc_core::sc_time target = at(t0, n);
    ASSERT_GE(target, sc_core::sc_time_stamp());
    advance(target - sc_core::sc_time_stamp());
  }
  Bench& b = bench();
  sc_core::sc_time t0;
};

TEST_F(GptimerTest, ResetValuesAndPnp) {
  EXPECT_EQ(rd(SCALER), 0xFFu);
  EXPECT_EQ(rd(SRELOAD), 0xFFu);
  // TIMERS=2, IRQ=8, SI=1
  EXPECT_EQ(rd(CONFIG), 2u | 8u << 3 | 1u << 8);
  for (unsigned n = 1; n <= 2; ++n) {
    EXPECT_EQ(rd(CNT(n)), 0u);
    EXPECT_EQ(rd(RLD(n)), 0u);
    EXPECT_EQ(rd(CTRL(n)), 0u);
  }
  EXPECT_EQ(rd(LATCHCFG), 0u);
  EXPECT_EQ(b.gpt.pnp().id, 0x01011028u);
  EXPECT_EQ(b.gpt.pnp().bar, 0x0030FFF1u);
  EXPECT_EQ(b.gpt.irq_line(1), 8u);
  EXPECT_EQ(b.gpt.irq_line(2), 9u);
}

TEST_F(GptimerTest, WriteMasks) {
  wr(SCALER, 0x1234);
  EXPECT_EQ(rd(SCALER), 0x34u);  // 8-bit prescaler
  wr(SRELOAD, 0xABCD);
  EXPECT_EQ(rd(SRELOAD), 0xCDu);
  EXPECT_EQ(rd(SCALER), 0xCDu);  // SRELOAD write also loads SCALER
  // Only DF is writable in CONFIG (EE/EL/ES/EV absent in the template).
  wr(CONFIG, 0x0000FFFF);
  EXPECT_EQ(rd(CONFIG), 0x142u | 1u << 9);
  wr(CONFIG, 0);
  EXPECT_EQ(rd(CONFIG), 0x142u);
  // TCTRL: LD reads 0, IP is write-1-to-clear, DH reads 0.
  wr(CTRL(1), 0xFFFFFFFF);
  EXPECT_EQ(rd(CTRL(1)), uint32_t(EN | RS | IE | CH));
  wr(CTRL(1), 0);
  wr(RLD(2), 0xDEADBEEF);
  EXPECT_EQ(rd(RLD(2)), 0xDEADBEEFu);
  // Timer 3 does not exist: reads 0; the write and the read are counted as
  // guest errors.
  const uint64_t ge = Log::count(LogCat::GuestError);
  wr(CNT(3), 5);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 1);
  EXPECT_EQ(rd(CNT(3)), 0u);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 2);
  // paddr[6:2] decode: the window aliases every 128 bytes.
  EXPECT_EQ(rd(0x80 + CONFIG), 0x142u);
}

TEST_F(GptimerTest, SubWordAccess) {
  wr(RLD(1), 0x11223344);
  EXPECT_EQ(Bench::access(b.s_gpt, false, RLD(1) + 2, 0, 2, sc_core::SC_ZERO_TIME), 0x3344u);
  EXPECT_EQ(Bench::access(b.s_gpt, false, RLD(1) + 1, 0, 1, sc_core::SC_ZERO_TIME), 0x22u);
}

TEST_F(GptimerTest, PrescalerStoppedWhileNoTimerEnabled) {
  wr(SRELOAD, 9);
  to(100);
  EXPECT_EQ(rd(SCALER), 9u);
  wr(CTRL(1), EN);  // starts the prescaler: first decrement on the next edge
  to(101);
  EXPECT_EQ(rd(SCALER), 8u);
}

TEST_F(GptimerTest, PrescalerSequenceAndPerTimerSlots) {
  wr(SRELOAD, 9);
  wr(RLD(1), 99);
  wr(RLD(2), 99);
  wr(CTRL(1), EN | RS | LD);
  wr(CTRL(2), EN | RS | LD);
  EXPECT_EQ(rd(SCALER), 9u);
  EXPECT_EQ(rd(CNT(1)), 99u);
  for (unsigned k = 1; k <= 9; ++k) {
    to(k);
    EXPECT_EQ(rd(SCALER), 9u - k) << "k=" << k;
  }
  to(10);  // scaler reload edge (tick)
  EXPECT_EQ(rd(SCALER), 9u);
  to(11);
  EXPECT_EQ(rd(CNT(1)), 99u);
  to(12);  // timer 1 is decremented 2 clocks after the tick...
  EXPECT_EQ(rd(CNT(1)), 98u);
  EXPECT_EQ(rd(CNT(2)), 99u);
  to(13);  // ...timer 2 one clock later
  EXPECT_EQ(rd(CNT(2)), 98u);
  to(22);
  EXPECT_EQ(rd(CNT(1)), 97u);
  EXPECT_EQ(rd(CNT(2)), 98u);
}

// qtest style: program, advance an exact number of clocks, read back.
TEST_F(GptimerTest, CounterAfterExactAdvance) {
  const uint64_t u0 = b.gpt.underflows(1);  // statistics survive reset()
  wr(SRELOAD, 39);                          // 1 MHz tick at 40 MHz
  wr(RLD(1), 1000);
  wr(CTRL(1), EN | RS | LD);
  // Decrements at 40 + 2 + 40k.
  to(40 * 500 + 1);
  EXPECT_EQ(rd(CNT(1)), 501u);
  to(40 * 500 + 2);
  EXPECT_EQ(rd(CNT(1)), 500u);
  // Wrap: value 0 at decrement 1000, reload at decrement 1001.
  to(42 + 40 * 999);
  EXPECT_EQ(rd(CNT(1)), 0u);
  to(42 + 40 * 1000);
  EXPECT_EQ(rd(CNT(1)), 1000u);
  EXPECT_EQ(b.gpt.underflows(1) - u0, 1u);
}

TEST_F(GptimerTest, UnderflowIrqTimingSeparateLines) {
  const uint64_t u0 = b.gpt.underflows(1);
  wr(SRELOAD, 9);
  wr(RLD(1), 99);
  wr(RLD(2), 99);
  wr(CTRL(1), EN | RS | LD | IE);
  wr(CTRL(2), EN | RS | LD | IE);
  to(2500);
  // Period (99+1)*(9+1) = 1000 clocks; first underflow at the 100th
  // decrement: 12 + 990 (timer 1), 13 + 990 (timer 2).
  const auto& p = b.irq_gpt.pulses;
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0], std::make_pair(8u, at(t0, 1002)));
  EXPECT_EQ(p[1], std::make_pair(9u, at(t0, 1003)));
  EXPECT_EQ(p[2], std::make_pair(8u, at(t0, 2002)));
  EXPECT_EQ(p[3], std::make_pair(9u, at(t0, 2003)));
  EXPECT_EQ(rd(CTRL(1)), uint32_t(EN | RS | IE | IP));
  EXPECT_EQ(b.gpt.underflows(1) - u0, 2u);
}

TEST_F(GptimerTest, NoIrqWithoutIe) {
  wr(SRELOAD, 0);
  wr(RLD(1), 3);
  wr(CTRL(1), EN | RS | LD);
  to(200);
  EXPECT_TRUE(b.irq_gpt.pulses.empty());
  EXPECT_EQ(rd(CTRL(1)) & IP, 0u);
  EXPECT_GT(b.gpt.underflows(1), 10u);
}

TEST_F(GptimerTest, OneShotStopsAtAllOnes) {
  wr(SRELOAD, 9);
  wr(RLD(1), 4);
  wr(CTRL(1), EN | LD | IE);  // RS = 0
  to(51);
  EXPECT_EQ(rd(CNT(1)), 0u);
  to(52);  // 5th decrement underflows
  EXPECT_EQ(rd(CNT(1)), 0xFFFFFFFFu);
  EXPECT_EQ(rd(CTRL(1)), uint32_t(IE | IP));  // EN cleared
  EXPECT_EQ(rd(SCALER), 7u);                  // ticked at 50, decremented at 51, 52
  to(1000);
  EXPECT_EQ(rd(CNT(1)), 0xFFFFFFFFu);
  EXPECT_EQ(rd(SCALER), 7u);  // prescaler stopped with the last timer
  ASSERT_EQ(b.irq_gpt.pulses.size(), 1u);
  EXPECT_EQ(b.irq_gpt.pulses[0], std::make_pair(8u, at(t0, 52)));
}

TEST_F(GptimerTest, InterruptPendingIsWriteOneToClear) {
  wr(SRELOAD, 1);
  wr(RLD(1), 0);
  wr(CTRL(1), EN | LD | IE);
  to(50);
  ASSERT_EQ(rd(CTRL(1)), uint32_t(IE | IP));
  wr(CTRL(1), IE);  // writing 0 to IP leaves it set
  EXPECT_EQ(rd(CTRL(1)), uint32_t(IE | IP));
  wr(CTRL(1), IE | IP);  // writing 1 clears it
  EXPECT_EQ(rd(CTRL(1)), uint32_t(IE));
}

TEST_F(GptimerTest, LoadAndValueWrites) {
  wr(RLD(1), 50);
  wr(CNT(1), 5);
  EXPECT_EQ(rd(CNT(1)), 5u);
  wr(CTRL(1), LD);
  EXPECT_EQ(rd(CNT(1)), 50u);
  EXPECT_EQ(rd(CTRL(1)), 0u);  // LD self-clears
  // Writing the counter of a running timer restarts the count from it.
  wr(SRELOAD, 9);
  wr(CTRL(1), EN | RS);
  to(12);
  EXPECT_EQ(rd(CNT(1)), 49u);
  wr(CNT(1), 1000);
  to(21);
  EXPECT_EQ(rd(CNT(1)), 1000u);
  to(22);
  EXPECT_EQ(rd(CNT(1)), 999u);
}

TEST_F(GptimerTest, ScalerWriteSetsPhaseSreloadSetsPeriod) {
  wr(SRELOAD, 9);
  wr(CNT(1), 1000);
  wr(CTRL(1), EN);
  wr(SCALER, 3);  // first tick after 4 clocks, then every 10
  to(3);
  EXPECT_EQ(rd(SCALER), 0u);
  to(4);
  EXPECT_EQ(rd(SCALER), 9u);
  to(5);
  EXPECT_EQ(rd(CNT(1)), 1000u);
  to(6);
  EXPECT_EQ(rd(CNT(1)), 999u);
  to(15);
  EXPECT_EQ(rd(CNT(1)), 999u);
  to(16);
  EXPECT_EQ(rd(CNT(1)), 998u);
}

TEST_F(GptimerTest, TicksLostWhenSreloadBelowNtimers) {
  // SRELOAD=1: a tick every 2 clocks, but a sweep over 2 timers needs 3
  // clocks, so only every other tick reaches the timers.
  wr(SRELOAD, 1);
  wr(CNT(1), 100);
  wr(CTRL(1), EN);
  to(3);
  EXPECT_EQ(rd(CNT(1)), 100u);
  to(4);
  EXPECT_EQ(rd(CNT(1)), 99u);
  to(7);
  EXPECT_EQ(rd(CNT(1)), 99u);
  to(8);
  EXPECT_EQ(rd(CNT(1)), 98u);
  to(400);
  EXPECT_EQ(rd(CNT(1)), 0u);
}

TEST_F(GptimerTest, ChainingCountsUnderflowsOfPreviousTimer) {
  wr(SRELOAD, 9);
  wr(RLD(1), 3);
  wr(CTRL(1), EN | RS | LD);  // underflows at 42, 82, 122, ...
  wr(RLD(2), 100);
  wr(CNT(2), 10);
  wr(CTRL(2), EN | RS | CH | IE);
  to(42);
  EXPECT_EQ(rd(CNT(1)), 3u);
  EXPECT_EQ(rd(CNT(2)), 10u);
  to(43);  // one clock after timer 1's underflow
  EXPECT_EQ(rd(CNT(2)), 9u);
  to(83);
  EXPECT_EQ(rd(CNT(2)), 8u);
  // Timer 2 underflows on timer 1's 11th underflow (42 + 400) + 1.
  to(1000);
  ASSERT_EQ(b.irq_gpt.pulses.size(), 1u);
  EXPECT_EQ(b.irq_gpt.pulses[0], std::make_pair(9u, at(t0, 443)));
  EXPECT_EQ(rd(CNT(2)), 100u - (1000 - 443) / 40);
}

TEST_F(GptimerTest, ChainedAfterOneShotPredecessor) {
  wr(SRELOAD, 9);
  wr(CNT(1), 0);
  wr(CTRL(1), EN);  // one-shot: underflows at its first slot (12), then stops
  wr(CNT(2), 1);
  wr(CTRL(2), EN | CH);
  to(12);
  EXPECT_EQ(rd(CTRL(1)), 0u);
  EXPECT_EQ(rd(CNT(2)), 1u);
  to(13);  // the chained decrement still happens after timer 1 stopped
  EXPECT_EQ(rd(CNT(2)), 0u);
  to(200);
  EXPECT_EQ(rd(CNT(2)), 0u);
}

TEST_F(GptimerTest, TimerOneChainedToLastNeverCounts) {
  wr(SRELOAD, 3);
  wr(CNT(1), 7);
  wr(CTRL(1), EN | CH);
  wr(RLD(2), 0);
  wr(CTRL(2), EN | RS | LD);  // underflows on every sweep
  to(500);
  EXPECT_EQ(rd(CNT(1)), 7u);
  EXPECT_GT(b.gpt.underflows(2), 100u);
}

TEST_F(GptimerTest, ConfigWriteEnablesTimers) {
  wr(SRELOAD, 9);
  wr(CNT(2), 5);
  wr(CONFIG, 1u << 17);  // bit 16+n-1 enables timer n
  EXPECT_EQ(rd(CTRL(2)), uint32_t(EN));
  EXPECT_EQ(rd(CTRL(1)), 0u);
  to(13);
  EXPECT_EQ(rd(CNT(2)), 4u);
}

TEST_F(GptimerTest, AnnotatedDelayReadEqualsLaterRead) {
  wr(SRELOAD, 9);
  wr(RLD(1), 99);
  wr(CTRL(1), EN | RS | LD);
  const uint32_t ahead_cnt = rd(CNT(1), cyc(137));
  const uint32_t ahead_scl = rd(SCALER, cyc(137));
  to(137);
  EXPECT_EQ(rd(CNT(1)), ahead_cnt);
  EXPECT_EQ(rd(SCALER), ahead_scl);
  EXPECT_EQ(ahead_cnt, 99u - 13);  // decrements at 12, 22, ..., 132
  EXPECT_EQ(ahead_scl, 2u);        // tick at 130, then 7 decrements
}

TEST_F(GptimerTest, AnnotatedDelayWriteTimesTheUnderflow) {
  wr(SRELOAD, 9);
  wr(RLD(2), 49);
  // Enable 7 clocks ahead of sc_time_stamp(): the prescaler starts at t0+7,
  // ticks at 17, timer 2's slots are 20 + 10k, underflow at decrement 50.
  wr(CTRL(2), EN | RS | LD | IE, cyc(7));
  to(1100);
  ASSERT_EQ(b.irq_gpt.pulses.size(), 2u);
  EXPECT_EQ(b.irq_gpt.pulses[0], std::make_pair(9u, at(t0, 510)));
  EXPECT_EQ(b.irq_gpt.pulses[1], std::make_pair(9u, at(t0, 1010)));
}

TEST_F(GptimerTest, SharedIrqAndNarrowTimers) {
  auto rd3 = [&](uint32_t off) { return Bench::rd(b.s_gpt3, off); };
  auto wr3 = [&](uint32_t off, uint32_t v) { Bench::wr(b.s_gpt3, off, v); };
  EXPECT_EQ(rd3(CONFIG), 3u | 5u << 3);  // SI = 0
  EXPECT_EQ(rd3(SCALER), 0xFFFFu);       // 16-bit prescaler
  EXPECT_EQ(b.gpt3.pnp().id, 0x01011025u);
  wr3(CNT(1), 0x12345);
  EXPECT_EQ(rd3(CNT(1)), 0x2345u);  // 16-bit timers
  wr3(SRELOAD, 9);
  wr3(CNT(1), 2);
  wr3(CTRL(1), EN | IE);  // one-shot
  wr3(CNT(3), 4);
  wr3(CTRL(3), EN | IE);
  to(200);
  const auto& p = b.irq_gpt3.pulses;
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0], std::make_pair(5u, at(t0, 32)));  // slots of timer 1: 12, 22, 32
  EXPECT_EQ(p[1], std::make_pair(5u, at(t0, 54)));  // timer 3: 14, ..., 54
  EXPECT_EQ(rd3(CNT(1)), 0xFFFFu);
}

}  // namespace
}  // namespace l3vp::test

namespace l3vp::test {
namespace {

// Underflows (learned lazily for timers without a side effect) and IP
// changes are published with their exact clock edges.
TEST_F(GptimerTest, UnderflowAndIpProbes) {
  std::vector<TimerUnderflowEvent> uf;
  std::vector<TimerIpEvent> ip;
  const auto i1 = b.gpt.on_underflow.listen([&](const TimerUnderflowEvent& e) { uf.push_back(e); });
  const auto i2 = b.gpt.on_ip.listen([&](const TimerIpEvent& e) { ip.push_back(e); });
  wr(SRELOAD, 9);  // ticks at 10, 20, ...; timer n at tick + 1 + n
  wr(RLD(1), 2);
  wr(CTRL(1), EN | RS | LD | IE);  // 2 -> 1 at 12, 0 at 22, underflow at 32, 62, 92
  wr(RLD(2), 0);
  wr(CTRL(2), EN | RS | LD);  // underflows every tick: 13, 23, ... (no IRQ)
  to(40);
  wr(CTRL(1), EN | RS | IE | IP, cyc(5));  // IP cleared at 45 (annotated)
  to(100);
  rd(CNT(2));  // timer 2's underflows are learned here
  b.gpt.on_underflow.unlisten(i1);
  b.gpt.on_ip.unlisten(i2);
  std::vector<std::pair<uint64_t, unsigned>> got, want;
  for (const auto& e : uf) got.emplace_back((e.t - t0).value() / kClk.value(), e.timer);
  for (uint64_t c = 13; c <= 93; c += 10) want.emplace_back(c, 2);
  for (uint64_t c : {32, 62, 92}) want.emplace_back(c, 1);
  std::sort(want.begin(), want.end());
  // Published in time order within one catch-up; overall each exactly once.
  std::vector<std::pair<uint64_t, unsigned>> sorted = got;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, want);
  for (const auto& e : uf) EXPECT_EQ((e.t - t0).value() % kClk.value(), 0u);
  ASSERT_EQ(ip.size(), 3u);
  EXPECT_EQ(ip[0].t, at(t0, 32));
  EXPECT_TRUE(ip[0].pending);
  EXPECT_EQ(ip[1].t, at(t0, 45));
  EXPECT_FALSE(ip[1].pending);
  EXPECT_EQ(ip[2].t, at(t0, 62));
  EXPECT_TRUE(ip[2].pending);
  EXPECT_EQ(ip[0].timer, 1u);
  // The IRQ pulses happened at the underflow times of timer 1.
  ASSERT_EQ(b.irq_gpt.pulses.size(), 3u);
  EXPECT_EQ(b.irq_gpt.pulses[0].second, at(t0, 32));
  EXPECT_EQ(b.irq_gpt.pulses[2].second, at(t0, 92));
}

// A debug read computes the counter at sc_time_stamp() without learning
// anything: no underflow published, no statistics, no IP.
TEST_F(GptimerTest, DebugReadHasNoSideEffects) {
  std::vector<TimerUnderflowEvent> uf;
  const auto id = b.gpt.on_underflow.listen([&](const TimerUnderflowEvent& e) { uf.push_back(e); });
  wr(SRELOAD, 9);
  wr(RLD(2), 4);
  wr(CTRL(2), EN | RS | LD);  // 4 -> 3 at 13, ..., 1 -> 0 at 43, underflow at 53 -> 4
  to(70);
  const uint64_t u0 = b.gpt.underflows(2);  // the statistics getter catches up
  ASSERT_EQ(uf.size(), 1u);
  to(140);                                        // underflow at 103 (no event: no side effect)
  EXPECT_EQ(Bench::dbg_rd(b.s_gpt, CNT(2)), 1u);  // 4 at 103, 3 at 113, 2 at 123, 1 at 133
  const uint32_t scaler = Bench::dbg_rd(b.s_gpt, SCALER);
  EXPECT_EQ(uf.size(), 1u);
  EXPECT_EQ(rd(CNT(2)), 1u);  // a CPU read learns the underflow at 103
  ASSERT_EQ(uf.size(), 2u);
  EXPECT_EQ(uf[1].t, at(t0, 103));
  EXPECT_EQ(b.gpt.underflows(2), u0 + 1);
  EXPECT_EQ(rd(SCALER), scaler);
  b.gpt.on_underflow.unlisten(id);
}

// Attaching listeners changes no register value and no IRQ time.
TEST_F(GptimerTest, ListeningChangesNothing) {
  auto run = [&](bool listen) {
    b.gpt.reset();
    t0 = align();
    b.irq_gpt.pulses.clear();
    Probe<TimerUnderflowEvent>::Id a = 0;
    Probe<TimerIpEvent>::Id c = 0;
    if (listen) {
      a = b.gpt.on_underflow.listen([](const TimerUnderflowEvent&) {});
      c = b.gpt.on_ip.listen([](const TimerIpEvent&) {});
    }
    std::vector<uint64_t> r;
    wr(SRELOAD, 4);
    wr(RLD(1), 3);
    wr(CTRL(1), EN | RS | LD | IE);
    wr(RLD(2), 1);
    wr(CTRL(2), EN | LD | IE | CH);
    for (uint64_t k = 1; k <= 8; ++k) {
      to(k * 17);
      r.push_back(rd(CNT(1), cyc(3)));
      r.push_back(rd(CNT(2)));
      r.push_back(rd(CTRL(2)));
      r.push_back(rd(SCALER, cyc(1)));
      wr(CTRL(1), EN | RS | IE | IP, cyc(2));
    }
    for (const auto& p : b.irq_gpt.pulses) r.push_back((p.second - t0).value() + p.first);
    if (listen) {
      b.gpt.on_underflow.unlisten(a);
      b.gpt.on_ip.unlisten(c);
    }
    return r;
  };
  const auto quiet = run(false);
  const auto heard = run(true);
  EXPECT_EQ(quiet, heard);
  EXPECT_GT(quiet.size(), 32u);  // some IRQs happened
}

}  // namespace
}  // namespace l3vp::test
