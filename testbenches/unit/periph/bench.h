// Shared test bench for the APB peripheral register tests.
//
// SystemC allows one elaboration per process and sc_start() cannot restart
// after sc_stop(), so every test of this binary shares ONE bench built on
// first use: all devices are instantiated once, each test resets the devices
// and recorders it uses and then advances simulated time with sc_start(dt)
// from wherever the previous test stopped. Tests therefore only use times
// relative to their own start (t0). ctest runs each test in its own process
// (gtest_discover_tests), running the binary directly runs them all in one.
//
// The bench drives the devices' target sockets straight from sc_main (no
// initiator thread): the models never wait(), so b_transport may be called
// between sc_start() calls. A transaction's annotated delay plays the role of
// a CPU running ahead of sc_time_stamp() in its quantum.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <utility>
#include <vector>

#include "apbuart.h"
#include "gptimer.h"
#include "irqmp.h"

namespace l3vp::test {

inline const sc_core::sc_time kClk(25, sc_core::SC_NS);

// Peripheral -> interrupt controller recorder.
struct IrqRecorder : IrqLineSink {
  std::vector<std::pair<unsigned, sc_core::sc_time>> pulses;
  void irq_pulse(unsigned line) override { pulses.emplace_back(line, sc_core::sc_time_stamp()); }
};

// Interrupt controller -> CPU recorder.
struct IrlRecorder : IrlSink {
  unsigned level = 0;
  std::vector<std::pair<unsigned, sc_core::sc_time>> changes;
  void set_irl(unsigned l) override {
    level = l;
    changes.emplace_back(l, sc_core::sc_time_stamp());
  }
};

class Bench : public sc_core::sc_module {
 public:
  using Sock = tlm_utils::simple_initiator_socket<Bench>;

  Irqmp irqmp;
  Gptimer gpt;    // template: 2 timers, 8-bit scaler, 32-bit, sepirq, IRQ 8/9
  Gptimer gpt3;   // variant: 3 timers, shared IRQ 5, 16-bit scaler, 16-bit timers
  Apbuart uart;   // template: FIFO 4, IRQ 2
  Apbuart uart1;  // variant: no FIFO (fifosize 1), IRQ 3
  Apbuart uart2;  // template, used by one test only (its once-per-run report is still unspent)
  Apbuart uartf;  // template with the fast UART (uart.fast)
  Sock s_irqmp, s_gpt, s_gpt3, s_uart, s_uart1, s_uart2, s_uartf;

  IrqRecorder irq_gpt, irq_gpt3, irq_uart, irq_uart1, irq_uartf;
  IrlRecorder cpu;
  std::string tx, tx1, txf;  // host side of the UARTs
  // irl_changed() notifications seen by a process, with their times.
  std::vector<sc_core::sc_time> irl_events;

  SC_HAS_PROCESS(Bench);
  explicit Bench(sc_core::sc_module_name n)
      : sc_module(n),
        irqmp("irqmp"),
        gpt("gpt"),
        gpt3("gpt3", gpt3_params()),
        uart("uart"),
        uart1("uart1", uart1_params()),
        uart2("uart2"),
        uartf("uartf", uartf_params()),
        s_irqmp("s_irqmp"),
        s_gpt("s_gpt"),
        s_gpt3("s_gpt3"),
        s_uart("s_uart"),
        s_uart1("s_uart1"),
        s_uart2("s_uart2"),
        s_uartf("s_uartf") {
    s_irqmp.bind(irqmp.tsock);
    s_gpt.bind(gpt.tsock);
    s_gpt3.bind(gpt3.tsock);
    s_uart.bind(uart.tsock);
    s_uart1.bind(uart1.tsock);
    s_uart2.bind(uart2.tsock);
    s_uartf.bind(uartf.tsock);
    uart2.set_tx_sink(nullptr);
    gpt.connect_irq(&irq_gpt);
    gpt3.connect_irq(&irq_gpt3);
    uart.connect_irq(&irq_uart);
    uart1.connect_irq(&irq_uart1);
    uartf.connect_irq(&irq_uartf);
    irqmp.set_cpu(&cpu);
    uart.set_tx_sink([this](uint8_t c) { tx.push_back(static_cast<char>(c)); });
    uart1.set_tx_sink([this](uint8_t c) { tx1.push_back(static_cast<char>(c)); });
    uartf.set_tx_sink([this](uint8_t c) { txf.push_back(static_cast<char>(c)); });
    // Tests provoke guest errors on purpose; they are still counted.
    Log::enable(LogCat::GuestError, false);
    Log::enable(LogCat::Unimp, false);
    SC_METHOD(on_irl_changed);
    sensitive << irqmp.irl_changed();
    dont_initialize();
  }

