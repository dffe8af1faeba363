// APBUART register, FIFO, timing and interrupt tests (hw-reference §6).
// With SCALER = 1 a bit takes 8 * 2 = 16 clocks, a 10-bit character 160.
#include <unistd.h>

#include "bench.h"

namespace l3vp::test {
namespace {

enum : uint32_t { DATA = 0x00, STATUS = 0x04, CTRL = 0x08, SCALER = 0x0C };
// STATUS
enum : uint32_t {
  DR = 1,
  TS = 2,
  TE = 4,
  BR = 8,
  OV = 0x10,
  PE = 0x20,
  FE = 0x40,
  TH = 0x80,
  RH = 0x100,
  TF = 0x200,
  RF = 0x400,
};
constexpr uint32_t TCNT(unsigned n) { return n << 20; }
constexpr uint32_t RCNT(unsigned n) { return n << 26; }
// CTRL
enum : uint32_t {
  C_RE = 1,
  C_TE = 2,
  C_RI = 4,
  C_TI = 8,
  C_PE = 0x20,
  C_FL = 0x40,
  C_LB = 0x80,
  C_TF = 0x200,
  C_RF = 0x400,
  C_SI = 0x4000,
  C_NS = 0x8000,
  C_FA = 0x80000000u,
};
constexpr uint64_t kChar = 160;

class ApbuartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (Apbuart* u : {&b.uart, &b.uart1}) {
      u->reset();
      u->rx_host_clear();
    }
    wr(CTRL, 0);
    wr(SCALER, 1);
    Bench::wr(b.s_uart1, CTRL, 0);
    Bench::wr(b.s_uart1, SCALER, 1);
    t0 = align();
    b.tx.clear();
    b.tx1.clear();
    b.irq_uart.pulses.clear();
    b.irq_uart1.pulses.clear();
  }
  uint32_t rd(uint32_t off, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    return Bench::rd(b.s_uart, off, d);
  }
  void wr(uint32_t off, uint32_t v, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    Bench::wr(b.s_uart, off, v, d);
  }
  void put(const std::string& s) {
    for (char c : s) wr(DATA, static_cast<uint8_t>(c));
  }
  void to(uint64_t n) {
    const sc_core::sc_time target = at(t0, n);
    ASSERT_GE(target, sc_core::sc_time_stamp());
    advance(target - sc_core::sc_time_stamp());
  }
  std::vector<sc_core::sc_time> pulse_times() const {
    std::vector<sc_core::sc_time> v;
    for (auto& p : b.irq_uart.pulses) {
      EXPECT_EQ(p.first, 2u);
      v.push_back(p.second);
    }
    return v;
  }
  Bench& b = bench();
  sc_core::sc_time t0;
};

TEST_F(ApbuartTest, ResetValuesPnpAndMasks) {
  EXPECT_EQ(b.uart.pnp().id, 0x0100C042u);
  EXPECT_EQ(b.uart.pnp().bar, 0x0010FFF1u);
  EXPECT_EQ(rd(STATUS), TS | TE | TH);
  EXPECT_EQ(rd(CTRL), C_FA);
  wr(SCALER, 0xFFFFFFFF);
  EXPECT_EQ(rd(SCALER), 0xFFFu);  // 12-bit scaler
  wr(CTRL, 0xFFFFFFFF);
  EXPECT_EQ(rd(CTRL), C_FA | 0xFFFFu);
  b.uart.reset();  // clears RE TE FL EC DB BI NS, keeps the rest
  EXPECT_EQ(rd(CTRL), C_FA | (0xFFFFu & ~(0x1u | 0x2 | 0x40 | 0x100 | 0x800 | 0x1000 | 0x8000)));
  EXPECT_EQ(rd(SCALER), 0xFFFu);
}

