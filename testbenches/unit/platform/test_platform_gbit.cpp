// The leon3mp platform built with greth.csum_offload=true: the key reaches
// the GRETH (GrethParams::csum_offload), whose CTRL.GA then reads 1 through
// the CPU's AHB port, as the firmware sees it. Its model tests are
// testbenches/unit/greth (GrethCsumTest).
#include <memory>

#include "config.h"
#include "leon3mp.h"
#include "tb_util.h"

using namespace l3vp;

namespace {

std::unique_ptr<Leon3mp> plat;

void build() {
  PlatformConfig cfg;
  cfg.set("uart.out", "");
  cfg.set("greth.csum_offload", "true");
  cfg.validate();
  plat = std::make_unique<Leon3mp>("leon3mp", cfg);
}

}  // namespace

TEST(PlatformGbit, CsumOffloadKeyReachesTheGreth) {
  EXPECT_EQ(plat->greth.params().csum_offload, 1u);
  EXPECT_EQ(l3vp::test::socket_read32(plat->cpu.isock, 0x80000D00), 0x0E000000u);  // CTRL: GA | MA | MC
  EXPECT_EQ(plat->greth.params().pirq, 6u);  // everything else as in the template
}

L3VP_SC_GTEST_MAIN(build)
