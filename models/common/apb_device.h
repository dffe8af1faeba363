// Base class of every APB slave model: a TLM-2.0 target socket, a register
// bank, the device's plug&play record and its interrupt line.
//
// TLM conventions (all leon3vp targets):
//  * the interconnect hands the target a *local* address (offset in its bar);
//  * data bytes are in target address order (big-endian words, see endian.h);
//  * APB is a 32-bit bus: a sub-word write carries the byte/halfword
//    replicated on every lane, as the LEON3 drives hwdata for STB/STH, and a
//    sub-word read returns the addressed lanes of the 32-bit register;
//  * `now()` is the access time: sc_time_stamp() plus the annotated delay of
//    the transaction being served (the initiator may run ahead in its quantum);
//  * the target adds its access cost (apb_delay) to the annotated delay;
//  * reads and writes of offsets with no register answer OK (reads give 0)
//    and are logged as guest errors;
//  * debug accesses (transport_dbg) have no side effects: no hooks, no W1C,
//    no FIFO pop, no interrupt clear, no log (see regbank.h). A debug read
//    shows the register as the model holds it; a device whose state advances
//    lazily may override debug_read() to compute it at the current time.
#pragma once
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "endian.h"
#include "format.h"
#include "irq.h"
#include "log.h"
#include "pnp.h"
#include "regbank.h"

namespace l3vp {

// An interrupt controller that also wants the exact time of a pulse (a
// device inside a CPU access runs ahead of sc_time_stamp()). ApbDevice
// calls irq_pulse_at() instead of irq_pulse() when its sink is one.
class TimedIrqLineSink : public IrqLineSink {
 public:
  virtual void irq_pulse_at(unsigned line, const sc_core::sc_time& t) = 0;
};

class StatsGroup;
class ProbeRegistry;

class ApbDevice : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ApbDevice> tsock;

  ApbDevice(sc_core::sc_module_name name, uint32_t span = 256)
      : sc_core::sc_module(name), tsock("tsock"), regs_(span, this->name()) {
    tsock.register_b_transport(this, &ApbDevice::b_transport);
    tsock.register_transport_dbg(this, &ApbDevice::transport_dbg);
  }

  // Plug&play record (filled in by the derived class from its generics).
  const ApbPnp& pnp() const { return pnp_; }
  // Interrupt controller this device pulses (may stay null: no IRQ wired).
  void connect_irq(IrqLineSink* sink) {
    irq_sink_ = sink;
    timed_sink_ = dynamic_cast<TimedIrqLineSink*>(sink);
  }
  // Cost of one APB access, added to the transaction's delay.
  void set_access_delay(const sc_core::sc_time& t) { apb_delay_ = t; }

  RegBank& regs() { return regs_; }
  virtual void reset() { regs_.reset(); }
  // Registers the device's statistics under `g` (models/common/stats.h); the
  // platform calls it for whatever model sits in a slot. Default: none.
  virtual void register_stats(const StatsGroup& g) {}
  // Registers the device's probes as "<prefix>.<probe>" (probe_registry.h);
  // the platform calls it for whatever model sits in a slot. Default: none.
  virtual void register_probes(ProbeRegistry& r, const std::string& prefix) {
    (void)r;
    (void)prefix;
  }
  // Analytical models that publish some probe events only when they bring
  // their snapshot forward (GPTIMER underflows without side effect, APBUART
  // line events) publish, here, every event dated at or before `t`. `t` lies
  // at least one clock before sc_time_stamp(): every event with a side
  // effect up to `t` has already been processed at its own time, so this
  // changes nothing a later access or event could see (the waveform writer
  // calls it before writing out a stretch of time). Default: nothing late.
  virtual void catch_up(const sc_core::sc_time& t) { (void)t; }

 protected:
  // Time of the access being served (valid inside register hooks).
  sc_core::sc_time now() const { return sc_core::sc_time_stamp() + access_offset_; }
  // Offset of now() relative to sc_time_stamp(); use it as the base delay
  // when notifying events from inside a register hook.
  const sc_core::sc_time& access_offset() const { return access_offset_; }

  // A pulse at now(), or at an exact earlier time `t` the device computed
  // (an analytical timer's underflow found during a catch-up). Only a
  // TimedIrqLineSink learns the time; the pulse itself is the same.
  void pulse_irq(unsigned line) { pulse_irq(line, now()); }
  void pulse_irq(unsigned line, const sc_core::sc_time& t) {
    if (!irq_sink_ || line == 0) return;
    if (timed_sink_)
      timed_sink_->irq_pulse_at(line, t);
    else
      irq_sink_->irq_pulse(line);
  }

  // Debug read of the register at `word`: the default serves it from the
  // register bank in debug mode (no side effects).
  virtual bool debug_read(uint32_t word, uint32_t& v) { return regs_.read(word, v, true); }

  ApbPnp pnp_;
  RegBank regs_;
  IrqLineSink* irq_sink_ = nullptr;
  TimedIrqLineSink* timed_sink_ = nullptr;
  sc_core::sc_time apb_delay_ = sc_core::SC_ZERO_TIME;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    // Saved and put back: an access may arrive while another one of this
    // device is being served (an RTL adapter's DMA reading its own
    // registers), and the outer one's now() must survive it.
    const sc_core::sc_time outer = access_offset_;
    access_offset_ = delay;
    do_access<false>(gp);
    delay += apb_delay_;
    access_offset_ = outer;
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    // now() is sc_time_stamp() here (no annotated delay).
    return do_access<true>(gp) ? gp.get_data_length() : 0;
  }
  // Returns false for a refused debug write (nothing transferred). A
  // template, so a CPU access (every poll of a status register) holds no
  // debug tests and no logging code.
  template <bool kDebug>
  bool do_access(tlm::tlm_generic_payload& gp) {
    const uint32_t addr = static_cast<uint32_t>(gp.get_address());
    const unsigned len = gp.get_data_length();
    uint8_t* d = gp.get_data_ptr();
    if (len != 1 && len != 2 && len != 4) {
      gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return false;
    }
    const uint32_t word = addr & ~3u;
    bool ok = true;
    if (gp.is_read()) {
      uint32_t v = 0;
      if constexpr (kDebug)
        debug_read(word, v);
      else if (!regs_.read(word, v))
        unmapped("read of", word);
      uint8_t tmp[4];
      put_be32(tmp, v);
      std::memcpy(d, tmp + (addr & 3), len);
    } else if (gp.is_write()) {
      uint32_t v;
      if (len == 4)
        v = be32(d);
      else if (len == 2)
        v = 0x00010001u * be16(d);
      else
        v = 0x01010101u * d[0];
      if constexpr (kDebug)
        ok = regs_.write(word, v, true);
      else if (!regs_.write(word, v))
        unmapped("write to", word);
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return ok;
  }
  [[gnu::cold, gnu::noinline]] void unmapped(const char* what, uint32_t word) {
    Log::guest_error(name(), std::string(what) + " unmapped register offset " + hex(word, 2));
  }

  sc_core::sc_time access_offset_ = sc_core::SC_ZERO_TIME;
};

}  // namespace l3vp
