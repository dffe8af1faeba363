#include "greth.h"
#include "inet_checksum.h"
#include "payload.h"
#include "probe_registry.h"
#include "stats.h"
#include "units.h"

#include <algorithm>
#include <stdexcept>

namespace l3vp {

using sc_core::sc_time;

namespace {

constexpr uint32_t kCtrlCommon =
    Greth::CTRL_TE | Greth::CTRL_RE | Greth::CTRL_TI | Greth::CTRL_RI | Greth::CTRL_FD | Greth::CTRL_PM;
constexpr uint32_t kStatusEvents = 0x1FF;  // PS IA TS TA RA TI RI TE RE

// Clause-22 PHY register bits used by the built-in PHY model.
constexpr uint16_t BMCR_RESET = 0x8000, BMCR_ANRESTART = 0x0200, BMCR_DEFAULT = 0x3100;  // 100M, AN, FD
constexpr uint16_t BMCR_RW = 0x7FFF & ~BMCR_ANRESTART & ~0x007F;                         // bits 14:7 writable
constexpr uint16_t BMSR_ABILITIES = 0x7800 | 0x0008 | 0x0001;  // 100/10 FD/HD, AN able, ext. regs
constexpr uint16_t BMSR_ANDONE = 0x0020, BMSR_LINK = 0x0004;
constexpr uint16_t ANAR_DEFAULT = 0x01E1;    // 100FD 100HD 10FD 10HD, selector 802.3
constexpr uint16_t ANLPAR_PARTNER = 0x41E1;  // partner: same abilities + acknowledge
constexpr uint16_t BMCR_ANENABLE = 0x1000;

uint32_t bitrev32(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i, v >>= 1) r = (r << 1) | (v & 1);
  return r;
}

// --- Checksum offload (csum_offload; README "Checksum offload") -------------

// The sums are models/net/inet_checksum.h's: a header or segment carrying
// a correct checksum sums to checksum 0.

// What the offload logic sees of a frame's IPv4 header.
struct Ipv4 {
  bool ok = false;     // ID: type 0x0800 (no VLAN tag), version 4, IHL >= 5, header in the bytes
  unsigned hlen = 0;   // IHL * 4
  unsigned total = 0;  // total length field
  uint8_t proto = 0;
  bool frag = false;  // MF set or fragment offset != 0
};

Ipv4 ipv4_of(const uint8_t* b, size_t len) {
  Ipv4 v;
  if (len < 14 + 20 || (b[12] << 8 | b[13]) != 0x0800) return v;
  const uint8_t* ip = b + 14;
  if (ip[0] >> 4 != 4 || (ip[0] & 0xF) < 5) return v;
  v.hlen = (ip[0] & 0xFu) * 4;
  if (14 + v.hlen > len) return v;
  v.ok = true;
  v.total = be16(ip + 2);
  v.proto = ip[9];
  v.frag = (ip[6] & 0x20) || ((ip[6] & 0x1F) << 8 | ip[7]) != 0;
  return v;
}

// RX word 0 bits 19-25 of a frame received without error (`b`: the bytes
// without FCS). The hardware computes them while the data streams in.
uint32_t rx_csum_bits(const uint8_t* b, size_t len) {
  const Ipv4 v = ipv4_of(b, len);
  if (!v.ok) return 0;
  const uint8_t* ip = b + 14;
  const uint8_t* l4 = ip + v.hlen;
  const size_t ip_bytes = len - 14;  // what follows the Ethernet header (padding included)
  uint32_t w = Greth::RXD_ID;
  if (inet_checksum(ip, v.hlen) != 0) w |= Greth::RXD_IR;
  if (v.frag) return w | Greth::RXD_IF;  // TCP/UDP results not valid: none given
  if (v.proto == 17) {
    w |= Greth::RXD_UD;
    bool bad;
    if (v.hlen + 8 > ip_bytes) {
      bad = true;  // not even the UDP header arrived: nothing can be confirmed
    } else if ((l4[6] | l4[7]) == 0) {
      bad = false;  // checksum field 0: the sender computed none (RFC 768)
    } else {
      const unsigned ulen = be16(l4 + 4);
      bad = v.total < v.hlen + 8 || v.total > ip_bytes || ulen < 8 || ulen > v.total - v.hlen ||
            l4_checksum(be32(ip + 12), be32(ip + 16), 17, l4, ulen) != 0;
    }
    if (bad) w |= Greth::RXD_UR;
  } else if (v.proto == 6) {
    w |= Greth::RXD_TD;
    const bool bad = v.total < v.hlen + 20 || v.total > ip_bytes ||
                     l4_checksum(be32(ip + 12), be32(ip + 16), 6, l4, v.total - v.hlen) != 0;
    if (bad) w |= Greth::RXD_TR;
  }
  return w;
}

// Inserts the checksums TX descriptor bits `flags` (IC TC UC) ask for into
// the first `len` bytes of `b` (the wire copy). Returns false if a request
// could not be honoured: IC on a frame that is not IPv4, or TC/UC where
// neither requested L4 checksum applies (not IPv4, another protocol, a
// fragment, the frame shorter than the IP total length or the L4 header).
// TC and UC together are one request (Linux sets IC|TC|UC on every frame
// whose checksum it leaves to the MAC).
bool tx_csum_insert(uint8_t* b, size_t len, uint32_t flags) {
  const Ipv4 v = ipv4_of(b, len);
  if (!v.ok) return false;
  uint8_t* ip = b + 14;
  if (flags & Greth::TXD_IC) {
    put_be16(ip + 10, 0);
    put_be16(ip + 10, inet_checksum(ip, v.hlen));
  }
  if (!(flags & (Greth::TXD_TC | Greth::TXD_UC))) return true;
  if (v.frag || 14 + size_t(v.total) > len) return false;
  uint8_t* seg = ip + v.hlen;
  if ((flags & Greth::TXD_TC) && v.proto == 6 && v.total >= v.hlen + 20) {
    const unsigned n = v.total - v.hlen;
    put_be16(seg + 16, 0);
    put_be16(seg + 16, l4_checksum(be32(ip + 12), be32(ip + 16), 6, seg, n));
    return true;
  }
  if ((flags & Greth::TXD_UC) && v.proto == 17 && v.total >= v.hlen + 8) {
    const unsigned ulen = be16(seg + 4);
    if (ulen < 8 || ulen > v.total - v.hlen) return false;
    put_be16(seg + 6, 0);
    const uint16_t c = l4_checksum(be32(ip + 12), be32(ip + 16), 17, seg, ulen);
    put_be16(seg + 6, c ? c : 0xFFFF);  // 0 means "no checksum" in UDP
    return true;
  }
  return false;
}

}  // namespace