TEST_F(ApbuartTest, ErrorBitsTakeTheWrittenValue) {
  wr(STATUS, 0xFFFFFFFF);
  EXPECT_EQ(rd(STATUS), TS | TE | TH | BR | OV | PE | FE);
  wr(STATUS, OV);
  EXPECT_EQ(rd(STATUS), TS | TE | TH | OV);
  wr(STATUS, 0);
  EXPECT_EQ(rd(STATUS), TS | TE | TH);
}

TEST_F(ApbuartTest, TransmitImmediateOutputTimedStatus) {
  wr(CTRL, C_TE);
  wr(DATA, 'A');
  EXPECT_EQ(b.tx, "A");            // reaches the host at once
  EXPECT_EQ(rd(STATUS), TE | TH);  // FIFO empty, shift register busy
  put("BC");
  EXPECT_EQ(b.tx, "ABC");
  EXPECT_EQ(rd(STATUS), TCNT(2));  // not TH: 2 of 4 is half full
  to(kChar - 1);
  EXPECT_EQ(rd(STATUS), TCNT(2));
  to(kChar);
  EXPECT_EQ(rd(STATUS), TCNT(1) | TH);
  to(2 * kChar);
  EXPECT_EQ(rd(STATUS), TE | TH);
  to(3 * kChar - 1);
  EXPECT_EQ(rd(STATUS) & TS, 0u);
  to(3 * kChar);
  EXPECT_EQ(rd(STATUS), TS | TE | TH);
  EXPECT_EQ(b.uart.char_cycles(), kChar);
}

// uart.fast (SIS's and TSIM's fast UART): the same bytes reach the host,
// but a character takes no line time: STATUS shows the transmitter idle and
// the FIFO empty right after each write, nothing is ever dropped, and the TX
// interrupts come at the write. (The template UART above is the default.)
TEST_F(ApbuartTest, FastUartTransmitterIsNeverBusy) {
  Bench::Sock& s = b.s_uartf;
  b.uartf.reset();
  b.txf.clear();
  b.irq_uartf.pulses.clear();
  Bench::wr(s, SCALER, 1);
  Bench::wr(s, CTRL, C_TE | C_TI | C_SI);
  std::vector<UartTxEvent> ev;
  const auto id = b.uartf.on_tx.listen([&ev](const UartTxEvent& e) { ev.push_back(e); });
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const std::string text = "fast UART, more than a FIFO";
  for (char c : text) {
    Bench::wr(s, DATA, static_cast<uint8_t>(c));
    EXPECT_EQ(Bench::rd(s, STATUS), TS | TE | TH);  // idle, FIFO empty, TCNT 0
  }
  b.uartf.on_tx.unlisten(id);
  EXPECT_EQ(b.txf, text);
  EXPECT_EQ(b.uartf.tx_dropped(), 0u);
  EXPECT_EQ(b.uartf.tx_bytes(), text.size());
  ASSERT_EQ(ev.size(), text.size());
  for (const UartTxEvent& e : ev) {
    EXPECT_EQ(e.start, now);  // on and off the line at the write
    EXPECT_EQ(e.end, now);
  }
  // TI (FIFO empty) and SI (shift register empty) once per character.
  EXPECT_EQ(b.irq_uartf.pulses.size(), 2 * text.size());
  EXPECT_EQ(sc_core::sc_time_stamp(), now);
  EXPECT_EQ(b.uartf.char_cycles(), kChar);  // the receiver keeps the line time
  // The default UART is busy for a character time after the same write.
  wr(CTRL, C_TE);
  wr(DATA, 'A');
  EXPECT_EQ(rd(STATUS), TE | TH);
}

TEST_F(ApbuartTest, FrameFormatSetsCharacterTime) {
  wr(CTRL, C_TE | C_PE | C_NS);  // start + 8 + parity + 2 stop = 12 bits
  EXPECT_EQ(b.uart.char_cycles(), 12u * 8 * 2);
  wr(DATA, 'a');
  to(12 * 16 - 1);
  EXPECT_EQ(rd(STATUS) & TS, 0u);
  to(12 * 16);
  EXPECT_EQ(rd(STATUS) & TS, TS);
  wr(SCALER, 129);  // 38400 baud at 40 MHz
  wr(CTRL, C_TE);
  EXPECT_EQ(b.uart.char_cycles(), 10u * 8 * 130);
}

