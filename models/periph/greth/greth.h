// GRLIB GRETH 10/100 Ethernet MAC (hw-reference §3; template: APB slot 13 at
// 0x80000D00, IRQ 6, AHB master 4, MDIO on, multicast on, EDCL absent), with
// the GRETH_GBIT checksum offload as an option (csum_offload; §3.6, §3.7).
//
// * APB registers (CTRL, STATUS, MAC, MDIO, TXDESC, RXDESC, HASH) through
//   the ApbDevice register table; MDIO talks to a built-in clause-22 PHY.
// * Descriptor DMA through a TLM-2.0 initiator socket meant to be bound to
//   the AHB controller as a master: every descriptor read, data burst and
//   status write is a b_transport whose annotated delay the DMA thread waits
//   for. TX and RX each run in their own SC_THREAD.
// * Network side: the MAC is an EthPort (the link delivers received frames)
//   and sends its frames into an EthTx (the link's sending side).
// See README.md for every modelling choice.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "apb_device.h"
#include "params.h"
#include "eth_frame.h"
#include "probe.h"

namespace l3vp {

// Named after the greth.vhd / grethm.vhd generics; defaults = GR-XC3S-1500
// template (hw-reference §1.3) except edcl (absent in the model).
struct GrethParams {
  unsigned hindex = 4;  // AHB master index
  unsigned pindex = 13;
  uint32_t paddr = 0x00D;
  uint32_t pmask = 0xFFF;
  unsigned pirq = 6;
  unsigned fifosize = 16;   // words; the TX and RX FIFO depth (TX start, underrun, RX overrun)
  unsigned mdcscaler = 40;  // MDC = clk / (2 * (mdcscaler + 1))
  unsigned enable_mdio = 1;
  unsigned phyrstadr = 0;  // reset value of MDIO.PHYADDR
  unsigned mdint = 1;      // PHY status-change interrupt input (CTRL bit 26, PI)
  unsigned multicast = 1;  // hash filter (CTRL.MC, ME, HASH registers)
  unsigned rmii = 0;       // 0 = MII: CTRL.SP reads 0 and is not writable
  unsigned revision = 0;
  unsigned burstwords = 4;  // DMA data burst length in words (model choice: 16 bytes)
  sc_core::sc_time clk_period = sc_core::sc_time(25, sc_core::SC_NS);  // 40 MHz
  // Built-in PHY (not GRETH generics): its MDIO address and ID registers.
  unsigned phy_addr = 0;
  uint16_t phy_id1 = 0x2000, phy_id2 = 0x5C90;
  unsigned line_mbps = 100;  // wire speed when no link is connected
  // GRETH_GBIT checksum offload at 10/100 speed (README "Checksum offload"):
  // CTRL.GA reads 1, RX word 0 reports ID IR UD UR TD TR IF, TX IC/TC/UC
  // insert checksums. 0 = the GRLIB 10/100 core (bits 19-25 / 18-20 unused).
  unsigned csum_offload = 0;
  // Station address loaded at construction ("aa:bb:cc:dd:ee:ff", unicast);
  // "" = the MAC registers keep their reset value 0.
  std::string mac;
  // Configuration rows (below), keys below the instance prefix
  // ("greth"), and the station address row, below the network's prefix ("net").
  static const param::Rows<GrethParams>& rows();
  static const param::Rows<GrethParams>& station_rows();
};

// The configuration rows: keys below the instance prefix the owner gives.
inline const param::Rows<GrethParams>& GrethParams::rows() {
  using namespace param;
  // clang-format off
  static const Rows<GrethParams> r = {
    {{"csum_offload", Type::Bool, Check::Range, 0, 0, Show::Plain, nullptr, "false",
      "GRETH_GBIT checksum offload at 100 Mbit/s: CTRL.GA reads 1, RX descriptors report IPv4/UDP/TCP "
      "checksum results (ID IR UD UR TD TR IF), TX descriptors' IC/TC/UC insert checksums"},
     L3VP_PARAM_FIELD(GrethParams, csum_offload)},
  };
  // clang-format on
  return r;
}

inline const param::Rows<GrethParams>& GrethParams::station_rows() {
  using namespace param;
  // clang-format off
  static const Rows<GrethParams> r = {
    {{"mac", Type::Mac, Check::Range, 0, 0, Show::Plain, nullptr, "02:00:00:00:00:53",
      "GRETH station address loaded at construction (unicast), or empty: the registers stay 0"},
     L3VP_PARAM_FIELD(GrethParams, mac)},
  };
  // clang-format on
  return r;
}

// Counters for --stats; they survive reset() and CTRL.RS.
struct GrethStats {
  uint64_t tx_frames = 0, tx_bytes = 0;  // sent on the wire (bytes without padding/FCS)
  uint64_t tx_skipped = 0;               // descriptors with LENGTH 0 or > 1514 (not sent)
  uint64_t tx_ahb_errors = 0;
  uint64_t tx_underruns = 0;             // UE: the FIFO ran dry during a frame
  uint64_t tx_data_changed = 0;          // bursts that differ from the frame as sent (buffer rewritten)
  uint64_t tx_csum_skipped = 0;          // csum_offload: IC/TC/UC frames with an impossible insertion
  uint64_t rx_frames = 0, rx_bytes = 0;  // written to a descriptor (also with error bits)
  uint64_t rx_errors = 0;                // ... of which completed with an error bit
  uint64_t rx_drop_filter = 0;           // IA: address not accepted
  uint64_t rx_drop_control = 0;          // IA: MAC control frame (type 0x8808)
  uint64_t rx_drop_runt = 0;             // TS: < 64 bytes including FCS
  uint64_t rx_drop_disabled = 0;         // RE=0 (software never enabled / cleared it)
  uint64_t rx_drop_exhausted = 0;        // RE=0 because the DMA met EN=0 (ring exhausted)
  uint64_t rx_drop_ahb = 0;              // frame lost to an RX AHB error
  uint64_t rx_crc_errors = 0, rx_align_errors = 0, rx_length_errors = 0;
  uint64_t rx_too_long = 0, rx_overruns = 0;
  uint64_t rx_ahb_errors = 0;
  uint64_t rx_csum_ip_errors = 0;   // csum_offload: IR (IPv4 header checksum error)
  uint64_t rx_csum_udp_errors = 0;  // csum_offload: UR (UDP checksum not confirmed)
  uint64_t rx_csum_tcp_errors = 0;  // csum_offload: TR (TCP checksum not confirmed)
  uint64_t irq_pulses = 0;
  uint64_t mdio_ops = 0;
  uint64_t soft_resets = 0;
};

// --- Probe events (README "Probes"); all times are exact simulated times ---
enum class GrethDir : uint8_t { Tx, Rx };
// What became of a frame from the network; one value per GrethStats counter.
enum class GrethRxVerdict : uint8_t {
  Ok,         // written to a descriptor without error bits (rx_frames)
  Error,      // written to a descriptor with error bits (rx_errors)
  Filtered,   // IA: address not accepted (rx_drop_filter)
  Control,    // IA: MAC control frame (rx_drop_control)
  Runt,       // TS: < 64 bytes including FCS (rx_drop_runt)
  Disabled,   // RE=0, software's doing (rx_drop_disabled)
  Exhausted,  // RE=0 because the DMA met EN=0 (rx_drop_exhausted)
  AhbError,   // lost to an RX AHB error (rx_drop_ahb)
};
const char* to_string(GrethRxVerdict v);

struct GrethIrqEvent {
  sc_core::sc_time t;
};
struct GrethDmaBusyEvent {
  sc_core::sc_time t;
  GrethDir dir;
  bool busy;  // TX: busy with a descriptor; RX: reading a descriptor or handling a frame
};
struct GrethDescEvent {  // a descriptor was consumed (written back)
  sc_core::sc_time t;    // end of the write-back
  GrethDir dir;
  unsigned index;    // 0..127
  uint32_t addr;     // descriptor address
  uint32_t w0, buf;  // words 0 and 1 as the DMA read them
  uint32_t status;   // word 0 as written back
};
struct GrethKickEvent {  // software wrote CTRL with TE (Tx) or RE (Rx) set
  sc_core::sc_time t;    // the access time
  GrethDir dir;
};
struct GrethFrameSentEvent {
  sc_core::sc_time start, end;  // on the wire (from the link, or at line_mbps)
  const EthFrame* frame;        // valid during the call only
  unsigned len;                 // descriptor LENGTH (bytes before padding)
};
struct GrethFrameReceivedEvent {
  sc_core::sc_time t;     // when the verdict was reached
  const EthFrame* frame;  // valid during the call only
  GrethRxVerdict verdict;
};
struct GrethDmaBurstEvent {  // one AHB transaction of the DMA master
  sc_core::sc_time start, end;
  uint32_t addr;
  unsigned bytes;
  bool write;
  bool ok;  // false: AHB error response
};
// Text lines of leon3vp --probe (probe_text.h).
class ProbeText;
void probe_text(ProbeText& o, const GrethIrqEvent& e);
void probe_text(ProbeText& o, const GrethDmaBusyEvent& e);
void probe_text(ProbeText& o, const GrethDescEvent& e);
void probe_text(ProbeText& o, const GrethKickEvent& e);
void probe_text(ProbeText& o, const GrethFrameSentEvent& e);
void probe_text(ProbeText& o, const GrethFrameReceivedEvent& e);
void probe_text(ProbeText& o, const GrethDmaBurstEvent& e);

class StatsGroup;

class Greth : public ApbDevice, public EthPort {
 public:
  using Params = GrethParams;

