// LEON3 integer unit: run loop, traps, memory paths and the public Core API.
// Instruction semantics live in isa/semantics.h, the decoder in isa.cpp.
#include "core.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "cpu_state.h"
#include "isa/semantics.h"  // sem::cond_true (branch prediction outcome)

namespace l3vp::leon3 {

#define L3_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace {
// Miss injection: the threshold of a rate (validated 0..1) and the
// generator's seed. The salts ("ICforce", "DCforce") keep the two caches'
// streams apart from each other and from the random-replacement generator,
// which uses the plain seed.
uint64_t force_threshold(double rate, const char* key) {
  if (!(rate >= 0.0 && rate <= 1.0))
    throw std::invalid_argument(std::string("leon3: ") + key + " must be 0..1");
  return uint64_t(std::llround(rate * 4294967296.0));
}
constexpr uint64_t kIcForceSalt = 0x004943666F726365ull;
constexpr uint64_t kDcForceSalt = 0x004443666F726365ull;
}  // namespace

// ---------------------------------------------------------------------------
// Construction and register file
// ---------------------------------------------------------------------------

Cpu::Cpu(const CoreConfig& config, CoreBus& b)
    : bus(b), cfg(config), ic_model(config.icache, "icache"), dc_model(config.dcache, "dcache") {
  if (cfg.nwin < 2 || cfg.nwin > 32)
    throw std::invalid_argument("leon3: nwin must be 2..32, got " + std::to_string(cfg.nwin));
  if (cfg.timing.load_delay < 1 || cfg.timing.load_delay > 2)
    throw std::invalid_argument("leon3: timing.load_delay must be 1 or 2");
  timed = cfg.timed;
  lddel = cfg.timing.load_delay;
  bpred = cfg.timing.branch_prediction;
  mul_pipe = cfg.timing.mul == MulType::Pipelined32x32;
  trap_cost = timed ? cfg.timing.trap_cycles : timing::kTrapEntryCycles;
  burst_beat = cfg.timing.burst_beat_cycles;
  for (unsigned k = 0; k < timing::kTkCount; ++k) tcost_tab[k] = timing::kTimedCycles[k];
  tcost_tab[timing::kTkMul] = cfg.timing.mul == MulType::Pipelined32x32 ? 1
                              : cfg.timing.mul == MulType::Iter16x16    ? 4
                                                                        : 5;
  tcost_tab[timing::kTkDiv] = uint8_t(std::min(cfg.timing.div_cycles, 255u));
  ic_shift = ic_model.line_shift();
  dc_shift = dc_model.line_shift();
  ic_smask = ic_model.set_mask();
  dc_smask = dc_model.set_mask();
  ic_mru_v.assign(size_t(ic_smask) + 1, kNoLine);
  dc_mru_v.assign(size_t(dc_smask) + 1, kNoLine);
  ic_mru = ic_mru_v.data();
  dc_mru = dc_mru_v.data();
  cacheable = cfg.cacheable;
  const uint64_t ic_thr = force_threshold(cfg.icache.force_miss_rate, "icache.force_miss_rate");
  const uint64_t dc_thr = force_threshold(cfg.dcache.force_miss_rate, "dcache.force_miss_rate");
  if (timed) {  // functional mode has no caches to miss in
    ic_force.thr = ic_thr;
    dc_force.thr = dc_thr;
  }
  ic_force.seed = (uint64_t(cfg.icache.seed) << 32) ^ kIcForceSalt;
  dc_force.seed = (uint64_t(cfg.dcache.seed) << 32) ^ kDcForceSalt;
  nwin = cfg.nwin;
  wim_mask = nwin == 32 ? 0xFFFFFFFFu : (1u << nwin) - 1;
  win.assign(16 * nwin, 0);
  rtab.resize(32 * nwin);
  wtab.resize(32 * nwin);
  // Windowed register k (8..31) of window w lives at (16w + k - 8) mod 16N, so
  // the ins of window w are the outs of window w+1 (hw-reference §8.3).
  for (unsigned w = 0; w < nwin; ++w) {
    rtab[w * 32] = &zero;
    wtab[w * 32] = &sink;
    for (unsigned k = 1; k < 8; ++k) rtab[w * 32 + k] = wtab[w * 32 + k] = &g[k];
    for (unsigned k = 8; k < 32; ++k)
      rtab[w * 32 + k] = wtab[w * 32 + k] = &win[(16 * w + k - 8) % (16 * nwin)];
  }
  set_cwp(0);
  decode_into(0, decoded_zero);  // every cache entry starts as a valid decode of word 0
  dcache.assign(kDecodeEntries, decoded_zero);
}

void Cpu::decode_into(uint32_t word_mem, Decoded& d) {
  decode(__builtin_bswap32(word_mem), d);
  d.tcost = tcost_tab[d.tk];
  d.op = fast_op(d);
}

uint32_t Cpu::asr17() const {
  return (uint32_t(cfg.cpu_index & 15) << 28) | (uint32_t(dwt) << 14) | (uint32_t(svt) << 13) |
         (cfg.tagged_ops ? 1u << 26 : 0) |  // CASA/tagged present (notag = 0)
         (1u << 25) |                       // branch prediction implemented (BP = 1)
         (1u << 8) |                        // V8 mul/div
         ((cfg.nwatchpoints & 7) << 5) | (nwin - 1);
}

void Cpu::write_psr(uint32_t v) {
  icc = (v >> 20) & 15;
  pil = (v >> 8) & 15;
  s = (v >> 7) & 1;
  ps = (v >> 6) & 1;
  et = (v >> 5) & 1;
  set_cwp((v & 31) % nwin);
  update_irq();
}

// ---------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------

const DmiRegion* Cpu::find_dmi(uint32_t a, unsigned n, bool for_write) const {
  if (!dmi_on) return nullptr;
  for (const DmiRegion& r : dmi)
    if ((for_write ? r.writable : r.readable) && a >= r.start && uint64_t(a) + n - 1 <= r.end) return &r;
  return nullptr;
}

