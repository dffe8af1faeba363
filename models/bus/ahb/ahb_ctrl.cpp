#include "ahb_ctrl.h"
#include "probe_registry.h"
#include "stats.h"
#include "format.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "endian.h"
#include "log.h"

namespace l3vp {
namespace {

// GRLIB masks are "leading ones": the decoded block is contiguous and
// (4096 - MASK) units long. Other masks would alias a bar all over the map;
// no GRLIB core uses them, so the model rejects them at elaboration.
bool contiguous_mask(uint32_t mask) {
  const uint32_t low = ~mask & 0xFFF;
  return mask != 0 && (low & (low + 1)) == 0;
}

}  // namespace

AhbCtrl::AhbCtrl(sc_core::sc_module_name name, const Params& p)
    : sc_core::sc_module(name), tsock("tsock"), isock("isock"), p_(p), top_(4096, -1) {
  io_base_ = (p.ioaddr & 0xFFF) << 20;
  if (!contiguous_mask(p.cfgmask)) throw std::logic_error(std::string(this->name()) + ": bad cfgmask");
  pnp_base_ = io_base_ | ((p.cfgaddr & p.cfgmask & 0xFFF) << 8);
  pnp_size_ = (4096 - (p.cfgmask & 0xFFF)) * 256;
  top_[p.ioaddr & 0xFFF] = -2;
  tsock.register_b_transport(this, &AhbCtrl::b_transport);
  tsock.register_get_direct_mem_ptr(this, &AhbCtrl::get_direct_mem_ptr);
  tsock.register_transport_dbg(this, &AhbCtrl::transport_dbg);
  isock.register_invalidate_direct_mem_ptr(this, &AhbCtrl::invalidate_direct_mem_ptr);
}

void AhbCtrl::add_master(unsigned hindex, const AhbPnp& pnp, const std::string& name) {
  if (hindex >= kMaxMasters || masters_[hindex].present)
    throw std::logic_error(std::string(this->name()) + ": bad or duplicate master index " +
                           std::to_string(hindex));
  masters_[hindex].present = true;
  masters_[hindex].pnp = pnp;
  MasterStats s;
  s.name = name;
  s.hindex = hindex;
  mstats_.push_back(s);
}

void AhbCtrl::add_slave(unsigned hindex, const AhbPnp& pnp, const std::string& name) {
  if (hindex >= kMaxSlaves || slaves_[hindex].present)
    throw std::logic_error(std::string(this->name()) + ": bad or duplicate slave index " +
                           std::to_string(hindex));
  slaves_[hindex].present = true;
  slaves_[hindex].name = name;
  slaves_[hindex].pnp = pnp;
}

void AhbCtrl::map_bar(unsigned hindex, unsigned bar, unsigned port) {
  const std::string who =
      std::string(name()) + ": slave " + std::to_string(hindex) + " bar " + std::to_string(bar);
  if (hindex >= kMaxSlaves || !slaves_[hindex].present || bar > 3)
    throw std::logic_error(who + ": not registered");
  const uint32_t w = slaves_[hindex].pnp.bar[bar];
  const uint32_t addr = w >> 20, mask = (w >> 4) & 0xFFF, type = w & 0xF;
  if (!contiguous_mask(mask)) throw std::logic_error(who + ": non-contiguous mask");
  Region r;
  r.port = port;
  r.hindex = hindex;
  r.bar = bar;
  r.prefetch = (w >> 17) & 1;
  r.cacheable = (w >> 16) & 1;
  if (type == BAR_AHBMEM) {
    r.start = (addr & mask) << 20;
    r.size = uint64_t(4096 - mask) << 20;
    const int idx = static_cast<int>(regions_.size());
    for (uint32_t t = r.start >> 20; t <= (r.end() >> 20); ++t)
      if (top_[t] != -1) throw std::logic_error(who + ": overlaps another bar or the AHB I/O area");
    for (uint32_t t = r.start >> 20; t <= (r.end() >> 20); ++t) top_[t] = static_cast<int16_t>(idx);
  } else if (type == BAR_AHBIO) {
    r.io = true;
    r.start = io_base_ | ((addr & mask) << 8);
    r.size = uint64_t(4096 - mask) << 8;
    for (const Region& o : regions_)
      if (o.io && r.start <= o.end() && o.start <= r.end())
        throw std::logic_error(who + ": overlaps another I/O bar");
    if (r.start <= uint64_t(pnp_base_) + pnp_size_ - 1 && pnp_base_ <= r.end())
      throw std::logic_error(who + ": overlaps the plug&play area");
  } else {
    throw std::logic_error(who + ": not an AHB memory or I/O bar");
  }
  regions_.push_back(r);
}

const AhbCtrl::Region* AhbCtrl::find_io(uint32_t addr) const {
  for (const Region& r : regions_)
    if (r.io && addr >= r.start && addr <= r.end()) return &r;
  return nullptr;
}

std::optional<AhbCtrl::Region> AhbCtrl::decode(uint32_t addr) const {
  if (in_pnp_area(addr)) return std::nullopt;
  const Region* r = find(addr);
  if (!r) return std::nullopt;
  return *r;
}

uint32_t AhbCtrl::pnp_word(uint32_t addr) const {
  const uint32_t off = (addr - pnp_base_) & ~3u;
  if (off == 0xFF0) return ((p_.devid & 0xFFFF) << 16) | ((p_.cfgver & 3) << 14) | (p_.build & 0x3FFF);
  if (off == 0xFF4) return 0;  // bit 0: system endianness, 0 = big-endian
  const bool slave = off >= 0x800;
  const unsigned i = ((off & 0x7FF) / 32), w = (off % 32) / 4;
  const AhbPnp* rec = nullptr;
  if (!slave && i < kMaxMasters && masters_[i].present) rec = &masters_[i].pnp;
  if (slave && i < kMaxSlaves && slaves_[i].present) rec = &slaves_[i].pnp;
  if (!rec) return 0;
  if (w == 0) return rec->id;
  if (w < 4) return rec->user[w - 1];
  return rec->bar[w - 4];
}

tlm::tlm_response_status AhbCtrl::pnp_access(tlm::tlm_generic_payload& gp, bool debug,
                                             const std::string& who) {
  const uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  if (!in_pnp_area(addr + len - 1)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (gp.is_write()) {
    if (!debug)
      Log::guest_error(name(), who + " write to read-only plug&play area at " + hex(addr) + " dropped");
    return tlm::TLM_OK_RESPONSE;
  }
  if (gp.is_read()) {
    uint8_t* d = gp.get_data_ptr();
    for (unsigned i = 0; i < len; ++i) {
      const uint32_t a = static_cast<uint32_t>(addr + i);
      uint8_t w[4];
      put_be32(w, pnp_word(a));
      d[i] = w[a & 3];
    }
    if (!debug) ++pnp_reads_;
  }
  return tlm::TLM_OK_RESPONSE;
}

void AhbCtrl::set_interval_source(unsigned port, TakeIntervalFn take) {
  interval_src_.erase(std::remove_if(interval_src_.begin(), interval_src_.end(),
                                     [&](const auto& e) { return e.first == port; }),
                      interval_src_.end());
  if (take) interval_src_.emplace_back(port, std::move(take));
}

sc_core::sc_time AhbCtrl::grant_time(const sc_core::sc_time& end) const {
  // The bus is synchronous: a waiting master is granted at the first AHB
  // clock edge at or after the end of the access it waited for.
  const uint64_t c = timing_.clock.value();
  if (c == 0) return end;
  return sc_core::sc_time::from_value((end.value() + c - 1) / c * c);
}

void AhbCtrl::take_intervals() {
  sc_core::sc_time s, e;
  for (auto& [port, take] : interval_src_)
    if (take(s, e)) {
      busy_start_ = s;
      busy_end_ = e;
      busy_port_ = static_cast<int>(port);
    }
}

sc_core::sc_time AhbCtrl::arbitration_wait(int port, const sc_core::sc_time& start) {
  if (!timing_.arbitration) return sc_core::SC_ZERO_TIME;
  take_intervals();
  if (busy_port_ < 0 || busy_port_ == port || start < busy_start_ || start >= busy_end_)
    return sc_core::SC_ZERO_TIME;
  const sc_core::sc_time w = grant_time(busy_end_) - start;
  MasterStats& ms = mstats_.at(port);
  ms.wait += w;
  ++ms.waits;
  return w;
}

sc_core::sc_time AhbCtrl::arbitrate_dmi(unsigned port, const sc_core::sc_time& start,
                                        const sc_core::sc_time&) {
  return arbitration_wait(static_cast<int>(port), start);
}

void AhbCtrl::report_dmi(unsigned port, AhbTransaction::Kind kind, uint32_t addr, unsigned bytes,
                         const sc_core::sc_time& start, const sc_core::sc_time& end,
                         const sc_core::sc_time& wait) {
  if (!on_transaction.has_listeners()) return;
  AhbTransaction t;
  t.start = start;
  t.end = end;
  t.wait = wait;
  t.master = mstats_.at(port).hindex;
  const Region* r = find(addr);
  t.slave = r ? int(r->hindex) : -1;
  t.kind = kind;
  t.addr = addr;
  t.bytes = bytes;
  t.beats = (bytes + 3) / 4;
  t.dmi = true;
  on_transaction.notify(t);
}

void AhbCtrl::publish(const MasterStats& ms, const tlm::tlm_generic_payload& gp, int slave,
                      const sc_core::sc_time& start, const sc_core::sc_time& end,
                      const sc_core::sc_time& wait) {
  const unsigned len = gp.get_data_length();
  AhbTransaction t;
  t.start = start;
  t.end = end;
  t.wait = wait;
  t.master = ms.hindex;
  t.slave = slave;
  t.kind = gp.is_write() ? AhbTransaction::Kind::Write : AhbTransaction::Kind::Read;
  t.addr = static_cast<uint32_t>(gp.get_address());
  t.bytes = len;
  t.beats = len ? (len + 3) / 4 : 0;
  t.ok = gp.is_response_ok();
  on_transaction.notify(t);
}

void AhbCtrl::b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  // Observation (README "Probes") costs an unobserved access this one test:
  // every device access of the CPU comes through here (an APB status poll
  // runs hundreds of thousands of them).
  if (__builtin_expect(on_transaction.has_listeners(), 0))
    route<true>(port, gp, delay);
  else
    route<false>(port, gp, delay);
}

template <bool kObserved>
void AhbCtrl::route(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  MasterStats& ms = mstats_.at(port);
  const uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  if (gp.is_read())
    ++ms.reads;
  else if (gp.is_write())
    ++ms.writes;

  // `stamp` is the kernel's current time and follows it: a slave may call
  // wait() inside b_transport, so an access ends at stamp + delay read after
  // the call, not at now + delay (and this costs no second sc_time_stamp()).
  const sc_core::sc_time& stamp = sc_core::sc_time_stamp();
  const sc_core::sc_time now = stamp;
  if (len == 0 || addr + len - 1 > 0xFFFFFFFFull) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    ++ms.errors;
    if constexpr (kObserved) publish(ms, gp, -1, now + delay, now + delay, sc_core::SC_ZERO_TIME);
    return;
  }
  // Arbitration (README "Timing"): an access starting while the bus is held
  // by another master's access waits until that access ends. Accesses of the
  // same master never wait for each other (the master orders them itself).
  const sc_core::sc_time wait = arbitration_wait(port, now + delay);
  delay += wait;
  const sc_core::sc_time begin = delay;
  const unsigned words = (len + 3) / 4;
  if (words > 1) ++ms.bursts;
  delay += timing_.clock * double(timing_.transfer_cycles);
  auto occupy = [&](int slave) {
    if constexpr (kObserved) publish(ms, gp, slave, now + begin, stamp + delay, wait);
    if (!timing_.arbitration) return;
    busy_start_ = now + begin;
    busy_end_ = stamp + delay;  // = now + delay unless the slave waited
    busy_port_ = port;
  };
  // Routed beats by target (MasterStats::beats; slave kMaxSlaves = none).
  auto count = [&ms, words, wr = gp.is_write() ? 1u : 0u](unsigned slave, unsigned bar) {
    ms.beats[slave][bar][wr] += words;
    ++ms.txns[slave];
  };
  if (in_pnp_area(addr)) {
    count(kMaxSlaves, 0);
    // 2-cycle OKAY response; a burst (a DMA master's) one word per clock
    // after the first, as from any slave.
    delay += timing_.clock * ((timing_.transfer_cycles ? 1.0 : 0.0) +
                              double(uint64_t(words - 1) * timing_.burst_cycles_per_word));
    gp.set_response_status(pnp_access(gp, false, "master " + std::to_string(ms.hindex)));
    if (!gp.is_response_ok()) ++ms.errors;
    occupy(-1);
    return;
  }
  const Region* r = find(static_cast<uint32_t>(addr));
  if (!r || addr + len - 1 > r->end()) {
    // The default slave answers with an AHB ERROR (two cycles); the master
    // decides what that means (the CPU takes an access exception).
    count(kMaxSlaves, 0);
    delay += timing_.clock * (timing_.transfer_cycles ? 1.0 : 0.0);
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    ++ms.errors;
    occupy(-1);
    return;
  }
  count(r->hindex, r->bar);
  delay += timing_.clock * double(uint64_t(words - 1) * timing_.burst_cycles_per_word);
  if (delay_fn_) delay += delay_fn_(ms.hindex, r->hindex, gp);
  gp.set_address(addr - r->start);
  isock[r->port]->b_transport(gp, delay);
  gp.set_address(addr);
  occupy(int(r->hindex));
  if (!gp.is_response_ok()) {
    ++ms.errors;
  } else if (snoop_fn_ && gp.is_write()) {
    snoop_fn_(ms.hindex, addr, len);
  }
}

