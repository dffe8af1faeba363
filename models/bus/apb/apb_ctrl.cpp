#include "apb_ctrl.h"
#include "stats.h"
#include "format.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "endian.h"
#include "log.h"
#include "payload.h"

namespace l3vp {
namespace {}  // namespace

ApbCtrl::ApbCtrl(sc_core::sc_module_name name, const Params& p)
    : sc_core::sc_module(name), tsock("tsock"), isock("isock"), p_(p), slaves_(16), slot_(4096, -1) {
  if (p.nslaves == 0 || p.nslaves > 16)
    throw std::logic_error(std::string(this->name()) + ": nslaves must be 1..16");
  tsock.register_b_transport(this, &ApbCtrl::b_transport);
  tsock.register_transport_dbg(this, &ApbCtrl::transport_dbg);
}

AhbPnp ApbCtrl::ahb_pnp() const {
  AhbPnp r;
  r.id = pnp_id(VENDOR_GAISLER, DEV_APBCTRL, p_.version, 0);
  r.bar[0] = pnp_bar(p_.haddr, p_.hmask, false, false, BAR_AHBMEM);
  return r;
}

void ApbCtrl::add(unsigned pindex, std::function<ApbPnp()> pnp, const std::string& name) {
  if (pindex >= p_.nslaves || slaves_[pindex].present)
    throw std::logic_error(std::string(this->name()) + ": bad or duplicate APB index " +
                           std::to_string(pindex));
  Slave& s = slaves_[pindex];
  s.present = true;
  s.port = nports_++;
  s.name = name;
  s.pnp = std::move(pnp);
  built_ = false;
}

void ApbCtrl::add_slave(unsigned pindex, ApbDevice& dev) {
  ApbDevice* d = &dev;
  add(
      pindex, [d] { return d->pnp(); }, dev.name());
  isock.bind(dev.tsock);
}

void ApbCtrl::build() {
  std::fill(slot_.begin(), slot_.end(), -1);
  const uint32_t pnp_slot = kPnpOffset >> 8;
  for (unsigned i = 0; i < slaves_.size(); ++i) {
    Slave& s = slaves_[i];
    if (!s.present) continue;
    const ApbPnp pnp = s.pnp();
    const uint32_t addr = pnp.bar >> 20, mask = (pnp.bar >> 4) & 0xFFF, low = ~mask & 0xFFF;
    const std::string who = std::string(name()) + ": APB slave " + std::to_string(i) + " (" + s.name + ")";
    if ((pnp.bar & 0xF) != BAR_APBIO) throw std::logic_error(who + ": BAR is not an APB I/O bar");
    if (mask == 0 || (low & (low + 1)) != 0) throw std::logic_error(who + ": non-contiguous mask");
    s.start = (addr & mask) << 8;
    s.size = (4096 - mask) << 8;
    for (uint32_t t = s.start >> 8; t < (s.start + s.size) >> 8; ++t) {
      if (slot_[t] >= 0 || t >= pnp_slot)
        throw std::logic_error(who + ": window overlaps another slave or the P&P area");
      slot_[t] = static_cast<int8_t>(i);
    }
  }
  built_ = true;
}

uint32_t ApbCtrl::pnp_word(uint32_t off) {
  if (!built_) build();
  const uint32_t rel = (off - kPnpOffset) & ~3u;
  const unsigned i = rel / 8;
  if (off < kPnpOffset || i >= p_.nslaves || !slaves_[i].present || slaves_[i].hidden) return 0;
  const ApbPnp pnp = slaves_[i].pnp();
  return (rel & 4) ? pnp.bar : pnp.id;
}

uint64_t ApbCtrl::slave_accesses(unsigned pindex) const {
  return pindex < slaves_.size() ? slaves_[pindex].accesses : 0;
}

tlm::tlm_response_status ApbCtrl::access(tlm::tlm_command cmd, uint32_t off, uint8_t* data, unsigned len,
                                         sc_core::sc_time& delay, bool debug) {
  if (!debug) delay += access_delay_;
  if (off >= kPnpOffset) {
    if (cmd == tlm::TLM_WRITE_COMMAND) {
      if (!debug)
        Log::guest_error(name(),
                         "write to read-only APB plug&play area at offset " + hex(off, 5) + " dropped");
    } else if (cmd == tlm::TLM_READ_COMMAND) {
      uint8_t w[4];
      put_be32(w, pnp_word(off));
      std::memcpy(data, w + (off & 3), len);
    }
    return tlm::TLM_OK_RESPONSE;
  }
  const int i = slot_[off >> 8];
  if (i < 0) {
    if (cmd == tlm::TLM_READ_COMMAND) std::memset(data, 0, len);
    if (!debug) {
      ++empty_;
      Log::guest_error(name(), std::string(cmd == tlm::TLM_WRITE_COMMAND ? "write to" : "read from") +
                                   " empty APB slot at offset " + hex(off, 5));
    }
    return tlm::TLM_OK_RESPONSE;
  }
  Slave& s = slaves_[i];
  // One reusable payload (constructing a payload allocates its extension
  // array); APB slaves never call back into the bridge, so no reentrancy.
  tlm::tlm_generic_payload& gp = fwd_;
  set_burst(gp, cmd, off - s.start, data, len);
  if (debug) {
    isock[s.port]->transport_dbg(gp);
    return tlm::TLM_OK_RESPONSE;
  }
  ++s.accesses;
  isock[s.port]->b_transport(gp, delay);
  return gp.get_response_status();
}

void ApbCtrl::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (!built_) build();
  const uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  const uint64_t bar_size = uint64_t(4096 - (p_.hmask & 0xFFF)) << 20;
  gp.set_dmi_allowed(false);
  if (len == 0 || addr + len > bar_size || addr + len > 0x100000) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (gp.get_byte_enable_ptr() || gp.get_streaming_width() < len) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  const uint32_t off = static_cast<uint32_t>(addr);
  tlm::tlm_response_status st = tlm::TLM_OK_RESPONSE;
  if (len <= 4) {
    if ((off & 3) + len > 4)
      st = tlm::TLM_BURST_ERROR_RESPONSE;  // crosses a word
    else
      st = access(gp.get_command(), off, gp.get_data_ptr(), len, delay, false);
  } else if ((off & 3) == 0 && len % 4 == 0) {
    // LDD/STD and bursts become consecutive 32-bit APB transfers.
    for (unsigned k = 0; k < len && st == tlm::TLM_OK_RESPONSE; k += 4)
      st = access(gp.get_command(), off + k, gp.get_data_ptr() + k, 4, delay, false);
  } else {
    st = tlm::TLM_BURST_ERROR_RESPONSE;
  }
  gp.set_response_status(st);
}

unsigned ApbCtrl::transport_dbg(tlm::tlm_generic_payload& gp) {
  if (!built_) build();
  const uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  if (addr >= 0x100000 || len == 0 || addr + len > 0x100000) return 0;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  // Word by word (debuggers read registers as words anyway).
  unsigned done = 0;
  while (done < len) {
    const uint32_t off = static_cast<uint32_t>(addr + done);
    const unsigned n = std::min<unsigned>(len - done, 4 - (off & 3));
    access(gp.get_command(), off, gp.get_data_ptr() + done, n, t, true);
    done += n;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return len;
}

// ---------------------------------------------------------------- statistics

void ApbCtrl::register_stats(const StatsGroup& g) {
  g.counter("empty_slot_accesses", &empty_, StatUnit::Count, StatInv::Yes,
            "Accesses to empty APB slots (read 0 / write dropped).");
}

}  // namespace l3vp