  // Register offsets (paddr[5:2] is decoded: the block aliases every 64 bytes).
  enum : uint32_t {
    CTRL = 0x00,
    STATUS = 0x04,
    MAC_MSB = 0x08,
    MAC_LSB = 0x0C,
    MDIO = 0x10,
    TXDESC = 0x14,
    RXDESC = 0x18,
    HASH_MSB = 0x20,
    HASH_LSB = 0x24
  };
  // CTRL bits.
  enum : uint32_t {
    CTRL_TE = 1u << 0,
    CTRL_RE = 1u << 1,
    CTRL_TI = 1u << 2,
    CTRL_RI = 1u << 3,
    CTRL_FD = 1u << 4,
    CTRL_PM = 1u << 5,
    CTRL_RS = 1u << 6,
    CTRL_SP = 1u << 7,
    CTRL_PI = 1u << 10,
    CTRL_ME = 1u << 11,
    CTRL_MC = 1u << 25,
    CTRL_MA = 1u << 26,
    CTRL_GA = 1u << 27,  // GBIT capability: 1 only with csum_offload
  };
  // STATUS bits (all write-1-to-clear).
  enum : uint32_t {
    ST_RE = 1u << 0,
    ST_TE = 1u << 1,
    ST_RI = 1u << 2,
    ST_TI = 1u << 3,
    ST_RA = 1u << 4,
    ST_TA = 1u << 5,
    ST_TS = 1u << 6,
    ST_IA = 1u << 7,
    ST_PS = 1u << 8,
  };
  // MDIO bits.
  enum : uint32_t { MDIO_WR = 1u << 0, MDIO_RD = 1u << 1, MDIO_LF = 1u << 2, MDIO_BU = 1u << 3 };
  // Descriptor word 0 bits (TX and RX).
  enum : uint32_t {
    DESC_LEN = 0x7FF,
    DESC_EN = 1u << 11,
    DESC_WR = 1u << 12,
    DESC_IE = 1u << 13,
    TXD_UE = 1u << 14,
    TXD_AL = 1u << 15,
    TXD_IC = 1u << 18,
    TXD_TC = 1u << 19,
    TXD_UC = 1u << 20,  // csum_offload only
    RXD_AE = 1u << 14,
    RXD_FT = 1u << 15,
    RXD_CE = 1u << 16,
    RXD_OE = 1u << 17,
    RXD_LE = 1u << 18,
    RXD_MC = 1u << 26,
    // csum_offload only: IPv4 detected, IP header checksum error, UDP
    // detected / error, TCP detected / error, IP fragment.
    RXD_ID = 1u << 19,
    RXD_IR = 1u << 20,
    RXD_UD = 1u << 21,
    RXD_UR = 1u << 22,
    RXD_TD = 1u << 23,
    RXD_TR = 1u << 24,
    RXD_IF = 1u << 25,
  };
  static constexpr unsigned kDescs = 128;  // descriptors per table (1 KiB)

