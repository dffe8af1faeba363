#include "board_waves.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "format.h"

namespace l3vp::vcd {

Selection default_signals() {
  Selection s;
  s.cpu = s.irq = s.timer = s.uart = s.greth = s.link = s.regions = true;
  return s;
}

Selection parse_signals(const std::string& list) {
  Selection s;
  std::stringstream in(list);
  std::string item;
  bool any = false;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (item.empty()) continue;
    any = true;
    if (item == "all") {
      s = default_signals();
      s.ahb = s.pc = s.iclass = true;
    } else if (item == "default") {
      const Selection d = default_signals();
      s.cpu |= d.cpu, s.irq |= d.irq, s.timer |= d.timer, s.uart |= d.uart, s.greth |= d.greth,
          s.link |= d.link, s.regions |= d.regions;
    } else if (item == "cpu")
      s.cpu = true;
    else if (item == "irq")
      s.irq = true;
    else if (item == "timer")
      s.timer = true;
    else if (item == "uart")
      s.uart = true;
    else if (item == "ahb")
      s.ahb = true;
    else if (item == "greth")
      s.greth = true;
    else if (item == "link")
      s.link = true;
    else if (item == "regions")
      s.regions = true;
    else if (item == "cpu.pc")
      s.cpu = s.pc = true;
    else if (item == "cpu.class")
      s.cpu = s.iclass = true;
    else
      throw std::invalid_argument(
          "unknown signal group '" + item +
          "' (cpu, irq, timer, uart, ahb, greth, link, regions, cpu.pc, cpu.class, default, all)");
  }
  if (!any) throw std::invalid_argument("empty signal list");
  return s;
}

uint64_t peak_bytes_per_ms(const Selection& s) {
  // Bytes per simulated ms of each group alone, the highest of the measured
  // workloads (docs/waveforms.md "File size", scripts/bench-vcd --rates;
  // rounded up): a busy CPU for cpu.pc, cpu.class and ahb, network traffic
  // for the others. An idle board writes far less.
  struct Rate {
    bool Selection::*on;
    uint64_t bytes_per_ms;
  };
  static const Rate kRates[] = {{&Selection::cpu, 200},       {&Selection::pc, 1700000},
                                {&Selection::iclass, 460000}, {&Selection::irq, 200},
                                {&Selection::timer, 100},     {&Selection::uart, 100},
                                {&Selection::ahb, 130000},    {&Selection::greth, 100},
                                {&Selection::link, 100},      {&Selection::regions, 700}};
  uint64_t sum = 0;
  for (const Rate& r : kRates)
    if (s.*r.on) sum += r.bytes_per_ms;
  return sum;
}

std::string to_string(const Selection& s) {
  std::string r;
  auto put = [&r](bool on, const char* n) {
    if (!on) return;
    if (!r.empty()) r += ",";
    r += n;
  };
  put(s.cpu, "cpu");
  put(s.pc, "cpu.pc");
  put(s.iclass, "cpu.class");
  put(s.irq, "irq");
  put(s.timer, "timer");
  put(s.uart, "uart");
  put(s.ahb, "ahb");
  put(s.greth, "greth");
  put(s.link, "link");
  put(s.regions, "regions");
  return r;
}

namespace {

std::string ident(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "m_" + s;
  return s;
}

}  // namespace

BoardWaves::BoardWaves(Leon3mp& plat, const Selection& sel,
                       const std::map<uint32_t, std::string>& region_names, const std::string& scope)
    : plat_(plat), scope_(scope), clk_ps_(plat.config().period_ps()) {
  unit_ps_ =
      std::max<uint64_t>(1, uint64_t(std::llround(sc_core::sc_get_time_resolution().to_seconds() * 1e12)));
  if (sel.cpu) declare_cpu(sel);
  if (sel.irq) declare_irq();
  if (sel.timer && plat.gptimer()) declare_timer();
  if (sel.uart) declare_uart();
  if (sel.ahb) declare_ahb();
  if (sel.greth) declare_greth();
  if (sel.link) declare_link();
  if (sel.regions) declare_regions(region_names);
}

