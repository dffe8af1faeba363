// The RTL checksum engine (rtl/chksum/chksum.vhd, verilated) behind an APB
// slave and an AHB master pin-level adapter, a drop-in for the TLM Chksum in
// the checksum slot (`--rtl chksum`, `--set chksum.model=rtl`;
// rtl/adapters/README.md "ChksumRtl").
//
// The Verilator model is a plain C++ object stepped on demand, never by a
// SystemC clock:
//  * an APB access at cycle c steps the model to c (a read sees the state
//    after edge c, a write is sampled at edge c), as GptimerRtl does;
//  * while the engine is busy, a SystemC thread wakes at the edges where the
//    pins need the platform: where a NONSEQ address phase appears (the burst
//    becomes one TLM read on the board's AHB, issued at that edge), where a
//    burst's last beat is due and where DONE rises (the IRQ pulse). Between
//    those edges the AHB inputs (HREADY, HRESP, HRDATA) follow a schedule
//    computed from the TLM transaction's data, response and delay, so any
//    access can step the model there without the thread.
// An idle engine schedules nothing and costs nothing per clock.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "apb_device.h"
#include "chksum.h"   // ChksumParams, ChksumStats, the register map
#include "leon3mp.h"  // AhbMasterSlot

class Vchksum;
class VerilatedContext;

namespace l3vp {

class ChksumRtl : public ApbDevice, public AhbMasterSlot {
 public:
  using Params = ChksumParams;

  // The AHB cost model the board's AhbCtrl charges (ahb.transfer_cycles and
  // ahb.burst_cycles_per_word in timed mode, zero in functional mode): the
  // adapter subtracts it from a burst's delay to find the wait states it
  // inserts (README "Time mapping").
  struct BusCost {
    unsigned transfer_cycles = 0;
    unsigned burst_cycles_per_word = 0;
  };

  tlm_utils::simple_initiator_socket<ChksumRtl> isock;  // DMA master -> AHB controller

  SC_HAS_PROCESS(ChksumRtl);
  // The netlist has MAX_BURST = 16 and no IRQ generic: other maxburst values
  // throw std::invalid_argument (pirq only says which IRQMP line is pulsed).
  ChksumRtl(sc_core::sc_module_name name, const Params& p, const BusCost& cost);
  ~ChksumRtl() override;

  AhbPnp ahb_pnp() const;
  void bind_ahb(AhbCtrl& ahb) override;
  void reset() override;
  void register_stats(const StatsGroup& g) override;

  const ChksumStats& stats() const { return st_; }
  uint64_t edges() const { return edges_; }

 protected:
  // A debug read shows the registers as the model holds them (no stepping).
  bool debug_read(uint32_t word, uint32_t& v) override;

 private:
  using cyc_t = int64_t;
  cyc_t cycle_of(const sc_core::sc_time& t) const { return static_cast<cyc_t>(t.value() / clk_ps_); }
  cyc_t cycle_now() const { return cycle_of(now()); }
  sc_core::sc_time cyc_time(cyc_t c) const { return sc_core::sc_time::from_value(uint64_t(c) * clk_ps_); }

  uint32_t pin_read(unsigned w);
  void write_word(unsigned w, uint32_t v);
  // Edges up to (including) c with idle APB pins.
  void step_to(cyc_t c);
  // Edge m_ + 1: AHB inputs from the schedule, the edge, then what the new
  // outputs ask for (a burst to issue, an IRQ pulse, DONE).
  void edge(bool apb_write, unsigned w, uint32_t v);
  // edge()'s parts: the AHB inputs from the schedule, the APB write pins and
  // the clock (returns HREADY at the edge); the data phase of the address
  // phase accepted at edge e; DONE seen after edge e.
  bool clock_edge(bool apb_write, unsigned w, uint32_t v);
  void start_data_phase(cyc_t e);
  void op_done(cyc_t e);
  // One TLM read of `words` words at `addr`, issued at edge e; fills the
  // burst schedule.
  void issue(uint32_t addr, unsigned words, cyc_t e);
  void dma_thread();
  // The thread's next wake-up after the model reached m_ (busy only).
  void schedule_wake();

  Params p_;
  BusCost cost_;
  uint64_t clk_ps_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vchksum> m_model_;

  cyc_t m_ = 0;          // the model holds the state after edge m_
  bool busy_ = false;    // an operation runs (START seen, DONE not yet)
  bool irq_hi_ = false;  // the irq output is high (cleared by the next edge)
  // The operation (read through the pins at START).
  cyc_t op_start_ = 0;
  uint32_t op_len_ = 0, op_last_word_ = 0;
  bool op_wraps_ = false;      // the buffer runs past 0xFFFFFFFF (ERR at the top)
  bool op_bus_error_ = false;  // a burst got an ERROR response
  // The burst issued on the TLM bus: first word, data, response, wait
  // states of its first beat.
  uint32_t b_addr_ = 0;
  unsigned b_words_ = 0;
  std::vector<uint8_t> b_data_;
  bool b_ok_ = true;
  cyc_t b_wait0_ = 0;
  // The data phase in progress on the pins (accepted address phase).
  bool d_act_ = false;
  unsigned d_index_ = 0;  // beat index in the burst
  uint32_t d_data_ = 0;   // its HRDATA
  bool d_err_ = false;    // answered by a two-cycle ERROR response
  cyc_t d_ready_ = 0;     // edge at which it completes (ERROR: its second cycle)
  // Presented address phase (the outputs after the last edge).
  uint8_t htrans_ = 0;
  uint32_t haddr_ = 0;

  ChksumStats st_;
  uint64_t edges_ = 0, tlm_reads_ = 0, unplanned_beats_ = 0, late_issues_ = 0;
  // The thread's pending wake-up edge. Accesses step the model only up to
  // the edge before it: what happens at a wake-up edge (a TLM read issued,
  // DONE) happens in the thread at that edge's time, as the TLM model's
  // thread does it, whatever the CPU's quantum (README "Lazy stepping").
  static constexpr cyc_t kNever = INT64_MAX;
  // The model is being evaluated (an edge in progress, which may issue a
  // TLM read that comes back to this slot): accesses do not step it
  // (eval_scope.h, README "Re-entry").
  bool in_eval_ = false;
  cyc_t wake_at_ = kNever;
  sc_core::sc_event wake_;
};

}  // namespace l3vp
