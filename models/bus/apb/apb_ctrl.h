// APBCTRL: the AHB/APB bridge of a GRLIB system.
//
// An AHB slave (its socket `tsock` gets the offset inside its 1 MiB bar) that
// routes accesses to APB slaves bound to `isock`. Routing comes from each
// slave's APB plug&play BAR (hw-reference §2.2): slave i decodes
// (addr[19:8] & MASK) == (ADDR & MASK) and sees the offset inside its
// (4096 - MASK) * 256-byte window.
//
// The APB P&P table sits at offset 0xFF000 (0x800FF000 in the template):
// slot i = two words (ID, BAR) at 0xFF000 + 8*i for i < nslaves; the rest of
// that 4 KiB reads 0. Read-only: writes are dropped and logged.
//
// An access to an empty APB slot is not an error on GRLIB (no AHB ERROR
// response): reads return 0, writes are dropped, and the model counts it
// through Log::guest_error so firmware bugs do not go unnoticed.
//
// APB is a 32-bit bus: accesses longer than a word (LDD/STD, bursts) are
// split into consecutive word accesses. No DMI.
//
// Timing: set_access_delay(t) adds t to the annotated delay of every APB word
// access (routed, empty slot or P&P table alike): the bridge's own cost
// (request registering, APB setup and enable phases). Zero by default.
//
// Hidden slaves (bind_hidden_slave): simulator-only devices that are routed
// like any slave but do not appear in the P&P table (their slot reads 0) —
// from the firmware's point of view the slot stays empty.
#pragma once
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "apb_device.h"
#include "pnp.h"

namespace l3vp {

// GRLIB apbctrl generics (template values).
struct ApbCtrlParams {
  unsigned hindex = 1;
  uint32_t haddr = 0x800, hmask = 0xFFF;  // AHB bar: 0x80000000, 1 MiB
  unsigned nslaves = 16;                  // P&P table slots
  unsigned version = 1;                   // hw-reference §2.3
};

class StatsGroup;

class ApbCtrl : public sc_core::sc_module {
 public:
  using Params = ApbCtrlParams;

  tlm_utils::simple_target_socket<ApbCtrl> tsock;                // from the AHB
  tlm_utils::multi_passthrough_initiator_socket<ApbCtrl> isock;  // to APB slaves

  ApbCtrl(sc_core::sc_module_name name, const Params& p = Params());

  // Binds an ApbDevice as APB slave `pindex`; its P&P record is read when the
  // routing table is built (at the first access), so the device may finish
  // its own configuration after binding.
  void add_slave(unsigned pindex, ApbDevice& dev);
  // Binds any target socket with an explicit P&P record.
  template <class TargetSocket>
  void bind_slave(TargetSocket& s, unsigned pindex, const ApbPnp& pnp, const std::string& name) {
    add(
        pindex, [pnp] { return pnp; }, name);
    isock.bind(s);
  }

  // Binds a simulator-only target socket at APB slot `pindex` (256-byte
  // window at pindex << 8) that is invisible in the P&P table.
  template <class TargetSocket>
  void bind_hidden_slave(TargetSocket& s, unsigned pindex, const std::string& name) {
    ApbPnp pnp;
    pnp.id = 0;
    pnp.bar = pnp_bar(pindex & 0xFFF, 0xFFF, false, false, BAR_APBIO);
    add(
        pindex, [pnp] { return pnp; }, name);
    slaves_[pindex].hidden = true;
    isock.bind(s);
  }

  void set_access_delay(const sc_core::sc_time& t) { access_delay_ = t; }

  const Params& params() const { return p_; }
  // AHB plug&play record: ID + one AHB memory bar (hw-reference §2.4).
  AhbPnp ahb_pnp() const;
  // Word of the APB P&P table at bar offset `off` (0xFF000..0xFFFFF).
  uint32_t pnp_word(uint32_t off);

  uint64_t empty_slot_accesses() const { return empty_; }
  // Registers empty_slot_accesses under `g` (devices.apb).
  void register_stats(const StatsGroup& g);
  // Accesses routed to APB slave `pindex` (word accesses after splitting).
  uint64_t slave_accesses(unsigned pindex) const;

  static constexpr uint32_t kPnpOffset = 0xFF000;

 private:
  struct Slave {
    bool present = false;
    unsigned port = 0;
    std::string name;
    std::function<ApbPnp()> pnp;
    uint32_t start = 0, size = 0;  // decoded window (offsets inside the bridge bar)
    uint64_t accesses = 0;
    bool hidden = false;  // not in the P&P table
  };

  void add(unsigned pindex, std::function<ApbPnp()> pnp, const std::string& name);
  void build();
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  // One access of at most a word; returns the response status.
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint32_t off, uint8_t* data, unsigned len,
                                  sc_core::sc_time& delay, bool debug);

  Params p_;
  std::vector<Slave> slaves_;  // by pindex
  std::vector<int8_t> slot_;   // addr[19:8] -> pindex, -1 empty
  bool built_ = false;
  unsigned nports_ = 0;
  uint64_t empty_ = 0;
  sc_core::sc_time access_delay_ = sc_core::SC_ZERO_TIME;
  tlm::tlm_generic_payload fwd_;
};

}  // namespace l3vp