static void load_window(DmiWin& w, const DmiRegion& r) {
  w.base = r.start;
  w.last = r.end - r.start;
  w.ptr = r.ptr;
  w.rlat = r.rlat;
  w.wlat = r.wlat;
}

uint8_t* Cpu::dmi_ptr(DmiWin& w, uint32_t a, unsigned n, bool for_write) {
  if (uint8_t* p = w.hit_n(a, n)) return p;
  const DmiRegion* r = find_dmi(a, n, for_write);
  if (!r) return nullptr;
  load_window(w, *r);
  if (L3_UNLIKELY(!watch_pages.empty()) && &w != &fetch_w) {
    if (&w == &read_w) load_holed(read_hw, *r);
    if (&w == &write_w) load_holed(write_hw, *r);
    if (!clip_window(w, a, n)) {
      w = DmiWin();
      return nullptr;
    }
  }
  return w.hit_n(a, n);
}

void Cpu::load_holed(HoledWin& h, const DmiRegion& r) const {
  h.base = r.start;
  h.last = r.end - r.start;
  h.ptr = r.ptr;
  uint64_t lo = uint64_t(r.end) + 1, hi = 0;  // the watched pages in the region: [lo, hi)
  for (const auto& [first, last] : watch_pages) {
    if (last < r.start || first > r.end) continue;
    lo = std::min<uint64_t>(lo, first);
    hi = std::max<uint64_t>(hi, uint64_t(last) + 1);
  }
  h.hole_lo = lo;
  h.hole_n = hi > lo ? hi - lo : 0;
}

bool Cpu::clip_window(DmiWin& w, uint32_t a, unsigned n) const {
  uint64_t lo = w.base, hi = w.base + w.last;  // inclusive
  const uint64_t a1 = uint64_t(a) + n - 1;
  for (const auto& [first, last] : watch_pages) {
    if (first <= a1 && a <= last) return false;
    if (last < a) lo = std::max<uint64_t>(lo, uint64_t(last) + 1);
    if (first > a1) hi = std::min<uint64_t>(hi, uint64_t(first) - 1);
  }
  w.ptr += lo - w.base;
  w.base = lo;
  w.last = hi - lo;
  return true;
}

void Cpu::watch_check_slow(uint32_t a, unsigned n, bool write) {
  const uint64_t a1 = uint64_t(a) + n - 1;
  for (size_t i = 0; i < watches.size(); ++i) {
    const WatchRange& wr = watches[i];
    if ((write ? wr.on_write : wr.on_read) && wr.lo <= a1 && a <= wr.hi) {
      if (!watch_stop) {  // the first hit of the instruction is reported
        watch_stop = true;
        watch_hit = int(i);
        watch_traps = ctr.traps;
        refresh_limit();
      }
      return;
    }
  }
}

bool Cpu::fetch_slow(uint32_t a, uint32_t& w) {
  if (uint8_t* p = dmi_ptr(fetch_w, a, 4, false)) {
    std::memcpy(&w, p, 4);
    return true;
  }
  uint8_t b[4];
  if (!bus.access(CoreBus::Kind::Fetch, a, b, 4, s ? 0x9 : 0x8, cycles)) return false;
  std::memcpy(&w, b, 4);
  return true;
}

bool Cpu::read_slow(uint32_t a, uint8_t asi, uint8_t* out, unsigned n) {
  watch_check(a, n, false);
  if (timed) return read_timed(a, asi, out, n, true, false);
  if (uint8_t* p = dmi_ptr(read_w, a, n, false)) {
    std::memcpy(out, p, n);
    return true;
  }
  if (!bus.access(CoreBus::Kind::Read, a, out, n, asi, cycles)) {
    trap(kTtDataAccess);
    return false;
  }
  return true;
}

bool Cpu::write_slow(uint32_t a, uint8_t asi, const uint8_t* in, unsigned n) {
  watch_check(a, n, true);
  if (timed) return write_timed(a, asi, in, n, false);
  if (uint8_t* p = dmi_ptr(write_w, a, n, true)) {
    std::memcpy(p, in, n);
    code_store(a, n);
    return true;
  }
  uint8_t buf[8];
  std::memcpy(buf, in, n);
  if (!bus.access(CoreBus::Kind::Write, a, buf, n, asi, cycles)) {
    trap(kTtDataAccess);
    return false;
  }
  return true;
}

// ASI 2 system registers (hw-reference §7.4). Offsets other than 0x0, 0x8 and
// 0xC read 0 and ignore writes. The configuration registers are computed from
// the cache geometry (template: 0x11230008 / 0x08220008).
constexpr uint32_t kCcrWritable = 0x0081003F;  // ICS DCS IF DF IB DS (FI/FD/IP/DP read 0)
constexpr uint32_t kCcrFI = 1u << 21, kCcrFD = 1u << 22, kCcrDS = 1u << 23;
constexpr uint32_t kCcrIF = 1u << 4, kCcrDF = 1u << 5;

uint32_t Cpu::sysreg_read(uint32_t a) const {
  switch (a) {
    case 0x00:
      return ccr;
    case 0x08:
      return ic_model.config_word(cfg.mmu_present);
    case 0x0C:
      return dc_model.config_word(cfg.mmu_present);
    default:
      return 0;
  }
}

void Cpu::sysreg_write(uint32_t a, uint32_t v) {
  if (a != 0x00) return;
  ccr = v & kCcrWritable;  // FI/FD read 0: a flush completes at once
  if (!timed) return;      // functional mode: no caches
  if (v & kCcrFI) flush_icache();
  if (v & kCcrFD) flush_dcache();
  forget_ic();  // state may have changed: no fast-path hits
  forget_dc();
}

void Cpu::flush_icache() {
  if (!timed) return;
  ic_model.invalidate_all();
  forget_ic();
  ++tctr.ic_flushes;
}
void Cpu::flush_dcache() {
  if (!timed) return;
  dc_model.invalidate_all();
  forget_dc();
  ++tctr.dc_flushes;
}