// Reflected CRC-32 (polynomial 0xEDB88320), initial value all ones, no final
// inversion: the raw register after the bytes.
uint32_t Greth::crc32_le(const uint8_t* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return c;
}

Greth::Greth(sc_core::sc_module_name name, const Params& p) : ApbDevice(name, 64), isock("isock"), p_(p) {
  if (p_.pirq > 31) throw std::invalid_argument("Greth: pirq out of range");
  if (p_.burstwords < 1 || p_.burstwords > 16) throw std::invalid_argument("Greth: burstwords must be 1..16");
  if (p_.fifosize < 4 || p_.fifosize > 64) throw std::invalid_argument("Greth: fifosize must be 4..64");
  if (p_.burstwords > p_.fifosize) throw std::invalid_argument("Greth: burstwords must not exceed fifosize");
  if (p_.clk_period == sc_core::SC_ZERO_TIME) throw std::invalid_argument("Greth: zero clock period");
  if (p_.phy_addr > 31 || p_.phyrstadr > 31) throw std::invalid_argument("Greth: PHY address must be 0..31");
  eth::byte_time(p_.line_mbps);  // validates the speed
  pnp_.id = pnp_id(VENDOR_GAISLER, DEV_ETHMAC, p_.revision, p_.pirq);
  pnp_.bar = pnp_bar(p_.paddr, p_.pmask, false, false, BAR_APBIO);
  uint8_t mac[6];
  if (!p_.mac.empty() && !parse_mac(p_.mac, mac)) throw std::invalid_argument("Greth: bad station address");
  build_registers();
  reset();
  if (!p_.mac.empty()) set_station_address(mac);  // reset() cleared the MAC registers
  SC_THREAD(tx_thread);
  SC_THREAD(rx_thread);
}

AhbPnp Greth::ahb_pnp() const {
  AhbPnp r;
  r.id = pnp_id(VENDOR_GAISLER, DEV_ETHMAC, p_.revision, 0);
  return r;
}

// ---------------------------------------------------------------------------
// Registers
// ---------------------------------------------------------------------------

