// The Internet checksum engine at APB slot 5 (0x80000500), IRQ 10, AHB master
// 5 (its DMA): our co-design block (rtl/chksum/README.md), off unless
// `chksum.enable`; without it the bus, the P&P table and every result are
// those of the template. `chksum.model=rtl` puts the verilated RTL there.
#include "ahb_ctrl.h"
#include "board_slots.h"
#include "chksum.h"
#include "config.h"

namespace l3vp {

L3VP_BOARD_SLOT(chksum) {
  SlotRow s;
  s.name = "chksum";
  s.pindex = 5;
  s.enabled_by = "chksum.enable";
  s.rows = slot_rows(ChksumParams::rows());
  s.tlm = [](const char* name, const PlatformConfig& cfg) {
    ChksumParams p;  // hindex 5, pindex 5, paddr 0x005, pirq 10
    p.clk_period = cfg.period();
    cfg.fill(name, ChksumParams::rows(), p);
    return std::make_unique<Chksum>(name, p);
  };
  s.bind_ahb = [](ApbDevice& d, AhbCtrl& ahb) {
    Chksum& c = static_cast<Chksum&>(d);
    ahb.bind_master(c.isock, c.params().hindex, c.ahb_pnp(), c.basename());
  };
  return s;
}

}  // namespace l3vp
