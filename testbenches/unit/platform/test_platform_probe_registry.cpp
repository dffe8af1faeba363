// The board's probe registry (Leon3mp::probes()): every model's probes by
// "<instance>.<probe>", one registry per board (two boards in one process
// do not share listeners), the checksum engine's probe when it is on, and
// listen_all_probes() counting per probe.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "leon3mp.h"
#include "tb_util.h"

using namespace l3vp;

namespace {

std::unique_ptr<Leon3mp> plain, with_chksum;
void build() {
  PlatformConfig cfg;
  cfg.set("uart.out", "");
  plain = std::make_unique<Leon3mp>("plain", cfg);
  cfg.set("chksum.enable", "true");
  with_chksum = std::make_unique<Leon3mp>("with_chksum", cfg);
}

std::vector<std::string> names(const Leon3mp& b) {
  std::vector<std::string> out;
  for (const auto& e : b.probes().entries()) out.push_back(e.name);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

size_t index_of(const Leon3mp& b, const std::string& name) {
  const auto& e = b.probes().entries();
  for (size_t i = 0; i < e.size(); ++i)
    if (e[i].name == name) return i;
  ADD_FAILURE() << "no probe " << name;
  return 0;
}

}  // namespace

TEST(PlatformProbeRegistry, EveryModelRegistersUnderItsInstanceName) {
  const auto n = names(*plain);
  for (const char* p : {"cpu.step",       "cpu.execute",   "cpu.power",         "cpu.trap",
                        "cpu.psr",        "cpu.halt",      "ahb.transaction",   "marker.mark",
                        "link.send",      "link.rx_start", "link.rx_end",       "irqmp.line",
                        "irqmp.irl",      "irqmp.intack",  "gptimer.underflow", "gptimer.ip",
                        "uart.tx",        "uart.rx",       "greth.irq",         "greth.dma_busy",
                        "greth.desc",     "greth.kick",    "greth.frame_sent",  "greth.frame_received",
                        "greth.dma_burst"})
    EXPECT_TRUE(has(n, p)) << p;
  EXPECT_EQ(n.size(), 25u);
  EXPECT_FALSE(has(n, "chksum.op"));  // the engine is off
  EXPECT_EQ(plain->probes().prefixes(), "ahb, cpu, gptimer, greth, irqmp, link, marker, uart");
}

TEST(PlatformProbeRegistry, TheChecksumEngineIsRegisteredWhenOn) {
  const auto n = names(*with_chksum);
  EXPECT_TRUE(has(n, "chksum.op"));
  EXPECT_EQ(n.size(), 26u);
}

TEST(PlatformProbeRegistry, ListenersAttachToTheirOwnBoardOnly) {
  uint64_t a = 0;
  auto detach = plain->probes().find("uart.tx")->count(a);
  with_chksum->uart.on_tx.notify({});  // the other board's UART
  EXPECT_EQ(a, 0u);
  plain->uart.on_tx.notify({});
  EXPECT_EQ(a, 1u);
  detach();
}

TEST(PlatformProbeRegistry, ListenAllCountsEachProbeIncludingTheChecksumEngine) {
  Leon3mp& b = *with_chksum;
  b.listen_all_probes();
  ASSERT_EQ(b.probe_counts().size(), b.probes().entries().size());
  for (const auto& e : b.probes().entries()) EXPECT_GT(e.name.size(), 0u);
  ASSERT_NE(b.chksum(), nullptr);
  EXPECT_TRUE(b.chksum()->on_op.has_listeners());
  b.chksum()->on_op.notify({});
  b.chksum()->on_op.notify({});
  b.irqmp.on_irl.notify({});
  EXPECT_EQ(b.probe_counts()[index_of(b, "chksum.op")], 2u);
  EXPECT_EQ(b.probe_counts()[index_of(b, "irqmp.irl")], 1u);
  EXPECT_EQ(b.probe_counts()[index_of(b, "irqmp.line")], 0u);
  b.listen_all_probes();  // a second call attaches nothing more
  b.chksum()->on_op.notify({});
  EXPECT_EQ(b.probe_counts()[index_of(b, "chksum.op")], 3u);
}

TEST(PlatformProbeRegistry, CpuEventsAreStampedWithTheCpuClock) {
  std::string line;
  auto detach = plain->probes().find("cpu.trap")->text([&](const std::string& l) { line = l; });
  leon3::TrapEvent e;
  e.cycle = 40;  // 40 cycles at 40 MHz: 1 us
  e.tt = 0x11;
  e.pc = 0x40000100;
  plain->cpu.core().probes().trap.notify(e);
  EXPECT_EQ(line, "1000000 ps cpu.trap cycle=40 tt=17 pc=0x40000100 error=0");
  detach();
}

L3VP_SC_GTEST_MAIN(build)