void Greth::build_registers() {
  auto mdio_fn = [this] { mdio_sync(); };
  // CTRL: EDCL (EA, BS, ED), the timestamp bits, RD, DD and GB are absent
  // in this build (reserved), GA too unless csum_offload. GA, MA and MC are
  // constant capability bits; PI, ME and SP exist only with mdint, multicast
  // and RMII. Not bound: a write with RS set applies none of its other bits,
  // so the store is the hook's.
  uint32_t rsvd = 0xF9FFF300u;
  if (p_.csum_offload) rsvd &= ~CTRL_GA;
  if (!p_.mdint) rsvd |= CTRL_MA | CTRL_PI;
  if (!p_.multicast) rsvd |= CTRL_MC | CTRL_ME;
  if (!p_.rmii) rsvd |= CTRL_SP;
  regs_.add("CTRL", CTRL)
      .no_store()
      .rsvd(rsvd)
      .sync(mdio_fn)
      .read_value([this] {
        uint32_t v = ctrl_ | CTRL_GA | CTRL_MA | CTRL_MC;  // capability bits (masked when absent)
        // RS self-clears once the MDIO interface is idle.
        if (rs_pending_ && mdio_busy()) v |= CTRL_RS;
        return v;
      })
      .on_write([this](uint32_t v) {
        if (v & CTRL_RS) {
          // The reset takes the whole write; the other bits are not applied.
          soft_reset();
          rs_pending_ = mdio_busy();
          return;
        }
        const uint32_t mask = kCtrlCommon | CTRL_PI | CTRL_ME | CTRL_SP;  // v has no reserved bits
        const uint32_t old = ctrl_;
        ctrl_ = (ctrl_ & ~mask) | (v & mask);
        if (v & CTRL_TE) tx_kick_.notify(access_offset());
        if (on_kick.has_listeners()) {
          if (v & CTRL_TE) on_kick.notify({now(), GrethDir::Tx});
          if (v & CTRL_RE) on_kick.notify({now(), GrethDir::Rx});
        }
        // Any RE write re-arms the RX DMA (a cleared RE drops the cached
        // descriptor; a set RE makes it read the current one).
        if (v & CTRL_RE) re_hw_cleared_ = false;
        if ((v ^ old) & CTRL_RE || v & CTRL_RE) rx_kick_.notify(access_offset());
        if (!(ctrl_ & CTRL_RE)) rx_have_desc_ = false;
      });
  // All event bits are write-1-to-clear; the DMA and the PHY set them.
  regs_.add("STATUS", STATUS).bind(status_).w1c(kStatusEvents).rsvd(~kStatusEvents);
  regs_.add("MAC_MSB", MAC_MSB).bind(mac_msb_).rsvd(0xFFFF0000u);
  regs_.add("MAC_LSB", MAC_LSB).bind(mac_lsb_);
  if (!p_.enable_mdio) {
    regs_.add("MDIO", MDIO).rsvd(~0u);
  } else {
    // DATA/PHYADDR/REGADDR latch, BU and LF are the MDIO state machine's;
    // RD/WR are commands (read 0); bit 5 and NV (bit 4, not in the GPL
    // 10/100 VHDL) read 0.
    regs_.add("MDIO", MDIO)
        .no_store()
        .rsvd(0x30u)
        .sync(mdio_fn)
        .read_value([this] {
          return (mdio_data_ & 0xFFFF) << 16 | (mdio_phy_ & 31) << 11 | (mdio_reg_ & 31) << 6 |
                 (mdio_busy() ? MDIO_BU : 0u) | (mdio_lf_ ? MDIO_LF : 0u);
        })
        .on_write([this](uint32_t v) {
          if (mdio_busy()) {
            Log::guest_error(name(), "MDIO write while busy ignored");
            return;
          }
          mdio_data_ = v >> 16;
          mdio_phy_ = (v >> 11) & 31;
          mdio_reg_ = (v >> 6) & 31;
          if (v & (MDIO_RD | MDIO_WR)) {
            mdio_write_ = !(v & MDIO_RD);  // both set: the read wins
            mdio_busy_ = true;
            mdio_end_ = now() + sc_time::from_value(mdio_cycles() * p_.clk_period.value());
            ++st_.mdio_ops;
          }
        });
  }
  // BASE (31:10) | INDEX (9:3); bits 2:0 read 0. The index is the DMA's.
  regs_.add("TXDESC", TXDESC)
      .no_store()
      .rsvd(0x7u)
      .read_value([this] { return txbase_ | txidx_ << 3; })
      .on_write([this](uint32_t v) {
        if (tx_active_) Log::guest_error(name(), "TXDESC written while the TX DMA is active");
        txbase_ = v & ~0x3FFu;
        txidx_ = (v >> 3) & (kDescs - 1);
      });
  regs_.add("RXDESC", RXDESC)
      .no_store()
      .rsvd(0x7u)
      .read_value([this] { return rxbase_ | rxidx_ << 3; })
      .on_write([this](uint32_t v) {
        if (rx_active_) Log::guest_error(name(), "RXDESC written while the RX DMA is active");
        rxbase_ = v & ~0x3FFu;
        rxidx_ = (v >> 3) & (kDescs - 1);
        rx_have_desc_ = false;  // a cached descriptor is re-read at the new place
        rx_kick_.notify(access_offset());
      });
  if (p_.multicast) {
    regs_.add("HASH_MSB", HASH_MSB).bind(hash_msb_);
    regs_.add("HASH_LSB", HASH_LSB).bind(hash_lsb_);
  }
}

void Greth::reset() {
  regs_.reset();  // STATUS, MAC, HASH (declared reset values: 0)
  ctrl_ = p_.rmii ? uint32_t(CTRL_SP) : 0u;
  txbase_ = rxbase_ = 0;
  txidx_ = rxidx_ = 0;
  rs_pending_ = false;
  re_hw_cleared_ = false;
  mdio_data_ = 0;
  mdio_phy_ = p_.phyrstadr;
  mdio_reg_ = 0;
  mdio_lf_ = true;
  mdio_busy_ = false;
  mdio_write_ = false;
  phy_reset();
  phy_link_ = true;
  phy_link_latched_low_ = false;
  ++gen_;
  rxq_.clear();
  rx_have_desc_ = false;
  set_tx_active(false);
  set_rx_active(false);
}

void Greth::soft_reset() {
  ++st_.soft_resets;
  ctrl_ &= ~kCtrlCommon;
  status_ &= ~(ST_IA | ST_TS | ST_PS);
  txidx_ = rxidx_ = 0;
  re_hw_cleared_ = false;
  ++gen_;  // DMA threads abandon what they are doing at their next wake-up
  rxq_.clear();
  rx_have_desc_ = false;
  set_tx_active(false);
  set_rx_active(false);
}

// ---------------------------------------------------------------------------
// MDIO and the built-in PHY
// ---------------------------------------------------------------------------

void Greth::mdio_sync() {
  if (!mdio_busy_ || now() < mdio_end_) return;
  mdio_busy_ = false;
  rs_pending_ = false;
  if (mdio_phy_ != p_.phy_addr) {
    // Nobody drives MDIO in the turnaround slot: link fail, data all ones.
    mdio_lf_ = true;
    if (!mdio_write_) mdio_data_ = 0xFFFF;
    return;
  }
  mdio_lf_ = false;
  if (mdio_write_) {
    phy_write(mdio_reg_, static_cast<uint16_t>(mdio_data_));
  } else {
    mdio_data_ = phy_read(mdio_reg_);
    if (mdio_reg_ == 1) phy_link_latched_low_ = false;  // BMSR link status latches low until read
  }
}

uint16_t Greth::phy_read(unsigned r) const {
  switch (r) {
    case 0:
      return phy_bmcr_;
    case 1: {
      uint16_t v = BMSR_ABILITIES;
      if (phy_link_ && (phy_bmcr_ & BMCR_ANENABLE)) v |= BMSR_ANDONE;
      if (phy_link_ && !phy_link_latched_low_) v |= BMSR_LINK;
      return v;
    }
    case 2:
      return p_.phy_id1;
    case 3:
      return p_.phy_id2;
    case 4:
      return phy_anar_;
    case 5:
      return phy_link_ ? ANLPAR_PARTNER : 0;
    default:
      return 0;
  }
}