  tlm_utils::simple_initiator_socket<Greth> isock;  // DMA master -> AHB controller

  SC_HAS_PROCESS(Greth);
  Greth(sc_core::sc_module_name name, const Params& p = Params());

  // AHB master plug&play record (for AhbCtrl::bind_master).
  AhbPnp ahb_pnp() const;
  // Sending side of the network attachment (null: frames vanish after their
  // wire time at line_mbps).
  void connect_link(EthTx* tx) { link_ = tx; }

  // EthPort: frames from the network.
  void frame_start(const EthFrame& f) override;
  void frame_in(const EthFrame& f) override;

  // Hardware reset (power-on): also resets MAC address, hash, MDIO, PHY.
  void reset() override;

  // Writes MAC_MSB/MAC_LSB as software would (a boot loader's station
  // address); a later power-on reset() clears them again.
  void set_station_address(const uint8_t mac[6]) {
    mac_msb_ = uint32_t(mac[0]) << 8 | mac[1];
    mac_lsb_ = uint32_t(mac[2]) << 24 | uint32_t(mac[3]) << 16 | uint32_t(mac[4]) << 8 | mac[5];
  }

  // PHY link state (a change sets STATUS.PS and pulses the IRQ if CTRL.PI).
  void phy_set_link(bool up);

