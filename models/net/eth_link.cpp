#include "eth_link.h"
#include "probe_registry.h"
#include "stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace l3vp {

using sc_core::sc_time;

uint64_t DetRng::threshold(double p) {
  if (!(p > 0)) return 0;  // also NaN
  if (p >= 1) return kAlways;
  return static_cast<uint64_t>(std::ldexp(p, 64));
}

EthLink::EthLink(sc_core::sc_module_name name, const Params& p) : sc_core::sc_module(name), p_(p) {
  byte_ = eth::byte_time(p_.mbps);  // throws for unsupported speeds
  ifg_ = eth::ifg_time(p_.mbps);
  for (unsigned d = 0; d < 2; ++d) {
    Dir& x = dir_[d];
    const EthImpairments& im = p_.imp[d];
    if (im.loss < 0 || im.loss > 1 || im.corrupt < 0 || im.corrupt > 1 || im.duplicate < 0 ||
        im.duplicate > 1 || im.reorder < 0 || im.reorder > 1)
      throw std::invalid_argument(std::string(this->name()) + ": impairment probability outside [0,1]");
    x.tx.link = this;
    x.tx.d = d;
    x.rng.seed(im.seed);
    x.thr_loss = DetRng::threshold(im.loss);
    x.thr_corrupt = DetRng::threshold(im.corrupt);
    x.thr_dup = DetRng::threshold(im.duplicate);
    x.thr_reorder = DetRng::threshold(im.reorder);
  }
  SC_METHOD(deliver0);
  sensitive << dir_[0].ev;
  dont_initialize();
  SC_METHOD(deliver1);
  sensitive << dir_[1].ev;
  dont_initialize();
  SC_METHOD(hold0);
  sensitive << dir_[0].hold_ev;
  dont_initialize();
  SC_METHOD(hold1);
  sensitive << dir_[1].hold_ev;
  dont_initialize();
}

size_t EthLink::in_flight(unsigned dir) const {
  const Dir& x = dir_[dir & 1];
  return x.q.size() + (x.held ? x.held->copies : 0);
}

EthTx::Times EthLink::submit(unsigned d, const EthFrame& in) {
  Dir& x = dir_[d];
  const EthImpairments& im = p_.imp[d];
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time wire = eth::frame_time(in.data.size(), p_.mbps);

  // Sender's segment: FIFO, one inter-frame gap after the previous frame.
  const sc_time start = std::max(now, x.tx_free);
  x.tx_free = start + wire + ifg_;
  ++x.st.submitted;
  x.st.submitted_bytes += in.data.size();

  EthFrame f = in;
  // The wire carries at least 60 bytes before the FCS (a MAC pads with
  // zeros), unless the sender injects a runt on purpose (its wire time is
  // still that of a minimum frame: eth::frame_time).
  if (f.data.size() < eth::kMinData && !f.no_pad) f.data.resize(eth::kMinData, 0);
  f.seq = x.next_seq++;
  f.duplicate = false;
  f.tx_start = start;
  f.byte_time = byte_;

  // Fixed draw order per frame, whatever is enabled: each impairment's
  // decisions depend only on the seed and the frame number.
  const uint64_t u_loss = x.rng.next(), u_cor = x.rng.next(), u_bit = x.rng.next();
  const uint64_t u_dup = x.rng.next(), u_reo = x.rng.next(), u_jit = x.rng.next();
  const bool lost = DetRng::hit(u_loss, x.thr_loss);
  const bool corrupt = !lost && DetRng::hit(u_cor, x.thr_corrupt);
  const bool dup = !lost && DetRng::hit(u_dup, x.thr_dup);
  const bool reorder = !lost && !x.held && DetRng::hit(u_reo, x.thr_reorder);

  // When the frame is ready for the receiver's segment: at once without a
  // switch (same segment); with a switch after full reception plus latency.
  sc_time ready = p_.switch_hop ? start + wire + p_.prop_delay + p_.switch_latency : start;
  sc_time jit = sc_core::SC_ZERO_TIME;
  if (im.jitter != sc_core::SC_ZERO_TIME) {
    const uint64_t n = im.jitter.value();
    jit = sc_time::from_value(n == UINT64_MAX ? DetRng::scale(u_jit, n) : DetRng::scale(u_jit, n + 1));
    x.st.jitter_sum += jit.value();
  }
  ready += im.extra_delay + jit;
  const bool delayed = im.extra_delay + jit != sc_core::SC_ZERO_TIME;
  if (delayed) ++x.st.delayed;
  const uint8_t imp =
      uint8_t((lost ? kEthLost : 0) | (corrupt ? kEthCorrupted : 0) | (dup ? kEthDuplicated : 0) |
              (reorder ? kEthReordered : 0) | (delayed ? kEthDelayed : 0));
  // The frame as the sender puts it on the wire (before any corruption).
  if (on_send.has_listeners())
    on_send.notify(EthWireEvent{d, f, start, start + wire, unsigned(f.data.size()), imp, false, false});

  if (lost) {
    ++x.st.lost;
    return {start, start + wire};
  }
  if (corrupt) {
    const uint64_t nbits = (f.data.size() + eth::kFcs) * 8;
    const uint64_t bit = DetRng::scale(u_bit, nbits);
    if (bit < f.data.size() * 8) f.data[bit / 8] ^= static_cast<uint8_t>(0x80u >> (bit % 8));
    f.crc_error = true;  // a flipped FCS bit is just as fatal
    ++x.st.corrupted;
  }
  const unsigned copies = dup ? 2 : 1;
  if (copies == 2) ++x.st.duplicated;

  if (x.held) {
    // This frame overtakes the held one, which follows right behind it.
    Held h = std::move(*x.held);
    x.held.reset();
    x.hold_ev.cancel();
    schedule(d, f, copies, ready, imp);
    schedule(d, h.f, h.copies, h.ready, h.imp);
  } else if (reorder) {
    ++x.st.reordered;
    x.held = Held{f, copies, ready, imp};
    x.hold_ev.notify(ready + p_.reorder_timeout - now);
  } else {
    schedule(d, f, copies, ready, imp);
  }
  return {start, start + wire};
}

