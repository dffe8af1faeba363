// MCTRL stub: the LEON2 memory controller (ESA 0x04, device 0x00F) as far as
// the GR-XC3S-1500 firmware can see it.
//
//  * APB side (ApbDevice): MCFG1..MCFG3 at +0/+4/+8, plain read/write, reset
//    to the template's prom.h values, so boot code and P&P scans find it.
//  * AHB side: AHB slave 0 with three memory bars (hw-reference §2.4):
//      bar 0 PROM 0x00000000/0xE00 -> prom_isock (a Memory, usually a ROM)
//      bar 1 I/O  0x20000000/0xE00 -> nothing on this board: error response
//      bar 2 RAM  0x40000000/0xC00 -> ram_isock (the SDRAM Memory)
//    Each bar has its own target socket (the AHB controller binds one port per
//    bar and hands over the offset inside the bar, like hmbsel + haddr).
//    Accesses and DMI requests pass straight through; DMI invalidations from
//    the memories are passed back up.
// The MCFG contents do not change the decoding: SDRAM always answers at
// 0x40000000 (what the boot code's MCFG2.SI|SE setting gives), PROM writes
// are refused by the ROM itself whatever MCFG1.PWEN says, and wait-state
// fields do not add delay (see README.md).
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "apb_device.h"

namespace l3vp {

// GRLIB generics (names as in mctrl.vhd), template values by default.
struct MctrlParams {
  unsigned hindex = 0;
  uint32_t romaddr = 0x000, rommask = 0xE00;
  uint32_t ioaddr = 0x200, iomask = 0xE00;
  uint32_t ramaddr = 0x400, rammask = 0xC00;
  unsigned pindex = 0;
  uint32_t paddr = 0x000, pmask = 0xFFF;
  unsigned version = 1;
  uint32_t mcfg1 = 0x10380033, mcfg2 = 0xE6B86E60, mcfg3 = 0x000FF000;  // prom.h
};

class Mctrl : public ApbDevice {
 public:
  using Params = MctrlParams;
  enum Bar : unsigned { BAR_PROM = 0, BAR_IO = 1, BAR_RAM = 2 };

  tlm_utils::simple_target_socket<Mctrl> prom_tsock, io_tsock, ram_tsock;
  tlm_utils::simple_initiator_socket<Mctrl> prom_isock, ram_isock;

  Mctrl(sc_core::sc_module_name name, const Params& p = Params());

  const Params& params() const { return p_; }
  // AHB plug&play record (ID word + the three bars).
  AhbPnp ahb_pnp() const;

 private:
  void prom_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { prom_isock->b_transport(gp, d); }
  void ram_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) { ram_isock->b_transport(gp, d); }
  void io_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& d);
  bool prom_dmi(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    return prom_isock->get_direct_mem_ptr(gp, dmi);
  }
  bool ram_dmi(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    return ram_isock->get_direct_mem_ptr(gp, dmi);
  }
  unsigned prom_dbg(tlm::tlm_generic_payload& gp) { return prom_isock->transport_dbg(gp); }
  unsigned ram_dbg(tlm::tlm_generic_payload& gp) { return ram_isock->transport_dbg(gp); }
  void prom_inval(sc_dt::uint64 s, sc_dt::uint64 e) { prom_tsock->invalidate_direct_mem_ptr(s, e); }
  void ram_inval(sc_dt::uint64 s, sc_dt::uint64 e) { ram_tsock->invalidate_direct_mem_ptr(s, e); }

  Params p_;
};

}  // namespace l3vp