// ---------------------------------------------------------------------------
// Timed-mode memory paths (README "Timed mode")
// ---------------------------------------------------------------------------

// Every real AHB transaction of the CPU goes through ahb_read() or
// write_timed(); cache hits only read data (peek_mem). With DMI the
// transaction is timed from the region's latencies and arbitrated through
// the side-band (arb_dmi); without DMI it is a bus access, arbitrated by the
// AHB controller. Both give the same cycles (docs/timing.md "Contention").

void Cpu::peek_mem(DmiWin& w, uint32_t a, uint8_t* out, unsigned n, CoreBus::Kind k, uint8_t asi) {
  if (uint8_t* p = dmi_ptr(w, a, n, false)) {
    std::memcpy(out, p, n);
    return;
  }
  if (bus.peek(a, out, n)) return;
  // The line was filled from this address, so the access succeeds; its
  // latency is not charged (a hit costs no bus cycle).
  uint64_t t = cycles;
  bus.access(k, a, out, n, asi, t);
}

bool Cpu::ahb_read(CoreBus::Kind k, DmiWin& w, uint32_t a, uint8_t asi, uint8_t* out, unsigned n, bool dmi,
                   unsigned line, uint64_t& lat) {
  ++tctr.ahb_reads;
  uint8_t buf[32];
  const uint32_t ta = line ? a & ~(line - 1) : a;  // the transaction: the line or the data
  const unsigned tn = line ? line : n;
  uint8_t* dst = line ? buf : out;
  bool ok = true;
  if (uint8_t* p = dmi ? dmi_ptr(w, ta, tn, false) : nullptr) {
    std::memcpy(dst, p, tn);
    lat = dmi_read_cost(w.rlat, tn);
    lat += arb_dmi(lat, k, ta, tn);
  } else {
    uint64_t t = cycles;
    ok = bus.access(k, ta, dst, tn, asi, t);
    lat = t - cycles;
  }
  if (ok && line) std::memcpy(out, buf + (a - ta), n);
  return ok;
}

// An uncached fetch (I-cache disabled, or an uncacheable address): one
// 32-bit AHB read. From the fetch window it is ahb_read's DMI path for one
// word, inline (README "Speed structure": the caches-off path).
bool Cpu::fetch_uncached(uint32_t a, uint32_t& w) {
  ++tctr.ic_uncached;
  wait_write_buffer();
  uint64_t lat;
  if (uint8_t* p = fetch_w.hit<4>(a)) {
    ++tctr.ahb_reads;
    std::memcpy(&w, p, 4);
    lat = dmi_read_cost(fetch_w.rlat, 4);
    lat += arb_dmi(lat, CoreBus::Kind::Fetch, a, 4);
  } else if (!ahb_read(CoreBus::Kind::Fetch, fetch_w, a, s ? 0x9 : 0x8, reinterpret_cast<uint8_t*>(&w), 4,
                       true, 0, lat)) {
    add_hold(lat, tctr.stall_bus);
    return false;
  }
  add_hold(cfg.timing.icache_miss_cycles + lat, tctr.stall_bus);
  return true;
}

// A fetch from a cacheable address with the I-cache enabled or frozen.
bool Cpu::fetch_cached(uint32_t a, uint32_t& w) {
  const uint8_t asi = s ? 0x9 : 0x8;
  const uint32_t line = a >> ic_shift;
  bool forced = false;  // a hit turned into a miss (README "Forced misses")
  if (ic_model.lookup(a)) {
    if (!ic_force.thr || !ic_force.draw()) {
      peek_mem(fetch_w, a, reinterpret_cast<uint8_t*>(&w), 4, CoreBus::Kind::Fetch, asi);
      ++tctr.ic_hits;
      set_ic_mru(line);
      return true;
    }
    forced = true;
    ++tctr.ic_forced;
  }
  ++tctr.ic_misses;
  // Enabled: fill the whole line (one burst); frozen: the word comes
  // from memory and nothing is allocated.
  const unsigned fill = ics() == 3 ? ic_model.line_bytes() : 0;
  wait_write_buffer();
  uint64_t lat;
  if (!ahb_read(CoreBus::Kind::Fetch, fetch_w, a, asi, reinterpret_cast<uint8_t*>(&w), 4, true, fill, lat)) {
    add_hold(lat, tctr.stall_bus);
    return false;
  }
  add_hold(cfg.timing.icache_miss_cycles + lat, tctr.stall_icache_miss);
  if (fill) {
    // A forced miss re-fills its line: dropped first, so the fill takes an
    // invalid way (its own, unless a lower way is invalid) like a real miss.
    if (forced) ic_model.invalidate_range(a, 1);
    ic_model.fill(a);
    ++tctr.ic_fills;
    set_ic_mru(line);
  }
  return true;
}

bool Cpu::read_timed(uint32_t a, uint8_t asi, uint8_t* out, unsigned n, bool cached, bool bus_only) {
  // Fast path: the MRU line of its set (dc_mru), DMI data.
  if (cached && dc_fast(a >> dc_shift))
    if (uint8_t* p = tread_w.hit_n(a, n)) {
      std::memcpy(out, p, n);
      ++tctr.dc_read_hits;
      return true;
    }
  unsigned fill = 0;  // line size when the access fills a D-cache line
  uint64_t* bucket = &tctr.stall_bus;
  const uint32_t line = a >> dc_shift;
  bool forced = false;  // a hit turned into a miss (README "Forced misses")
  if (cached && (dcs() & 1) && is_cacheable(a)) {
    if (dc_model.lookup(a)) {
      if (!dc_force.thr || !dc_force.draw()) {
        peek_mem(tread_w, a, out, n, CoreBus::Kind::Read, asi);
        ++tctr.dc_read_hits;
        set_dc_mru(line);
        return true;
      }
      forced = true;
      ++tctr.dc_forced;
    }
    ++tctr.dc_read_misses;
    bucket = &tctr.stall_dcache_miss;
    // Enabled: line fill with one burst; frozen: no allocation.
    if (dcs() == 3) fill = dc_model.line_bytes();
  } else {
    ++tctr.dc_uncached_reads;
  }
  wait_write_buffer();
  uint64_t lat;
  if (!ahb_read(CoreBus::Kind::Read, tread_w, a, asi, out, n, !bus_only, fill, lat)) {
    add_hold(lat, tctr.stall_bus);
    trap(kTtDataAccess);
    return false;
  }
  add_hold(cfg.timing.dcache_miss_cycles + lat, *bucket);
  if (fill) {
    if (forced) dc_model.invalidate_range(a, 1);  // re-fill, as in fetch_t_slow
    dc_model.fill(a);
    ++tctr.dc_fills;
    set_dc_mru(line);
  }
  return true;
}