TEST_F(ApbuartTest, FullFifoDropsFurtherWrites) {
  wr(CTRL, C_TE);
  const uint64_t dropped = b.uart.tx_dropped();
  const uint64_t ge = Log::count(LogCat::GuestError);
  put("abcde");  // 'a' in the shift register, 4 in the FIFO
  EXPECT_EQ(rd(STATUS), TF | TCNT(4));
  wr(DATA, 'f');
  EXPECT_EQ(b.tx, "abcde");
  EXPECT_EQ(b.uart.tx_dropped() - dropped, 1u);
  EXPECT_EQ(Log::count(LogCat::GuestError) - ge, 1u);
}

TEST_F(ApbuartTest, DisabledTransmitterHoldsCharacters) {
  wr(DATA, 'H');
  EXPECT_EQ(b.tx, "");
  EXPECT_EQ(rd(STATUS), TS | TH | TCNT(1));
  to(1000);
  EXPECT_EQ(rd(STATUS), TS | TH | TCNT(1));
  wr(CTRL, C_TE);  // enabling the transmitter sends it
  EXPECT_EQ(b.tx, "H");
  EXPECT_EQ(rd(STATUS), TE | TH);
  to(1000 + kChar);
  EXPECT_EQ(rd(STATUS), TS | TE | TH);
}

// A character written while TE = 0 is reported once per run (one guest
// error), however many follow and across reset().
TEST_F(ApbuartTest, WriteWithTransmitterDisabledIsReportedOnce) {
  const uint64_t ge = Log::count(LogCat::GuestError);
  Bench::wr(b.s_uart2, CTRL, C_TE);
  Bench::wr(b.s_uart2, DATA, 'a');  // transmitter on: nothing to report
  EXPECT_EQ(Log::count(LogCat::GuestError) - ge, 0u);
  Bench::wr(b.s_uart2, CTRL, 0);
  Bench::wr(b.s_uart2, DATA, 'H');
  EXPECT_EQ(Log::count(LogCat::GuestError) - ge, 1u);
  Bench::wr(b.s_uart2, DATA, 'i');
  b.uart2.reset();
  Bench::wr(b.s_uart2, DATA, '!');
  EXPECT_EQ(Log::count(LogCat::GuestError) - ge, 1u);
}

TEST_F(ApbuartTest, TxInterruptWhenFifoEmpties) {
  wr(CTRL, C_TE | C_TI);
  // 'x' goes to the idle shift register at once (FIFO empty again: TI);
  // 'z' leaves the FIFO for the shift register at 2 character times.
  put("xyz");
  to(4 * kChar);
  ASSERT_EQ(pulse_times(), (std::vector<sc_core::sc_time>{t0, at(t0, 2 * kChar)}));
  wr(DATA, '!');
  EXPECT_EQ(b.irq_uart.pulses.size(), 3u);
  EXPECT_EQ(b.irq_uart.pulses[2].second, at(t0, 4 * kChar));
}

TEST_F(ApbuartTest, ShiftRegisterEmptyInterrupt) {
  wr(CTRL, C_TE | C_SI);
  put("xy");
  to(3 * kChar);
  EXPECT_EQ(pulse_times(), std::vector<sc_core::sc_time>{at(t0, 2 * kChar)});
}

TEST_F(ApbuartTest, TxFifoInterruptOnBecomingLessThanHalfFull) {
  wr(CTRL, C_TE | C_TF);  // condition already true: one pulse
  put("abcd");            // FIFO 3 after 'a' moved on: condition false
  to(5 * kChar);
  // 'c' starts at 2 char times: 1 left in the FIFO -> condition true again.
  EXPECT_EQ(pulse_times(), (std::vector<sc_core::sc_time>{t0, at(t0, 2 * kChar)}));
}

