#include "chksum.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "payload.h"
#include "probe_registry.h"
#include "stats.h"

namespace l3vp {

using sc_core::sc_time;

namespace {
constexpr uint64_t kTop = 0xFFFFFFFFu;  // the last byte an AHB master addresses
}  // namespace

Chksum::Chksum(sc_core::sc_module_name name, const Params& p) : ApbDevice(name, 256), isock("isock"), p_(p) {
  if (p_.pirq > 31) throw std::invalid_argument("Chksum: pirq out of range");
  if (p_.maxburst < 1 || p_.maxburst > 255) throw std::invalid_argument("Chksum: maxburst must be 1..255");
  if (p_.clk_period == sc_core::SC_ZERO_TIME) throw std::invalid_argument("Chksum: zero clock period");
  pnp_.id = pnp_id(kVendorContrib, kDevChksum, p_.revision, p_.pirq);
  pnp_.bar = pnp_bar(p_.paddr, p_.pmask, false, false, BAR_APBIO);
  build_registers();
  reset();
  SC_THREAD(dma_thread);
}

AhbPnp Chksum::ahb_pnp() const {
  AhbPnp r;
  r.id = pnp_id(kVendorContrib, kDevChksum, p_.revision, 0);
  return r;
}

void Chksum::reset() {
  regs_.reset();
  sum_ = 0;
  busy_ = false;
  start_ev_.cancel();
  ++gen_;  // an operation in flight is abandoned at the thread's next wake-up
}

// ---------------------------------------------------------------- registers

void Chksum::build_registers() {
  // CTRL: START is a command (reads 0), IE is stored.
  regs_.add("CTRL", CTRL).bind(ctrl_).rsvd(~(CTRL_START | CTRL_IE)).on_write([this](uint32_t v) {
    ctrl_ &= CTRL_IE;
    if (v & CTRL_START) start();
  });
  regs_.add("STATUS", STATUS)
      .bind(status_)
      .ro(ST_BUSY)
      .w1c(ST_DONE | ST_ERR)
      .rsvd(~(ST_BUSY | ST_DONE | ST_ERR));
  // ADDR, LEN, SUM: writes while BUSY are ignored (the old value is put back).
  regs_.add("ADDR", ADDR).bind(addr_).on_write([this](uint32_t, uint32_t old) {
    if (busy_) addr_ = old;
  });
  regs_.add("LEN", LEN).bind(len_).rsvd(0xFFFF0000u).on_write([this](uint32_t, uint32_t old) {
    if (busy_) len_ = old;
  });
  // SUM: write the initial sum; read the folded running sum and its complement.
  regs_.add("SUM", SUM)
      .no_store()
      .read_value([this] {
        const uint32_t s = fold(sum_);
        return (~s & 0xFFFFu) << 16 | s;
      })
      .on_write([this](uint32_t v) {
        if (!busy_) sum_ = v & 0xFFFFu;
      });
  regs_.add("INFO", INFO, p_.maxburst & 0xFF, 0);
}

void Chksum::start() {
  if (busy_) {
    ++st_.ignored_starts;
    Log::guest_error(name(), "START written while BUSY (ignored)");
    return;
  }
  busy_ = true;
  status_ = ST_BUSY;  // a new operation clears DONE and ERR
  op_addr_ = addr_;
  op_len_ = len_;
  op_start_ = now();
  // START at clock edge c: the engine requests the bus at c + 1.
  start_ev_.notify(access_offset() + p_.clk_period);
}

// ---------------------------------------------------------------- DMA

void Chksum::dma_thread() {
  std::vector<uint8_t>& buf = dma_buf_;
  buf.assign(4 * p_.maxburst, 0);
  for (;;) {
    sc_core::wait(start_ev_);
    const uint64_t g = gen_;
    if (!busy_) continue;  // reset between START and the bus request
    bool ok = true;
    // A buffer that runs past 0xFFFFFFFF is read up to the top word (an AHB
    // master cannot address beyond it), then the operation ends with ERR.
    const uint64_t end = uint64_t(op_addr_) + op_len_;  // one past the last byte
    const bool wraps = end > kTop + 1;
    if (op_len_ > 0) {
      const uint32_t first = op_addr_ & ~3u;
      const uint64_t last = std::min<uint64_t>((end - 1) & ~uint64_t(3), kTop & ~3u);  // last covering word
      uint64_t w = first;
      while (w <= last) {
        // At most maxburst beats, never across a 1 KiB boundary.
        const uint64_t to_kib = (0x400 - (w & 0x3FF)) / 4;
        const unsigned beats =
            static_cast<unsigned>(std::min<uint64_t>({p_.maxburst, to_kib, (last - w) / 4 + 1}));
        tlm::tlm_generic_payload gp;
        set_burst(gp, tlm::TLM_READ_COMMAND, w, buf.data(), 4 * beats);
        sc_time d = sc_core::SC_ZERO_TIME;
        isock->b_transport(gp, d);
        if (d != sc_core::SC_ZERO_TIME) sc_core::wait(d);
        if (gen_ != g) break;
        ++st_.bursts;
        if (!gp.is_response_ok()) {
          ok = false;
          Log::guest_error(name(), "AHB error response reading " + hex(uint32_t(w)));
          break;
        }
        st_.beats += beats;
        // Bytes of the buffer in this burst; the even ones (counted from
        // ADDR) are high bytes of their 16-bit word.
        uint64_t s = sum_;
        const uint64_t lo = std::max<uint64_t>(w, op_addr_), hi = std::min<uint64_t>(w + 4 * beats, end);
        for (uint64_t a = lo; a < hi; ++a) {
          const uint32_t b = buf[a - w];
          s += ((a - op_addr_) & 1) ? b : b << 8;
        }
        sum_ = fold(s);  // SUM reads the running sum between bursts
        w += 4 * beats;
      }
    }
    if (gen_ != g) continue;
    if (ok && wraps) {
      ok = false;
      Log::guest_error(name(), "DMA buffer runs past 0xFFFFFFFF: stopped at the top (ERR)");
    }
    // DONE one clock after the last data beat (LEN 0: one clock after START).
    if (op_len_ > 0) sc_core::wait(p_.clk_period);
    if (gen_ != g) continue;
    finish(ok);
  }
}

void Chksum::finish(bool ok) {
  busy_ = false;
  status_ = (status_ & ~uint32_t(ST_BUSY)) | ST_DONE | (ok ? 0u : uint32_t(ST_ERR));
  const sc_time t = sc_core::sc_time_stamp();
  ++st_.ops;
  if (ok)
    st_.bytes += op_len_;
  else
    ++st_.errors;
  st_.busy_cycles += (t - op_start_) / p_.clk_period;
  if (ctrl_ & CTRL_IE) {
    ++st_.irq_pulses;
    pulse_irq(p_.pirq);
  }
  if (on_op.has_listeners()) on_op.notify({op_start_, t, op_addr_, op_len_, fold(sum_), ok});
}

// ---------------------------------------------------------------- statistics

void Chksum::register_stats(const StatsGroup& g) { register_chksum_stats(g, st_); }

// All simulated: invariant. The RTL engine's adapter registers the same
// counters (what its pins show is the same), so the two models' names agree.
void register_chksum_stats(const StatsGroup& g, ChksumStats& st) {
  const auto U = StatUnit::Count;
  const auto Y = StatInv::Yes;
  g.counter("ops", &st.ops, U, Y,
            "Checksum operations completed (DONE set), errors included (`devices.chksum` exists only with "
            "`chksum.enable=true`).");
  g.counter("bytes", &st.bytes, StatUnit::Bytes, Y, "Bytes summed by error-free operations.");
  g.counter("bursts", &st.bursts, U, Y, "AHB read bursts of the DMA.");
  g.counter("beats", &st.beats, U, Y, "32-bit data beats read by the DMA.");
  g.counter("errors", &st.errors, U, Y,
            "Operations ended with STATUS.ERR: an AHB ERROR response, or a buffer past 0xFFFFFFFF.");
  g.counter("irq_pulses", &st.irq_pulses, U, Y, "Interrupt pulses (IE = 1 at DONE).");
  g.counter("ignored_starts", &st.ignored_starts, U, Y, "START written while BUSY (ignored).");
  g.counter("busy_cycles", &st.busy_cycles, StatUnit::Cycles, Y,
            "Clocks from START to DONE, summed over the operations.");
}

void probe_text(ProbeText& o, const ChksumOpEvent& e) {
  o.at(e.start);
  o.time("end", e.end).hex("addr", e.addr).num("len", e.len).hex("sum", e.sum, 4).flag("ok", e.ok);
}

void Chksum::register_probes(ProbeRegistry& r, const std::string& prefix) {
  r.add(prefix, "op", on_op, "end addr len sum ok");
}

}  // namespace l3vp
