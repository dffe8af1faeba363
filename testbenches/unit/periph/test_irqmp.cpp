// IRQMP register, priority and acknowledge tests (hw-reference §5).
#include "bench.h"

namespace l3vp::test {
namespace {

enum : uint32_t {
  ILEVEL = 0x00,
  IPEND = 0x04,
  IFORCE = 0x08,
  ICLEAR = 0x0C,
  MPSTAT = 0x10,
  PIMASK = 0x40,
  PIFORCE = 0x80,
};
constexpr uint32_t bit(unsigned n) { return 1u << n; }

class IrqmpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    b.irqmp.reset();
    wr(ILEVEL, 0);  // not reset by hardware
    t0 = align();
    b.cpu.changes.clear();
    b.irl_events.clear();
  }
  void TearDown() override { b.gpt.connect_irq(&b.irq_gpt); }
  uint32_t rd(uint32_t off, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    return Bench::rd(b.s_irqmp, off, d);
  }
  void wr(uint32_t off, uint32_t v, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    Bench::wr(b.s_irqmp, off, v, d);
  }
  Bench& b = bench();
  sc_core::sc_time t0;
};

TEST_F(IrqmpTest, ResetValuesPnpAndMasks) {
  for (uint32_t off : {ILEVEL, IPEND, IFORCE, ICLEAR, MPSTAT, PIMASK, PIFORCE})
    EXPECT_EQ(rd(off), 0u) << "offset " << off;
  EXPECT_EQ(b.irqmp.pnp().id, 0x0100D080u);
  EXPECT_EQ(b.irqmp.pnp().bar, 0x0020FFF1u);
  // Bits 15:1 only (no extended interrupts, interrupt 0 does not exist).
  for (uint32_t off : {ILEVEL, IPEND, IFORCE, PIMASK}) {
    wr(off, 0xFFFFFFFF);
    EXPECT_EQ(rd(off), 0xFFFEu) << "offset " << off;
    wr(off, 0);
  }
  // MPSTAT: NCPU-1 = 0, EIRQ = 0, CPU 0 not powered down; writes ignored.
  wr(MPSTAT, 0xFFFFFFFF);
  EXPECT_EQ(rd(MPSTAT), 0u);
  b.irqmp.set_powerdown_status([] { return true; });
  EXPECT_EQ(rd(MPSTAT), 1u);
  b.irqmp.set_powerdown_status(nullptr);
  // paddr[5] is not decoded in the first group: 0x20 aliases 0x00.
  wr(0x20 + ILEVEL, bit(4));
  EXPECT_EQ(rd(ILEVEL), bit(4));
  // PIMASK of a second CPU does not exist.
  EXPECT_EQ(rd(0x44), 0u);
}

TEST_F(IrqmpTest, PulseMaskAndClear) {
  b.irqmp.irq_pulse(7);
  EXPECT_EQ(rd(IPEND), bit(7));
  EXPECT_EQ(b.cpu.level, 0u);  // masked
  wr(PIMASK, bit(7));
  EXPECT_EQ(b.cpu.level, 7u);
  wr(PIMASK, 0);
  EXPECT_EQ(b.cpu.level, 0u);
  wr(PIMASK, 0xFFFE);
  EXPECT_EQ(b.cpu.level, 7u);
  wr(ICLEAR, bit(7) | bit(3));
  EXPECT_EQ(rd(IPEND), 0u);
  EXPECT_EQ(rd(ICLEAR), 0u);
  EXPECT_EQ(b.cpu.level, 0u);
  b.irqmp.irq_pulse(0);  // no interrupt 0
  EXPECT_EQ(rd(IPEND), 0u);
}

TEST_F(IrqmpTest, IpendIsWritable) {
  wr(PIMASK, 0xFFFE);
  wr(IPEND, bit(9) | bit(2) | 1);
  EXPECT_EQ(rd(IPEND), bit(9) | bit(2));
  EXPECT_EQ(b.cpu.level, 9u);
  wr(IPEND, bit(2));  // a write replaces the pending bits
  EXPECT_EQ(rd(IPEND), bit(2));
  EXPECT_EQ(b.cpu.level, 2u);
}

