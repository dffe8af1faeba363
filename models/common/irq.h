// Interrupt wiring between models. Plain C++ interfaces (no sc_signal) so the
// hot paths stay cheap; every call happens at the caller's notion of "now"
// (sc_time_stamp() plus its annotated delay), which is exact because the CPU
// never runs past the next scheduled SystemC event (see models/cpu/leon3).
#pragma once
#include <systemc>

namespace l3vp {

// Peripheral -> interrupt controller. GRLIB peripherals emit one-clock pulses
// on their pirq line; IRQMP latches a pulse into IPEND.
class IrqLineSink {
 public:
  virtual ~IrqLineSink() = default;
  virtual void irq_pulse(unsigned line) = 0;
};

// Interrupt controller -> CPU: the 4-bit interrupt request level (0 = none).
class IrlSink {
 public:
  virtual ~IrlSink() = default;
  virtual void set_irl(unsigned level) = 0;
};

// CPU -> interrupt controller: the CPU took interrupt trap `level` at the
// exact simulated time `t` (the CPU runs ahead of sc_time_stamp() inside its
// quantum; `t` is its own time, for probes and waveforms).
class IntAckSink {
 public:
  virtual ~IntAckSink() = default;
  virtual void intack(unsigned level, const sc_core::sc_time& t) = 0;
};

}  // namespace l3vp
