// GRLIB AMBA plug&play records (hw-reference §2).
#pragma once
#include <cstdint>

namespace l3vp {

enum PnpVendor : uint32_t { VENDOR_GAISLER = 0x01, VENDOR_ESA = 0x04 };

enum PnpDevice : uint32_t {
  DEV_LEON3 = 0x003,
  DEV_DSU3 = 0x004,
  DEV_APBCTRL = 0x006,
  DEV_APBUART = 0x00C,
  DEV_IRQMP = 0x00D,
  DEV_GPTIMER = 0x011,
  DEV_ETHMAC = 0x01D,
  DEV_MCTRL = 0x00F,  // ESA vendor
};

enum PnpBarType : uint32_t { BAR_UNUSED = 0, BAR_APBIO = 1, BAR_AHBMEM = 2, BAR_AHBIO = 3 };

// ID word: vendor[31:24] device[23:12] version[9:5] irq[4:0]
constexpr uint32_t pnp_id(uint32_t vendor, uint32_t device, uint32_t version, uint32_t irq) {
  return (vendor << 24) | ((device & 0xFFF) << 12) | ((version & 0x1F) << 5) | (irq & 0x1F);
}

// BAR word: addr[31:20] p[17] c[16] mask[15:4] type[3:0]
constexpr uint32_t pnp_bar(uint32_t addr12, uint32_t mask12, bool prefetch, bool cacheable, uint32_t type) {
  return ((addr12 & 0xFFF) << 20) | (prefetch ? 1u << 17 : 0) | (cacheable ? 1u << 16 : 0) |
         ((mask12 & 0xFFF) << 4) | (type & 0xF);
}

// One APB slave's record: word 0 = ID, word 1 = BAR.
struct ApbPnp {
  uint32_t id = 0;
  uint32_t bar = 0;
};

// One AHB master/slave record: word 0 = ID, words 1-3 user, words 4-7 BARs.
struct AhbPnp {
  uint32_t id = 0;
  uint32_t user[3] = {0, 0, 0};
  uint32_t bar[4] = {0, 0, 0, 0};
};

}  // namespace l3vp