TEST_F(ApbuartTest, ReceiveFromHostQueue) {
  b.uart.rx_push("hi");
  wr(CTRL, C_RE);
  to(kChar - 1);
  EXPECT_EQ(rd(STATUS) & DR, 0u);
  to(kChar);
  EXPECT_EQ(rd(STATUS), DR | TS | TE | TH | RCNT(1));
  to(2 * kChar);
  EXPECT_EQ(rd(STATUS), DR | TS | TE | TH | RH | RCNT(2));
  EXPECT_EQ(rd(DATA), uint32_t('h'));
  EXPECT_EQ(rd(DATA), uint32_t('i'));
  EXPECT_EQ(rd(STATUS), TS | TE | TH);
  rd(DATA);  // reading an empty FIFO changes nothing
  EXPECT_EQ(rd(STATUS), TS | TE | TH);
  EXPECT_EQ(b.uart.rx_host_pending(), 0u);
}

TEST_F(ApbuartTest, ReceiveFromFileAndStdin) {
  char path[] = "/tmp/l3vp_uart_rx_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "f1", 2), 2);
  ::close(fd);
  EXPECT_TRUE(b.uart.rx_load_file(path));
  ::unlink(path);
  EXPECT_FALSE(b.uart.rx_load_file(path));
  EXPECT_FALSE(b.uart.rx_load_file("/tmp"));       // a directory
  EXPECT_FALSE(b.uart.rx_load_file("/dev/zero"));  // a device: never read forever
  EXPECT_EQ(b.uart.rx_host_pending(), 2u);
  b.uart.rx_host_clear();
  // stdin: a pipe with data already in it, so the run stays deterministic.
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  const int saved = ::dup(0);
  ::dup2(p[0], 0);
  ASSERT_EQ(::write(p[1], "s", 1), 1);
  b.uart.rx_use_stdin(true);
  wr(CTRL, C_RE);
  to(kChar);
  EXPECT_EQ(rd(DATA), uint32_t('s'));
  b.uart.rx_use_stdin(false);
  ::dup2(saved, 0);
  ::close(saved);
  ::close(p[0]);
  ::close(p[1]);
}

TEST_F(ApbuartTest, ReceiverDisabledLeavesHostDataQueued) {
  b.uart.rx_push("q");
  to(10 * kChar);
  EXPECT_EQ(rd(STATUS) & DR, 0u);
  EXPECT_EQ(b.uart.rx_host_pending(), 1u);
}

TEST_F(ApbuartTest, RxInterruptPerCharacter) {
  wr(CTRL, C_RE | C_RI);
  b.uart.rx_push("ab");
  to(3 * kChar);
  EXPECT_EQ(pulse_times(), (std::vector<sc_core::sc_time>{at(t0, kChar), at(t0, 2 * kChar)}));
}

TEST_F(ApbuartTest, RxFifoInterruptAtHalfFull) {
  wr(CTRL, C_RE | C_RF);
  b.uart.rx_push("abc");
  to(4 * kChar);
  EXPECT_EQ(pulse_times(), std::vector<sc_core::sc_time>{at(t0, 2 * kChar)});
}

TEST_F(ApbuartTest, OverrunLosesCharacters) {
  const uint64_t rx0 = b.uart.rx_bytes(), lost0 = b.uart.rx_dropped();
  b.uart.rx_push("0123456");
  wr(CTRL, C_RE);
  to(7 * kChar);
  // FIFO holds 0-3, '4' waited in the shift register and was overwritten by
  // '5', then '6'.
  EXPECT_EQ(b.uart.rx_bytes() - rx0, 7u);
  EXPECT_EQ(b.uart.rx_dropped() - lost0, 2u);
  EXPECT_EQ(rd(STATUS), DR | TS | TE | TH | OV | RH | RF | RCNT(4));
  std::string got;
  while (rd(STATUS) & DR) got.push_back(static_cast<char>(rd(DATA)));
  EXPECT_EQ(got, "01236");
  wr(STATUS, 0);
  EXPECT_EQ(rd(STATUS) & OV, 0u);
}

