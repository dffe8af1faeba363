// GptimerRtl entered again while it evaluates its model (a re-entry guard,
// rtl/adapters/README.md "Re-entry"). On the board nothing calls back into
// the GPTIMER while it steps (it is no bus master; its interrupt goes to the
// IRQMP), so this bench makes the path itself: an interrupt sink that, on
// every pulse, reads and writes the timer's registers through its APB socket
// with an access time 100 clocks after the pulse — from inside the step that
// raised the pulse. Without a guard each such read stepped the model again,
// raised the next pulse inside that step, and so on until the host stack
// overflowed. With it:
//  * a re-entrant read is answered from the state after the edge being
//    evaluated (the IRQ edge), without stepping: timer 1's counter shows the
//    reload value it took at the underflow;
//  * a re-entrant write is ignored (logged as a guest error);
//  * the timer goes on exactly as without the sink: the same pulses at the
//    same times as a second GptimerRtl with a plain recording sink.
#include <algorithm>

#include "gptimer_rtl.h"
#include "log.h"
#include "tb_util.h"

namespace l3vp::test {
namespace {

const sc_core::sc_time kClk(25, sc_core::SC_NS);
constexpr uint32_t kReload = 9;  // timer 1 reload: an interrupt every 10 ticks

// The sink that calls back into the timer from its own pulse.
struct Reenter : TimedIrqLineSink {
  TestInitiator* init = nullptr;
  bool active = false;
  std::vector<sc_core::sc_time> pulses;
  std::vector<uint32_t> reads;
  void irq_pulse(unsigned line) override { irq_pulse_at(line, sc_core::sc_time_stamp()); }
  void irq_pulse_at(unsigned line, const sc_core::sc_time& t) override {
    if (line != 8) return;
    pulses.push_back(t);
    if (!active) return;
    const sc_core::sc_time at = t + kClk * 100.0, stamp = sc_core::sc_time_stamp();
    const sc_core::sc_time d = at > stamp ? at - stamp : sc_core::SC_ZERO_TIME;
    reads.push_back(init->rd32_at(0x10, d));  // timer 1 counter
    init->wr32_at(0x18, 0, d);                // timer 1 off: must be ignored
  }
};

struct Bench : sc_core::sc_module {
  GptimerRtl rtl, ref;  // ref: the same timer with a sink that only records
  TestInitiator i, i_ref;
  Reenter sink, ref_sink;
  explicit Bench(sc_core::sc_module_name n) : sc_module(n), rtl("rtl"), ref("ref"), i("i"), i_ref("i_ref") {
    i.isock.bind(rtl.tsock);
    i_ref.isock.bind(ref.tsock);
    sink.init = &i;
    rtl.connect_irq(&sink);
    ref.connect_irq(&ref_sink);
  }
};

Bench* bench = nullptr;
void build() { bench = new Bench("bench"); }

TEST(GptimerRtlReentry, AccessesFromItsOwnInterrupt) {
  Bench& b = *bench;
  Log::enable(LogCat::GuestError, false);
  const uint64_t errors0 = Log::count(LogCat::GuestError);
  for (TestInitiator* i : {&b.i, &b.i_ref}) {
    i->wr32_at(0x04, 0, sc_core::SC_ZERO_TIME);        // prescaler reload 0: the fastest tick
    i->wr32_at(0x14, kReload, sc_core::SC_ZERO_TIME);  // timer 1 reload
    i->wr32_at(0x18, 0xF, sc_core::SC_ZERO_TIME);      // EN RS LD IE
  }
  b.sink.active = true;
  // One access 1000 clocks ahead steps through dozens of interrupt edges,
  // each of which calls back; then the kernel runs on (the adapter's own
  // wake-ups, each an evaluation that pulses and is called back too).
  const uint32_t v = b.i.rd32_at(0x10, kClk * 1000.0);
  b.i_ref.rd32_at(0x10, kClk * 1000.0);
  sc_core::sc_start(kClk * 4000.0);
  b.sink.active = false;
  const auto& p = b.sink.pulses;
  ASSERT_GE(p.size(), 100u);
  EXPECT_EQ(p, b.ref_sink.pulses) << "the re-entrant accesses changed the timer";
  EXPECT_EQ(b.sink.reads.size(), p.size());
  EXPECT_TRUE(std::all_of(b.sink.reads.begin(), b.sink.reads.end(), [](uint32_t r) { return r == kReload; }))
      << "a re-entrant read is not the state after the IRQ edge";
  EXPECT_LE(v, kReload);
  // Every re-entrant write was refused and logged; timer 1 is still on.
  EXPECT_EQ(Log::count(LogCat::GuestError) - errors0, p.size());
  EXPECT_EQ(b.i.rd32_at(0x18, sc_core::SC_ZERO_TIME) & 1u, 1u);
}

}  // namespace
}  // namespace l3vp::test

L3VP_SC_GTEST_MAIN(l3vp::test::build)
