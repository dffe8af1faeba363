#include "mctrl.h"

namespace l3vp {

Mctrl::Mctrl(sc_core::sc_module_name name, const Params& p)
    : ApbDevice(name),
      prom_tsock("prom_tsock"),
      io_tsock("io_tsock"),
      ram_tsock("ram_tsock"),
      prom_isock("prom_isock"),
      ram_isock("ram_isock"),
      p_(p) {
  pnp_.id = pnp_id(VENDOR_ESA, DEV_MCTRL, p.version, 0);
  pnp_.bar = pnp_bar(p.paddr, p.pmask, false, false, BAR_APBIO);
  regs_.add("MCFG1", 0x00, p.mcfg1);
  regs_.add("MCFG2", 0x04, p.mcfg2);
  regs_.add("MCFG3", 0x08, p.mcfg3);

  prom_tsock.register_b_transport(this, &Mctrl::prom_b_transport);
  prom_tsock.register_get_direct_mem_ptr(this, &Mctrl::prom_dmi);
  prom_tsock.register_transport_dbg(this, &Mctrl::prom_dbg);
  ram_tsock.register_b_transport(this, &Mctrl::ram_b_transport);
  ram_tsock.register_get_direct_mem_ptr(this, &Mctrl::ram_dmi);
  ram_tsock.register_transport_dbg(this, &Mctrl::ram_dbg);
  io_tsock.register_b_transport(this, &Mctrl::io_b_transport);
  prom_isock.register_invalidate_direct_mem_ptr(this, &Mctrl::prom_inval);
  ram_isock.register_invalidate_direct_mem_ptr(this, &Mctrl::ram_inval);
}

AhbPnp Mctrl::ahb_pnp() const {
  AhbPnp r;
  r.id = pnp_id(VENDOR_ESA, DEV_MCTRL, p_.version, 0);
  r.bar[BAR_PROM] = pnp_bar(p_.romaddr, p_.rommask, true, true, BAR_AHBMEM);
  r.bar[BAR_IO] = pnp_bar(p_.ioaddr, p_.iomask, false, false, BAR_AHBMEM);
  r.bar[BAR_RAM] = pnp_bar(p_.ramaddr, p_.rammask, true, true, BAR_AHBMEM);
  return r;
}

void Mctrl::io_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  // Nothing is connected to the external I/O bus on this board.
  gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

}  // namespace l3vp