void EthLink::schedule(unsigned d, const EthFrame& f, unsigned copies, sc_time ready, uint8_t imp) {
  Dir& x = dir_[d];
  const sc_time wire = eth::frame_time(f.data.size(), p_.mbps);
  for (unsigned c = 0; c < copies; ++c) {
    // Receiver's segment: frames arrive serially, one IFG apart at least.
    const sc_time out = std::max({ready, x.out_free, sc_core::sc_time_stamp()});
    x.out_free = out + wire + ifg_;
    Pending pd;
    pd.f = f;
    pd.f.duplicate = c > 0;
    pd.f.rx_start = out + p_.prop_delay;
    pd.f.rx_end = pd.f.rx_start + wire;
    pd.imp = imp;
    x.q.push_back(std::move(pd));
  }
  notify_next(d);
}

void EthLink::notify_next(unsigned d) {
  Dir& x = dir_[d];
  if (x.q.empty()) return;
  const Pending& p = x.q.front();
  const sc_time t = p.started ? p.f.rx_end : p.f.rx_start;
  const sc_time now = sc_core::sc_time_stamp();
  // An earlier notification replaces a later pending one; a later one is
  // ignored, so this may be called freely.
  x.ev.notify(t > now ? t - now : sc_core::SC_ZERO_TIME);
}

void EthLink::deliver(unsigned d) {
  Dir& x = dir_[d];
  const sc_time now = sc_core::sc_time_stamp();
  while (!x.q.empty()) {
    Pending& p = x.q.front();
    if (!p.started) {
      if (p.f.rx_start > now) break;
      p.started = true;
      emit_rx(on_rx_start, d, p, false);
      if (x.rx) x.rx->frame_start(p.f);
    }
    if (p.f.rx_end > now) break;
    ++x.st.delivered;
    x.st.delivered_bytes += p.f.data.size();
    emit_rx(on_rx_end, d, p, x.rx != nullptr);
    EthFrame f = std::move(p.f);
    x.q.pop_front();
    if (x.rx) x.rx->frame_in(f);
  }
  notify_next(d);
}

void EthLink::hold_timeout(unsigned d) {
  Dir& x = dir_[d];
  if (!x.held) return;
  Held h = std::move(*x.held);
  x.held.reset();
  ++x.st.reorder_timeouts;
  schedule(d, h.f, h.copies, sc_core::sc_time_stamp(), h.imp);
}

// ---------------------------------------------------------------- statistics

// All simulated: invariant.
void EthLink::register_stats(const StatsGroup& g) {
  register_dir_stats(g.sub("to_host"), 0);
  register_dir_stats(g.sub("to_board"), 1);
}

void EthLink::register_dir_stats(const StatsGroup& s, unsigned dir) {
  const auto U = StatUnit::Count;
  const auto B = StatUnit::Bytes;
  const auto Y = StatInv::Yes;
  const EthDirStats& d = dir_[dir & 1].st;
  s.counter("submitted", &d.submitted, U, Y, "Frames handed to the link in this direction.");
  s.counter("submitted_bytes", &d.submitted_bytes, B, Y, "Their bytes.");
  s.counter("delivered", &d.delivered, U, Y, "Frames delivered (duplicates included).");
  s.counter("delivered_bytes", &d.delivered_bytes, B, Y, "Their bytes (padded to 60 bytes).");
  s.counter("lost", &d.lost, U, Y, "Frames lost (impairment `loss`).");
  s.counter("corrupted", &d.corrupted, U, Y, "Frames corrupted (impairment `corrupt`).");
  s.counter("duplicated", &d.duplicated, U, Y, "Frames duplicated (impairment `duplicate`).");
  s.counter("reordered", &d.reordered, U, Y, "Frames held back (impairment `reorder`).");
  s.counter("reorder_timeouts", &d.reorder_timeouts, U, Y, "Held frames released by the reorder timeout.");
  s.counter("delayed", &d.delayed, U, Y, "Frames with extra delay + jitter > 0.");
  s.counter("jitter_sum_ps", &d.jitter_sum, StatUnit::Ps, Y, "Sum of the jitter draws.");
}

void probe_text(ProbeText& o, const EthWireEvent& e) {
  o.at(e.start);
  o.time("end", e.end).num("dir", e.dir).num("bytes", e.bytes).hex("type", eth::type_field(e.frame), 4);
  o.num("seq", e.frame.seq).hex("impairments", e.impairments, 2).flag("duplicate", e.duplicate);
  o.flag("delivered", e.delivered);
}

void EthLink::register_probes(ProbeRegistry& r, const std::string& prefix) {
  const char* f = "end dir bytes type seq impairments duplicate delivered";
  r.add(prefix, "send", on_send, f);
  r.add(prefix, "rx_start", on_rx_start, f);
  r.add(prefix, "rx_end", on_rx_end, f);
}

}  // namespace l3vp
