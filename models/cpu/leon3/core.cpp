// LEON3 integer unit: run loop, traps, memory paths and the public Core API.
// Instruction semantics live in isa/semantics.h, the decoder in isa.cpp.
#include "core.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cpu_state.h"

namespace l3vp::leon3 {

#define L3_UNLIKELY(x) __builtin_expect(!!(x), 0)

// ---------------------------------------------------------------------------
// Construction and register file
// ---------------------------------------------------------------------------

Cpu::Cpu(const CoreConfig& config, CoreBus& b) : bus(b), cfg(config) {
  if (cfg.nwin < 2 || cfg.nwin > 32)
    throw std::invalid_argument("leon3: nwin must be 2..32, got " + std::to_string(cfg.nwin));
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
  Decoded z;
  decode(0, z);  // every cache entry starts as a valid decode of word 0
  dcache.assign(kDecodeEntries, z);
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
    if ((for_write ? r.writable : r.readable) && a >= r.start && uint64_t(a) + n - 1 <= r.end)
      return &r;
  return nullptr;
}

static void load_window(DmiWin& w, const DmiRegion& r) {
  w.base = r.start;
  w.last = r.end - r.start;
  w.ptr = r.ptr;
}

bool Cpu::fetch_slow(uint32_t a, uint32_t& w) {
  if (const DmiRegion* r = find_dmi(a, 4, false)) {
    load_window(fetch_w, *r);
    std::memcpy(&w, r->ptr + (a - r->start), 4);
    return true;
  }
  uint8_t b[4];
  if (!bus.access(CoreBus::Kind::Fetch, a, b, 4, s ? 0x9 : 0x8, cycles)) return false;
  std::memcpy(&w, b, 4);
  return true;
}

bool Cpu::read_slow(uint32_t a, uint8_t asi, uint8_t* out, unsigned n) {
  if (const DmiRegion* r = find_dmi(a, n, false)) {
    load_window(read_w, *r);
    std::memcpy(out, r->ptr + (a - r->start), n);
    return true;
  }
  if (!bus.access(CoreBus::Kind::Read, a, out, n, asi, cycles)) {
    trap(kTtDataAccess);
    return false;
  }
  return true;
}

bool Cpu::write_slow(uint32_t a, uint8_t asi, const uint8_t* in, unsigned n) {
  if (const DmiRegion* r = find_dmi(a, n, true)) {
    load_window(write_w, *r);
    std::memcpy(r->ptr + (a - r->start), in, n);
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
// 0xC read 0 and ignore writes.
constexpr uint32_t kIcacheConfig = 0x11230008;  // 2 x 4 KiB, LRU, 32-byte lines, MMU
constexpr uint32_t kDcacheConfig = 0x08220008;  // 1 x 4 KiB, snooping, 16-byte lines, MMU
constexpr uint32_t kCcrWritable = 0x0081003F;   // ICS DCS IF DF IB DS (FI/FD/IP/DP read 0)

uint32_t Cpu::sysreg_read(uint32_t a) const {
  switch (a) {
    case 0x00: return ccr;
    case 0x08: return kIcacheConfig;
    case 0x0C: return kDcacheConfig;
    default: return 0;
  }
}

void Cpu::sysreg_write(uint32_t a, uint32_t v) {
  if (a == 0x00) ccr = v & kCcrWritable;  // FI/FD "flush now": nothing cached
}

bool Cpu::alt_read(uint32_t a, uint8_t asi, uint8_t* out, unsigned n) {
  switch (asi) {
    case 0x01:  // forced cache miss: always a bus access, tagged with ASI 1
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
    case 0x0B: {
      const DmiRegion* r = find_dmi(a, n, false);
      if (r) {
        std::memcpy(out, r->ptr + (a - r->start), n);
        return true;
      }
      return read_slow(a, asi, out, n);
    }
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
        for (unsigned j = 0; j < n; j += 4) sysreg_write(a + j, ld_be32(in + j));
      return true;
    case 0x08:
    case 0x09:
    case 0x0A:
    case 0x0B:
      return write_slow(a, asi, in, n);
    case 0x0C:
    case 0x0D:
    case 0x0E:
    case 0x0F:
    case 0x10:
    case 0x11:
      return true;  // diagnostic writes ignored; flush accepted (nothing cached)
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
    return;
  }
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
}

void Cpu::take_interrupt() {
  unsigned level = irl;
  cycles += timing::kTrapEntryCycles;
  enter_trap(0x10 + level);
  ++ctr.interrupts;
  bus.intack(level);
}

void Cpu::trace_line() {
  std::fprintf(trace, "%08x %08x %08x %08x %08x", pc, npc, psr(), wim, y);
  for (unsigned r = 1; r < 32; ++r) std::fprintf(trace, " %08x", R(r));
  std::fputc('\n', trace);
}

template <bool kTrace>
void Cpu::loop() {
  while (cycles < eff_limit) {
    // Interrupts: irl > irq_thresh encodes ET=1 && (irl == 15 || irl > PIL).
    if (L3_UNLIKELY(irl > irq_thresh) && retired() != irq_inhibit_seq) {
      take_interrupt();
      continue;
    }
    if constexpr (kTrace) trace_line();
    uint32_t word;  // memory byte order
    if (L3_UNLIKELY(!fetch(pc, word))) {
      cycles += timing::kTrapEntryCycles;
      enter_trap(kTtInstrAccess);
      continue;
    }
    Decoded& d = dcache[(pc >> 2) & (kDecodeEntries - 1)];
    if (L3_UNLIKELY(d.tag != word)) {  // miss, or the code was modified
      ++decode_misses;
      decode(__builtin_bswap32(word), d);
    }
    next_pc = npc;
    next_npc = npc + 4;
    d.fn(*this, d);
    if (L3_UNLIKELY(pending_tt != 0)) {
      unsigned t = pending_tt;
      pending_tt = 0;
      cycles += d.cost + timing::kTrapEntryCycles;
      enter_trap(t);
      continue;
    }
    pc = next_pc;
    npc = next_npc;
    cycles += d.cost;  // timing hook: per-instruction cost (+ bus latency already added)
    ++ctr.by_class[d.cls];
  }
}

template void Cpu::loop<true>();
template void Cpu::loop<false>();

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

struct Core::Impl : Cpu {
  using Cpu::Cpu;
};

const char* insn_class_name(InsnClass c) {
  switch (c) {
    case InsnClass::Alu: return "alu";
    case InsnClass::Load: return "load";
    case InsnClass::Store: return "store";
    case InsnClass::Branch: return "branch";
    case InsnClass::CallJmpl: return "call_jmpl";
    case InsnClass::Mul: return "mul";
    case InsnClass::Div: return "div";
    case InsnClass::SaveRestore: return "save_restore";
    case InsnClass::Trap: return "trap";
    case InsnClass::Other: return "other";
    default: return "?";
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
  }
  c.yield = false;
  c.limit = cycle_limit;
  c.refresh_limit();
  if (c.trace)
    c.loop<true>();
  else
    c.loop<false>();
  if (c.error) return StopReason::ErrorMode;
  if (c.pd) return StopReason::PowerDown;
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

void Core::set_irl(unsigned level) { impl_->irl = level & 15; }
unsigned Core::irl() const { return impl_->irl; }
bool Core::powered_down() const { return impl_->pd && !impl_->wake_ok(); }
void Core::add_idle_cycles(uint64_t n) {
  impl_->cycles += n;
  impl_->ctr.idle_cycles += n;
}

void Core::add_dmi(uint32_t start, uint32_t end, uint8_t* ptr, bool readable, bool writable) {
  if (!ptr || end < start) return;
  impl_->dmi.push_back(DmiRegion{start, end, ptr, readable, writable});
  impl_->reset_dmi_windows();
}
void Core::invalidate_dmi(uint64_t start, uint64_t end) {
  auto& v = impl_->dmi;
  v.erase(std::remove_if(v.begin(), v.end(),
                         [&](const DmiRegion& r) { return r.start <= end && start <= r.end; }),
          v.end());
  impl_->reset_dmi_windows();
}
void Core::set_dmi_enabled(bool on) {
  impl_->dmi_on = on;
  impl_->reset_dmi_windows();
}

void Core::set_trace(std::FILE* f) { impl_->trace = f; }

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

bool Core::in_error_mode() const { return impl_->error; }
unsigned Core::error_tt() const { return impl_->err_tt; }
uint32_t Core::error_pc() const { return impl_->err_pc; }
uint32_t Core::error_npc() const { return impl_->err_npc; }

const CoreConfig& Core::config() const { return impl_->cfg; }

uint64_t Core::decode_cache_misses() const { return impl_->decode_misses; }
const char* Core::mnemonic(uint32_t raw) { return leon3::mnemonic(raw); }

}  // namespace l3vp::leon3