TEST_F(IrqmpTest, PriorityLevelGroups) {
  wr(PIMASK, 0xFFFE);
  b.irqmp.irq_pulse(3);
  b.irqmp.irq_pulse(10);
  EXPECT_EQ(b.cpu.level, 10u);  // same group: higher number wins
  wr(ILEVEL, bit(3));
  EXPECT_EQ(b.cpu.level, 3u);  // level-1 group beats any level-0 interrupt
  b.irqmp.irq_pulse(12);
  EXPECT_EQ(b.cpu.level, 3u);
  wr(ILEVEL, bit(3) | bit(12));
  EXPECT_EQ(b.cpu.level, 12u);
  wr(PIMASK, 0xFFFE & ~bit(12) & ~bit(3));
  EXPECT_EQ(b.cpu.level, 10u);
}

TEST_F(IrqmpTest, ForceRegisters) {
  wr(PIMASK, 0xFFFE);
  wr(IFORCE, bit(4));
  EXPECT_EQ(b.cpu.level, 4u);
  EXPECT_EQ(rd(PIFORCE), bit(4));  // IFORCE0 aliases CPU 0's force register
  EXPECT_EQ(rd(IPEND), 0u);
  wr(PIFORCE, bit(5));  // set half
  EXPECT_EQ(rd(IFORCE), bit(4) | bit(5));
  wr(PIFORCE, bit(16 + 4));  // clear half
  EXPECT_EQ(rd(IFORCE), bit(5));
  wr(PIFORCE, bit(6) | bit(16 + 6));  // set and clear: clear wins
  EXPECT_EQ(rd(IFORCE), bit(5));
  wr(PIFORCE, bit(16 + 5));
  EXPECT_EQ(rd(IFORCE), 0u);
  EXPECT_EQ(b.cpu.level, 0u);
}

TEST_F(IrqmpTest, AcknowledgeClearsForceBeforePending) {
  wr(PIMASK, 0xFFFE);
  b.irqmp.irq_pulse(5);
  wr(IFORCE, bit(5));
  EXPECT_EQ(b.cpu.level, 5u);
  b.irqmp.intack(5);
  EXPECT_EQ(rd(IFORCE), 0u);
  EXPECT_EQ(rd(IPEND), bit(5));
  EXPECT_EQ(b.cpu.level, 5u);
  b.irqmp.intack(5);
  EXPECT_EQ(rd(IPEND), 0u);
  EXPECT_EQ(b.cpu.level, 0u);
  // Acknowledging a level that is not pending changes nothing.
  b.irqmp.irq_pulse(2);
  b.irqmp.intack(9);
  EXPECT_EQ(rd(IPEND), bit(2));
}

TEST_F(IrqmpTest, IrlChangesAreDeliveredOnce) {
  wr(PIMASK, 0xFFFE);
  b.irqmp.irq_pulse(6);
  b.irqmp.irq_pulse(6);  // already pending: irl unchanged
  b.irqmp.irq_pulse(4);  // lower: irl unchanged
  b.irqmp.intack(6);
  b.irqmp.intack(4);
  ASSERT_EQ(b.cpu.changes.size(), 3u);
  EXPECT_EQ(b.cpu.changes[0].first, 6u);
  EXPECT_EQ(b.cpu.changes[1].first, 4u);
  EXPECT_EQ(b.cpu.changes[2].first, 0u);
}