void Greth::phy_write(unsigned r, uint16_t v) {
  if (r == 0) {
    if (v & BMCR_RESET) {
      phy_reset();  // completes at once: bit 15 reads 0 afterwards
      return;
    }
    phy_bmcr_ = static_cast<uint16_t>((phy_bmcr_ & ~BMCR_RW) | (v & BMCR_RW));
  } else if (r == 4) {
    phy_anar_ = static_cast<uint16_t>((v & 0xBFE0) | 0x0001);
  }
  // Registers 1-3, 5 are read-only; others (e.g. 9) are ignored.
}

void Greth::phy_reset() {
  phy_bmcr_ = BMCR_DEFAULT;
  phy_anar_ = ANAR_DEFAULT;
}

void Greth::phy_set_link(bool up) {
  if (up == phy_link_) return;
  phy_link_ = up;
  if (!up) phy_link_latched_low_ = true;
  if (!p_.mdint) return;
  status_ |= ST_PS;
  if (ctrl_ & CTRL_PI) irq();
}

// ---------------------------------------------------------------------------
// DMA helpers
// ---------------------------------------------------------------------------

void Greth::irq() {
  ++st_.irq_pulses;
  pulse_irq(p_.pirq);
  if (on_irq.has_listeners()) on_irq.notify({now()});
}

void Greth::set_tx_active(bool a) {
  if (a == tx_active_) return;
  tx_active_ = a;
  if (on_dma_busy.has_listeners()) on_dma_busy.notify({now(), GrethDir::Tx, a});
}

void Greth::set_rx_active(bool a) {
  if (a == rx_active_) return;
  rx_active_ = a;
  if (on_dma_busy.has_listeners()) on_dma_busy.notify({now(), GrethDir::Rx, a});
}

void Greth::rx_verdict(const EthFrame& f, GrethRxVerdict v) {
  if (on_frame_received.has_listeners()) on_frame_received.notify({now(), &f, v});
}

const char* to_string(GrethRxVerdict v) {
  switch (v) {
    case GrethRxVerdict::Ok:
      return "ok";
    case GrethRxVerdict::Error:
      return "error";
    case GrethRxVerdict::Filtered:
      return "filtered";
    case GrethRxVerdict::Control:
      return "control";
    case GrethRxVerdict::Runt:
      return "runt";
    case GrethRxVerdict::Disabled:
      return "disabled";
    case GrethRxVerdict::Exhausted:
      return "exhausted";
    case GrethRxVerdict::AhbError:
      return "ahb-error";
  }
  return "?";
}

Greth::Bus Greth::bus(tlm::tlm_command cmd, uint32_t addr, uint8_t* data, unsigned len) {
  const uint64_t g = gen_;
  tlm::tlm_generic_payload gp;
  set_burst(gp, cmd, addr, data, len);
  sc_time d = sc_core::SC_ZERO_TIME;
  const sc_time start = sc_core::sc_time_stamp();
  isock->b_transport(gp, d);
  if (d != sc_core::SC_ZERO_TIME) sc_core::wait(d);
  if (on_dma_burst.has_listeners())
    on_dma_burst.notify(
        {start, sc_core::sc_time_stamp(), addr, len, cmd == tlm::TLM_WRITE_COMMAND, gp.is_response_ok()});
  if (gen_ != g) return Bus::Reset;
  return gp.is_response_ok() ? Bus::Ok : Bus::Error;
}

Greth::Bus Greth::read_desc(uint32_t addr, Desc& d) {
  uint8_t b[8];
  const Bus r = bus(tlm::TLM_READ_COMMAND, addr, b, 8);
  d.w0 = be32(b);
  d.addr = be32(b + 4);
  return r;
}

Greth::Bus Greth::write_word(uint32_t addr, uint32_t v) {
  uint8_t b[4];
  put_be32(b, v);
  return bus(tlm::TLM_WRITE_COMMAND, addr, b, 4);
}

bool Greth::wait_until(const sc_time& t) {
  const uint64_t g = gen_;
  const sc_time now = sc_core::sc_time_stamp();
  if (t > now) sc_core::wait(t - now);
  return gen_ == g;
}

// ---------------------------------------------------------------------------
// TX DMA
// ---------------------------------------------------------------------------

void Greth::tx_thread() {
  for (;;) {
    set_tx_active(false);
    while (!(ctrl_ & CTRL_TE)) sc_core::wait(tx_kick_);
    set_tx_active(true);

    const uint32_t da = desc_addr(txbase_, txidx_);
    auto ahb_error = [&](const char* what) {
      status_ |= ST_TA;
      ctrl_ &= ~CTRL_TE;
      ++st_.tx_ahb_errors;
      Log::guest_error(name(), std::string("TX DMA AHB error on ") + what + ", descriptor " + hex(da));
    };
    Desc d;
    Bus r = read_desc(da, d);
    if (r == Bus::Reset) continue;
    if (r == Bus::Error) {
      ahb_error("descriptor read");
      continue;
    }
    if (!(d.w0 & DESC_EN)) {  // EN is copied into CTRL.TE
      ctrl_ &= ~CTRL_TE;
      continue;
    }
    const unsigned len = d.w0 & DESC_LEN;
    uint32_t wb = 0;  // word 0 as written back: UE (AL never: full duplex), everything else 0
    if (len == 0 || len > eth::kMaxData) {
      // Not sent; written back as a successful no-op.
      ++st_.tx_skipped;
    } else {
      const TxResult x = tx_frame(d, len);
      if (x.bus == Bus::Reset) continue;
      if (x.bus == Bus::Error) {
        ahb_error("data read");
        continue;
      }
      wb = x.underrun ? uint32_t(TXD_UE) : 0u;
    }
    r = write_word(da, wb);
    if (r == Bus::Reset) continue;
    if (r == Bus::Error) {
      ahb_error("status write");
      continue;
    }
    if (on_desc.has_listeners())
      on_desc.notify({sc_core::sc_time_stamp(), GrethDir::Tx, txidx_, da, d.w0, d.addr, wb});
    txidx_ = next_index(txidx_, d.w0);
    status_ |= wb ? ST_TE : ST_TI;
    if ((d.w0 & DESC_IE) && (ctrl_ & CTRL_TI)) irq();
  }
}

