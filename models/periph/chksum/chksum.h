// CHKSUM: the Internet checksum engine (our own hardware/software co-design block,
// not a GRLIB core; the contract is rtl/chksum/README.md).
//
// * APB registers (CTRL, STATUS, ADDR, LEN, SUM, INFO) through the ApbDevice
//   register table.
// * DMA through a TLM-2.0 initiator socket meant to be bound to the AHB
//   controller as a master (AhbCtrl::bind_master, index 5 on the board): the
//   buffer's covering words are read in incrementing bursts of at most 16
//   beats that never cross a 1 KiB boundary; each burst is one b_transport
//   whose annotated delay (the bus's transfer, burst, wait-state and
//   arbitration cost) the DMA thread waits for.
// * One SC_THREAD; an idle engine schedules no event.
// See README.md for what is modelled and how time flows.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <vector>

#include <string>

#include "apb_device.h"
#include "params.h"
#include "probe.h"

namespace l3vp {

constexpr uint32_t kVendorContrib = 0x09;  // GRLIB's "contributed cores" vendor
constexpr uint32_t kDevChksum = 0x0C5;

struct ChksumParams {
  unsigned hindex = 5;  // AHB master index
  unsigned pindex = 5;  // APB slot
  uint32_t paddr = 0x005;
  uint32_t pmask = 0xFFF;
  unsigned pirq = 10;
  unsigned revision = 0;
  unsigned maxburst = 16;  // beats per burst (INFO[7:0]); bursts also stop at 1 KiB boundaries
  sc_core::sc_time clk_period = sc_core::sc_time(25, sc_core::SC_NS);  // 40 MHz
  // For the owner (Leon3mp), ignored by the model: is the engine on the
  // board, and which model takes its slot ("tlm" = this one, or a
  // registered variant such as the RTL).
  bool enable = false;
  std::string model = "tlm";
  // Configuration rows (below), keys below the instance prefix.
  static const param::Rows<ChksumParams>& rows();
};

// The configuration rows: keys below the instance prefix the owner gives.
inline const param::Rows<ChksumParams>& ChksumParams::rows() {
  using namespace param;
  // clang-format off
  static const Rows<ChksumParams> r = {
    {{"enable", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "false",
      "the Internet checksum engine (rtl/chksum/README.md; TLM model models/periph/chksum) at APB slot 5 "
      "(0x80000500, IRQ 10) and AHB master 5, with its plug&play records"}, L3VP_PARAM_FIELD(ChksumParams, enable)},
    {{"model", Type::String, Check::Range, 0, 0, Show::Plain, nullptr, "tlm",
      "model in the checksum slot (with `chksum.enable`): `tlm` (built in) or a registered variant "
      "(`rtl`: the verilated RTL behind APB/AHB adapters, `--rtl chksum`)"}, L3VP_PARAM_FIELD(ChksumParams, model)},
  };
  // clang-format on
  return r;
}

// Counters for --stats (devices.chksum); they survive reset().
struct ChksumStats {
  uint64_t ops = 0;     // operations completed (DONE set), errors included
  uint64_t bytes = 0;   // bytes summed (LEN of completed error-free operations)
  uint64_t bursts = 0;  // AHB read transactions
  uint64_t beats = 0;   // 32-bit data beats read
  uint64_t errors = 0;  // operations ended with ERR (AHB ERROR response, buffer past 0xFFFFFFFF)
  uint64_t irq_pulses = 0;
  uint64_t ignored_starts = 0;  // START written while BUSY
  uint64_t busy_cycles = 0;     // clocks from START to DONE, summed
};

class StatsGroup;

// Registers the ChksumStats counters in g (devices.chksum): the TLM model's
// and the RTL adapter's (rtl/adapters/chksum_rtl) invariants, one list.
void register_chksum_stats(const StatsGroup& g, ChksumStats& st);

// One operation, published at DONE (README "Probes").
struct ChksumOpEvent {
  sc_core::sc_time start, end;  // START written, DONE set
  uint32_t addr;
  unsigned len;
  uint16_t sum;  // SUM[15:0] at DONE (the folded sum)
  bool ok;       // false: ended by an AHB ERROR response
};
// Text line of leon3vp --probe (probe_text.h).
class ProbeText;
void probe_text(ProbeText& o, const ChksumOpEvent& e);

class StatsGroup;

class Chksum : public ApbDevice {
 public:
  using Params = ChksumParams;

  enum : uint32_t { CTRL = 0x00, STATUS = 0x04, ADDR = 0x08, LEN = 0x0C, SUM = 0x10, INFO = 0x14 };
  enum : uint32_t { CTRL_START = 1u << 0, CTRL_IE = 1u << 1 };
  enum : uint32_t { ST_BUSY = 1u << 0, ST_DONE = 1u << 1, ST_ERR = 1u << 2 };

  tlm_utils::simple_initiator_socket<Chksum> isock;  // DMA master -> AHB controller

  SC_HAS_PROCESS(Chksum);
  Chksum(sc_core::sc_module_name name, const Params& p = Params());

  // AHB master plug&play record (for AhbCtrl::bind_master).
  AhbPnp ahb_pnp() const;
  void reset() override;

  const Params& params() const { return p_; }
  const ChksumStats& stats() const { return st_; }
  // Registers every ChksumStats counter under `g` (devices.chksum).
  void register_stats(const StatsGroup& g) override;
  // <prefix>.op (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix) override;

  // The reference function of the contract: the one's-complement sum of
  // `len` bytes as big-endian 16-bit words (an odd last byte is a high
  // byte) plus `init`, folded to 16 bits. The model computes its sum
  // burst by burst with the same arithmetic; tests use this as the oracle's
  // cross-check.
  static uint16_t fold(uint64_t s) {
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    return static_cast<uint16_t>(s);
  }

  Probe<ChksumOpEvent> on_op;  // every completed operation

 private:
  void build_registers();
  void start();
  void dma_thread();
  // DONE (+ IRQ with IE), BUSY off, statistics and probe.
  void finish(bool ok);

  Params p_;
  ChksumStats st_;
  // Register state.
  uint32_t ctrl_ = 0;    // IE only (START reads 0)
  uint32_t status_ = 0;  // BUSY DONE ERR
  uint32_t addr_ = 0, len_ = 0;
  uint64_t sum_ = 0;  // running sum, folded after every burst
  // The operation in flight.
  bool busy_ = false;
  uint32_t op_addr_ = 0, op_len_ = 0;
  sc_core::sc_time op_start_;
  uint64_t gen_ = 0;  // reset generation: a change aborts the operation
  sc_core::sc_event start_ev_;
  // The DMA thread's burst buffer: a member, not a local of the thread, whose
  // stack SystemC does not unwind when a simulation ends with it waiting (a
  // leak for LeakSanitizer).
  std::vector<uint8_t> dma_buf_;
};

}  // namespace l3vp