TEST_F(ApbuartTest, FlowControlPausesTheSender) {
  b.uart.rx_push("0123456");
  wr(CTRL, C_RE | C_FL);
  to(10 * kChar);
  EXPECT_EQ(rd(STATUS) & OV, 0u);
  EXPECT_EQ(b.uart.rx_host_pending(), 2u);  // 4 in the FIFO, 1 in the shift register
  EXPECT_EQ(rd(DATA), uint32_t('0'));       // '4' moves into the FIFO
  to(10 * kChar + kChar);
  EXPECT_EQ(b.uart.rx_host_pending(), 1u);
  std::string got;
  to(30 * kChar);
  while (rd(STATUS) & DR) {
    got.push_back(static_cast<char>(rd(DATA)));
    if (!(rd(STATUS) & DR)) to(30 * kChar + kChar * (got.size() + 2));
  }
  EXPECT_EQ(got, "123456");
}

TEST_F(ApbuartTest, LoopbackFeedsReceiverNotHost) {
  const uint64_t tx0 = b.uart.tx_bytes();
  wr(CTRL, C_LB | C_TE | C_RE);
  wr(DATA, 'Q');
  EXPECT_EQ(b.tx, "");
  EXPECT_EQ(b.uart.tx_bytes() - tx0, 1u);
  to(kChar - 1);
  EXPECT_EQ(rd(STATUS) & DR, 0u);
  to(kChar);
  EXPECT_EQ(rd(STATUS) & DR, DR);
  EXPECT_EQ(rd(DATA), uint32_t('Q'));
}

TEST_F(ApbuartTest, AnnotatedDelayMatchesLaterAccess) {
  wr(CTRL, C_TE | C_RE | C_RI);
  put("ab");
  b.uart.rx_push("z");
  const uint32_t ahead = rd(STATUS, cyc(kChar + 7));
  to(kChar + 7);
  EXPECT_EQ(rd(STATUS), ahead);
  EXPECT_EQ(ahead, DR | TE | TH | RCNT(1));
}

TEST_F(ApbuartTest, AnnotatedDelayWriteTimesTheCharacter) {
  wr(CTRL, C_TE | C_SI);
  wr(DATA, 'd', cyc(30));  // handed to the transmitter 30 clocks ahead
  to(kChar + 40);
  EXPECT_EQ(pulse_times(), std::vector<sc_core::sc_time>{at(t0, 30 + kChar)});
}

TEST_F(ApbuartTest, NoFifoBuild) {
  auto rd1 = [&](uint32_t off) { return Bench::rd(b.s_uart1, off); };
  auto wr1 = [&](uint32_t off, uint32_t v) { Bench::wr(b.s_uart1, off, v); };
  EXPECT_EQ(rd1(CTRL), 0u);  // no FA bit
  wr1(CTRL, 0xFFFF);
  EXPECT_EQ(rd1(CTRL), 0xFFFFu & ~(C_TF | C_RF));
  wr1(CTRL, C_TE | C_TI);
  wr1(DATA, 'x');  // straight to the shift register
  EXPECT_EQ(rd1(STATUS), uint32_t(TE));
  wr1(DATA, 'y');  // holding register full
  EXPECT_EQ(rd1(STATUS), 0u);
  wr1(DATA, 'z');  // dropped
  EXPECT_EQ(b.tx1, "xy");
  Bench::rd(b.s_uart1, STATUS);
  advance(cyc(2 * kChar));
  // TI on every transfer from the holding register.
  ASSERT_EQ(b.irq_uart1.pulses.size(), 2u);
  EXPECT_EQ(b.irq_uart1.pulses[0], std::make_pair(3u, t0));
  EXPECT_EQ(b.irq_uart1.pulses[1], std::make_pair(3u, at(t0, kChar)));
}

}  // namespace
}  // namespace l3vp::test