TEST_F(IrqmpTest, TimerInterruptReachesCpuAtUnderflowTime) {
  b.gpt.reset();
  b.gpt.connect_irq(&b.irqmp);
  wr(PIMASK, bit(8) | bit(9));
  Bench::wr(b.s_gpt, 0x04, 9);                      // SRELOAD: 10-clock tick
  Bench::wr(b.s_gpt, 0x14, 99);                     // TRLDVAL1
  Bench::wr(b.s_gpt, 0x18, 0x1 | 0x2 | 0x4 | 0x8);  // EN RS LD IE
  advance(cyc(1500));
  ASSERT_EQ(b.cpu.changes.size(), 1u);
  EXPECT_EQ(b.cpu.changes[0], std::make_pair(8u, at(t0, 1002)));
  b.irqmp.intack(8);
  EXPECT_EQ(b.cpu.level, 0u);
  advance(cyc(1000));
  ASSERT_EQ(b.cpu.changes.size(), 3u);
  EXPECT_EQ(b.cpu.changes[2], std::make_pair(8u, at(t0, 2002)));
  ASSERT_EQ(b.irl_events.size(), 3u);
  EXPECT_EQ(b.irl_events[0], at(t0, 1002));
  Bench::wr(b.s_gpt, 0x18, 0);
}

TEST_F(IrqmpTest, IrlChangedEventHonoursAccessDelay) {
  wr(PIMASK, 0xFFFE);
  b.irqmp.irq_pulse(3);  // outside an access: delta notification at t0
  settle();
  ASSERT_EQ(b.irl_events.size(), 1u);
  EXPECT_EQ(b.irl_events[0], t0);
  // A register write issued 40 clocks ahead of sc_time_stamp() changes irl
  // at t0 + 40 clocks; the event fires then, not at t0.
  wr(IFORCE, bit(11), cyc(40));
  settle();
  EXPECT_EQ(b.irl_events.size(), 1u);
  advance(cyc(40));
  ASSERT_EQ(b.irl_events.size(), 2u);
  EXPECT_EQ(b.irl_events[1], at(t0, 40));
  EXPECT_EQ(b.irqmp.irl(), 11u);
}

TEST_F(IrqmpTest, PulseStatisticsAndLineProbe) {
  const uint64_t n3 = b.irqmp.pulse_count(3);
  std::vector<std::pair<unsigned, sc_core::sc_time>> seen;
  const auto id = b.irqmp.on_line.listen([&](const IrqLineEvent& e) { seen.emplace_back(e.line, e.t); });
  b.irqmp.irq_pulse(3);
  advance(cyc(5));
  b.irqmp.irq_pulse(3);
  b.irqmp.irq_pulse(14);
  b.irqmp.on_line.unlisten(id);
  b.irqmp.irq_pulse(4);  // nobody listens any more
  EXPECT_EQ(b.irqmp.pulse_count(3) - n3, 2u);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], std::make_pair(3u, t0));
  EXPECT_EQ(seen[1], std::make_pair(3u, at(t0, 5)));
  EXPECT_EQ(seen[2], std::make_pair(14u, at(t0, 5)));
}

}  // namespace
}  // namespace l3vp::test

