// Test harness for the LEON3 core: a big-endian RAM implementing CoreBus,
// optional bus-error windows and per-access latency, plus a fixture that
// places small hand-encoded programs in memory and runs them.
//
// Conventions of the fixture:
//  * RAM covers 0x00000000..kRamSize-1; the trap table is at TBA = 0 and every
//    entry holds `rd %tbr, %g7; ta 0`. Programs start at kCode.
//  * The core starts in supervisor mode with ET = 0, so a program ends with
//    `ta 0` and the core enters error mode with tt 0x80 (the simulator's exit
//    convention). A trap taken with ET = 1 lands in its table entry, which
//    copies %tbr to %g7 and whose `ta 0` then enters error mode:
//    error_pc() == (tt << 4) + 4 and %g7 == TBA | tt << 4 identify the trap.
#pragma once
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <functional>
#include <memory>
#include <vector>

#include "core.h"
#include "sparc_enc.h"

namespace l3vp::leon3::test {

constexpr uint32_t kRamSize = 0x20000;
constexpr uint32_t kCode = 0x4000;
constexpr uint32_t kData = 0x8000;
constexpr uint32_t kPsrS = 1u << 7, kPsrPS = 1u << 6, kPsrET = 1u << 5;

class RamBus : public CoreBus {
 public:
  struct Access {
    Kind kind;
    uint32_t addr;
    unsigned len;
    uint8_t asi;
  };
  std::vector<uint8_t> ram = std::vector<uint8_t>(kRamSize, 0);
  // Write generations of the RAM's 4 KiB pages, as a memory model keeps them
  // (common/write_gen.h): bumped by bus writes and w32 (another master).
  std::vector<uint32_t> gen = std::vector<uint32_t>(kRamSize / 4096, 0);
  std::vector<std::pair<uint32_t, uint32_t>> error_ranges;  // inclusive
  std::vector<Access> log;
  std::vector<unsigned> intacks;
  unsigned latency = 0;
  std::function<void(const Access&)> on_access;
  std::function<void(unsigned)> on_intack;

  bool access(Kind kind, uint32_t addr, uint8_t* data, unsigned len, uint8_t asi, uint64_t& cycles) override {
    Access a{kind, addr, len, asi};
    log.push_back(a);
    if (on_access) on_access(a);
    for (auto& r : error_ranges)
      if (addr <= r.second && addr + len - 1 >= r.first) return false;
    if (uint64_t(addr) + len > ram.size()) return false;
    if (kind == Kind::Write) {
      std::memcpy(&ram[addr], data, len);
      ++gen[addr / 4096];
      ++gen[(addr + len - 1) / 4096];
    } else
      std::memcpy(data, &ram[addr], len);
    cycles += latency;
    return true;
  }
  // Debug reads (cache hits without DMI): no log entry, no latency.
  bool peek_enabled = true;
  unsigned peeks = 0;
  bool peek(uint32_t addr, uint8_t* data, unsigned len) override {
    if (!peek_enabled || uint64_t(addr) + len > ram.size()) return false;
    std::memcpy(data, &ram[addr], len);
    ++peeks;
    return true;
  }
  // Arbitration side-band: records each call, answers arb_wait cycles.
  std::vector<std::pair<uint64_t, uint64_t>> arb_calls;  // (start, dur)
  std::vector<uint64_t> arb_waits;                       // answer to call i (0 beyond)
  uint64_t arbitrate(uint64_t start, uint64_t dur) override {
    arb_calls.emplace_back(start, dur);
    return arb_calls.size() <= arb_waits.size() ? arb_waits[arb_calls.size() - 1] : 0;
  }
  void intack(unsigned level) override {
    intacks.push_back(level);
    if (on_intack) on_intack(level);
  }

  uint32_t r32(uint32_t a) const {
    return (uint32_t(ram[a]) << 24) | (uint32_t(ram[a + 1]) << 16) | (uint32_t(ram[a + 2]) << 8) | ram[a + 3];
  }
  void w32(uint32_t a, uint32_t v) {
    ram[a] = uint8_t(v >> 24);
    ram[a + 1] = uint8_t(v >> 16);
    ram[a + 2] = uint8_t(v >> 8);
    ram[a + 3] = uint8_t(v);
    ++gen[a / 4096];
  }
  size_t count(Kind k) const {
    size_t n = 0;
    for (auto& a : log) n += a.kind == k;
    return n;
  }
};

class CoreTest : public ::testing::Test {
 protected:
  RamBus bus;
  std::unique_ptr<Core> core;

  void SetUp() override { make(CoreConfig{}); }