namespace l3vp::test {
namespace {

TEST_F(ApbuartTest, TxAndRxProbes) {
  std::vector<UartTxEvent> tx;
  std::vector<UartRxEvent> rx;
  const auto i1 = b.uart.on_tx.listen([&](const UartTxEvent& e) { tx.push_back(e); });
  const auto i2 = b.uart.on_rx.listen([&](const UartRxEvent& e) { rx.push_back(e); });
  b.uart.rx_push("hi");
  wr(CTRL, C_TE | C_RE);
  put("AB");
  to(3 * kChar);
  b.uart.on_tx.unlisten(i1);
  b.uart.on_rx.unlisten(i2);
  ASSERT_EQ(tx.size(), 2u);
  EXPECT_EQ(tx[0].ch, 'A');
  EXPECT_EQ(tx[0].start, t0);
  EXPECT_EQ(tx[0].end, at(t0, kChar));
  EXPECT_EQ(tx[1].ch, 'B');
  EXPECT_EQ(tx[1].start, at(t0, kChar));
  EXPECT_EQ(tx[1].end, at(t0, 2 * kChar));
  EXPECT_FALSE(tx[0].loopback);
  ASSERT_EQ(rx.size(), 2u);
  EXPECT_EQ(rx[0].ch, 'h');
  EXPECT_EQ(rx[0].t, at(t0, kChar));
  EXPECT_EQ(rx[1].ch, 'i');
  EXPECT_EQ(rx[1].t, at(t0, 2 * kChar));
  EXPECT_FALSE(rx[1].overrun);
}

// A debug read of DATA shows the head of the RX FIFO without popping it;
// only the CPU read pops.
TEST_F(ApbuartTest, DebugReadDoesNotPopTheFifo) {
  b.uart.rx_push("xy");
  wr(CTRL, C_RE);
  to(2 * kChar);
  EXPECT_EQ(Bench::dbg_rd(b.s_uart, DATA), uint32_t('x'));
  EXPECT_EQ(Bench::dbg_rd(b.s_uart, DATA), uint32_t('x'));
  EXPECT_EQ(Bench::dbg_rd(b.s_uart, STATUS) & RCNT(3), RCNT(2));
  EXPECT_EQ(rd(STATUS) & (DR | RCNT(3)), DR | RCNT(2));
  EXPECT_EQ(rd(DATA), uint32_t('x'));
  EXPECT_EQ(Bench::dbg_rd(b.s_uart, DATA), uint32_t('y'));
  EXPECT_EQ(rd(DATA), uint32_t('y'));
  EXPECT_EQ(rd(STATUS) & DR, 0u);
}

// Attaching listeners changes no register value and no IRQ time.
TEST_F(ApbuartTest, ListeningChangesNothing) {
  auto run = [&](bool listen) {
    SetUp();
    Probe<UartTxEvent>::Id a = 0;
    Probe<UartRxEvent>::Id c = 0;
    if (listen) {
      a = b.uart.on_tx.listen([](const UartTxEvent&) {});
      c = b.uart.on_rx.listen([](const UartRxEvent&) {});
    }
    std::vector<uint64_t> r;
    b.uart.rx_push("hello");
    wr(CTRL, C_TE | C_RE | C_RI | C_TI | C_SI);
    put("abc");
    for (uint64_t k = 1; k <= 8; ++k) {
      to(k * 100);
      r.push_back(rd(STATUS, cyc(7)));
      if (k % 3 == 0) r.push_back(rd(DATA));
    }
    for (const auto& t : pulse_times()) r.push_back((t - t0).value());
    if (listen) {
      b.uart.on_tx.unlisten(a);
      b.uart.on_rx.unlisten(c);
    }
    return r;
  };
  const auto quiet = run(false);
  const auto heard = run(true);
  EXPECT_EQ(quiet, heard);
  EXPECT_GT(quiet.size(), 12u);
}

}  // namespace
}  // namespace l3vp::test
