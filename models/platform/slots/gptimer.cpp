// The GPTIMER at APB slot 3 (0x80000300), IRQ 8 (timer 1) and 9 (timer 2),
// always on; `gptimer.model` may put a variant (the RTL timer) in its place.
#include "board_slots.h"
#include "config.h"
#include "gptimer.h"

namespace l3vp {

L3VP_BOARD_SLOT(gptimer) {
  SlotRow s;
  s.name = "gptimer";
  s.pindex = 3;
  s.rows = slot_rows(GptimerParams::rows());
  s.tlm = [](const char* name, const PlatformConfig& cfg) {
    GptimerParams p;  // pindex 3, paddr 0x003, pirq 8, sepirq, 2 timers, 8/32 bits
    p.clk_period = cfg.period();
    cfg.fill(name, GptimerParams::rows(), p);
    return std::make_unique<Gptimer>(name, p);
  };
  return s;
}

}  // namespace l3vp
