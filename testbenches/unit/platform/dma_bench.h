// A leon3mp platform with a further AHB master, "dma" at hindex 5 (a
// stand-in for a DMA master like the GRETH's): the platform tests that need
// another master's bus writes.
#pragma once
#include <memory>

#include "config.h"
#include "leon3mp.h"
#include "tb_util.h"

namespace l3vp::test {

struct DmaBench {
  std::unique_ptr<Leon3mp> plat;
  std::unique_ptr<TestInitiator> dma;
  explicit DmaBench(PlatformConfig cfg) {
    cfg.set("uart.out", "");
    plat = std::make_unique<Leon3mp>("leon3mp", cfg);
    dma = std::make_unique<TestInitiator>("dma");
    AhbPnp p;
    p.id = pnp_id(VENDOR_GAISLER, DEV_ETHMAC, 0, 6);
    plat->ahb.bind_master(dma->isock, 5, p, "dma");
  }
};

}  // namespace l3vp::test