  void make(const CoreConfig& cfg) {
    core = std::make_unique<Core>(cfg, bus);
    for (uint32_t tt = 0; tt < 256; ++tt) {
      bus.w32(tt << 4, enc::enc_rdtbr(enc::G7));
      bus.w32((tt << 4) + 4, enc::enc_ta(0));
    }
    core->set_pc(kCode, kCode + 4);
  }
  // Places words at `at` (default kCode).
  void load(const std::vector<uint32_t>& words, uint32_t at = kCode) {
    for (size_t i = 0; i < words.size(); ++i) bus.w32(at + 4 * uint32_t(i), words[i]);
  }
  // Loads a program followed by `ta 0` and runs it (bounded).
  StopReason exec(std::vector<uint32_t> words, uint64_t max_cycles = 100000) {
    words.push_back(enc::enc_ta(0));
    load(words);
    return core->run(core->cycles() + max_cycles);
  }
  // The program ran to its final `ta 0` (index n of the loaded words).
  void expect_exit(size_t n_words_before_ta) {
    EXPECT_TRUE(core->in_error_mode());
    EXPECT_EQ(core->error_tt(), 0x80u);
    EXPECT_EQ(core->error_pc(), kCode + 4 * uint32_t(n_words_before_ta));
  }
  // The loop of the ThroughputSmoke tests (not speed assertions): 1 M
  // iterations of addi/ld/add/st/subcc/bne/nop on the word at kData; checks
  // what it computed and returns the host seconds it took.
  double run_throughput_loop() {
    using namespace enc;
    core->set_reg(G3, 1000000);
    core->set_reg(G1, kData);
    const auto t0 = std::chrono::steady_clock::now();
    exec({enc_addi(G2, G2, 3), enc_ld(G4, G1, 0), alu(ADD, G4, G4, G2), enc_st(G4, G1, 0),
          enc_subcci(G3, G3, 1), enc_bicc(NE, false, -5), enc_nop()},
         1ull << 40);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    expect_exit(7);
    EXPECT_EQ(core->counters().instructions, 7000000u + 1);
    EXPECT_EQ(core->reg(G2), 3000000u);
    return s;
  }
  // A trap with ET=1 was taken to entry tt (whose `ta 0` halted the core).
  void expect_trapped_to(unsigned tt) {
    EXPECT_TRUE(core->in_error_mode());
    EXPECT_EQ(core->error_tt(), 0x80u);
    EXPECT_EQ(core->error_pc(), (tt << 4) + 4) << "trap entry of tt 0x" << std::hex << tt;
    EXPECT_EQ(core->reg(enc::G7), tt << 4) << "TBR seen by the handler";
  }
  // Runs `words` + `ta 0` with ET = 1 and expects trap tt at word index `at`.
  void expect_trap(std::vector<uint32_t> words, unsigned tt, size_t at) {
    enable_traps();
    exec(std::move(words));
    expect_trapped_to(tt);
    EXPECT_EQ(core->reg(enc::L1), kCode + 4 * uint32_t(at)) << "trapped PC";
  }
  // Collects the PCs of a trace (first field of each line).
  static std::vector<uint32_t> trace_pcs(const std::string& text) {
    std::vector<uint32_t> pcs;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t eol = text.find('\n', pos);
      if (eol == std::string::npos) eol = text.size();
      pcs.push_back(uint32_t(std::stoul(text.substr(pos, 8), nullptr, 16)));
      pos = eol + 1;
    }
    return pcs;
  }
  // Runs with tracing into a temporary file and returns the trace text.
  std::string run_traced(uint64_t max_cycles = 100000) {
    std::FILE* f = std::tmpfile();
    Core& c = *core;
    const auto id = c.probes().execute.listen([&c, f](const ExecuteEvent&) { write_trace_line(c, f); });
    core->run(core->cycles() + max_cycles);
    c.probes().execute.unlisten(id);
    std::string text;
    std::rewind(f);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    return text;
  }
  // A trap with ET=0 halted the core directly.
  void expect_error_mode(unsigned tt, uint32_t pc) {
    EXPECT_TRUE(core->in_error_mode());
    EXPECT_EQ(core->error_tt(), tt);
    EXPECT_EQ(core->error_pc(), pc);
  }
  uint32_t icc() const { return (core->psr() >> 20) & 15; }
  void set_icc(uint32_t nzvc) { core->set_psr((core->psr() & ~0x00F00000u) | (nzvc << 20)); }
  // Supervisor with traps enabled, PIL 0; CWP and icc kept.
  void enable_traps() { core->set_psr((core->psr() & 0x00F0001Fu) | kPsrS | kPsrET); }
};

}  // namespace l3vp::leon3::test
