// The verilated chksum against an independent RFC 1071 reference on random
// buffers of every length 0..1600 at every alignment 0..3, with a random
// initial sum: SUM, STATUS, the burst rules (rtl_bench.h's checker), the
// words read and the DONE/IRQ timing of rtl/chksum/README.md.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "rtl_bench.h"

using l3vp::rtl_test::BusConfig;
using l3vp::rtl_test::ChksumBench;
using l3vp::rtl_test::ref_bursts;
using l3vp::rtl_test::ref_checksum;
using l3vp::rtl_test::RunResult;

namespace {

constexpr uint32_t kMaxLen = 1600;

struct Case {
  uint32_t addr, len;
  uint16_t init, expect;
};

// A random buffer of length len at alignment align somewhere in the 16 KiB
// memory (so 1 KiB boundaries fall at random places), random contents around
// it too (the bytes outside must be masked off), and a random initial sum.
Case random_case(ChksumBench& b, uint32_t len, uint32_t align) {
  auto& rng = b.rng();
  const uint32_t span = ChksumBench::kMemSize - kMaxLen - 16;
  const uint32_t off = (uint32_t(rng() % span) & ~3u) + align;
  auto& mem = b.mem();
  const uint32_t lo = off & ~3u, hi = std::min<uint32_t>(off + len + 8, ChksumBench::kMemSize);
  for (uint32_t i = lo; i < hi; ++i) mem[i] = uint8_t(rng());
  // now and then a buffer of 0xFF or 0x00 bytes (sums 0xFFFF and 0x0000)
  const unsigned kind = unsigned(rng() % 64);
  if (kind == 0 || kind == 1)
    for (uint32_t i = 0; i < len; ++i) mem[off + i] = kind ? 0xFF : 0x00;
  uint16_t init = uint16_t(rng());
  if (kind == 1 || rng() % 8 == 0) init = 0;
  return {ChksumBench::kMemBase + off, len, init, ref_checksum(&mem[off], len, init)};
}

uint32_t covering_words(uint32_t addr, uint32_t len) {
  return len ? ((addr + len - 1) >> 2) - (addr >> 2) + 1 : 0;
}

// Checks one run; returns false (after recording the failure) when wrong.
bool check_run(const Case& c, const RunResult& r, const BusConfig& bus, unsigned wait_fixed) {
  const std::string what =
      "addr " + std::to_string(c.addr) + " len " + std::to_string(c.len) + " init " + std::to_string(c.init);
  bool ok = true;
  auto expect = [&](bool cond, const std::string& msg) {
    if (!cond) {
      ADD_FAILURE() << msg << " (" << what << ")";
      ok = false;
    }
  };
  for (const auto& v : r.violations) expect(false, "bus rule: " + v);
  expect(r.status == 0x2, "STATUS " + std::to_string(r.status));
  expect((r.sum & 0xFFFF) == c.expect,
         "SUM " + std::to_string(r.sum & 0xFFFF) + ", expected " + std::to_string(c.expect));
  expect((r.sum >> 16) == uint16_t(~c.expect), "SUM[31:16] is not the complement");
  const uint32_t n = covering_words(c.addr, c.len);
  expect(r.beats == n, "read " + std::to_string(r.beats) + " words, not " + std::to_string(n));
  expect(r.irq_pulses == 1 && r.irq_width_bad == 0, "IRQ not a single one-clock pulse");
  if (c.len == 0) {
    expect(r.done_edge == r.start_edge + 1, "LEN 0: DONE not one clock after START");
  } else {
    expect(r.done_edge == r.last_beat + 1, "DONE not one clock after the last data beat");
    if (bus.parked_grant) {
      const unsigned bursts = ref_bursts(c.addr, n);
      expect(r.bursts == bursts,
             "bursts " + std::to_string(r.bursts) + ", expected " + std::to_string(bursts));
      if (bus.wait_min == bus.wait_max) {
        // the timing contract: request at START+1, one idle clock between
        // bursts, DONE one clock after the last beat
        const uint64_t t = r.start_edge + 2 + bursts + uint64_t(n) * (1 + wait_fixed);
        expect(r.done_edge == t, "DONE at START+" + std::to_string(r.done_edge - r.start_edge) +
                                     ", contract says START+" + std::to_string(t - r.start_edge));
      }
    }
  }
  return ok;
}

// Every length 0..1600 x every alignment 0..3 on one bus setting.
void sweep(const BusConfig& bus, uint64_t seed, const char* label) {
  const auto t0 = std::chrono::steady_clock::now();
  ChksumBench b(seed);
  b.bus = bus;
  unsigned failures = 0, runs = 0, max_burst = 0;
  const uint64_t e0 = b.edges();
  for (uint32_t len = 0; len <= kMaxLen && failures < 10; ++len) {
    for (uint32_t align = 0; align < 4; ++align) {
      const Case c = random_case(b, len, align);
      const RunResult r = b.run(c.addr, c.len, c.init);
      max_burst = std::max(max_burst, r.max_burst);
      ++runs;
      if (!check_run(c, r, bus, bus.wait_min)) ++failures;
    }
  }
  EXPECT_EQ(runs, (kMaxLen + 1) * 4);
  EXPECT_EQ(max_burst, 16u);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s: %u runs, %llu clocks, %.2f s\n", label, runs, (unsigned long long)(b.edges() - e0), s);
}

}  // namespace

