// The turnaround meter (models/platform/turnaround.h): frame received (RX
// write-back) to the next TX kick, from the oldest unanswered frame, in time
// order whatever order the events arrive in.
#include <gtest/gtest.h>

#include <systemc>

#include "turnaround.h"

namespace l3vp {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

sc_time ns(double v) { return sc_time(v, SC_NS); }

TEST(Turnaround, PairsAFrameWithTheNextKick) {
  Turnaround m;
  m.rx_written(ns(100), ns(100));
  m.tx_kick(ns(130), ns(100));
  m.rx_written(ns(200), ns(200));
  m.tx_kick(ns(250), ns(200));
  const auto& t = m.totals();
  EXPECT_EQ(t.count, 2u);
  EXPECT_EQ(t.total_ps, 80000u);
  EXPECT_EQ(t.min_ps, 30000u);
  EXPECT_EQ(t.max_ps, 50000u);
  EXPECT_EQ(t.last_ps, 50000u);
  EXPECT_EQ(t.rx_frames, 2u);
  EXPECT_EQ(t.tx_kicks_unpaired, 0u);
}

TEST(Turnaround, CountsFromTheOldestUnansweredFrame) {
  Turnaround m;
  m.rx_written(ns(100), ns(0));
  m.rx_written(ns(120), ns(0));  // a second frame before the answer
  m.tx_kick(ns(150), ns(0));     // answers from 100: 50 ns
  m.tx_kick(ns(160), ns(0));     // nothing waiting
  const auto& t = m.totals();
  EXPECT_EQ(t.count, 1u);
  EXPECT_EQ(t.total_ps, 50000u);
  EXPECT_EQ(t.rx_frames, 2u);
  EXPECT_EQ(t.tx_kicks_unpaired, 1u);
}

// The CPU's kick (ahead in its quantum) published before the DMA's earlier
// write-back: the same figures as in time order.
TEST(Turnaround, EventsOutOfOrderWithinTheHorizon) {
  Turnaround in_order, swapped;
  in_order.rx_written(ns(100), ns(90));
  in_order.tx_kick(ns(140), ns(90));
  in_order.rx_written(ns(200), ns(90));
  in_order.tx_kick(ns(230), ns(90));

  swapped.tx_kick(ns(140), ns(90));
  swapped.rx_written(ns(100), ns(90));
  swapped.tx_kick(ns(230), ns(90));
  swapped.rx_written(ns(200), ns(90));
  for (Turnaround* m : {&in_order, &swapped}) {
    const auto& t = m->totals();
    EXPECT_EQ(t.count, 2u);
    EXPECT_EQ(t.total_ps, 70000u);
    EXPECT_EQ(t.tx_kicks_unpaired, 0u);
  }
}

// A write-back and a kick at the same time: the frame is in memory first.
TEST(Turnaround, SameTimeMeansFrameFirst) {
  Turnaround m;
  m.tx_kick(ns(100), ns(0));
  m.rx_written(ns(100), ns(0));
  EXPECT_EQ(m.totals().count, 1u);
  EXPECT_EQ(m.totals().total_ps, 0u);
  EXPECT_EQ(m.totals().tx_kicks_unpaired, 0u);
}

TEST(Turnaround, NothingMeasuredWithoutFrames) {
  Turnaround m;
  m.tx_kick(ns(10), ns(0));
  const auto& t = m.totals();
  EXPECT_EQ(t.count, 0u);
  EXPECT_EQ(t.min_ps, 0u);
  EXPECT_EQ(t.tx_kicks_unpaired, 1u);
}

}  // namespace
}  // namespace l3vp

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