bool AhbCtrl::get_direct_mem_ptr(int port, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  const uint64_t addr = gp.get_address();
  const Region* r = (addr > 0xFFFFFFFFull || in_pnp_area(addr)) ? nullptr : find(static_cast<uint32_t>(addr));
  if (!r) {
    // No DMI for holes and the P&P area; report a 1-byte denied range.
    dmi.set_start_address(addr);
    dmi.set_end_address(addr);
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
    return false;
  }
  gp.set_address(addr - r->start);
  const bool ok = isock[r->port]->get_direct_mem_ptr(gp, dmi);
  gp.set_address(addr);
  // Translate the slave's local range to global addresses, clipped to the
  // bar (only the end can stick out: the range contains the request address).
  const uint64_t s = dmi.get_start_address();
  const uint64_t e = std::min<uint64_t>(dmi.get_end_address(), r->size - 1);
  dmi.set_start_address(r->start + s);
  dmi.set_end_address(r->start + e);
  if (ok) {
    ++mstats_.at(port).dmi_grants;
    // A DMI access costs what a single-word bus transfer would: the slave's
    // latency plus the AHB transfer cost (bursts: the master adds its beats).
    const sc_core::sc_time t = timing_.clock * double(timing_.transfer_cycles);
    dmi.set_read_latency(dmi.get_read_latency() + t);
    dmi.set_write_latency(dmi.get_write_latency() + t);
  }
  return ok;
}