bool Cpu::write_timed(uint32_t a, uint8_t asi, const uint8_t* in, unsigned n, bool bus_only) {
  // A store waits only for the previous store to leave the write buffer;
  // then it sits in the buffer while the pipeline goes on.
  wait_write_buffer();
  uint64_t drain;
  ++tctr.ahb_writes;
  if (uint8_t* p = bus_only ? nullptr : dmi_ptr(twrite_w, a, n, true)) {
    std::memcpy(p, in, n);
    code_store(a, n);
    drain = twrite_w.wlat + (n > 4 ? cfg.timing.burst_beat_cycles : 0);
    drain += arb_dmi(drain, CoreBus::Kind::Write, a, n);
  } else {
    uint8_t buf[8];
    std::memcpy(buf, in, n);
    uint64_t t = cycles;
    bool ok = bus.access(CoreBus::Kind::Write, a, buf, n, asi, t);
    drain = t - cycles;
    if (!ok) {  // reported at once (no deferred data_store_error)
      add_hold(drain, tctr.stall_bus);
      trap(kTtDataAccess);
      return false;
    }
  }
  wb_free = cycles + drain;
  if (bus_only)
    ++tctr.dc_uncached_writes;
  else
    count_dc_write(a);
  return true;
}

bool Cpu::alt_read(uint32_t a, uint8_t asi, uint8_t* out, unsigned n) {
  switch (asi) {
    case 0x01:  // forced cache miss: always a bus access, tagged with ASI 1
      watch_check(a, n, false);
      if (timed) return read_timed(a, 0x01, out, n, false, true);
      if (!bus.access(CoreBus::Kind::Read, a, out, n, 0x01, cycles)) {
        trap(kTtDataAccess);
        return false;
      }
      return true;
    case 0x02:
      for (unsigned j = 0; j < n; ++j) {
        uint32_t b = a + j;
        out[j] = uint8_t(sysreg_read(b & ~3u) >> (8 * (3 - (b & 3))));
      }
      return true;
    case 0x08:
    case 0x09:
    case 0x0A:
    case 0x0B:  // user/supervisor instruction/data: a normal load (timed or not)
      return read_slow(a, asi, out, n);
    case 0x0C:  // cache tag/data diagnostics: caches not modelled, read 0
    case 0x0D:
    case 0x0E:
    case 0x0F:
    case 0x10:  // flush ASIs: loads read 0
    case 0x11:
      std::memset(out, 0, n);
      return true;
    default:  // MMU and unassigned ASIs: no MMU in this model
      trap(kTtDataAccess);
      return false;
  }
}

bool Cpu::alt_write(uint32_t a, uint8_t asi, const uint8_t* in, unsigned n) {
  switch (asi) {
    case 0x01: {
      watch_check(a, n, true);
      if (timed) return write_timed(a, 0x01, in, n, true);
      uint8_t buf[8];
      std::memcpy(buf, in, n);
      if (!bus.access(CoreBus::Kind::Write, a, buf, n, 0x01, cycles)) {
        trap(kTtDataAccess);
        return false;
      }
      return true;
    }
    case 0x02:
      if (n >= 4)  // word/doubleword writes; sub-word writes are ignored
        for (unsigned j = 0; j < n; j += 4) sysreg_write(a + j, be32(in + j));
      return true;
    case 0x08:
    case 0x09:
    case 0x0A:
    case 0x0B:
      return write_slow(a, asi, in, n);
    case 0x10:  // flush the I-cache (timed mode; nothing cached otherwise)
      flush_icache();
      return true;
    case 0x11:  // flush the D-cache
      flush_dcache();
      return true;
    case 0x0C:
    case 0x0D:
    case 0x0E:
    case 0x0F:
      return true;  // diagnostic writes ignored
    default:
      trap(kTtDataAccess);
      return false;
  }
}

// ---------------------------------------------------------------------------
// Traps, interrupts, run loop
// ---------------------------------------------------------------------------

void Cpu::enter_trap(unsigned t) {
  if (!et) {  // error mode: the processor halts; state is left as it was
    error = true;
    err_tt = t;
    err_pc = pc;
    err_npc = npc;
    tt = t & 0xFF;
    refresh_limit();
    if (probes.trap.has_listeners()) probes.trap.notify(TrapEvent{cycles, uint8_t(tt), pc, true});
    return;
  }
  const uint32_t trapped_pc = pc;
  et = false;
  ps = s;
  s = true;
  set_cwp(cwp == 0 ? nwin - 1 : cwp - 1);  // no overflow check
  W(17, pc);
  W(18, npc);
  tt = t & 0xFF;
  pc = svt ? tba : (tba | (tt << 4));
  npc = pc + 4;
  ++ctr.traps;
  update_irq();
  if (probes.trap.has_listeners()) probes.trap.notify(TrapEvent{cycles, uint8_t(tt), trapped_pc, false});
}

void Cpu::take_interrupt() {
  unsigned level = irl;
  cycles += trap_cost;
  if (timed) {
    tctr.trap_cycles += trap_cost;
    // CCR.IF/DF: freeze an enabled cache when an interrupt is taken.
    if ((ccr & kCcrIF) && ics() == 3) ccr &= ~2u;
    if ((ccr & kCcrDF) && dcs() == 3) ccr &= ~8u;
  }
  enter_trap(0x10 + level);
  ++ctr.interrupts;
  bus.intack(level);
}