void BoardWaves::declare_cpu(const Selection& sel) {
  const std::string sc = scope_ + ".cpu";
  pil_ = w_.add(sc, "pil", 4);
  et_ = w_.add(sc, "et", 1);
  trap_ = w_.add(sc, "trap", 8);
  error_ = w_.add(sc, "error_mode", 1);
  pd_ = w_.add(sc, "power_down", 1);
  if (sel.pc) pc_ = w_.add(sc, "pc", 32);
  if (sel.iclass) cls_ = w_.add(sc, "class", 0);
  leon3::CoreProbes& cp = plat_.cpu.core().probes();
  auto a = cp.psr.listen([this](const leon3::PsrEvent& e) {
    const uint64_t t = cyc_ps(e.cycle);
    w_.change(t, pil_, e.pil);
    w_.change(t, et_, e.et);
    maybe_flush();
  });
  auto b = cp.trap.listen([this](const leon3::TrapEvent& e) {
    const uint64_t t = cyc_ps(e.cycle);
    w_.pulse(t, trap_, clk_ps_, e.tt);
    if (e.error) w_.change(t, error_, 1);
    maybe_flush();
  });
  auto c = cp.power.listen([this](const leon3::PowerEvent& e) {
    w_.change(cyc_ps(e.cycle), pd_, e.enter);
    maybe_flush();
  });
  detach_.push_back([&cp, a, b, c] {
    cp.psr.unlisten(a);
    cp.trap.unlisten(b);
    cp.power.unlisten(c);
  });
  if (sel.pc || sel.iclass) {
    const bool pc = sel.pc, cls = sel.iclass;
    // Steps come in time order: their own stream, and the class names as
    // precomputed string values (no lookup per step).
    step_stream_ = w_.add_stream();
    const unsigned nc = static_cast<unsigned>(leon3::InsnClass::Count);
    for (unsigned c = 0; c < nc; ++c)
      class_v_.push_back(w_.string_value(leon3::insn_class_name(static_cast<leon3::InsnClass>(c))));
    class_v_.push_back(w_.string_value("none"));       // nothing fetched
    class_v_.push_back(w_.string_value("interrupt"));  // an interrupt entry
    auto d = cp.step.listen([this, pc, cls, nc](const leon3::StepRecord& r) {
      const uint64_t t = cyc_ps(r.start_cycle);
      if (pc) w_.change(step_stream_, t, pc_, r.pc);
      if (cls) {
        const unsigned c = static_cast<unsigned>(r.cls);
        w_.change(step_stream_, t, cls_, class_v_[c < nc ? c : r.interrupt ? nc + 1 : nc]);
      }
      maybe_flush();
    });
    detach_.push_back([&cp, d] { cp.step.unlisten(d); });
  }
  // The state the core starts from (reset: PIL 0, ET 0).
  const leon3::Core& core = plat_.cpu.core();
  w_.change(0, pil_, (core.psr() >> 8) & 15);
  w_.change(0, et_, (core.psr() >> 5) & 1);
}

void BoardWaves::declare_irq() {
  const std::string sc = scope_ + ".irq";
  for (unsigned l = 1; l <= 15; ++l) line_[l] = w_.add(sc, "line" + std::to_string(l), 1);
  irl_ = w_.add(sc, "irl", 4);
  ack_ = w_.add(sc, "ack", 4);
  Irqmp& q = plat_.irqmp;
  // IRQMP listeners may run inside a device's own update (a timer's
  // interrupt): they never flush.
  auto a = q.on_line.listen([this](const IrqLineEvent& e) {
    if (e.line >= 1 && e.line <= 15) w_.pulse(ps(e.t), line_[e.line], clk_ps_);
  });
  auto b = q.on_irl.listen([this](const IrlEvent& e) { w_.change(ps(e.t), irl_, e.level); });
  auto c = q.on_intack.listen([this](const IntAckEvent& e) { w_.pulse(ps(e.t), ack_, clk_ps_, e.level); });
  detach_.push_back([&q, a, b, c] {
    q.on_line.unlisten(a);
    q.on_irl.unlisten(b);
    q.on_intack.unlisten(c);
  });
}

void BoardWaves::declare_timer() {
  Gptimer& g = *plat_.gptimer();
  timers_.resize(g.params().ntimers + 1);
  for (unsigned n = 1; n <= g.params().ntimers; ++n) {
    const std::string sc = scope_ + ".timer.t" + std::to_string(n);
    timers_[n] = {w_.add(sc, "underflow", 1), w_.add(sc, "ip", 1), w_.add(sc, "value", 32),
                  w_.add(sc, "underflows", 32)};
  }
  auto a = g.on_underflow.listen([this](const TimerUnderflowEvent& e) {
    if (e.timer >= timers_.size()) return;
    TimerSigs& s = timers_[e.timer];
    const uint64_t t = ps(e.t);
    w_.pulse(t, s.underflow, clk_ps_);
    w_.change(t, s.value, e.value);
    w_.change(t, s.count, ++s.n);
  });
  auto b = g.on_ip.listen([this](const TimerIpEvent& e) {
    if (e.timer < timers_.size()) w_.change(ps(e.t), timers_[e.timer].ip, e.pending);
  });
  detach_.push_back([&g, a, b] {
    g.on_underflow.unlisten(a);
    g.on_ip.unlisten(b);
  });
}

