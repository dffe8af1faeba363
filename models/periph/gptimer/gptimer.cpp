#include "gptimer.h"
#include "probe_registry.h"
#include "stats.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <tuple>
#include <utility>

// Clock-level semantics reproduced here (gptimer.vhd, see README.md):
//  * The prescaler decrements on every clock edge while at least one timer
//    is enabled; on the edge where it would pass below 0 it reloads SRELOAD
//    instead and emits a tick. Tick period P = SRELOAD + 1.
//  * A tick at edge T starts a sweep: timer n is updated at edge T + 1 + n.
//    A tick arriving while a sweep is still running (T' < T + ntimers + 1)
//    is lost, so sweeps start every P * ceil((ntimers + 1) / P) clocks.
//  * In its slot an enabled timer decrements; a chained timer (CH=1, n>1)
//    decrements only if timer n-1 underflowed in the previous clock, i.e. in
//    the same sweep. Underflow = decrement from 0.
//  * Timer 1 with CH=1 never decrements: its chain input is the last timer's
//    one-clock underflow flag, which has always expired when timer 1's next
//    slot comes (a sweep cannot start before the previous one ended).

namespace l3vp {

namespace {
using i128 = __int128;
constexpr int64_t kMax = INT64_MAX;
int64_t sat(i128 x) { return x >= kMax ? kMax : static_cast<int64_t>(x); }
uint32_t mask_bits(unsigned bits) { return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1; }
}  // namespace

Gptimer::Gptimer(sc_core::sc_module_name name, const Params& p) : ApbDevice(name, 128), p_(p) {
  // paddr[6:2] is decoded: the 128-byte register window aliases at 0x80.
  if (p_.ntimers < 1 || p_.ntimers > 7) throw std::invalid_argument("Gptimer: ntimers must be 1..7");
  if (p_.sbits < 1 || p_.sbits > 32) throw std::invalid_argument("Gptimer: sbits must be 1..32");
  if (p_.nbits < 1 || p_.nbits > 32) throw std::invalid_argument("Gptimer: nbits must be 1..32");
  if (p_.pirq > 31 || (p_.sepirq && p_.pirq + p_.ntimers - 1 > 31))
    throw std::invalid_argument("Gptimer: pirq out of range");
  if (p_.clk_period == sc_core::SC_ZERO_TIME) throw std::invalid_argument("Gptimer: zero clock period");
  clk_ps_ = p_.clk_period.value();
  smask_ = mask_bits(p_.sbits);
  vmask_ = mask_bits(p_.nbits);
  t_.resize(p_.ntimers + 1);
  pnp_.id = pnp_id(VENDOR_GAISLER, DEV_GPTIMER, p_.revision, p_.pirq);
  pnp_.bar = pnp_bar(p_.paddr, p_.pmask, false, false, BAR_APBIO);
  build_registers();
  SC_METHOD(on_event);
  sensitive << ev_;
  dont_initialize();
  reset();
}

void Gptimer::build_registers() {
  auto touch_fn = [this] { touch(); };
  // SCALER is computed from the prescaler's phase; a write loads it.
  regs_.add("SCALER", 0x00)
      .no_store()
      .rsvd(~smask_)
      .sync(touch_fn)
      .read_value([this] { return scaler_at(c0_); })
      .on_write([this](uint32_t v) {
        if (run_)
          next_tick_ = c0_ + v + 1;
        else
          sfrozen_ = v;
        reconfigure();
      });
  // Writing SRELOAD also loads SCALER. Reset: all ones.
  regs_.add("SRELOAD", 0x04)
      .bind(sreload_)
      .reset_value(smask_)
      .rsvd(~smask_)
      .before_write(touch_fn)
      .on_write([this](uint32_t) {
        if (run_)
          next_tick_ = c0_ + sreload_ + 1;
        else
          sfrozen_ = sreload_;
        reconfigure();
      });
  // TIMERS, IRQ, SI are constants; DF is the only stored bit. Newer VHDL:
  // writing 1 to bit 16+n-1 enables timer n (a command: reads 0). The
  // optional EE/EL/ES/EV features are absent (reserved).
  const uint32_t enables = ((1u << p_.ntimers) - 1) << 16;
  regs_.add("CONFIG", 0x08)
      .bind(config_)
      .reset_value((p_.ntimers & 7) | (p_.pirq & 0x1F) << 3 | (p_.sepirq ? 1u << 8 : 0))
      .ro(0x1FF | enables)
      .rsvd(~(0x1FF | kConfigDF | enables))
      .before_write(touch_fn)
      .on_write([this](uint32_t v) {
        for (unsigned n = 1; n <= p_.ntimers; ++n)
          if (v & (1u << (15 + n))) t_[n].ctrl |= TC_EN;
        reconfigure();
      });
  // No latch feature in the template (glatch=0): reserved.
  regs_.add("LATCHCFG", 0x0C).rsvd(~0u);

  for (unsigned n = 1; n <= p_.ntimers; ++n) {
    const std::string s = std::to_string(n);
    const uint32_t base = 0x10 * n;
    Timer& t = t_[n];
    regs_.add("TCNTVAL" + s, base + 0x0)
        .bind(t.value)
        .rsvd(~vmask_)
        .sync(touch_fn)
        .on_write([this](uint32_t) { reconfigure(); });
    regs_.add("TRLDVAL" + s, base + 0x4)
        .bind(t.reload)
        .rsvd(~vmask_)
        .before_write(touch_fn)
        .on_write([this](uint32_t) { reconfigure(); });
    // IP is write-1-to-clear (GRLIB >= 1.1.0); LD loads the counter at the
    // write edge (see README) and clears itself. DH (dhalt input, not
    // modelled) and the watchdog bits (no watchdog) read 0.
    regs_.add("TCTRL" + s, base + 0x8)
        .bind(t.ctrl)
        .w1c(TC_IP)
        .rsvd(~0x3Fu)
        .sync(touch_fn)
        .on_write([this, n](uint32_t, uint32_t old) {
          Timer& t = t_[n];
          if (t.ctrl & TC_LD) {
            t.value = t.reload;
            t.ctrl &= ~TC_LD;
          }
          if ((old & ~t.ctrl & TC_IP) && on_ip.has_listeners()) on_ip.notify({now(), n, false});
          reconfigure();
        });
    regs_.add("TLATCH" + s, base + 0xC).rsvd(~0u);
  }
}

bool Gptimer::debug_read(uint32_t word, uint32_t& v) {
  // sync() is the only way to bring the analytical state to a time, and it
  // has side effects (IP, EN clearing, IRQ pulses, probes, statistics). Run
  // it on the real state with its outputs muted and put every field back.
  const std::vector<Timer> t = t_;
  const auto sc = std::make_tuple(sreload_, run_, sfrozen_, next_tick_, prev_sweep_, h0_, pe_, c0_);
  muted_ = true;
  touch();
  const bool ok = regs_.read(word, v, true);
  muted_ = false;
  for (size_t i = 0; i < t_.size(); ++i) t_[i] = t[i];  // element-wise: keeps bound addresses
  std::tie(sreload_, run_, sfrozen_, next_tick_, prev_sweep_, h0_, pe_, c0_) = sc;
  return ok;
}

uint64_t Gptimer::underflows(unsigned n) {
  if (n < 1 || n > p_.ntimers) return 0;
  touch();
  return t_[n].uflows;
}

void Gptimer::reset() {
  ev_.cancel();
  c0_ = static_cast<cyc_t>(now().value() / clk_ps_);
  for (unsigned n = 1; n <= p_.ntimers; ++n)
    if ((t_[n].ctrl & TC_IP) && on_ip.has_listeners()) on_ip.notify({now(), n, false});
  for (auto& t : t_) {
    const uint64_t keep = t.uflows;  // statistics cover the whole run
    t = Timer();
    t.uflows = keep;
  }
  regs_.reset();  // declared reset values: SRELOAD all ones, the rest 0
  sfrozen_ = smask_;
  run_ = false;
  next_tick_ = 0;
  prev_sweep_ = kNoSweep;
  recalc_sweeps();
}

Gptimer::cyc_t Gptimer::cycle_now() const { return static_cast<cyc_t>(now().value() / clk_ps_); }

// ---------------------------------------------------------------------------
// Closed forms
// ---------------------------------------------------------------------------

uint32_t Gptimer::scaler_at(cyc_t c) const {
  if (!run_) return sfrozen_;
  if (c < next_tick_) return static_cast<uint32_t>(next_tick_ - 1 - c);
  const uint64_t p = uint64_t(sreload_) + 1;
  return static_cast<uint32_t>(sreload_ - uint64_t(c - next_tick_) % p);
}

void Gptimer::recalc_sweeps() {
  if (!run_) {
    h0_ = kNever;
    return;
  }
  const cyc_t p = cyc_t(sreload_) + 1;
  const cyc_t need = cyc_t(p_.ntimers) + 1;  // clocks one sweep occupies
  pe_ = p * ((need + p - 1) / p);
  const cyc_t lo = std::max(next_tick_, prev_sweep_ + need);
  h0_ = next_tick_ + (lo - next_tick_ + p - 1) / p * p;
}

uint64_t Gptimer::slot_count(unsigned n, cyc_t c) const {
  uint64_t cnt = 0;
  const cyc_t pending = prev_sweep_ + 1 + n;
  if (pending > c0_ && pending <= c) ++cnt;
  if (run_) {
    const cyc_t x = c - 1 - cyc_t(n);
    if (x >= h0_) cnt += uint64_t((x - h0_) / pe_) + 1;
  }
  return cnt;
}

Gptimer::cyc_t Gptimer::slot_time(unsigned n, uint64_t k) const {
  const cyc_t pending = prev_sweep_ + 1 + n;
  if (pending > c0_) {
    if (k == 1) return pending;
    --k;
  }
  if (!run_) return kNever;
  return sat(i128(h0_) + i128(k - 1) * pe_ + 1 + n);
}

uint64_t Gptimer::decs(unsigned n, cyc_t c) const {
  const Timer& t = t_[n];
  if (!t.en() || c <= c0_) return 0;
  if (!t.ch()) return slot_count(n, c);
  if (n == 1) return 0;
  return (t.chain_pend ? 1 : 0) + uflow_count(n - 1, c - 1);
}

uint64_t Gptimer::uflow_count(unsigned n, cyc_t c) const {
  const Timer& t = t_[n];
  const uint64_t d = decs(n, c);
  if (d <= t.value) return 0;
  if (!t.rs()) return 1;
  return 1 + (d - t.value - 1) / (uint64_t(t.reload) + 1);
}

uint32_t Gptimer::value_at(unsigned n, cyc_t c) const {
  const Timer& t = t_[n];
  const uint64_t d = decs(n, c);
  if (d <= t.value) return static_cast<uint32_t>(t.value - d);
  if (!t.rs()) return vmask_;  // stopped at all-ones
  const uint64_t k = d - t.value - 1;
  return static_cast<uint32_t>(t.reload - k % (uint64_t(t.reload) + 1));
}

Gptimer::cyc_t Gptimer::dec_time(unsigned n, uint64_t k) const {
  const Timer& t = t_[n];
  if (!t.en()) return kNever;
  if (!t.ch()) return slot_time(n, k);
  if (n == 1) return kNever;
  if (t.chain_pend) {
    if (k == 1) return c0_ + 1;
    --k;
  }
  const cyc_t u = uflow_time(n - 1, k);
  return u == kNever ? kNever : u + 1;
}

Gptimer::cyc_t Gptimer::uflow_time(unsigned n, uint64_t k) const {
  const Timer& t = t_[n];
  if (!t.rs() && k > 1) return kNever;
  const i128 need = i128(t.value) + 1 + i128(k - 1) * (i128(t.reload) + 1);
  if (need >= kMax) return kNever;
  return dec_time(n, static_cast<uint64_t>(need));
}

Gptimer::cyc_t Gptimer::next_action() const {
  cyc_t best = kNever;
  for (unsigned n = 1; n <= p_.ntimers; ++n)
    if (has_action(n)) best = std::min(best, uflow_time(n, 1));
  return best;
}

// ---------------------------------------------------------------------------
// Snapshot maintenance
// ---------------------------------------------------------------------------

void Gptimer::publish_underflows(cyc_t c) {
  // Every underflow in (c0_, c], all timers merged in time order (timer
  // order for equal edges). Only computed when somebody listens.
  std::vector<std::pair<cyc_t, unsigned>> ev;
  for (unsigned n = 1; n <= p_.ntimers; ++n) {
    const uint64_t u = uflow_count(n, c);
    for (uint64_t k = 1; k <= u; ++k) ev.emplace_back(uflow_time(n, k), n);
  }
  std::sort(ev.begin(), ev.end());
  for (const auto& e : ev) {
    const Timer& t = t_[e.second];
    on_underflow.notify({cyc_time(e.first), e.second, t.rs() ? t.reload : 0xFFFFFFFFu});
  }
}

void Gptimer::catch_up(const sc_core::sc_time& t) {
  // Only side-effect-free underflows can be pending before sc_time_stamp()
  // (the others had their event); advance() never goes past the next one.
  const cyc_t c = std::min<cyc_t>(static_cast<cyc_t>(t.value() / clk_ps_), next_action() - 1);
  if (!muted_) advance(c);
}

void Gptimer::advance(cyc_t c) {
  if (c <= c0_) return;
  if (!muted_ && on_underflow.has_listeners()) publish_underflows(c);
  const unsigned nt = p_.ntimers;
  std::array<uint32_t, 8> val{};
  std::array<bool, 8> at_c{};
  for (unsigned n = 1; n <= nt; ++n) {
    val[n] = value_at(n, c);
    const uint64_t u = uflow_count(n, c);
    t_[n].uflows += u;
    at_c[n] = u > uflow_count(n, c - 1);
  }
  for (unsigned n = 1; n <= nt; ++n) {
    t_[n].value = val[n];
    t_[n].chain_pend = n > 1 && at_c[n - 1];
  }
  if (run_) {
    if (c >= h0_) prev_sweep_ = h0_ + (c - h0_) / pe_ * pe_;
    if (c >= next_tick_) {
      const cyc_t p = cyc_t(sreload_) + 1;
      next_tick_ += ((c - next_tick_) / p + 1) * p;
    }
  }
  c0_ = c;
  recalc_sweeps();
}

void Gptimer::sync(cyc_t c) {
  c = std::max(c, c0_);  // an access "in the past" is served at the snapshot
  for (;;) {
    const cyc_t u = next_action();
    if (u > c) break;
    std::array<bool, 8> hit{};
    for (unsigned n = 1; n <= p_.ntimers; ++n) hit[n] = has_action(n) && uflow_time(n, 1) == u;
    advance(u);
    for (unsigned n = 1; n <= p_.ntimers; ++n) {
      if (!hit[n]) continue;
      Timer& t = t_[n];
      if (t.ie()) {
        const bool was = t.ctrl & TC_IP;
        t.ctrl |= TC_IP;
        if (!muted_) {
          const sc_core::sc_time at = cyc_time(u);
          pulse_irq(irq_line(n), at);
          if (!was && on_ip.has_listeners()) on_ip.notify({at, n, true});
        }
      }
      if (!t.rs()) t.ctrl &= ~TC_EN;  // value was left at all-ones by advance()
    }
    // The prescaler stops with the last enabled timer (the caller reschedules).
    const bool any = std::any_of(t_.begin() + 1, t_.end(), [](const Timer& t) { return t.en(); });
    if (!any && run_) {
      sfrozen_ = scaler_at(c0_);
      run_ = false;
      recalc_sweeps();
    }
  }
  advance(c);
}

void Gptimer::reconfigure() {
  const bool any = std::any_of(t_.begin() + 1, t_.end(), [](const Timer& t) { return t.en(); });
  if (any && !run_) {
    run_ = true;
    next_tick_ = c0_ + sfrozen_ + 1;  // first decrement on the next edge
  } else if (!any && run_) {
    sfrozen_ = scaler_at(c0_);
    run_ = false;
  }
  recalc_sweeps();
  reschedule();
}

void Gptimer::reschedule() {
  ev_.cancel();
  const cyc_t u = next_action();
  if (u == kNever) return;
  if (uint64_t(u) > UINT64_MAX / clk_ps_) return;  // beyond representable sc_time
  const sc_core::sc_time at = sc_core::sc_time::from_value(uint64_t(u) * clk_ps_);
  const sc_core::sc_time stamp = sc_core::sc_time_stamp();
  ev_.notify(at > stamp ? at - stamp : sc_core::SC_ZERO_TIME);
}

void Gptimer::on_event() {
  sync(static_cast<cyc_t>(sc_core::sc_time_stamp().value() / clk_ps_));
  reschedule();
}

// ---------------------------------------------------------------- statistics

void Gptimer::register_stats(const StatsGroup& g) {
  g.value("underflows", "[int, int]", StatUnit::Count, StatInv::Yes,
          "Underflows of timer 1 and timer 2, counted whether or not they raise an interrupt.", [this] {
            return nlohmann::json::array({underflows(1), underflows(2)});
          });
}

void probe_text(ProbeText& o, const TimerUnderflowEvent& e) {
  o.at(e.t);
  o.num("timer", e.timer).hex("value", e.value);
}

void probe_text(ProbeText& o, const TimerIpEvent& e) {
  o.at(e.t);
  o.num("timer", e.timer).flag("pending", e.pending);
}

void Gptimer::register_probes(ProbeRegistry& r, const std::string& prefix) {
  r.add(prefix, "underflow", on_underflow, "timer value");
  r.add(prefix, "ip", on_ip, "timer pending");
}

}  // namespace l3vp