uint64_t Cpu::arb_dmi_report(uint64_t dur, CoreBus::Kind k, uint32_t a, unsigned n) {
  const uint64_t w = (arb_mode & kArbArbitrate) ? arb_own(dur) : 0;
  if (arb_mode & kArbCount)
    tctr.dmi_beats[k == CoreBus::Kind::Write][uint64_t(uint32_t(a - count_base)) < count_size] += (n + 3) / 4;
  if (arb_mode & kArbReport) bus.dmi_transaction(CoreBus::Transaction{k, a, n, cycles + w, w, dur});
  return w;
}

void Cpu::obs_close(bool last) {
  obs_open = false;
  StepRecord& r = obs;
  r.cycles = cycles - r.start_cycle;
  r.last = last;
  r.next_pc = pc;
  // r.retired: set by the loop where it counts the instruction (summing
  // ctr.by_class here right after that increment stalls on store forwarding).
  r.annulled = ctr.annulled != obs_annul;
  // enter_trap() sets tt both for a taken trap and for error mode.
  r.trapped = ctr.traps != obs_traps || (error && !obs_err);
  // A taken Ticc retires (semantics.h counts it) and traps.
  if (r.trapped) r.retired = uint8_t(ctr.by_class[unsigned(InsnClass::Trap)] - obs_ticc);
  r.interrupt = ctr.interrupts != obs_ints;
  if (r.trapped) r.tt = uint8_t(tt);
  r.ic_hits = uint16_t(tctr.ic_hits - obs_ich);
  r.ic_misses = uint16_t(tctr.ic_misses - obs_icm);
  r.dc_hits = uint16_t(tctr.dc_read_hits - obs_dch);
  r.dc_misses = uint16_t(tctr.dc_read_misses - obs_dcm);
  probes.step.notify(r);
}

void Cpu::span_switch() {
  if (span_open) span_close(false);
  spans->window(pc, span_lo, span_last);
  if (span_lo > pc || pc > span_last) span_lo = span_last = pc;  // a window without pc: pc alone
  span_open = true;
  span0.pc = pc;
  span0.cycles = cycles;
  span0.instructions = retired();
  span0.ic_misses = tctr.ic_misses;
  span0.dc_misses = tctr.dc_read_misses;
}

void Cpu::span_close(bool last) {
  span_open = false;
  SpanRecord r;
  r.pc = span0.pc;
  r.next_pc = pc;
  r.cycles = cycles - span0.cycles;
  r.instructions = retired() - span0.instructions;
  r.ic_misses = tctr.ic_misses - span0.ic_misses;
  r.dc_misses = tctr.dc_read_misses - span0.dc_misses;
  r.last = last;
  if (r.cycles || r.instructions) spans->span(r);
}

void write_trace_line(const Core& c, std::FILE* f) {
  std::fprintf(f, "%08x %08x %08x %08x %08x", c.pc(), c.npc(), c.psr(), c.wim(), c.y());
  for (unsigned r = 1; r < 32; ++r) std::fprintf(f, " %08x", c.reg(r));
  std::fputc('\n', f);
}

template <bool kTimed, bool kObserved, bool kBreaks, bool kSingle>
void Cpu::loop() {
  // pc/npc are mirrored in locals: the members are still written every
  // instruction (handlers, traps and probe listeners read them), but
  // the loop never reads them back, which keeps a store-to-load round trip
  // off the critical path. Only trap entry changes the members behind the
  // loop's back; the locals are reloaded after it.
  uint32_t lpc = pc, lnpc = npc;
  // Step pc/npc after an instruction without a trap: control-transfer
  // handlers set next_pc/next_npc, every other instruction falls through.
  auto advance = [&](const Decoded& d) {
    if (d.cti) {
      lpc = next_pc;
      lnpc = next_npc;
    } else {
      lpc = lnpc;
      lnpc += 4;
    }
    pc = lpc;
    npc = lnpc;
  };
  for (bool more = true; more && cycles < eff_limit; more = !kSingle) {
    // Observed: one step record per iteration, from here to the next
    // iteration (or the loop's end); nothing else adds cycles in between.
    if constexpr (kObserved) {
      if (spans) {  // the step before ends first: its listeners run before the span's
        if (obs_open) obs_close();
        span_at_pc();
      }
      obs_begin();
    }
    // Interrupts: irl > irq_thresh encodes ET=1 && (irl == 15 || irl > PIL).
    if (L3_UNLIKELY(irl > irq_thresh) && retired() != irq_inhibit_seq) {
      take_interrupt();
      if constexpr (kBreaks || kObserved) bp_skip = false;  // the resumed instruction is not next
      lpc = pc;
      lnpc = npc;
      continue;
    }
    if constexpr (kBreaks || kObserved) {
      if (L3_UNLIKELY((kBreaks || !bp_pcs.empty()) && bp_filter_hit(lpc)) && at_break(lpc)) {
        if constexpr (kObserved) obs_open = false;  // nothing of this instruction happened
        broke = true;
        return;
      }
      bp_skip = false;
    }
    if constexpr (kObserved) {
      if (probes.execute.has_listeners()) probes.execute.notify(ExecuteEvent{pc, npc, cycles});
      if (L3_UNLIKELY(brk)) {
        // A debugger stops here: nothing of this instruction happened, so
        // the half-open step record is dropped, not published.
        brk = false;
        obs_open = false;
        broke = true;
        return;
      }
    }
    uint32_t word;  // memory byte order
    bool fetched;
    if constexpr (kTimed)
      fetched = fetch_t(lpc, word);
    else
      fetched = fetch(lpc, word);
    if (L3_UNLIKELY(!fetched)) {
      cycles += trap_cost;
      if constexpr (kTimed) tctr.trap_cycles += trap_cost;
      enter_trap(kTtInstrAccess);
      lpc = pc;
      lnpc = npc;
      continue;
    }
    Decoded& d = dcache[(lpc >> 2) & (kDecodeEntries - 1)];
    if (L3_UNLIKELY(d.tag != word)) {  // miss, or the code was modified
      ++decode_misses;
      decode_into(word, d);
    }
    if constexpr (kObserved) {
      obs.word = __builtin_bswap32(word);
      obs.cls = static_cast<InsnClass>(d.cls);
    }
    next_pc = lnpc;
    next_npc = lnpc + 4;
    if constexpr (kTimed) {
      // Issue slot of this instruction, then interlocks (hw-reference §7.3).
      uint64_t t = cycles - hold;
      issue(d, t);
      unsigned cwp0 = cwp;
      d.fn(*this, d);
      if (L3_UNLIKELY(pending_tt != 0)) {
        unsigned tt_ = pending_tt;
        pending_tt = 0;
        trap_timed(tt_);
        lpc = pc;
        lnpc = npc;
        continue;
      }
      advance(d);
      retire_timed(d, t);
      if constexpr (kObserved) obs.retired = 1;
      if (L3_UNLIKELY((d.tflags & timing::kTfCwp) && cwp != cwp0)) remap_ready(cwp0);
      continue;
    }
    d.fn(*this, d);
    if (L3_UNLIKELY(pending_tt != 0)) {
      unsigned t = pending_tt;
      pending_tt = 0;
      cycles += d.cost + timing::kTrapEntryCycles;
      enter_trap(t);
      lpc = pc;
      lnpc = npc;
      continue;
    }
    advance(d);
    cycles += d.cost;  // timing hook: per-instruction cost (+ bus latency already added)
    ++ctr.by_class[d.cls];
    if constexpr (kObserved) obs.retired = 1;
  }
  if constexpr (kObserved)
    if (obs_open) obs_close(true);
}