void BoardWaves::declare_uart() {
  const std::string sc = scope_ + ".uart";
  tx_ = w_.add(sc, "tx", 8);
  tx_busy_ = w_.add(sc, "tx_busy", 1);
  rx_ = w_.add(sc, "rx", 8);
  rx_busy_ = w_.add(sc, "rx_busy", 1);
  Apbuart& u = plat_.uart;
  auto a = u.on_tx.listen([this](const UartTxEvent& e) {
    w_.change(ps(e.start), tx_, e.ch);
    w_.change(ps(e.start), tx_busy_, 1);
    w_.change(ps(e.end), tx_busy_, 0);
  });
  auto b = u.on_rx.listen([this](const UartRxEvent& e) {
    w_.change(ps(e.start), rx_, e.ch);
    w_.change(ps(e.start), rx_busy_, 1);
    w_.change(ps(e.t), rx_busy_, 0);
  });
  detach_.push_back([&u, a, b] {
    u.on_tx.unlisten(a);
    u.on_rx.unlisten(b);
  });
}

void BoardWaves::declare_ahb() {
  const std::string sc = scope_ + ".ahb";
  bus_master_ = w_.add(sc, "master", 0, "-");
  master_slot_.assign(16, -1);
  for (const auto& m : plat_.ahb.master_stats()) {
    if (m.hindex >= 16) continue;
    const std::string n = ident(m.name), ms = sc + "." + n;
    master_slot_[m.hindex] = int(masters_.size());
    masters_.push_back({w_.add(ms, "busy", 1), w_.add(ms, "addr", 32), w_.add(ms, "write", 1),
                        w_.add(ms, "beats", 5), w_.add(ms, "wait", 16), w_.add_stream(), w_.string_value(n)});
  }
  AhbCtrl& bus = plat_.ahb;
  auto a = bus.on_transaction.listen([this](const AhbTransaction& e) {
    const int k = e.master < 16 ? master_slot_[e.master] : -1;
    if (k < 0) return;
    MasterSigs& m = masters_[size_t(k)];
    const uint64_t s = ps(e.start), t = ps(e.end);
    const uint64_t wr = e.kind == AhbTransaction::Kind::Write, wt = ps(e.wait) / clk_ps_;
    w_.change(m.stream, s, bus_master_, m.name_v);
    w_.change(m.stream, s, m.busy, 1);
    if (e.addr != m.addr_v) w_.change(m.stream, s, m.addr, m.addr_v = e.addr);
    if (wr != m.write_v) w_.change(m.stream, s, m.write, m.write_v = wr);
    if (e.beats != m.beats_v) w_.change(m.stream, s, m.beats, m.beats_v = e.beats);
    if (wt != m.wait_v) w_.change(m.stream, s, m.wait, m.wait_v = wt);
    w_.change(m.stream, t, m.busy, 0);
    maybe_flush();
  });
  detach_.push_back([&bus, a] { bus.on_transaction.unlisten(a); });
}

void BoardWaves::declare_greth() {
  const std::string sc = scope_ + ".greth";
  tx_dma_ = w_.add(sc, "tx_dma", 1);
  rx_dma_ = w_.add(sc, "rx_dma", 1);
  tx_desc_ = w_.add(sc, "tx_desc", 7);
  rx_desc_ = w_.add(sc, "rx_desc", 7);
  tx_len_ = w_.add(sc, "tx_len", 11);
  rx_len_ = w_.add(sc, "rx_len", 11);
  rx_verdict_ = w_.add(sc, "rx_verdict", 0);
  girq_ = w_.add(sc, "irq", 1);
  Greth& g = plat_.greth;
  auto a = g.on_irq.listen([this](const GrethIrqEvent& e) { w_.pulse(ps(e.t), girq_, clk_ps_); });
  auto b = g.on_dma_busy.listen([this](const GrethDmaBusyEvent& e) {
    w_.change(ps(e.t), e.dir == GrethDir::Tx ? tx_dma_ : rx_dma_, e.busy);
  });
  auto c = g.on_desc.listen([this](const GrethDescEvent& e) {
    w_.change(ps(e.t), e.dir == GrethDir::Tx ? tx_desc_ : rx_desc_, e.index);
  });
  auto d = g.on_frame_sent.listen(
      [this](const GrethFrameSentEvent& e) { w_.change(ps(e.start), tx_len_, e.len); });
  auto f = g.on_frame_received.listen([this](const GrethFrameReceivedEvent& e) {
    const uint64_t t = ps(e.t);
    w_.change(t, rx_len_, e.frame ? e.frame->data.size() : 0);
    w_.change(t, rx_verdict_, to_string(e.verdict));
  });
  detach_.push_back([&g, a, b, c, d, f] {
    g.on_irq.unlisten(a);
    g.on_dma_busy.unlisten(b);
    g.on_desc.unlisten(c);
    g.on_frame_sent.unlisten(d);
    g.on_frame_received.unlisten(f);
  });
}