// No wait states, grant parked on the engine: the exact timing contract.
TEST(random, every_length_alignment_0ws) {
  BusConfig bus;
  sweep(bus, 1, "0 wait states, parked grant");
}

// Two wait states per beat, parked grant: the timing formula with waits.
TEST(random, every_length_alignment_2ws) {
  BusConfig bus;
  bus.wait_min = bus.wait_max = 2;
  sweep(bus, 2, "2 wait states, parked grant");
}

// Random wait states (0..3 per beat), a random request-to-grant delay (0..5
// clocks) and the grant withdrawn now and then (another master).
TEST(random, every_length_alignment_random_bus) {
  BusConfig bus;
  bus.wait_min = 0;
  bus.wait_max = 3;
  bus.parked_grant = false;
  bus.grant_delay_max = 5;
  bus.steal_percent = 3;
  sweep(bus, 3, "random waits and grant");
}

// An ERROR response at a random covering word: ERR and DONE, BUSY 0, no read
// after the erroring one, DONE one clock after the ERROR response.
TEST(random, error_anywhere) {
  ChksumBench b(4);
  for (int i = 0; i < 400; ++i) {
    b.bus.wait_max = unsigned(i % 3);
    const uint32_t len = 1 + uint32_t(b.rng()() % kMaxLen);
    const Case c = random_case(b, len, uint32_t(i & 3));
    const uint32_t n = covering_words(c.addr, c.len);
    const uint32_t k = uint32_t(b.rng()() % n);
    b.bus.err_addr = (c.addr & ~3u) + 4 * k;
    const RunResult r = b.run(c.addr, c.len, c.init);
    for (const auto& v : r.violations) ADD_FAILURE() << "bus rule: " << v;
    ASSERT_EQ(r.status, 0x6u) << "len " << len << " error word " << k;
    ASSERT_EQ(r.beats, k) << "reads before the error";
    ASSERT_EQ(r.irq_pulses, 1u);
  }
  // and a clean run afterwards
  b.bus.err_addr = 0xFFFFFFFF;
  const Case c = random_case(b, 100, 1);
  const RunResult r = b.run(c.addr, c.len, c.init);
  EXPECT_EQ(r.status, 0x2u);
  EXPECT_EQ(r.sum & 0xFFFF, c.expect);
}