// One frame of `len` bytes from the buffer of descriptor `d` through the
// transmit FIFO (README "TX"): bursts fill the FIFO until it holds `fifosize`
// words or the whole frame, then transmission starts and the DMA keeps
// fetching a burst whenever the FIFO has room for it. A frame whose checksums
// the MAC inserts (csum_offload, IC/TC/UC) is fetched whole first. Returns
// when the last bit has left (or at once on an AHB error / reset before the
// start).
Greth::TxResult Greth::tx_frame(const Desc& d, unsigned len) {
  TxResult x;
  const uint32_t base = d.addr & ~3u;  // 10/100: address bits 1:0 ignored
  const unsigned bytes = (len + 3) & ~3u;
  const unsigned burst = p_.burstwords * 4;
  const unsigned fifo = p_.fifosize * 4;
  // The checksum fields precede the data they cover: the whole frame must be
  // in before its first byte goes out.
  const uint32_t csum = p_.csum_offload ? d.w0 & (TXD_IC | TXD_TC | TXD_UC) : 0u;
  std::vector<uint8_t> buf(bytes);  // the frame as read from memory
  unsigned fetched = 0;
  // The next burst: burstwords words, or what is left of the frame.
  auto next = [&] { return std::min(burst, bytes - fetched); };
  auto fetch = [&](uint8_t* into, unsigned n) {
    x.bus = bus(tlm::TLM_READ_COMMAND, base + fetched, into, n);
  };
  while (fetched < bytes && (csum || fetched + next() <= fifo) && x.bus == Bus::Ok) {
    const unsigned n = next();
    fetch(buf.data() + fetched, n);
    fetched += n;
  }
  if (x.bus != Bus::Ok) return x;

  // The link needs the whole frame now; the bytes the DMA has yet to fetch
  // are sampled without bus time here and checked against the timed reads.
  if (fetched < bytes) {
    tlm::tlm_generic_payload gp;
    set_burst(gp, tlm::TLM_READ_COMMAND, base + fetched, buf.data() + fetched, bytes - fetched);
    isock->transport_dbg(gp);  // a short read leaves zeros; the timed read then fails
  }
  EthFrame f;  // the wire copy: inserted checksums change it, never `buf` or memory
  f.data.assign(buf.begin(), buf.begin() + len);
  if (csum && !tx_csum_insert(f.data.data(), len, csum)) ++st_.tx_csum_skipped;  // sent all the same
  if (f.data.size() < eth::kMinData) f.data.resize(eth::kMinData, 0);            // zero padding
  const sc_time now = sc_core::sc_time_stamp();
  const EthTx::Times t =
      link_ ? link_->send(f) : EthTx::Times{now, now + eth::frame_time(f.data.size(), p_.line_mbps)};
  ++st_.tx_frames;
  st_.tx_bytes += len;
  if (on_frame_sent.has_listeners()) on_frame_sent.notify({t.start, t.end, &f, len});

  // The rest streams in while the frame goes out: word k of the frame
  // leaves the FIFO when its first bit starts, data0 + k word times.
  // The byte time is the link's (the frame's wire time over its wire bytes).
  const uint64_t byte = (t.end - t.start).value() / eth::wire_bytes(f.data.size());
  const sc_time data0 = t.start + sc_time::from_value(byte * eth::kPreamble);
  const sc_time word = sc_time::from_value(byte * 4);
  std::vector<uint8_t> got(burst);
  while (fetched < bytes) {
    const unsigned n = next();
    // Room for n more bytes once (fetched + n - fifo) / 4 words have left.
    const unsigned must_leave = (fetched + n - fifo + 3) / 4;
    if (!wait_until(data0 + sc_time::from_value(word.value() * (must_leave - 1)))) {
      x.bus = Bus::Reset;
      return x;
    }
    const sc_time needed = data0 + sc_time::from_value(word.value() * (fetched / 4));
    fetch(got.data(), n);
    if (x.bus != Bus::Ok) return x;
    if (sc_core::sc_time_stamp() > needed) {  // the transmitter found the FIFO empty
      x.underrun = true;
      ++st_.tx_underruns;
      Log::guest_error(name(), "TX FIFO underrun at byte " + std::to_string(fetched) + " of a " +
                                   std::to_string(len) + "-byte frame (buffer " + hex(d.addr) + ")");
      break;
    }
    if (!std::equal(got.begin(), got.begin() + n, buf.begin() + fetched)) {
      ++st_.tx_data_changed;
      Log::guest_error(name(), "TX buffer " + hex(d.addr) + " changed while its frame was being sent");
    }
    fetched += n;
  }
  if (!wait_until(t.end)) x.bus = Bus::Reset;  // bus() and wait_until() see a reset themselves
  return x;
}

// ---------------------------------------------------------------------------
// RX side
// ---------------------------------------------------------------------------