void BoardWaves::declare_link() {
  const char* names[2] = {"to_host", "to_board"};
  for (unsigned d = 0; d < 2; ++d) {
    const std::string sc = scope_ + ".link." + names[d];
    dir_[d] = {w_.add(sc, "wire", 1), w_.add(sc, "rx", 1), w_.add(sc, "len", 11), w_.add(sc, "impair", 8)};
  }
  EthLink& l = plat_.link;
  auto a = l.on_send.listen([this](const EthWireEvent& e) {
    const DirSigs& s = dir_[e.dir & 1];
    w_.change(ps(e.start), s.wire, 1);
    w_.change(ps(e.end), s.wire, 0);
    w_.change(ps(e.start), s.len, e.bytes);
    w_.change(ps(e.start), s.impair, e.impairments);
    maybe_flush();
  });
  auto b = l.on_rx_start.listen([this](const EthWireEvent& e) {
    w_.change(ps(e.start), dir_[e.dir & 1].rx, 1);
    maybe_flush();
  });
  auto c = l.on_rx_end.listen([this](const EthWireEvent& e) {
    w_.change(ps(e.end), dir_[e.dir & 1].rx, 0);
    maybe_flush();
  });
  detach_.push_back([&l, a, b, c] {
    l.on_send.unlisten(a);
    l.on_rx_start.unlisten(b);
    l.on_rx_end.unlisten(c);
  });
}

void BoardWaves::declare_regions(const std::map<uint32_t, std::string>& region_names) {
  region_names_ = region_names;
  const std::string sc = scope_ + ".regions";
  region_current_ = w_.add(sc, "current", 0, "-");
  region_depth_ = w_.add(sc, "depth", 8);
  for (const auto& [id, name] : region_names) region_sig_[id] = w_.add(sc, ident(name), 1);
  RegionMarker& m = plat_.marker;
  auto a = m.on_mark.listen([this](const RegionMark& e) {
    // A region's edge is the CPU's cycle of the marker store, the instant
    // whose counters the profiler snapshots (regions[].cycles), not e.t,
    // when the store reaches the marker: that adds the store's bus latency
    // (AHB transfer, APB bridge and any arbitration wait while another
    // master holds the bus), which the write buffer hides from the CPU and
    // which differs between BEGIN and END. A store of another master while
    // the core lags behind (powered down) is dated now, never in the past.
    const uint64_t cpu = cyc_ps(plat_.cpu.core().cycles());
    region_mark(e.begin, e.id, std::max(cpu, ps(sc_core::sc_time_stamp())));
    maybe_flush();
  });
  detach_.push_back([&m, a] { m.on_mark.unlisten(a); });
}

BoardWaves::~BoardWaves() {
  for (auto& d : detach_) d();
}

std::string BoardWaves::region_label(uint32_t id) const {
  auto it = region_names_.find(id);
  return it != region_names_.end() ? it->second : hex(id);
}

void BoardWaves::region_mark(bool begin, uint32_t id, uint64_t t) {
  // The profiler's rules (docs/timing.md "Regions"): a BEGIN of an open
  // region restarts it, an END of a closed one is ignored.
  auto it = std::find(open_regions_.begin(), open_regions_.end(), id);
  if (begin) {
    if (it != open_regions_.end()) open_regions_.erase(it);
    open_regions_.push_back(id);
  } else {
    if (it == open_regions_.end()) return;
    open_regions_.erase(it);
  }
  auto s = region_sig_.find(id);
  if (s != region_sig_.end()) w_.change(t, s->second, begin);
  w_.change(t, region_current_,
            open_regions_.empty() ? std::string("-") : region_label(open_regions_.back()));
  w_.change(t, region_depth_, open_regions_.size());
}

void BoardWaves::open(const std::string& path, const std::vector<std::string>& comments) {
  w_.open(path, 1, comments);
}

uint64_t BoardWaves::catch_up_timer() {
  const uint64_t now = ps(sc_core::sc_time_stamp());
  if (now <= clk_ps_) return 0;
  const uint64_t h = now - clk_ps_;
  plat_.timer_slot().catch_up(sc_core::sc_time::from_value(h / unit_ps_));
  return h;
}

void BoardWaves::flush_now() {
  // Everything dated at least one clock before now has been published (the
  // GPTIMER's free-running underflows once it has caught up).
  if (const uint64_t h = catch_up_timer()) w_.flush(h);
  flush_at_ = w_.pending() + kFlushAt;
}

std::string BoardWaves::close() {
  // The run is over: bring the timer's free-running underflows up to the
  // same horizon as during the run, then write everything.
  catch_up_timer();
  const uint64_t now = ps(sc_core::sc_time_stamp());
  for (auto& d : detach_) d();
  detach_.clear();
  return w_.close(std::max(now, cyc_ps(plat_.cpu.core().cycles())));
}

}  // namespace l3vp::vcd