unsigned AhbCtrl::transport_dbg(int port, tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  const unsigned len = gp.get_data_length();
  if (len == 0 || addr + len - 1 > 0xFFFFFFFFull) return 0;
  if (in_pnp_area(addr)) return pnp_access(gp, true, "") == tlm::TLM_OK_RESPONSE ? len : 0;
  const Region* r = find(static_cast<uint32_t>(addr));
  if (!r) return 0;
  // Clip at the end of the bar.
  if (addr + len - 1 > r->end()) {
    gp.set_data_length(static_cast<unsigned>(r->end() - addr + 1));
    gp.set_streaming_width(gp.get_data_length());
  }
  gp.set_address(addr - r->start);
  const unsigned n = isock[r->port]->transport_dbg(gp);
  gp.set_address(addr);
  return n;
}

void AhbCtrl::invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Region& r : regions_) {
    if (r.port != static_cast<unsigned>(port) || start >= r.size) continue;
    const uint64_t gs = r.start + start;
    const uint64_t ge = r.start + std::min<uint64_t>(end, r.size - 1);
    for (unsigned m = 0; m < tsock.size(); ++m) tsock[m]->invalidate_direct_mem_ptr(gs, ge);
  }
}

// ---------------------------------------------------------------- statistics

void AhbCtrl::register_stats(const StatsGroup& g, const sc_core::sc_time& clock) {
  const auto U = StatUnit::Count;
  const auto Y = StatInv::Yes;
  const auto N = StatInv::No;
  using M = const MasterStats*;
  auto& t = g.table<M>("masters", N, "Per AHB master (`leon3` hindex 0, `greth` hindex 4), by binding order.",
                       [this] {
                         std::vector<M> rows;
                         for (const MasterStats& m : mstats_) rows.push_back(&m);
                         return rows;
                       });
  t.field("hindex", "int", StatUnit::Id, Y, "AHB master index.", [](M m) { return m->hindex; });
  t.field("name", "string", StatUnit::Text, Y, "Master name.", [](M m) { return m->name; });
  // Routed transactions: DMI-served ones do not reach the bus (--no-dmi changes them).
  t.field("reads", "int", U, N, "Routed read transactions (DMI-served ones do not reach the bus).",
          [](M m) { return m->reads; });
  t.field("writes", "int", U, N, "Routed write transactions.", [](M m) { return m->writes; });
  t.field("errors", "int", U, N, "Error responses.", [](M m) { return m->errors; });
  t.field("bursts", "int", U, N, "Transactions longer than one word.", [](M m) { return m->bursts; });
  t.field("dmi_grants", "int", U, N, "DMI grants.", [](M m) { return m->dmi_grants; });
  // DMI-served CPU transactions are arbitrated through the side-band, so
  // contention does not depend on --no-dmi (docs/timing.md "Contention").
  t.field("waits", "int", U, Y, "Transactions that waited for another master (arbitration).",
          [](M m) { return m->waits; });
  const double period_ps = double(clock.value()) / double(sc_core::sc_time(1, sc_core::SC_PS).value());
  t.field("wait_cycles", "int", StatUnit::Cycles, Y, "Cycles waited for another master (arbitration).",
          [period_ps](M m) { return uint64_t(double(m->wait.value()) / period_ps + 0.5); });
  g.counter("pnp_reads", &pnp_reads_, U, N, "Reads served from the AHB P&P area.");
}

void probe_text(ProbeText& o, const AhbTransaction& e) {
  using K = AhbTransaction::Kind;
  o.at(e.start);
  o.time("end", e.end).time("wait", e.wait).num("master", e.master);
  if (e.slave < 0)
    o.word("slave", "none");
  else
    o.num("slave", unsigned(e.slave));
  o.word("kind", e.kind == K::Read ? "read" : e.kind == K::Write ? "write" : "fetch");
  o.hex("addr", e.addr).num("bytes", e.bytes).num("beats", e.beats).flag("ok", e.ok).flag("dmi", e.dmi);
}

void AhbCtrl::register_probes(ProbeRegistry& r, const std::string& prefix) {
  r.add(prefix, "transaction", on_transaction, "end wait master slave kind addr bytes beats ok dmi");
}

}  // namespace l3vp
