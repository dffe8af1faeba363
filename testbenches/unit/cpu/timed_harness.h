// Fixture for timed-mode tests: the CoreTest harness with CoreConfig::timed
// set. By default every memory cost is zero (DMI over the whole RAM, latency
// 0, no miss overhead, no burst beats) so a program's cycle count is its pure
// pipeline cost; cache tests raise the costs they need.
//
// Every program run by exec() ends with `ta 0`, a taken trap: 5 cycles.
#pragma once
#include "core_harness.h"

namespace l3vp::leon3::test {

constexpr uint64_t kTa = 5;  // the final `ta 0` (taken trap, TimingConfig::trap_cycles)

class TimedTest : public CoreTest {
 protected:
  CoreConfig tcfg;

  void SetUp() override {
    tcfg.timed = true;
    tcfg.timing.icache_miss_cycles = 0;
    tcfg.timing.dcache_miss_cycles = 0;
    tcfg.timing.burst_beat_cycles = 0;
    remake();
  }
  // Rebuilds the core from tcfg with one DMI region over the whole RAM.
  void remake(unsigned rlat = 0, unsigned wlat = 0) {
    make(tcfg);
    core->add_dmi(0, kRamSize - 1, bus.ram.data(), true, true, rlat, wlat, bus.gen.data(), bus.ram.data());
  }
  // Runs `words` + `ta 0`, checks it reached the `ta 0` at index `exit_at`
  // (default: the appended one) and returns the cycles it took.
  uint64_t cycles_of(std::vector<uint32_t> words, size_t exit_at = size_t(-1)) {
    size_t n = words.size();
    uint64_t c0 = core->cycles();
    exec(std::move(words));
    expect_exit(exit_at == size_t(-1) ? n : exit_at);
    return core->cycles() - c0;
  }
  const CoreTimingCounters& tc() const { return core->timing_counters(); }
  // cycles() must equal the sum of every timing bucket.
  void expect_cycles_accounted() {
    const CoreTimingCounters& t = core->timing_counters();
    uint64_t sum = core->counters().idle_cycles + t.annul_cycles + t.trap_cycles + t.stall_load_use +
                   t.stall_branch + t.stall_muldiv + t.stall_icache_miss + t.stall_dcache_miss +
                   t.stall_write_buffer + t.stall_bus;
    for (uint64_t v : t.class_cycles) sum += v;
    EXPECT_EQ(sum, core->cycles());
  }
};

}  // namespace l3vp::leon3::test