  const GrethStats& stats() const { return st_; }
  // Registers every GrethStats counter under `g` (net.greth).
  void register_stats(const StatsGroup& g) override;
  // <prefix>.irq, .dma_busy, .desc, .kick, .frame_sent, .frame_received,
  // .dma_burst (probe_registry.h).
  void register_probes(ProbeRegistry& r, const std::string& prefix) override;

  // --- probes (published only when listened to) ---
  Probe<GrethIrqEvent> on_irq;                       // every IRQ pulse
  Probe<GrethDmaBusyEvent> on_dma_busy;              // TX/RX DMA busy on/off
  Probe<GrethDescEvent> on_desc;                     // descriptor consumed
  Probe<GrethKickEvent> on_kick;                     // CTRL written with TE / RE set
  Probe<GrethFrameSentEvent> on_frame_sent;          // frame handed to the link
  Probe<GrethFrameReceivedEvent> on_frame_received;  // verdict on a frame from the network
  Probe<GrethDmaBurstEvent> on_dma_burst;            // every DMA AHB transaction
  const Params& params() const { return p_; }
  // MDIO transaction length in clocks (64 MDC periods).
  uint64_t mdio_cycles() const { return 64ull * 2 * (p_.mdcscaler + 1); }
  // PHY register as the PHY holds it now (debug/test back door: completes a
  // finished MDIO transaction first, has no read side effects).
  uint16_t phy_reg(unsigned r) {
    mdio_sync();
    return phy_read(r);
  }