namespace l3vp::test {
namespace {

// IRL changes and acknowledges are published with exact times: a register
// write 40 clocks ahead of sc_time_stamp() changes the IRL at t0 + 40.
TEST_F(IrqmpTest, IrlAndAckProbes) {
  std::vector<IrlEvent> irl;
  std::vector<IntAckEvent> ack;
  const auto i1 = b.irqmp.on_irl.listen([&](const IrlEvent& e) { irl.push_back(e); });
  const auto i2 = b.irqmp.on_intack.listen([&](const IntAckEvent& e) { ack.push_back(e); });
  wr(PIMASK, bit(5) | bit(9));
  b.irqmp.irq_pulse(5);         // IRL 0 -> 5 at t0
  wr(IFORCE, bit(9), cyc(40));  // IRL 5 -> 9 at t0 + 40 (annotated)
  advance(cyc(50));
  b.irqmp.intack(9);           // clears the force bit: IRL 9 -> 5 at t0 + 50
  wr(ICLEAR, bit(5), cyc(3));  // IRL 5 -> 0 at t0 + 53
  b.irqmp.on_irl.unlisten(i1);
  b.irqmp.on_intack.unlisten(i2);
  ASSERT_EQ(irl.size(), 4u);
  EXPECT_EQ(irl[0].level, 5u);
  EXPECT_EQ(irl[0].t, t0);
  EXPECT_EQ(irl[1].level, 9u);
  EXPECT_EQ(irl[1].t, at(t0, 40));
  EXPECT_EQ(irl[2].level, 5u);
  EXPECT_EQ(irl[2].t, at(t0, 50));
  EXPECT_EQ(irl[3].level, 0u);
  EXPECT_EQ(irl[3].t, at(t0, 53));
  ASSERT_EQ(ack.size(), 1u);
  EXPECT_EQ(ack[0].level, 9u);
  EXPECT_EQ(ack[0].t, at(t0, 50));
  // The CPU side saw the same levels.
  ASSERT_EQ(b.cpu.changes.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(b.cpu.changes[i].first, irl[i].level);
}

// A pulse from a device that runs ahead of sc_time_stamp() (GPTIMER inside a
// CPU access) reaches the line probe with the device's exact time.
TEST_F(IrqmpTest, TimedPulseFromADevice) {
  std::vector<IrqLineEvent> seen;
  const auto id = b.irqmp.on_line.listen([&](const IrqLineEvent& e) { seen.push_back(e); });
  b.gpt.reset();
  b.gpt.connect_irq(&b.irqmp);
  // Timer 1: prescaler period 10, counter 0, IE: underflow at t0 + 12 (tick at +10, timer 1 slot +2).
  Bench::wr(b.s_gpt, 0x04, 9);
  Bench::wr(b.s_gpt, 0x10, 0);
  Bench::wr(b.s_gpt, 0x18, 0x9);  // EN | IE
  // The CPU reads the counter 100 clocks ahead: the catch-up finds the
  // underflow and pulses with its exact time.
  Bench::rd(b.s_gpt, 0x10, cyc(100));
  b.irqmp.on_line.unlisten(id);
  b.gpt.reset();
  ASSERT_GE(seen.size(), 1u);
  EXPECT_EQ(seen[0].line, 8u);
  EXPECT_EQ(seen[0].t, at(t0, 12));
}

}  // namespace
}  // namespace l3vp::test

namespace l3vp::test {
namespace {

// Attaching listeners changes no register value and no IRL time.
TEST_F(IrqmpTest, ListeningChangesNothing) {
  auto run = [&](bool listen) {
    SetUp();
    Probe<IrqLineEvent>::Id a = 0;
    Probe<IrlEvent>::Id c = 0;
    Probe<IntAckEvent>::Id d = 0;
    if (listen) {
      a = b.irqmp.on_line.listen([](const IrqLineEvent&) {});
      c = b.irqmp.on_irl.listen([](const IrlEvent&) {});
      d = b.irqmp.on_intack.listen([](const IntAckEvent&) {});
    }
    std::vector<uint64_t> r;
    wr(PIMASK, 0xFFFE);
    wr(ILEVEL, bit(3));
    for (unsigned k = 1; k <= 6; ++k) {
      b.irqmp.irq_pulse(k * 2);
      wr(IFORCE, bit(k + 1), cyc(k));
      advance(cyc(10));
      b.irqmp.intack(b.irqmp.irl());
      r.push_back(rd(IPEND));
      r.push_back(rd(IFORCE));
    }
    for (const auto& ch : b.cpu.changes) r.push_back((ch.second - t0).value() * 16 + ch.first);
    for (const auto& t : b.irl_events) r.push_back((t - t0).value());
    if (listen) {
      b.irqmp.on_line.unlisten(a);
      b.irqmp.on_irl.unlisten(c);
      b.irqmp.on_intack.unlisten(d);
    }
    return r;
  };
  const auto quiet = run(false);
  const auto heard = run(true);
  EXPECT_EQ(quiet, heard);
  EXPECT_GT(quiet.size(), 14u);
}

}  // namespace
}  // namespace l3vp::test
