// A platform slot taken by another model (a model bound to the slot's bus and
// IRQ interface; docs/developer-guide.md, "Replace a device at its slot"): a stand-in for an RTL
// GPTIMER behind an APB adapter is registered as a variant of the "gptimer"
// slot and chosen with gptimer.model. The firmware-visible side must be the
// slot's: registers at 0x80000300, its P&P record in APB slot 3, its pulses on
// IRQ lines 8/9 of the IRQMP, its statistics under devices.gptimer. (An
// unknown model name is a one-line configuration error: cli.bad.gptimer_model.)
#include <memory>
#include <nlohmann/json.hpp>

#include "apb_device.h"
#include "config.h"
#include "leon3mp.h"
#include "sparc_enc.h"
#include "stats.h"
#include "tb_util.h"

using namespace l3vp;
using namespace enc;

namespace {

// Two registers: 0x00 counts reads (a read side effect), a write to 0x04
// pulses IRQ line 8 (timer 1's line).
class StandInTimer : public ApbDevice {
 public:
  explicit StandInTimer(sc_core::sc_module_name n) : ApbDevice(n) {
    pnp_.id = pnp_id(VENDOR_GAISLER, DEV_GPTIMER, 1, 8);
    pnp_.bar = pnp_bar(0x003, 0xFFF, false, false, BAR_APBIO);
    regs_.add("COUNT", 0x00).bind(count_).on_read([this] { ++count_; });
    regs_.add("PULSE", 0x04).no_store().on_write([this](uint32_t) { pulse_irq(8); });
  }
  void register_stats(const StatsGroup& g) override {
    g.counter("stand_in_reads", &reads_, StatUnit::Count, StatInv::Yes, "Reads of COUNT.");
  }
  uint32_t count_ = 0;
  uint64_t reads_ = 0;
};

std::unique_ptr<Leon3mp> plat;
StandInTimer* stand_in = nullptr;

void build() {
  SlotVariants::add("gptimer", "stand_in", [](const char* name, const PlatformConfig&) {
    auto d = std::make_unique<StandInTimer>(name);
    stand_in = d.get();
    return std::unique_ptr<ApbDevice>(std::move(d));
  });
  PlatformConfig cfg;
  cfg.set("uart.out", "");
  cfg.set("gptimer.model", "stand_in");
  plat = std::make_unique<Leon3mp>("leon3mp", cfg);
}

uint32_t cpu_read(uint32_t addr) { return l3vp::test::socket_read32(plat->cpu.isock, addr); }

}  // namespace

TEST(PlatformSlots, AVariantTakesTheGptimerSlot) {
  Leon3mp& p = *plat;
  ASSERT_NE(stand_in, nullptr);
  EXPECT_EQ(p.gptimer(), nullptr);  // the built-in model was not built
  EXPECT_EQ(&p.timer_slot(), stand_in);
  // P&P: APB slot 3 shows the variant's record (0x800FF000 + 8 * 3).
  EXPECT_EQ(cpu_read(0x800FF018), pnp_id(VENDOR_GAISLER, DEV_GPTIMER, 1, 8));
  // Registers at 0x80000300 with their side effects.
  EXPECT_EQ(cpu_read(0x80000300), 0u);
  EXPECT_EQ(cpu_read(0x80000300), 1u);
  // Its pulse reaches the IRQMP on line 8 (IPEND at 0x80000204).
  std::vector<unsigned> lines;
  p.irqmp.on_line.listen([&](const IrqLineEvent& e) { lines.push_back(e.line); });
  uint8_t one[4] = {0, 0, 0, 1};
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(0x80000304);
  gp.set_data_ptr(one);
  gp.set_data_length(4);
  gp.set_streaming_width(4);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  p.cpu.isock->b_transport(gp, d);
  ASSERT_TRUE(gp.is_response_ok());
  EXPECT_EQ(lines, std::vector<unsigned>{8});
  EXPECT_EQ(cpu_read(0x80000204) & (1u << 8), 1u << 8);
  // Statistics: the variant's own, under the slot's name.
  stand_in->reads_ = 7;
  const nlohmann::json s = p.stats();
  EXPECT_EQ(s["devices"]["gptimer"]["stand_in_reads"], 7u);
}

L3VP_SC_GTEST_MAIN(build)