 private:
  struct Desc {
    uint32_t w0 = 0, addr = 0;
  };
  // A frame waiting for / being handled by the RX DMA.
  struct RxJob {
    EthFrame f;
    sc_core::sc_time data0;  // first data byte (after SFD) starts arriving
    sc_core::sc_time end;    // last bit has arrived
    sc_core::sc_time byte;   // byte time
  };
  enum class Bus { Ok, Error, Reset };

  void build_registers();
  void soft_reset();

  // --- DMA helpers (SC_THREAD context) ---
  // One bus transaction; waits for the annotated delay. Reset: a soft reset
  // happened meanwhile (the caller abandons its work).
  Bus bus(tlm::tlm_command cmd, uint32_t addr, uint8_t* data, unsigned len);
  Bus read_desc(uint32_t addr, Desc& d);
  Bus write_word(uint32_t addr, uint32_t v);
  bool wait_until(const sc_core::sc_time& t);  // false: soft reset meanwhile
  uint32_t desc_addr(uint32_t base, unsigned idx) const { return base + idx * 8; }
  static unsigned next_index(unsigned idx, uint32_t w0) {
    return (w0 & DESC_WR) || idx + 1 == kDescs ? 0 : idx + 1;
  }
  void irq();
  void set_tx_active(bool a);
  void set_rx_active(bool a);
  // Publishes the verdict on a frame (the caller counts it in GrethStats).
  void rx_verdict(const EthFrame& f, GrethRxVerdict v);

  void tx_thread();
  struct TxResult {
    Bus bus = Bus::Ok;
    bool underrun = false;
  };
  TxResult tx_frame(const Desc& d, unsigned len);
  void rx_thread();
  // Handles one RX job with descriptor `d` cached; returns true if the
  // descriptor was consumed (written back).
  bool rx_frame(RxJob& job, const Desc& d, uint32_t da);
  enum class Verdict { Accept, Filter, Control, Runt };
  Verdict rx_filter(const EthFrame& f, bool& mcast_hit) const;
  static uint32_t crc32_le(const uint8_t* p, size_t n);

  // --- MDIO / PHY ---
  void mdio_sync();  // completes a finished MDIO transaction at now()
  bool mdio_busy() const { return mdio_busy_ && now() < mdio_end_; }
  uint16_t phy_read(unsigned r) const;
  void phy_write(unsigned r, uint16_t v);
  void phy_reset();

  Params p_;
  EthTx* link_ = nullptr;
  GrethStats st_;

  // Register state.
  uint32_t ctrl_ = 0;  // RW bits only
  uint32_t status_ = 0;
  uint32_t mac_msb_ = 0, mac_lsb_ = 0, hash_msb_ = 0, hash_lsb_ = 0;
  uint32_t txbase_ = 0, rxbase_ = 0;
  unsigned txidx_ = 0, rxidx_ = 0;
  bool rs_pending_ = false;  // CTRL.RS written while MDIO busy: reads 1 until mdio_end_
  bool re_hw_cleared_ = false;

  // MDIO: DATA/PHYADDR/REGADDR latch and the transaction in flight.
  uint32_t mdio_data_ = 0;
  unsigned mdio_phy_ = 0, mdio_reg_ = 0;
  bool mdio_lf_ = true, mdio_busy_ = false, mdio_write_ = false;
  sc_core::sc_time mdio_end_;

  // PHY registers 0 (BMCR) and 4 (ANAR) are writable; link state.
  uint16_t phy_bmcr_ = 0, phy_anar_ = 0;
  bool phy_link_ = true, phy_link_latched_low_ = false;

  // DMA state.
  uint64_t gen_ = 0;  // soft-reset generation: a change aborts DMA work
  sc_core::sc_event tx_kick_, rx_kick_, rx_frame_ev_;
  std::deque<RxJob> rxq_;
  unsigned announced_ = 0;  // frame_start() seen, frame_in() not yet
  bool tx_active_ = false, rx_active_ = false;
  bool rx_have_desc_ = false;
  Desc rx_desc_;  // descriptor read ahead by the RX DMA
};

}  // namespace l3vp