template void Cpu::loop<false, false>();
template void Cpu::loop<true, false>();
template void Cpu::loop<false, true>();
template void Cpu::loop<true, true>();
template void Cpu::loop<false, false, true>();
template void Cpu::loop<true, false, true>();
template void Cpu::loop<false, false, false, true>();
template void Cpu::loop<false, false, true, true>();
template void Cpu::loop<true, false, false, true>();
template void Cpu::loop<true, false, true, true>();

// Stall cycles before the instruction `d` can issue at slot t (hw-reference
// §7.3), accounted by cause. Rules, in slots (1 slot = 1 cycle without holds):
//  * registers: rs1/rs2 must be ready at t, store data (rd; STD: rd+1 one
//    slot later still) at t+1. A load issued at slot u makes rd ready at
//    u + 1 + LDDEL (LDD: rd+1 one slot later); the pipelined multiplier
//    makes rd ready at u + 2.
//  * Y: UDIV/SDIV wait until a WRY/MUL/MULScc has left EX: ready at u + cost + 2.
//  * icc: ready at u + cost + 2 after a writer (u + cost + 3 for MULcc with the
//    pipelined multiplier). A conditional Ticc or RDPSR waits. A conditional
//    Bicc waits as well, except with branch prediction when the branch is
//    taken and the writer is not MULcc/DIVcc: predicted taken, no penalty; a
//    not-taken branch pays the same cycles as the wait (annulled fetches).
uint64_t Cpu::interlock(const Decoded& d, uint64_t t) {
  using namespace timing;
  uint64_t need = t;
  unsigned why = 0;  // register that set `need`
  auto reg = [&](unsigned r, unsigned late) {
    if (r && rdy[r] > need + late) {
      need = rdy[r] - late;
      why = r;
    }
  };
  reg(d.hs1, 0);
  reg(d.hs2, 0);
  reg(d.hsl, 1);
  if ((d.tflags & kTfLdd) && !(d.tflags & kTfLoad) && d.hsl) reg(d.hsl | 1, 2);  // STD
  if (need > t) {
    if ((mul_regs >> why) & 1)
      tctr.stall_muldiv += need - t;
    else
      tctr.stall_load_use += need - t;
  }
  if ((d.tflags & kTfRY) && y_rdy > need) {
    tctr.stall_muldiv += y_rdy - need;
    need = y_rdy;
  }
  if ((d.tflags & (kTfBicc | kTfIccHold)) && icc_rdy > need) {
    uint64_t s = icc_rdy - need;
    if ((d.tflags & kTfBicc) && bpred && !icc_nobp && sem::cond_true(d.rd & 15, icc)) s = 0;
    tctr.stall_branch += s;
    need += s;
  }
  return need - t;
}

// CWP changed (SAVE/RESTORE/RETT/WRPSR): the scoreboard is window-relative.
// SAVE: the new ins are the old outs; RESTORE/RETT: the new outs are the old
// ins; anything else forgets the windowed registers.
void Cpu::remap_ready(unsigned old_cwp) {
  uint64_t keep[8];
  uint32_t mbits;
  if (nwin > 2 && cwp == (old_cwp + nwin - 1) % nwin) {
    std::copy(rdy + 8, rdy + 16, keep);
    mbits = (mul_regs >> 8) & 0xFF;
    std::fill(rdy + 8, rdy + 32, 0);
    std::copy(keep, keep + 8, rdy + 24);
    mul_regs = (mul_regs & 0xFF) | (mbits << 24);
  } else if (nwin > 2 && cwp == (old_cwp + 1) % nwin) {
    std::copy(rdy + 24, rdy + 32, keep);
    mbits = (mul_regs >> 24) & 0xFF;
    std::fill(rdy + 8, rdy + 32, 0);
    std::copy(keep, keep + 8, rdy + 8);
    mul_regs = (mul_regs & 0xFF) | (mbits << 8);
  } else {
    std::fill(rdy + 8, rdy + 32, 0);
    mul_regs &= 0xFF;
  }
}