void Greth::frame_start(const EthFrame& f) {
  ++announced_;
  const sc_time now = sc_core::sc_time_stamp();
  RxJob j;
  j.f = f;
  if (f.byte_time != sc_core::SC_ZERO_TIME && f.rx_end > now) {
    j.byte = f.byte_time;
    j.data0 = now + sc_time::from_value(f.byte_time.value() * eth::kPreamble);  // after preamble+SFD
    j.end = f.rx_end;
  } else {
    j.data0 = j.end = now;
  }
  if (!(ctrl_ & CTRL_RE)) {
    ++(re_hw_cleared_ ? st_.rx_drop_exhausted : st_.rx_drop_disabled);
    rx_verdict(f, re_hw_cleared_ ? GrethRxVerdict::Exhausted : GrethRxVerdict::Disabled);
    return;
  }
  rxq_.push_back(std::move(j));
  rx_frame_ev_.notify(sc_core::SC_ZERO_TIME);
}

void Greth::frame_in(const EthFrame& f) {
  if (announced_ > 0) {  // already queued by frame_start()
    --announced_;
    return;
  }
  // Injected without an early notice: all bytes are there now.
  const sc_time now = sc_core::sc_time_stamp();
  if (!(ctrl_ & CTRL_RE)) {
    ++(re_hw_cleared_ ? st_.rx_drop_exhausted : st_.rx_drop_disabled);
    rx_verdict(f, re_hw_cleared_ ? GrethRxVerdict::Exhausted : GrethRxVerdict::Disabled);
    return;
  }
  RxJob j;
  j.f = f;
  j.data0 = j.end = now;
  rxq_.push_back(std::move(j));
  rx_frame_ev_.notify(sc_core::SC_ZERO_TIME);
}

Greth::Verdict Greth::rx_filter(const EthFrame& f, bool& mcast_hit) const {
  mcast_hit = false;
  const auto& b = f.data;
  if (b.size() < 14) return Verdict::Runt;
  const uint16_t type = static_cast<uint16_t>(b[12] << 8 | b[13]);
  if (type == eth::kTypeMacControl) return Verdict::Control;
  const uint8_t mac[6] = {uint8_t(mac_msb_ >> 8),  uint8_t(mac_msb_),      uint8_t(mac_lsb_ >> 24),
                          uint8_t(mac_lsb_ >> 16), uint8_t(mac_lsb_ >> 8), uint8_t(mac_lsb_)};
  const bool bcast = std::all_of(b.begin(), b.begin() + 6, [](uint8_t x) { return x == 0xFF; });
  const bool station = std::equal(b.begin(), b.begin() + 6, mac);
  if (p_.multicast && (ctrl_ & CTRL_ME) && (b[0] & 1) && !bcast) {
    // Hash index: low 6 bits of the MSB-first CRC register after the DA,
    // i.e. the bit-reversed reflected CRC.
    const unsigned idx = bitrev32(crc32_le(b.data(), 6)) & 0x3F;
    const uint32_t word = idx >= 32 ? hash_msb_ : hash_lsb_;
    mcast_hit = (word >> (idx & 31)) & 1;
  }
  if (!((ctrl_ & CTRL_PM) || station || bcast || mcast_hit)) return Verdict::Filter;
  if (b.size() + eth::kFcs < 64) return Verdict::Runt;
  return Verdict::Accept;
}

void Greth::rx_thread() {
  for (;;) {
    set_rx_active(false);
    if (!(ctrl_ & CTRL_RE)) {
      rx_have_desc_ = false;
      // Frames that were queued while RE was still set are lost now.
      for (const RxJob& j : rxq_) {
        ++(re_hw_cleared_ ? st_.rx_drop_exhausted : st_.rx_drop_disabled);
        rx_verdict(j.f, re_hw_cleared_ ? GrethRxVerdict::Exhausted : GrethRxVerdict::Disabled);
      }
      rxq_.clear();
      sc_core::wait(rx_kick_);
      continue;
    }
    const uint32_t da = desc_addr(rxbase_, rxidx_);
    Desc d;
    if (!rx_have_desc_) {
      set_rx_active(true);
      const Bus r = read_desc(da, d);
      if (r == Bus::Reset) continue;
      if (r == Bus::Error) {
        status_ |= ST_RA;
        ctrl_ &= ~CTRL_RE;
        ++st_.rx_ahb_errors;
        Log::guest_error(name(), "RX DMA AHB error on descriptor read " + hex(da));
        continue;
      }
      if (!(d.w0 & DESC_EN)) {  // EN is copied into CTRL.RE: ring exhausted
        ctrl_ &= ~CTRL_RE;
        re_hw_cleared_ = true;
        continue;
      }
      rx_have_desc_ = true;
      rx_desc_ = d;
      set_rx_active(false);
    }
    d = rx_desc_;
    while (rxq_.empty() && (ctrl_ & CTRL_RE) && rx_have_desc_) sc_core::wait(rx_frame_ev_ | rx_kick_);
    if (!(ctrl_ & CTRL_RE) || !rx_have_desc_ || rxq_.empty()) continue;
    RxJob job = std::move(rxq_.front());
    rxq_.pop_front();
    set_rx_active(true);
    if (rx_frame(job, d, da)) rx_have_desc_ = false;
  }
}