  static Gptimer::Params gpt3_params() {
    Gptimer::Params p;
    p.pindex = 4;
    p.paddr = 0x004;
    p.pirq = 5;
    p.sepirq = 0;
    p.ntimers = 3;
    p.sbits = 16;
    p.nbits = 16;
    return p;
  }
  static Apbuart::Params uart1_params() {
    Apbuart::Params p;
    p.pindex = 9;
    p.paddr = 0x009;
    p.pirq = 3;
    p.fifosize = 1;
    return p;
  }

  static Apbuart::Params uartf_params() {
    Apbuart::Params p;
    p.fast = true;
    return p;
  }

  void on_irl_changed() { irl_events.push_back(sc_core::sc_time_stamp()); }

  // One APB access; returns the read data (or 0 for writes).
  static uint32_t access(Sock& s, bool write, uint32_t addr, uint32_t data, unsigned len,
                         sc_core::sc_time delay, tlm::tlm_response_status* st = nullptr) {
    tlm::tlm_generic_payload gp;
    uint8_t buf[4] = {0, 0, 0, 0};
    if (write) {
      if (len == 4)
        put_be32(buf, data);
      else if (len == 2)
        put_be16(buf, static_cast<uint16_t>(data));
      else
        buf[0] = static_cast<uint8_t>(data);
    }
    gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(buf);
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    s->b_transport(gp, delay);
    if (st) *st = gp.get_response_status();
    if (write) return 0;
    return len == 4 ? be32(buf) : len == 2 ? be16(buf) : buf[0];
  }
  // Debug read (transport_dbg): no side effects.
  static uint32_t dbg_rd(Sock& s, uint32_t off) {
    tlm::tlm_generic_payload gp;
    uint8_t buf[4] = {0, 0, 0, 0};
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(off);
    gp.set_data_ptr(buf);
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    EXPECT_EQ(s->transport_dbg(gp), 4u);
    return be32(buf);
  }
  static uint32_t rd(Sock& s, uint32_t off, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    return access(s, false, off, 0, 4, d);
  }
  static void wr(Sock& s, uint32_t off, uint32_t v, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    access(s, true, off, v, 4, d);
  }
};

// The process-wide bench (elaborated on first use).
inline Bench& bench() {
  static Bench* b = [] {
    auto* x = new Bench("bench");
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    return x;
  }();
  return *b;
}

// Run everything pending at the current time (timed events that sc_start(dt)
// stopped in front of, delta notifications made from outside a process).
inline void settle() {
  for (int i = 0; i < 100 && sc_core::sc_pending_activity_at_current_time(); ++i)
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
}
// Advance simulated time by dt and run everything due at the new time.
inline void advance(const sc_core::sc_time& dt) {
  settle();
  if (dt != sc_core::SC_ZERO_TIME) sc_core::sc_start(dt);
  settle();
}
inline void clocks(uint64_t n) { advance(sc_core::sc_time::from_value(n * kClk.value())); }
// Align to the next clock edge (tests start on a cycle boundary).
inline sc_core::sc_time align() {
  settle();
  const uint64_t c = kClk.value();
  const uint64_t now = sc_core::sc_time_stamp().value();
  if (now % c) advance(sc_core::sc_time::from_value(c - now % c));
  return sc_core::sc_time_stamp();
}
// Time t0 + n clocks, exactly.
inline sc_core::sc_time at(const sc_core::sc_time& t0, uint64_t n) {
  return sc_core::sc_time::from_value(t0.value() + n * kClk.value());
}
inline sc_core::sc_time cyc(uint64_t n) { return sc_core::sc_time::from_value(n * kClk.value()); }

}  // namespace l3vp::test