void Cpu::reset_timing() {
  std::fill(std::begin(rdy), std::end(rdy), 0);
  rdy_hi = 0;
  mul_regs = 0;
  icc_rdy = y_rdy = 0;
  icc_nobp = false;
  wb_free = 0;
  ic_model.reset();
  dc_model.reset();
  ic_force.reset();
  dc_force.reset();
  forget_ic();
  forget_dc();
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

struct Core::Impl : Cpu {
  using Cpu::Cpu;
};

const char* insn_class_name(InsnClass c) {
  switch (c) {
    case InsnClass::Alu:
      return "alu";
    case InsnClass::Load:
      return "load";
    case InsnClass::Store:
      return "store";
    case InsnClass::Branch:
      return "branch";
    case InsnClass::CallJmpl:
      return "call_jmpl";
    case InsnClass::Mul:
      return "mul";
    case InsnClass::Div:
      return "div";
    case InsnClass::SaveRestore:
      return "save_restore";
    case InsnClass::Trap:
      return "trap";
    case InsnClass::Other:
      return "other";
    default:
      return "?";
  }
}

Core::Core(const CoreConfig& cfg, CoreBus& bus) : impl_(std::make_unique<Impl>(cfg, bus)) { reset(); }
Core::~Core() = default;

void Core::reset() {
  Cpu& c = *impl_;
  c.pc = c.cfg.reset_pc;
  c.npc = c.pc + 4;
  c.s = c.ps = true;
  c.et = false;
  c.tba = c.cfg.reset_pc & 0xFFFFF000u;
  c.tt = 0;
  c.svt = c.dwt = false;
  c.ccr = 0;
  if (c.timed) c.reset_timing();  // caches invalidated (hardware: undefined until flushed)
  // Undefined after a hardware reset; zeroed here for reproducibility.
  c.icc = 0;
  c.pil = 0;
  c.wim = 0;
  c.y = 0;
  std::fill(c.win.begin(), c.win.end(), 0);
  std::fill(std::begin(c.g), std::end(c.g), 0);
  c.set_cwp(0);
  c.error = c.pd = c.yield = false;
  c.err_tt = 0;
  c.err_pc = c.err_npc = 0;
  c.pending_tt = 0;
  c.irq_inhibit_seq = ~uint64_t(0);
  c.update_irq();
  c.refresh_limit();
}

StopReason Core::run(uint64_t cycle_limit) {
  Cpu& c = *impl_;
  if (c.error) return StopReason::ErrorMode;
  if (c.pd) {
    if (!c.wake_ok()) return StopReason::PowerDown;
    c.pd = false;  // woken; with ET=1 the loop takes the interrupt first
    if (c.probes.power.has_listeners())
      c.probes.power.notify(PowerEvent{false, c.cycles, c.ctr.idle_cycles - c.pd_idle0});
  }
  c.yield = false;
  c.broke = false;
  c.limit = cycle_limit;
  c.refresh_limit();
  // Observed when anybody listens to a per-instruction probe (fixed for
  // this run(); README "Probes").
  if (L3_UNLIKELY(c.probes.step.has_listeners() || c.probes.execute.has_listeners())) {
    if (c.timed)
      c.loop<true, true>();
    else
      c.loop<false, true>();
  } else if (L3_UNLIKELY(!c.dmi_on && !c.spans)) {  // no host pointers to code: the generic loops
    if (c.bp_pcs.empty())
      c.timed ? c.loop<true, false>() : c.loop<false, false>();
    else
      c.timed ? c.loop<true, false, true>() : c.loop<false, false, true>();
  } else if (c.timed) {
    c.loop_pages<true>();  // breakpoints too (CodePage::has_bp)
  } else {
    c.loop_pages<false>();
  }
  if (c.broke) return StopReason::Break;  // an open span goes on in the next run()
  if (c.span_open) c.span_close(true);
  if (c.watch_stop) {  // after the instruction that hit a watchpoint
    c.watch_stop = false;
    c.refresh_limit();
    if (!c.error && c.ctr.traps == c.watch_traps) return StopReason::Break;
    c.watch_hit = -1;  // it trapped: no access happened
  }
  if (c.error) return StopReason::ErrorMode;
  if (c.pd) {  // entered in this run(): the loop stops at once after %asr19
    c.pd_idle0 = c.ctr.idle_cycles;
    if (c.probes.power.has_listeners()) c.probes.power.notify(PowerEvent{true, c.cycles, 0});
    return StopReason::PowerDown;
  }
  if (c.yield) return StopReason::Yield;
  return StopReason::CycleLimit;
}

void Core::set_cycle_limit(uint64_t limit) {
  impl_->limit = limit;
  impl_->refresh_limit();
}
void Core::request_yield() {
  impl_->yield = true;
  impl_->refresh_limit();
}
void Core::request_break() { impl_->brk = true; }
void Core::set_watches(const std::vector<WatchRange>& ranges) {
  Cpu& c = *impl_;
  c.watch_hit = -1;
  if (ranges.empty() && c.watches.empty()) return;  // (every debugger resume): the DMI windows stay
  c.watches.clear();
  c.watch_pages.clear();
  for (const WatchRange& r : ranges) {
    if (r.len == 0) continue;
    const uint32_t hi = uint32_t(std::min<uint64_t>(uint64_t(r.addr) + r.len - 1, 0xFFFFFFFFu));
    c.watches.push_back(Cpu::WatchRange{r.addr, hi, r.on_read, r.on_write});
    c.watch_pages.emplace_back(r.addr & ~0xFFFu, hi | 0xFFFu);
  }
  std::sort(c.watch_pages.begin(), c.watch_pages.end());
  c.reset_dmi_windows();
}
int Core::watch_hit() const { return impl_->watch_hit; }

void Core::set_break_pcs(std::vector<uint32_t> pcs, std::optional<uint32_t> skip_first) {
  Cpu& c = *impl_;
  std::sort(pcs.begin(), pcs.end());
  pcs.erase(std::unique(pcs.begin(), pcs.end()), pcs.end());
  c.bp_pcs = std::move(pcs);
  std::fill(c.bp_filter.begin(), c.bp_filter.end(), 0);
  for (uint32_t a : c.bp_pcs) {
    const uint32_t b = Cpu::bp_bit(a);
    c.bp_filter[b >> 6] |= uint64_t(1) << (b & 63);
  }
  c.bp_skip = skip_first.has_value();
  c.bp_skip_pc = skip_first.value_or(0);
  c.mark_break_pages();
}
bool Core::break_requested() const { return impl_->brk; }

void Core::set_irl(unsigned level) { impl_->irl = level & 15; }
unsigned Core::irl() const { return impl_->irl; }
bool Core::powered_down() const { return impl_->pd && !impl_->wake_ok(); }
void Core::add_idle_cycles(uint64_t n) {
  impl_->cycles += n;
  impl_->hold += n;  // the pipeline did not advance
  impl_->ctr.idle_cycles += n;
}

void Core::set_span_listener(SpanListener* l) {
  Cpu& c = *impl_;
  c.spans = l;
  c.span_open = false;
  c.span_lo = 0;
  c.span_last = 0xFFFFFFFFu;
}
CoreProbes& Core::probes() { return impl_->probes; }
const CoreProbes& Core::probes() const { return impl_->probes; }

void Core::add_dmi(uint32_t start, uint32_t end, uint8_t* ptr, bool readable, bool writable,
                   unsigned read_latency_cycles, unsigned write_latency_cycles, const uint32_t* gen,
                   const uint8_t* gen_base) {
  if (!ptr || end < start) return;
  impl_->dmi.push_back(DmiRegion{start, end, ptr, readable, writable, read_latency_cycles,
                                 write_latency_cycles, gen, gen_base});
  impl_->reset_dmi_windows();
}
void Core::invalidate_dmi(uint64_t start, uint64_t end) {
  auto& v = impl_->dmi;
  v.erase(std::remove_if(v.begin(), v.end(),
                         [&](const DmiRegion& r) { return r.start <= end && start <= r.end; }),
          v.end());
  impl_->reset_dmi_windows();
}
void Core::set_bus_arbitration(bool on) {
  impl_->arb_mode = uint8_t((impl_->arb_mode & ~Cpu::kArbArbitrate) | (on ? Cpu::kArbArbitrate : 0));
  impl_->arb_mine = false;
}
void Core::set_bus_reporting(bool on) {
  impl_->arb_mode = uint8_t((impl_->arb_mode & ~Cpu::kArbReport) | (on ? Cpu::kArbReport : 0));
}
void Core::set_bus_counting(bool on, uint32_t base, uint64_t size) {
  impl_->arb_mode = uint8_t((impl_->arb_mode & ~Cpu::kArbCount) | (on ? Cpu::kArbCount : 0));
  impl_->count_base = base;
  impl_->count_size = size;
}
bool Core::take_bus_interval(uint64_t& start, uint64_t& end) {
  if (!impl_->arb_mine) return false;
  impl_->arb_mine = false;
  start = impl_->arb_s;
  end = impl_->arb_e;
  return true;
}
void Core::set_dmi_enabled(bool on) {
  impl_->dmi_on = on;
  impl_->reset_dmi_windows();
}

uint64_t Core::cycles() const { return impl_->cycles; }
const CoreCounters& Core::counters() const {
  impl_->ctr.instructions = impl_->retired();
  return impl_->ctr;
}
uint32_t Core::pc() const { return impl_->pc; }
uint32_t Core::npc() const { return impl_->npc; }
void Core::set_pc(uint32_t pc, uint32_t npc) {
  impl_->pc = pc;
  impl_->npc = npc;
}
uint32_t Core::reg(unsigned r) const { return impl_->R(r & 31); }
void Core::set_reg(unsigned r, uint32_t v) { impl_->W(r & 31, v); }
uint32_t Core::window_reg(unsigned w, unsigned r) const {
  return *impl_->rtab[(w % impl_->nwin) * 32 + (r & 31)];
}
void Core::set_window_reg(unsigned w, unsigned r, uint32_t v) {
  *impl_->wtab[(w % impl_->nwin) * 32 + (r & 31)] = v;
}
uint32_t Core::psr() const { return impl_->psr(); }
void Core::set_psr(uint32_t v) { impl_->write_psr(v); }
uint32_t Core::wim() const { return impl_->wim; }
void Core::set_wim(uint32_t v) { impl_->wim = v & impl_->wim_mask; }
uint32_t Core::tbr() const { return impl_->tba | (impl_->tt << 4); }
void Core::set_tbr(uint32_t v) {
  impl_->tba = v & 0xFFFFF000u;
  impl_->tt = (v >> 4) & 0xFF;
}
uint32_t Core::y() const { return impl_->y; }
void Core::set_y(uint32_t v) { impl_->y = v; }
uint32_t Core::asr17() const { return impl_->asr17(); }
uint32_t Core::ccr() const { return impl_->ccr; }
void Core::set_ccr(uint32_t v) { impl_->sysreg_write(0, v); }

bool Core::in_error_mode() const { return impl_->error; }
unsigned Core::error_tt() const { return impl_->err_tt; }
uint32_t Core::error_pc() const { return impl_->err_pc; }
uint32_t Core::error_npc() const { return impl_->err_npc; }

const CoreConfig& Core::config() const { return impl_->cfg; }

const CoreTimingCounters& Core::timing_counters() const {
  Cpu& c = *impl_;
  if (c.timed) c.tctr.annul_cycles = c.ctr.annulled * timing::kAnnulledCycles;
  return c.tctr;
}

void Core::snoop_write(uint32_t addr, unsigned len) {
  Cpu& c = *impl_;
  if (!c.timed || !c.cfg.dcache.snoop || !(c.ccr & kCcrDS)) return;
  unsigned n = c.dc_model.invalidate_range(addr, len);
  if (n) {
    c.tctr.snoop_invalidations += n;
    c.forget_dc();
  }
}

bool Core::cache_holds(bool icache, uint32_t addr) const {
  return icache ? impl_->ic_model.contains(addr) : impl_->dc_model.contains(addr);
}

uint64_t Core::decode_cache_misses() const { return impl_->decode_misses; }
const char* Core::mnemonic(uint32_t raw) { return leon3::mnemonic(raw); }

}  // namespace l3vp::leon3