// A buffer that runs past 0xFFFFFFFF (a guest may ask for it): the words up to the top are
// read and summed in the usual bursts, then the operation ends with ERR one
// clock after the last beat (the contract's timing with N = the words up to
// the top); nothing at 0x00000000 is read (the bench's checker).
TEST(random, past_the_top) {
  ChksumBench b(6);
  std::vector<std::pair<uint32_t, uint32_t>> cases = {
      {0xFFFFFFF6u, 20},     {0xFFFFFFFFu, 2},      {0xFFFFFFFFu, 1},
      {0xFFFFFFF0u, 16},     {0xFFFFFFF1u, 16},     {0xFFFFFC00u, 0x800},
      {0xFFFFFF01u, 0xFFFF}, {0xFFFF0000u, 0xFFFF}, {0xFFFF0001u, 0xFFFF}};
  for (int i = 0; i < 300; ++i)
    cases.emplace_back(0xFFFFFFFFu - uint32_t(b.rng()() % 3000), uint32_t(b.rng()() % 4000));
  unsigned wrapped = 0;
  for (const auto& [addr, len] : cases) {
    const uint64_t end = uint64_t(addr) + len;  // one past the last byte
    const bool wraps = end > 0x100000000ull;
    wrapped += wraps;
    std::vector<uint8_t> bytes;
    for (uint64_t a = addr; a < std::min<uint64_t>(end, 0x100000000ull); ++a)
      bytes.push_back(uint8_t(ChksumBench::top_word(uint32_t(a)) >> (8 * (3 - (a & 3)))));
    const uint16_t init = uint16_t(b.rng()());
    const uint16_t want = ref_checksum(bytes.data(), bytes.size(), init);
    const RunResult r = b.run(addr, len, init);
    const std::string what = "addr " + std::to_string(addr) + " len " + std::to_string(len);
    for (const auto& v : r.violations) ADD_FAILURE() << "bus rule: " << v << " (" << what << ")";
    ASSERT_EQ(r.status, wraps ? 6u : 2u) << what;
    ASSERT_EQ(r.sum & 0xFFFF, want) << what;
    ASSERT_EQ(r.irq_pulses, 1u) << what;
    if (!len) continue;
    const uint32_t n = uint32_t((std::min<uint64_t>(end, 0x100000000ull) - 1) / 4 - addr / 4 + 1);
    ASSERT_EQ(r.beats, n) << what;
    ASSERT_EQ(r.done_edge, r.last_beat + 1) << what;
    ASSERT_EQ(r.done_edge, r.start_edge + 2 + ref_bursts(addr, n) + n) << what;
  }
  EXPECT_GT(wrapped, 100u);
}

// Register behaviour: reset values, INFO, masks, writes while busy ignored.
TEST(random, registers) {
  ChksumBench b(5);
  EXPECT_EQ(b.apb_read(0x00), 0u);
  EXPECT_EQ(b.apb_read(0x04), 0u);
  EXPECT_EQ(b.apb_read(0x14), 16u);
  EXPECT_EQ(b.apb_read(0x1C), 0u);
  b.apb_write(0x0C, 0xFFFF1234);
  EXPECT_EQ(b.apb_read(0x0C), 0x1234u);
  b.apb_write(0x10, 0xABCD0001);
  EXPECT_EQ(b.apb_read(0x10), 0xFFFE0001u);
  b.apb_write(0x00, 2);
  EXPECT_EQ(b.apb_read(0x00), 2u);  // IE reads back, START reads 0
  b.apb_write(0x08, ChksumBench::kMemBase);
  b.apb_write(0x0C, 1024);
  b.apb_write(0x00, 1);
  b.apb_write(0x08, 0x1234);
  b.apb_write(0x0C, 3);
  b.apb_write(0x10, 0x5555);
  EXPECT_EQ(b.apb_read(0x04) & 1u, 1u);
  EXPECT_EQ(b.apb_read(0x08), ChksumBench::kMemBase);
  EXPECT_EQ(b.apb_read(0x0C), 1024u);
  while (b.apb_read(0x04) & 1u) {
  }
  EXPECT_EQ(b.apb_read(0x04), 2u);
  EXPECT_EQ(b.apb_read(0x10) & 0xFFFF, ref_checksum(b.mem().data(), 1024, 1));
  b.apb_write(0x04, 2);
  EXPECT_EQ(b.apb_read(0x04), 0u);
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