bool Greth::rx_frame(RxJob& job, const Desc& d, uint32_t da) {
  const EthFrame& f = job.f;
  const size_t len = f.data.size();
  bool mc = false;
  const Verdict v = rx_filter(f, mc);
  if (v != Verdict::Accept) {
    // Dropped without touching the descriptor; the status bit is set when
    // the frame has ended.
    if (!wait_until(job.end)) return false;
    GrethRxVerdict why = GrethRxVerdict::Filtered;
    if (v == Verdict::Runt) {
      status_ |= ST_TS;
      ++st_.rx_drop_runt;
      why = GrethRxVerdict::Runt;
    } else {
      status_ |= ST_IA;
      ++(v == Verdict::Control ? st_.rx_drop_control : st_.rx_drop_filter);
      if (v == Verdict::Control) why = GrethRxVerdict::Control;
    }
    rx_verdict(f, why);
    return false;
  }

  // Stored image: the data followed by the FCS (so the tail of the last word
  // holds FCS bytes, as when the hardware writes whole words), at most 1514
  // bytes rounded up to words.
  std::vector<uint8_t> img(f.data);
  const uint32_t fcs = ~crc32_le(f.data.data(), len);
  for (int i = 0; i < 4; ++i) img.push_back(static_cast<uint8_t>(fcs >> (8 * i)));
  const size_t n = std::min<size_t>(len, eth::kMaxData);
  const unsigned bytes = static_cast<unsigned>((n + 3) & ~size_t(3));
  const unsigned burst = p_.burstwords * 4;
  const unsigned fifo = p_.fifosize * 4;
  const uint32_t base = d.addr & ~3u;
  bool overrun = false;

  // Each burst goes out once its last byte has arrived (bytes past the frame
  // data: once the data has arrived). A burst that cannot start before more
  // than a FIFO's worth of unwritten bytes has piled up means an overrun.
  for (unsigned off = 0; off < bytes; off += burst) {
    const unsigned cnt = std::min(burst, bytes - off);
    const uint64_t need = std::min<uint64_t>(off + cnt, len);
    const sc_time ready = job.data0 + sc_time::from_value(job.byte.value() * need);
    if (!wait_until(ready)) return false;
    if (job.byte != sc_core::SC_ZERO_TIME) {
      const uint64_t arrived =
          std::min<uint64_t>((sc_core::sc_time_stamp() - job.data0).value() / job.byte.value(), len);
      if (arrived > off + uint64_t(fifo)) {
        overrun = true;
        break;
      }
    }
    const Bus r = bus(tlm::TLM_WRITE_COMMAND, base + off, img.data() + off, cnt);
    if (r == Bus::Reset) return false;
    if (r == Bus::Error) {
      status_ |= ST_RA;
      ctrl_ &= ~CTRL_RE;
      ++st_.rx_ahb_errors;
      ++st_.rx_drop_ahb;
      Log::guest_error(name(), "RX DMA AHB error on data write " + hex(base + off));
      rx_verdict(f, GrethRxVerdict::AhbError);
      return false;
    }
  }
  if (!wait_until(job.end)) return false;

  uint32_t w0 = static_cast<uint32_t>(len) & DESC_LEN;
  if (overrun) {
    w0 |= RXD_OE;
    ++st_.rx_overruns;
  }
  if (len > eth::kMaxData) {
    w0 |= RXD_FT;
    ++st_.rx_too_long;
  }
  if (f.crc_error) {
    if (f.dribble) {
      w0 |= RXD_AE;  // bad CRC with an odd number of nibbles
      ++st_.rx_align_errors;
    } else {
      w0 |= RXD_CE;
      ++st_.rx_crc_errors;
    }
  }
  // Length check: a type/length value <= 1500 is a length.
  const uint32_t t = (uint32_t(f.data[12]) << 8 | f.data[13]) + 14;
  if (t <= eth::kMaxData &&
      ((t > eth::kMinData && t != len) || (t <= eth::kMinData && len != eth::kMinData))) {
    w0 |= RXD_LE;
    ++st_.rx_length_errors;
  }
  if (mc) w0 |= RXD_MC;
  const bool err = w0 & (RXD_AE | RXD_FT | RXD_CE | RXD_OE | RXD_LE);
  // Checksum results (not errors of the frame: STATUS.RI, verdict Ok).
  if (p_.csum_offload && !(w0 & (RXD_AE | RXD_FT | RXD_CE | RXD_OE))) {
    const uint32_t c = rx_csum_bits(f.data.data(), len);
    w0 |= c;
    if (c & RXD_IR) ++st_.rx_csum_ip_errors;
    if (c & RXD_UR) ++st_.rx_csum_udp_errors;
    if (c & RXD_TR) ++st_.rx_csum_tcp_errors;
  }

  const Bus r = write_word(da, w0);
  if (r == Bus::Reset) return false;
  if (r == Bus::Error) {
    status_ |= ST_RA;
    ctrl_ &= ~CTRL_RE;
    ++st_.rx_ahb_errors;
    ++st_.rx_drop_ahb;
    Log::guest_error(name(), "RX DMA AHB error on status write " + hex(da));
    rx_verdict(f, GrethRxVerdict::AhbError);
    return false;
  }
  if (on_desc.has_listeners())
    on_desc.notify({sc_core::sc_time_stamp(), GrethDir::Rx, rxidx_, da, d.w0, d.addr, w0});
  rxidx_ = next_index(rxidx_, d.w0);
  status_ |= err ? ST_RE : ST_RI;
  ++st_.rx_frames;
  st_.rx_bytes += len;
  if (err) ++st_.rx_errors;
  rx_verdict(f, err ? GrethRxVerdict::Error : GrethRxVerdict::Ok);
  if ((d.w0 & DESC_IE) && (ctrl_ & CTRL_RI)) irq();
  return true;
}

// ---------------------------------------------------------------- statistics

// All simulated: invariant.
void Greth::register_stats(const StatsGroup& g) {
  const auto U = StatUnit::Count;
  const auto B = StatUnit::Bytes;
  const auto Y = StatInv::Yes;
  g.counter("tx_frames", &st_.tx_frames, U, Y, "Frames the GRETH put on the wire.");
  g.counter("tx_bytes", &st_.tx_bytes, B, Y, "Their bytes (without padding and FCS).");
  g.counter("tx_skipped", &st_.tx_skipped, U, Y, "TX descriptors with LENGTH 0 or > 1514 (not sent).");
  g.counter("tx_ahb_errors", &st_.tx_ahb_errors, U, Y, "TX DMA AHB errors.");
  g.counter("tx_underruns", &st_.tx_underruns, U, Y,
            "TX FIFO underruns (UE): a burst came later than the transmitter needed it.");
  g.counter(
      "tx_data_changed", &st_.tx_data_changed, U, Y,
      "TX bursts whose data differed from the frame as it started (the buffer was written while sent).");
  g.counter("tx_csum_skipped", &st_.tx_csum_skipped, U, Y,
            "TX frames with IC/TC/UC where a checksum could not be inserted, sent without it "
            "(greth.csum_offload).");
  g.counter("rx_frames", &st_.rx_frames, U, Y, "Frames written to an RX descriptor (error bits included).");
  g.counter("rx_bytes", &st_.rx_bytes, B, Y, "Their bytes.");
  g.counter("rx_errors", &st_.rx_errors, U, Y, "Received frames that carried an error bit.");
  const StatsGroup d = g.sub("rx_drops");
  d.counter("filter", &st_.rx_drop_filter, U, Y, "Frames dropped by the address filter (STATUS.IA).");
  d.counter("control", &st_.rx_drop_control, U, Y, "MAC control frames dropped (type 0x8808, STATUS.IA).");
  d.counter("runt", &st_.rx_drop_runt, U, Y, "Frames dropped for < 64 bytes including FCS (STATUS.TS).");
  d.counter("disabled", &st_.rx_drop_disabled, U, Y,
            "Frames dropped with RE = 0 (software never enabled / cleared it).");
  d.counter("exhausted", &st_.rx_drop_exhausted, U, Y,
            "Frames dropped with RE cleared by the DMA meeting EN = 0 (ring exhausted).");
  d.counter("ahb_error", &st_.rx_drop_ahb, U, Y, "Frames lost to an RX AHB error.");
  g.counter("rx_crc_errors", &st_.rx_crc_errors, U, Y, "RX frames with a CRC error (CE).");
  g.counter("rx_align_errors", &st_.rx_align_errors, U, Y, "RX alignment errors (AE).");
  g.counter("rx_length_errors", &st_.rx_length_errors, U, Y, "RX length errors (LE).");
  g.counter("rx_too_long", &st_.rx_too_long, U, Y, "RX frames too long (FT).");
  g.counter("rx_overruns", &st_.rx_overruns, U, Y, "RX overruns (OE).");
  g.counter("rx_ahb_errors", &st_.rx_ahb_errors, U, Y, "RX DMA AHB errors (RA).");
  g.counter("rx_csum_ip_errors", &st_.rx_csum_ip_errors, U, Y,
            "RX IPv4 header checksum errors (IR; greth.csum_offload).");
  g.counter("rx_csum_udp_errors", &st_.rx_csum_udp_errors, U, Y,
            "RX UDP checksums not confirmed (UR; greth.csum_offload).");
  g.counter("rx_csum_tcp_errors", &st_.rx_csum_tcp_errors, U, Y,
            "RX TCP checksums not confirmed (TR; greth.csum_offload).");
  g.counter("irq_pulses", &st_.irq_pulses, U, Y, "IRQ 6 pulses.");
  g.counter("mdio_ops", &st_.mdio_ops, U, Y, "MDIO transactions.");
  g.counter("soft_resets", &st_.soft_resets, U, Y, "CTRL.RS resets.");
}

namespace {
const char* dir_name(GrethDir d) { return d == GrethDir::Tx ? "tx" : "rx"; }
}  // namespace

void probe_text(ProbeText& o, const GrethIrqEvent& e) { o.at(e.t); }

void probe_text(ProbeText& o, const GrethDmaBusyEvent& e) {
  o.at(e.t);
  o.word("dir", dir_name(e.dir)).flag("busy", e.busy);
}

void probe_text(ProbeText& o, const GrethDescEvent& e) {
  o.at(e.t);
  o.word("dir", dir_name(e.dir)).num("index", e.index).hex("addr", e.addr).hex("w0", e.w0).hex("buf", e.buf);
  o.hex("status", e.status);
}

void probe_text(ProbeText& o, const GrethKickEvent& e) {
  o.at(e.t);
  o.word("dir", dir_name(e.dir));
}

void probe_text(ProbeText& o, const GrethFrameSentEvent& e) {
  o.at(e.start);
  o.time("end", e.end).num("len", e.len).hex("type", eth::type_field(*e.frame), 4);
}

void probe_text(ProbeText& o, const GrethFrameReceivedEvent& e) {
  o.at(e.t);
  o.num("bytes", e.frame->data.size())
      .hex("type", eth::type_field(*e.frame), 4)
      .word("verdict", to_string(e.verdict));
}

void probe_text(ProbeText& o, const GrethDmaBurstEvent& e) {
  o.at(e.start);
  o.time("end", e.end).hex("addr", e.addr).num("bytes", e.bytes).flag("write", e.write).flag("ok", e.ok);
}

void Greth::register_probes(ProbeRegistry& r, const std::string& prefix) {
  r.add(prefix, "irq", on_irq, "");
  r.add(prefix, "dma_busy", on_dma_busy, "dir busy");
  r.add(prefix, "desc", on_desc, "dir index addr w0 buf status");
  r.add(prefix, "kick", on_kick, "dir");
  r.add(prefix, "frame_sent", on_frame_sent, "end len type");
  r.add(prefix, "frame_received", on_frame_received, "bytes type verdict");
  r.add(prefix, "dma_burst", on_dma_burst, "end addr bytes write ok");
}

}  // namespace l3vp
