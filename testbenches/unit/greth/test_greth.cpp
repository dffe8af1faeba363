// GRETH register, DMA, filter, error, MDIO and reset tests (hw-reference §3).
#include "bench.h"

namespace l3vp::test {
namespace {

using G = Greth;
constexpr uint32_t TXT = kRam + 0x0000, RXT = kRam + 0x0400;    // descriptor tables
constexpr uint32_t TXB = kRam + 0x10000, RXB = kRam + 0x20000;  // buffers, 2 KiB apart
constexpr uint32_t buf(uint32_t base, unsigned i) { return base + 0x800 * i; }
const uint8_t kMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x08};
const uint8_t kHostMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
const uint8_t kBcast[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

EthFrame make(const uint8_t* da, uint16_t type, size_t len, uint8_t tag = 0) {
  EthFrame f;
  f.data.resize(len);
  for (size_t i = 0; i < len; ++i) f.data[i] = static_cast<uint8_t>(tag * 7 + i);
  std::copy(da, da + 6, f.data.begin());
  std::copy(kHostMac, kHostMac + 6, f.data.begin() + 6);
  f.data[12] = uint8_t(type >> 8);
  f.data[13] = uint8_t(type);
  return f;
}

// Independent formulation of the multicast hash (hw-reference §3.7): a
// non-reflected CRC-32 register fed the DA bits LSB first; index = low 6 bits.
unsigned hash_index(const uint8_t* da) {
  uint32_t crc = 0xFFFFFFFF;
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 8; ++k) {
      const uint32_t fb = ((crc >> 31) ^ (da[i] >> k)) & 1;
      crc <<= 1;
      if (fb) crc ^= 0x04C11DB7;
    }
  return crc & 0x3F;
}

void put_tx_on(Bench& x, unsigned i, const EthFrame& f, uint32_t flags) {
  std::copy(f.data.begin(), f.data.end(), x.ptr(buf(TXB, i)));
  x.desc(TXT + 8 * i, flags | G::DESC_EN | uint32_t(f.data.size()), buf(TXB, i));
}

// Every test starts with both benches (bench.h) reset and empty; `b` is the
// one under test (the default MAC unless a fixture picks the other).
class GrethTest : public ::testing::Test {
 protected:
  GrethTest() = default;
  explicit GrethTest(Bench& dut) : b(dut) {}
  void SetUp() override {
    run_us(300);  // let the previous test's traffic drain
    Bench* const all[] = {&bench(), &gbit_bench()};
    for (Bench* x : all) {
      x->per_access = x->per_word = sc_core::SC_ZERO_TIME;
      x->mac.reset();
    }
    run_us(1);
    for (Bench* x : all) {
      x->ram.fill(0, 0, 0x40000);
      x->rom.fill(0, 0, 0x1000);
      x->irq.pulses.clear();
      x->host.rx.clear();
      x->dma.clear();
    }
    s0 = b.mac.stats();
    for (Bench* x : all) {
      x->wr(G::MAC_MSB, 0x0200);
      x->wr(G::MAC_LSB, 0x00000008);
      x->wr(G::TXDESC, TXT);
      x->wr(G::RXDESC, RXT);
    }
    t0 = sc_core::sc_time_stamp();
  }
  uint32_t rd(uint32_t o) { return b.rd(o); }
  void wr(uint32_t o, uint32_t v) { b.wr(o, v); }
  void put_tx(unsigned i, const EthFrame& f, uint32_t flags) { put_tx_on(b, i, f, flags); }
  // Two frames on descriptors 0 and 1, TE set, run: both must reach the host.
  void send_pair(const EthFrame& a, const EthFrame& c, uint64_t us) {
    put_tx(0, a, 0);
    put_tx(1, c, 0);
    wr(G::CTRL, G::CTRL_TE);
    run_us(us);
    ASSERT_EQ(b.host.rx.size(), 2u);
  }
  void put_rx(unsigned i, uint32_t flags) { b.desc(RXT + 8 * i, flags | G::DESC_EN, buf(RXB, i)); }
  // Host -> MAC over the link.
  void host_send(const EthFrame& f) { b.link.port(1).send(f); }
  bool rx_buffer_holds(unsigned i, const EthFrame& f) {
    return std::equal(f.data.begin(), f.data.end(), b.ptr(buf(RXB, i)));
  }
  Bench& b = bench();
  GrethStats s0;
  sc_time t0;
};

TEST_F(GrethTest, ResetValuesPnpAndAliasing) {
  b.mac.reset();
  EXPECT_EQ(rd(G::CTRL), 0x06000000u);  // MA (PHY irq input) | MC (multicast); EA=0 (no EDCL)
  EXPECT_EQ(rd(G::STATUS), 0u);
  EXPECT_EQ(rd(G::MDIO), uint32_t(G::MDIO_LF));
  EXPECT_EQ(rd(G::TXDESC), 0u);
  EXPECT_EQ(rd(G::HASH_MSB), 0u);
  EXPECT_EQ(b.mac.pnp().id, 0x0101D006u);
  EXPECT_EQ(b.mac.pnp().bar, 0x00D0FFF1u);
  EXPECT_EQ(b.mac.ahb_pnp().id, 0x0101D000u);
  wr(G::HASH_LSB, 0x12345678);
  EXPECT_EQ(rd(0x40 + G::HASH_LSB), 0x12345678u);  // paddr[5:2] decode
  EXPECT_EQ(rd(0xC0 + G::HASH_LSB), 0x12345678u);
  // EDCL IP / EDCL MAC are absent: read 0, writes ignored (both counted).
  const uint64_t ge = Log::count(LogCat::GuestError);
  wr(0x1C, 0xC0A80033);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 1);
  EXPECT_EQ(rd(0x1C), 0u);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 2);
}

TEST_F(GrethTest, RegisterWriteMasks) {
  wr(G::MAC_MSB, 0xFFFFFFFF);
  EXPECT_EQ(rd(G::MAC_MSB), 0xFFFFu);
  wr(G::TXDESC, 0x40001238);
  EXPECT_EQ(rd(G::TXDESC), 0x40001238u);
  wr(G::TXDESC, 0x40001FFF);  // base 1 KiB aligned, index bits 9:3
  EXPECT_EQ(rd(G::TXDESC), 0x40001FF8u);
  wr(G::TXDESC, TXT);
  // Every writable CTRL bit except RS; TE/RE start the DMAs, which meet EN=0
  // descriptors (zeroed RAM) and clear TE/RE again.
  wr(G::CTRL, 0xFFFFFFFF & ~G::CTRL_RS);
  EXPECT_EQ(rd(G::CTRL) & 0x3F, 0x3Fu);
  run_us(1);
  EXPECT_EQ(rd(G::CTRL), 0x06000000u | G::CTRL_TI | G::CTRL_RI | G::CTRL_FD | G::CTRL_PM | G::CTRL_PI |
                             G::CTRL_ME);  // SP not writable (MII), TE/RE cleared by the DMAs
  EXPECT_EQ(rd(G::STATUS), 0u);            // EN=0 is not an error
  EXPECT_TRUE(b.irq.pulses.empty());
}

// ---------------------------------------------------------------------------
// Transmit
// ---------------------------------------------------------------------------

TEST_F(GrethTest, TxFrameTimingThroughBus) {
  b.per_access = sc_time(50, SC_NS);
  b.per_word = sc_time(25, SC_NS);
  const EthFrame f = make(kHostMac, 0x0800, 100, 1);
  put_tx(0, f, G::DESC_IE);
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(30);
  ASSERT_EQ(b.host.rx.size(), 1u);
  EXPECT_EQ(b.host.rx[0].f.data, f.data);
  // Descriptor read (2 words) 100 ns; then 4 x 4-word bursts (150 ns each)
  // fill the 16-word FIFO: transmission starts at 700 ns, the 112 wire bytes
  // take 8.96 us, then the status write (75 ns); the IRQ follows it.
  EXPECT_EQ(b.host.rx[0].start - t0, sc_time(700, SC_NS));
  EXPECT_EQ(b.host.rx[0].end - t0, sc_time(700 + 8960, SC_NS));
  ASSERT_EQ(b.irq.pulses.size(), 1u);
  EXPECT_EQ(b.irq.pulses[0].first, 6u);
  EXPECT_EQ(b.irq.pulses[0].second - t0, sc_time(700 + 8960 + 75, SC_NS));
  // The bus saw: desc read, 7 data reads, status write, next desc read.
  ASSERT_EQ(b.dma.size(), 10u);
  EXPECT_EQ(b.dma[0].len, 8u);
  for (unsigned i = 1; i <= 6; ++i) {
    EXPECT_EQ(b.dma[i].addr, buf(TXB, 0) + 16 * (i - 1));
    EXPECT_EQ(b.dma[i].len, 16u);
  }
  EXPECT_EQ(b.dma[7].len, 4u);
  // The bursts after the start wait for FIFO room: data starts after the
  // preamble (700 + 640 ns); burst 5 needs 4 words gone (3 word times
  // later, 320 ns each), burst 6 needs 8 and the last word 9.
  EXPECT_EQ(b.dma[4].t - t0, sc_time(550, SC_NS));
  EXPECT_EQ(b.dma[5].t - t0, sc_time(1340 + 3 * 320, SC_NS));
  EXPECT_EQ(b.dma[6].t - t0, sc_time(1340 + 7 * 320, SC_NS));
  EXPECT_EQ(b.dma[7].t - t0, sc_time(1340 + 8 * 320, SC_NS));
  EXPECT_TRUE(b.dma[8].write);
  EXPECT_EQ(b.dma[8].t - t0, sc_time(700 + 8960, SC_NS));
  EXPECT_EQ(b.m32(TXT), 0u);  // write-back: EN, WR, IE and LENGTH cleared
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TI));
  EXPECT_EQ(rd(G::TXDESC), TXT + 8);
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_TE, 0u);  // next descriptor EN=0
  EXPECT_EQ(b.mac.stats().tx_frames - s0.tx_frames, 1u);
  EXPECT_EQ(b.mac.stats().tx_bytes - s0.tx_bytes, 100u);
  EXPECT_EQ(b.mac.stats().tx_underruns - s0.tx_underruns, 0u);
  EXPECT_EQ(b.mac.stats().tx_data_changed - s0.tx_data_changed, 0u);
  wr(G::STATUS, G::ST_TI);  // write 1 to clear
  EXPECT_EQ(rd(G::STATUS), 0u);
}

// Full-size frames stream: each one starts 16 words after its descriptor
// read, so back-to-back frames leave a gap of the write-back, the next
// descriptor read and four bursts (at least one IFG), not a whole fetch.
TEST_F(GrethTest, TxFullFramesStreamBackToBack) {
  b.per_access = sc_time(100, SC_NS);
  b.per_word = sc_time(25, SC_NS);
  const EthFrame a = make(kHostMac, 0x0800, 1514, 1), c = make(kHostMac, 0x0800, 1514, 2);
  ASSERT_NO_FATAL_FAILURE(send_pair(a, c, 300));
  EXPECT_EQ(b.host.rx[0].f.data, a.data);
  EXPECT_EQ(b.host.rx[1].f.data, c.data);
  EXPECT_EQ(b.host.rx[0].start - t0, sc_time(150 + 4 * 200, SC_NS));
  EXPECT_EQ(b.host.rx[0].end - b.host.rx[0].start, sc_time((8 + 1514 + 4) * 80, SC_NS));
  // Status write 125 + descriptor read 150 + 4 bursts 800 ns (> one IFG, 960 ns).
  EXPECT_EQ(b.host.rx[1].start - b.host.rx[0].end, sc_time(1075, SC_NS));
  // 379 words in 95 bursts per frame; no burst came late.
  unsigned bursts = 0;
  for (const auto& x : b.dma) bursts += !x.write && x.len != 8;
  EXPECT_EQ(bursts, 2u * 95);
  EXPECT_EQ(b.mac.stats().tx_underruns - s0.tx_underruns, 0u);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TI));
}

TEST_F(GrethTest, TxUnderrunWithSlowBus) {
  b.per_access = sc_time(3, SC_US);  // a burst every 3 us; the wire takes 16 bytes per 1.28 us
  const EthFrame f = make(kHostMac, 0x0800, 400, 1);
  put_tx(0, f, G::DESC_IE);
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(200);
  // Bursts 1-4 fill the FIFO; burst 5 arrives 3.96 us after the data
  // started (needed at 5.12), burst 6 at 6.96 (needed at 6.40): underrun.
  EXPECT_EQ(b.m32(TXT), uint32_t(G::TXD_UE));
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TE));  // an error completion
  ASSERT_EQ(b.irq.pulses.size(), 1u);            // IE: the IRQ comes regardless
  EXPECT_EQ(b.mac.stats().tx_underruns - s0.tx_underruns, 1u);
  // The DMA stops fetching at the underrun: descriptor, 6 bursts, write-back, next descriptor.
  ASSERT_EQ(b.dma.size(), 9u);
  EXPECT_EQ(rd(G::TXDESC), TXT + 8);
}

TEST_F(GrethTest, TxBufferRewrittenWhileSendingIsCounted) {
  const EthFrame f = make(kHostMac, 0x0800, 1000, 1);
  put_tx(0, f, 0);
  wr(G::CTRL, G::CTRL_TE);
  run_us(5);  // the frame has started (16 words fetched); its tail is fetched later
  ASSERT_EQ(b.host.rx.size(), 0u);
  b.ptr(buf(TXB, 0))[900] ^= 0xFF;
  run_us(100);
  ASSERT_EQ(b.host.rx.size(), 1u);
  EXPECT_EQ(b.host.rx[0].f.data, f.data);  // the link carries the frame as it started
  EXPECT_EQ(b.mac.stats().tx_data_changed - s0.tx_data_changed, 1u);
  EXPECT_EQ(b.m32(TXT), 0u);
}

TEST_F(GrethTest, TxShortFramePaddedAndBackToBack) {
  const EthFrame a = make(kHostMac, 0x0800, 20, 1), c = make(kBcast, 0x0806, 42, 2);
  ASSERT_NO_FATAL_FAILURE(send_pair(a, c, 30));
  ASSERT_EQ(b.host.rx[0].f.data.size(), 60u);
  EXPECT_TRUE(std::equal(a.data.begin(), a.data.end(), b.host.rx[0].f.data.begin()));
  EXPECT_TRUE(std::all_of(b.host.rx[0].f.data.begin() + 20, b.host.rx[0].f.data.end(),
                          [](uint8_t x) { return x == 0; }));
  EXPECT_EQ(b.host.rx[0].end - b.host.rx[0].start, sc_time(5760, SC_NS));
  // Second frame: fetched after the first write-back, sent one IFG later.
  EXPECT_EQ(b.host.rx[1].start - b.host.rx[0].end, sc_time(960, SC_NS));
  EXPECT_TRUE(b.irq.pulses.empty());  // IE=0
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TI));
}

TEST_F(GrethTest, TxRingWrapBitAndReenable) {
  for (unsigned i = 0; i < 3; ++i)
    put_tx(i, make(kHostMac, 0x0800, 64, uint8_t(i)), i == 2 ? uint32_t(G::DESC_WR) : 0u);
  wr(G::CTRL, G::CTRL_TE);
  run_us(50);
  ASSERT_EQ(b.host.rx.size(), 3u);
  EXPECT_EQ(rd(G::TXDESC), TXT);            // wrapped after the WR descriptor
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_TE, 0u);  // descriptor 0 is no longer enabled
  // Re-enable descriptor 0 and set TE again (it must be set every time).
  put_tx(0, make(kHostMac, 0x0800, 64, 9), 0);
  wr(G::CTRL, G::CTRL_TE);
  run_us(20);
  ASSERT_EQ(b.host.rx.size(), 4u);
  EXPECT_EQ(b.host.rx[3].f.data[20], uint8_t(9 * 7 + 20));
  EXPECT_EQ(rd(G::TXDESC), TXT + 8);
}

TEST_F(GrethTest, TxRingWrapsAfter128Descriptors) {
  put_tx(127, make(kHostMac, 0x0800, 64, 1), 0);
  put_tx(0, make(kHostMac, 0x0800, 64, 2), 0);
  wr(G::TXDESC, TXT | 0x3F8);
  EXPECT_EQ(rd(G::TXDESC), TXT | 0x3F8);
  wr(G::CTRL, G::CTRL_TE);
  run_us(30);
  ASSERT_EQ(b.host.rx.size(), 2u);
  EXPECT_EQ(b.host.rx[1].f.data[20], uint8_t(2 * 7 + 20));
  EXPECT_EQ(rd(G::TXDESC), TXT + 8);
}

TEST_F(GrethTest, TxZeroAndOversizeLengthsAreSkipped) {
  b.desc(TXT, G::DESC_EN | G::DESC_IE | 0, buf(TXB, 0));
  b.desc(TXT + 8, G::DESC_EN | G::DESC_IE | 1515, buf(TXB, 1));
  put_tx(2, make(kHostMac, 0x0800, 1514, 3), G::DESC_IE);  // the maximum is sent
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(200);
  ASSERT_EQ(b.host.rx.size(), 1u);
  EXPECT_EQ(b.host.rx[0].f.data.size(), 1514u);
  EXPECT_EQ(b.m32(TXT), 0u);
  EXPECT_EQ(b.m32(TXT + 8), 0u);
  EXPECT_EQ(b.irq.pulses.size(), 3u);     // "successful" no-ops interrupt too
  EXPECT_EQ(b.irq.pulses[0].second, t0);  // zero bus time: at once
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TI));
  EXPECT_EQ(b.mac.stats().tx_skipped - s0.tx_skipped, 2u);
  EXPECT_EQ(rd(G::TXDESC), TXT + 24);
}

TEST_F(GrethTest, TxInterruptNeedsDescriptorIeAndCtrlTi) {
  put_tx(0, make(kHostMac, 0x0800, 64), G::DESC_IE);  // IE, CTRL.TI=0
  put_tx(1, make(kHostMac, 0x0800, 64), 0);           // no IE, CTRL.TI=1
  put_tx(2, make(kHostMac, 0x0800, 64), G::DESC_IE);  // both
  wr(G::CTRL, G::CTRL_TE);
  run_us(8);                                     // first frame done (6.72 us incl. write-back)
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TI));  // status set regardless
  EXPECT_TRUE(b.irq.pulses.empty());
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(30);
  ASSERT_EQ(b.host.rx.size(), 3u);
  ASSERT_EQ(b.irq.pulses.size(), 1u);
  EXPECT_EQ(b.irq.pulses[0].second, b.host.rx[2].end);
  EXPECT_EQ(b.mac.stats().irq_pulses - s0.irq_pulses, 1u);
}

TEST_F(GrethTest, TxAhbErrorOnDescriptorRead) {
  wr(G::TXDESC, kHole);
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(5);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TA));
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_TE, 0u);
  EXPECT_TRUE(b.irq.pulses.empty());  // no IRQ on AHB errors
  EXPECT_EQ(b.mac.stats().tx_ahb_errors - s0.tx_ahb_errors, 1u);
}

TEST_F(GrethTest, TxAhbErrorOnDataReadThenRestart) {
  const EthFrame f = make(kHostMac, 0x0800, 100, 4);
  put_tx(0, f, G::DESC_IE);
  b.s32(TXT + 4, kHole + 0x100);  // buffer in a hole
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(20);
  EXPECT_TRUE(b.host.rx.empty());
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TA));
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_TE, 0u);
  EXPECT_EQ(b.m32(TXT) & G::DESC_EN, uint32_t(G::DESC_EN));  // not written back
  EXPECT_EQ(rd(G::TXDESC), TXT);                             // not advanced
  EXPECT_TRUE(b.irq.pulses.empty());
  b.s32(TXT + 4, buf(TXB, 0));
  wr(G::STATUS, G::ST_TA);
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(20);
  ASSERT_EQ(b.host.rx.size(), 1u);
  EXPECT_EQ(b.host.rx[0].f.data, f.data);
  EXPECT_EQ(b.irq.pulses.size(), 1u);
}

// An AHB error after transmission started (the buffer runs off the end of
// RAM after its first 16 words): TA, TE cleared, no write-back, as before
// the start; the frame already went out (README "TX": the real MAC would
// end it with a bad FCS).
TEST_F(GrethTest, TxAhbErrorAfterTheStart) {
  const uint32_t end = kRam + (1u << 20);
  const EthFrame f = make(kHostMac, 0x0800, 200, 5);
  std::copy(f.data.begin(), f.data.begin() + 120, b.ptr(end - 120));
  b.desc(TXT, G::DESC_EN | G::DESC_IE | 200u, end - 120);
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(30);
  ASSERT_EQ(b.host.rx.size(), 1u);  // started after 64 bytes
  EXPECT_TRUE(std::equal(f.data.begin(), f.data.begin() + 120, b.host.rx[0].f.data.begin()));
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TA));
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_TE, 0u);
  EXPECT_EQ(b.m32(TXT) & G::DESC_EN, uint32_t(G::DESC_EN));  // not written back
  EXPECT_EQ(rd(G::TXDESC), TXT);
  EXPECT_TRUE(b.irq.pulses.empty());
  EXPECT_EQ(b.mac.stats().tx_ahb_errors - s0.tx_ahb_errors, 1u);
}

TEST_F(GrethTest, TxAhbErrorOnStatusWriteToRom) {
  // Descriptor table in ROM: reads work, the write-back gets an error.
  wr(G::TXDESC, kRom);
  const EthFrame f = make(kHostMac, 0x0800, 64);
  std::copy(f.data.begin(), f.data.end(), b.ptr(buf(TXB, 0)));
  b.desc(kRom, G::DESC_EN | G::DESC_IE | 64, buf(TXB, 0));
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(20);
  EXPECT_EQ(b.host.rx.size(), 1u);  // the frame itself went out
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TA));
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_TE, 0u);
  EXPECT_EQ(rd(G::TXDESC), kRom);
  EXPECT_TRUE(b.irq.pulses.empty());
}

// ---------------------------------------------------------------------------
// Receive
// ---------------------------------------------------------------------------

TEST_F(GrethTest, RxFrameWrittenAtWireRate) {
  put_rx(0, G::DESC_IE);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);
  run_us(1);
  const EthFrame f = make(kMac, 0x0800, 100, 5);
  const sc_time ts = sc_core::sc_time_stamp();
  host_send(f);
  run_us(20);
  EXPECT_TRUE(rx_buffer_holds(0, f));
  EXPECT_EQ(b.m32(RXT), 100u);  // LENGTH, no status bits, EN/IE cleared
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI));
  EXPECT_EQ(rd(G::RXDESC), RXT + 8);
  // Data bursts: 100 bytes = 25 words = 6 x 16 + 4. Burst k is written when
  // its last byte has arrived: preamble 8 bytes + 16(k+1) bytes at 80 ns.
  std::vector<Access> w;
  for (auto& a : b.dma)
    if (a.write) w.push_back(a);
  ASSERT_EQ(w.size(), 8u);
  for (unsigned k = 0; k < 6; ++k) {
    EXPECT_EQ(w[k].addr, buf(RXB, 0) + 16 * k);
    EXPECT_EQ(w[k].t - ts, sc_time(80 * (8 + 16 * (k + 1)), SC_NS)) << k;
  }
  EXPECT_EQ(w[6].len, 4u);
  EXPECT_EQ(w[6].t - ts, sc_time(80 * (8 + 100), SC_NS));
  // Status write at the end of the frame (FCS included): 112 bytes.
  EXPECT_EQ(w[7].addr, RXT);
  EXPECT_EQ(w[7].t - ts, sc_time(8960, SC_NS));
  ASSERT_EQ(b.irq.pulses.size(), 1u);
  EXPECT_EQ(b.irq.pulses[0].second - ts, sc_time(8960, SC_NS));
  EXPECT_EQ(b.mac.stats().rx_frames - s0.rx_frames, 1u);
  EXPECT_EQ(b.mac.stats().rx_bytes - s0.rx_bytes, 100u);
}

TEST_F(GrethTest, RxRingWrapAndExhaustion) {
  put_rx(0, 0);
  put_rx(1, G::DESC_WR);
  wr(G::CTRL, G::CTRL_RE);
  for (uint8_t i = 0; i < 3; ++i) host_send(make(kMac, 0x0800, 80, i));
  run_us(50);
  EXPECT_TRUE(rx_buffer_holds(0, make(kMac, 0x0800, 80, 0)));
  EXPECT_TRUE(rx_buffer_holds(1, make(kMac, 0x0800, 80, 1)));
  EXPECT_EQ(rd(G::RXDESC), RXT);            // WR wrapped to descriptor 0 ...
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_RE, 0u);  // ... which is no longer enabled
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI));
  EXPECT_EQ(b.mac.stats().rx_drop_exhausted - s0.rx_drop_exhausted, 1u);
  EXPECT_EQ(b.mac.stats().rx_frames - s0.rx_frames, 2u);
  // Refill and re-enable.
  put_rx(0, 0);
  wr(G::CTRL, G::CTRL_RE);
  host_send(make(kMac, 0x0800, 80, 7));
  run_us(20);
  EXPECT_TRUE(rx_buffer_holds(0, make(kMac, 0x0800, 80, 7)));
  EXPECT_EQ(rd(G::RXDESC), RXT + 8);
}

TEST_F(GrethTest, RxRingWrapsAfter128Descriptors) {
  put_rx(127, 0);
  put_rx(0, 0);
  wr(G::RXDESC, RXT | 0x3F8);
  wr(G::CTRL, G::CTRL_RE);
  host_send(make(kMac, 0x0800, 64, 1));
  host_send(make(kMac, 0x0800, 64, 2));
  run_us(30);
  EXPECT_TRUE(rx_buffer_holds(127, make(kMac, 0x0800, 64, 1)));
  EXPECT_TRUE(rx_buffer_holds(0, make(kMac, 0x0800, 64, 2)));
  EXPECT_EQ(rd(G::RXDESC), RXT + 8);
}

TEST_F(GrethTest, RxInterruptRules) {
  put_rx(0, G::DESC_IE);  // IE, CTRL.RI=0
  put_rx(1, 0);           // no IE
  put_rx(2, G::DESC_IE);
  wr(G::CTRL, G::CTRL_RE);
  host_send(make(kMac, 0x0800, 64));
  run_us(10);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI));
  EXPECT_TRUE(b.irq.pulses.empty());
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);
  host_send(make(kMac, 0x0800, 64));
  host_send(make(kMac, 0x0800, 64));
  run_us(20);
  EXPECT_EQ(b.irq.pulses.size(), 1u);
}

TEST_F(GrethTest, RxAddressFilter) {
  for (unsigned i = 0; i < 8; ++i) put_rx(i, 0);
  const uint8_t other[6] = {0x02, 0, 0, 0, 0, 0x99};
  const uint8_t mc1[6] = {0x01, 0x00, 0x5E, 0x00, 0x00, 0x01};
  const uint8_t mc2[6] = {0x33, 0x33, 0x00, 0x00, 0x00, 0x02};
  const unsigned h1 = hash_index(mc1);
  ASSERT_NE(h1, hash_index(mc2));
  wr(G::CTRL, G::CTRL_RE);
  auto send_and_settle = [&](const uint8_t* da, uint16_t type = 0x0800) {
    host_send(make(da, type, 64));
    run_us(10);
  };
  send_and_settle(kMac);    // station: accepted (desc 0)
  send_and_settle(kBcast);  // broadcast: accepted (desc 1)
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI));
  send_and_settle(other);  // other unicast: IA
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI | G::ST_IA));
  EXPECT_EQ(rd(G::RXDESC), RXT + 16);  // descriptor untouched by the drop
  send_and_settle(mc1);                // multicast, ME=0: IA
  wr(G::STATUS, 0xFFFFFFFF);
  EXPECT_EQ(rd(G::STATUS), 0u);
  // Hash filter: only the bit of mc1 set.
  if (h1 >= 32)
    wr(G::HASH_MSB, 1u << (h1 - 32));
  else
    wr(G::HASH_LSB, 1u << h1);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_ME);
  send_and_settle(mc1);  // accepted through the hash (desc 2), MC bit
  EXPECT_EQ(b.m32(RXT + 16), uint32_t(G::RXD_MC) | 64);
  send_and_settle(mc2);  // hash bit clear: IA
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI | G::ST_IA));
  send_and_settle(kBcast);  // broadcast is never flagged MC (desc 3)
  EXPECT_EQ(b.m32(RXT + 24), 64u);
  // Promiscuous: everything except MAC control frames.
  wr(G::STATUS, 0xFFFFFFFF);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_PM);
  send_and_settle(other);  // desc 4
  send_and_settle(mc2);    // desc 5
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI));
  EXPECT_EQ(rd(G::RXDESC), RXT + 48);
  send_and_settle(kMac, 0x8808);  // MAC control (pause): IA even to us, even in PM
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI | G::ST_IA));
  EXPECT_EQ(rd(G::RXDESC), RXT + 48);
  const GrethStats& s = b.mac.stats();
  EXPECT_EQ(s.rx_frames - s0.rx_frames, 6u);
  EXPECT_EQ(s.rx_drop_filter - s0.rx_drop_filter, 3u);
  EXPECT_EQ(s.rx_drop_control - s0.rx_drop_control, 1u);
  EXPECT_TRUE(b.irq.pulses.empty());
}

TEST_F(GrethTest, RxRuntDroppedWithTs) {
  put_rx(0, G::DESC_IE);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);
  run_us(1);
  b.mac.frame_in(make(kMac, 0x0800, 59));  // 63 bytes with FCS
  run_us(5);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TS));
  EXPECT_EQ(b.m32(RXT), uint32_t(G::DESC_EN | G::DESC_IE));  // untouched
  EXPECT_TRUE(b.irq.pulses.empty());
  b.mac.frame_in(make(kMac, 0x0800, 60));  // 64 with FCS: accepted, same descriptor
  run_us(5);
  EXPECT_EQ(b.m32(RXT), 60u);
  EXPECT_EQ(b.irq.pulses.size(), 1u);
  EXPECT_EQ(b.mac.stats().rx_drop_runt - s0.rx_drop_runt, 1u);
}

TEST_F(GrethTest, RxErrorBits) {
  for (unsigned i = 0; i < 8; ++i) put_rx(i, G::DESC_IE);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);
  run_us(1);
  auto inject = [&](EthFrame f) {
    b.mac.frame_in(f);
    run_us(5);
  };
  EthFrame f = make(kMac, 0x0800, 64);
  f.crc_error = true;
  inject(f);  // 0: CE
  f.dribble = true;
  inject(f);  // 1: AE (bad CRC, odd nibbles)
  EthFrame g = make(kMac, 100, 114);
  inject(g);  // 2: length field 100 -> 114 bytes: no LE
  g = make(kMac, 100, 120);
  inject(g);  // 3: LE
  g = make(kMac, 40, 60);
  inject(g);  // 4: length 40 -> 54 <= 60 and 60 received: no LE
  g = make(kMac, 0x0800, 1520);
  inject(g);  // 5: FT (longer than 1514)
  EXPECT_EQ(b.m32(RXT + 0), uint32_t(G::RXD_CE) | 64);
  EXPECT_EQ(b.m32(RXT + 8), uint32_t(G::RXD_AE) | 64);
  EXPECT_EQ(b.m32(RXT + 16), 114u);
  EXPECT_EQ(b.m32(RXT + 24), uint32_t(G::RXD_LE) | 120);
  EXPECT_EQ(b.m32(RXT + 32), 60u);
  EXPECT_EQ(b.m32(RXT + 40) & ~G::DESC_LEN, uint32_t(G::RXD_FT));
  // FT: the DMA never writes past 1514 bytes (rounded up to a word).
  EXPECT_EQ(b.ptr(buf(RXB, 5))[1516], 0u);
  EXPECT_EQ(b.ptr(buf(RXB, 5))[1513], g.data[1513]);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RE | G::ST_RI));
  EXPECT_EQ(b.irq.pulses.size(), 6u);  // IE+RI interrupts regardless of errors
  const GrethStats& s = b.mac.stats();
  EXPECT_EQ(s.rx_crc_errors - s0.rx_crc_errors, 1u);
  EXPECT_EQ(s.rx_align_errors - s0.rx_align_errors, 1u);
  EXPECT_EQ(s.rx_length_errors - s0.rx_length_errors, 1u);
  EXPECT_EQ(s.rx_too_long - s0.rx_too_long, 1u);
  EXPECT_EQ(s.rx_errors - s0.rx_errors, 4u);
}

TEST_F(GrethTest, RxCorruptedOnTheLinkGivesCe) {
  put_rx(0, 0);
  wr(G::CTRL, G::CTRL_RE);
  const EthFrame f = make(kMac, 0x0800, 200);
  b.bad.port(1).send(f);
  run_us(30);
  // The flipped bit may hit the DA (then the frame is filtered) or the FCS.
  const uint32_t w0 = b.m32(RXT);
  if (w0 & G::DESC_EN) {
    EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_IA));
  } else {
    EXPECT_EQ(w0, uint32_t(G::RXD_CE) | 200);
    EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RE));
  }
  EXPECT_EQ(b.bad.stats(1).corrupted, 1u);
}

TEST_F(GrethTest, RxFramesWhileDisabledAreCounted) {
  put_rx(0, 0);
  for (int i = 0; i < 3; ++i) host_send(make(kMac, 0x0800, 64));
  run_us(30);
  EXPECT_EQ(rd(G::STATUS), 0u);  // silently discarded
  EXPECT_EQ(b.m32(RXT), uint32_t(G::DESC_EN));
  EXPECT_EQ(b.mac.stats().rx_drop_disabled - s0.rx_drop_disabled, 3u);
}

TEST_F(GrethTest, RxAhbErrors) {
  // Descriptor table in a hole.
  wr(G::RXDESC, kHole);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);
  run_us(1);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RA));
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_RE, 0u);
  // Buffer in a hole: frame lost, descriptor not written, RE cleared.
  wr(G::STATUS, 0xFFFFFFFF);
  wr(G::RXDESC, RXT);
  b.desc(RXT, G::DESC_EN | G::DESC_IE, kHole);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);
  host_send(make(kMac, 0x0800, 64));
  run_us(10);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RA));
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_RE, 0u);
  EXPECT_EQ(b.m32(RXT), uint32_t(G::DESC_EN | G::DESC_IE));
  // Descriptor in ROM: data written, status write fails.
  wr(G::STATUS, 0xFFFFFFFF);
  wr(G::RXDESC, kRom);
  b.desc(kRom, G::DESC_EN | G::DESC_IE, buf(RXB, 0));
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);
  const EthFrame f = make(kMac, 0x0800, 64, 3);
  host_send(f);
  run_us(10);
  EXPECT_TRUE(rx_buffer_holds(0, f));
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RA));
  EXPECT_EQ(rd(G::RXDESC), kRom);
  EXPECT_TRUE(b.irq.pulses.empty());
  EXPECT_EQ(b.mac.stats().rx_ahb_errors - s0.rx_ahb_errors, 3u);
  EXPECT_EQ(b.mac.stats().rx_drop_ahb - s0.rx_drop_ahb, 2u);
}

TEST_F(GrethTest, RxOverrunWithSlowBus) {
  b.per_access = sc_time(3, SC_US);  // far slower than 16 bytes per 1.28 us
  put_rx(0, 0);
  wr(G::CTRL, G::CTRL_RE);
  run_us(10);  // the descriptor read takes 3 us
  host_send(make(kMac, 0x0800, 600));
  run_us(200);
  EXPECT_EQ(b.m32(RXT), uint32_t(G::RXD_OE) | 600);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RE));
  EXPECT_EQ(b.mac.stats().rx_overruns - s0.rx_overruns, 1u);
}

// ---------------------------------------------------------------------------
// MDIO, PHY, reset, hooks
// ---------------------------------------------------------------------------

uint32_t mdio_cmd(unsigned phy, unsigned reg, uint32_t op, uint16_t data = 0) {
  return uint32_t(data) << 16 | phy << 11 | reg << 6 | op;
}

TEST_F(GrethTest, MdioReadPhyRegistersAndBusyTime) {
  const uint64_t cyc = 64 * 2 * (40 + 1);  // 64 MDC periods, mdcscaler 40
  ASSERT_EQ(b.mac.mdio_cycles(), cyc);
  struct {
    unsigned reg;
    uint16_t v;
  } exp[] = {{0, 0x3100}, {1, 0x782D}, {2, 0x2000}, {3, 0x5C90}, {4, 0x01E1}, {5, 0x41E1}, {9, 0}};
  for (auto& e : exp) {
    const sc_time ts = sc_core::sc_time_stamp();
    wr(G::MDIO, mdio_cmd(0, e.reg, G::MDIO_RD));
    EXPECT_EQ(rd(G::MDIO) & G::MDIO_BU, uint32_t(G::MDIO_BU));
    run(sc_time::from_value(cyc * kClk.value()) - kClk);
    EXPECT_EQ(rd(G::MDIO) & G::MDIO_BU, uint32_t(G::MDIO_BU)) << e.reg;
    run(kClk);
    const uint32_t m = rd(G::MDIO);
    EXPECT_EQ(m & (G::MDIO_BU | G::MDIO_LF), 0u) << e.reg;
    EXPECT_EQ(m >> 16, e.v) << "reg " << e.reg;
    EXPECT_EQ((m >> 6) & 31, e.reg);
    EXPECT_EQ(sc_core::sc_time_stamp() - ts, sc_time::from_value(cyc * kClk.value()));
  }
}

TEST_F(GrethTest, MdioWriteIgnoredWhileBusyAndWrongPhy) {
  wr(G::MDIO, mdio_cmd(0, 4, G::MDIO_WR, 0x0061));  // advertise 10 Mbit only
  wr(G::MDIO, mdio_cmd(0, 2, G::MDIO_RD));          // ignored: busy
  run_us(200);
  EXPECT_EQ(rd(G::MDIO) >> 16, 0x0061u);  // still the write data
  EXPECT_EQ(b.mac.phy_reg(4), 0x0061u);
  wr(G::MDIO, mdio_cmd(0, 4, G::MDIO_RD | G::MDIO_WR));  // both: the read wins
  run_us(200);
  EXPECT_EQ(rd(G::MDIO) >> 16, 0x0061u);
  // No PHY at address 5: link fail, data reads all ones.
  wr(G::MDIO, mdio_cmd(5, 1, G::MDIO_RD));
  run_us(200);
  EXPECT_EQ(rd(G::MDIO) & (G::MDIO_LF | G::MDIO_BU), uint32_t(G::MDIO_LF));
  EXPECT_EQ(rd(G::MDIO) >> 16, 0xFFFFu);
  // PHY reset restores the defaults; bit 15 self-clears.
  wr(G::MDIO, mdio_cmd(0, 0, G::MDIO_WR, 0x8000));
  run_us(200);
  EXPECT_EQ(b.mac.phy_reg(0), 0x3100u);
  EXPECT_EQ(b.mac.phy_reg(4), 0x01E1u);
  EXPECT_EQ(b.mac.stats().mdio_ops - s0.mdio_ops, 4u);
}

TEST_F(GrethTest, PhyLinkChangeSetsPsAndLatchesLow) {
  wr(G::CTRL, G::CTRL_PI);
  b.mac.phy_set_link(false);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_PS));
  EXPECT_EQ(b.irq.pulses.size(), 1u);
  b.mac.phy_set_link(true);
  EXPECT_EQ(b.irq.pulses.size(), 2u);
  // BMSR link status stays low until read once.
  wr(G::MDIO, mdio_cmd(0, 1, G::MDIO_RD));
  run_us(200);
  EXPECT_EQ((rd(G::MDIO) >> 16) & 0x4, 0u);
  wr(G::MDIO, mdio_cmd(0, 1, G::MDIO_RD));
  run_us(200);
  EXPECT_EQ((rd(G::MDIO) >> 16) & 0x4, 4u);
  wr(G::CTRL, 0);
  b.mac.phy_set_link(false);
  EXPECT_EQ(b.irq.pulses.size(), 2u);  // PI=0: status only
  b.mac.phy_set_link(true);
}

TEST_F(GrethTest, SoftResetClearsStateAndWaitsForMdio) {
  put_rx(0, 0);
  put_rx(1, 0);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI | G::CTRL_TI | G::CTRL_FD | G::CTRL_PM | G::CTRL_ME | G::CTRL_PI);
  host_send(make(kMac, 0x0800, 64));
  b.mac.frame_in(make(kMac, 0x0800, 20));  // runt: TS
  run_us(20);
  EXPECT_EQ(rd(G::RXDESC), RXT + 8);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI | G::ST_TS));
  // Reset while an MDIO read is running: RS reads 1 until it completes.
  wr(G::MDIO, mdio_cmd(0, 1, G::MDIO_RD));
  run_us(10);
  wr(G::CTRL, G::CTRL_RS);
  EXPECT_EQ(rd(G::CTRL), 0x06000000u | G::CTRL_RS | G::CTRL_ME | G::CTRL_PI);
  EXPECT_EQ(rd(G::RXDESC), RXT);                 // index back to 0, base kept
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI));  // TS cleared, RI kept
  EXPECT_EQ(rd(G::MAC_LSB), 8u);
  run_us(200);
  EXPECT_EQ(rd(G::CTRL), 0x06000000u | G::CTRL_ME | G::CTRL_PI);
  // Without MDIO activity RS clears at once.
  wr(G::CTRL, G::CTRL_RS);
  EXPECT_EQ(rd(G::CTRL) & G::CTRL_RS, 0u);
  EXPECT_EQ(b.mac.stats().soft_resets - s0.soft_resets, 2u);
}

TEST_F(GrethTest, SoftResetAbortsDmaInFlight) {
  b.per_access = sc_time(1, SC_US);
  put_tx(0, make(kHostMac, 0x0800, 1000), G::DESC_IE);
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);
  run_us(5);  // in the middle of the data fetch
  wr(G::CTRL, G::CTRL_RS);
  run_us(200);
  EXPECT_TRUE(b.host.rx.empty());
  EXPECT_EQ(b.m32(TXT) & G::DESC_EN, uint32_t(G::DESC_EN));
  EXPECT_EQ(rd(G::STATUS), 0u);
  EXPECT_TRUE(b.irq.pulses.empty());
  b.per_access = sc_core::SC_ZERO_TIME;
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI);  // restarts from index 0
  run_us(100);
  EXPECT_EQ(b.host.rx.size(), 1u);
  EXPECT_EQ(b.irq.pulses.size(), 1u);
}

// Records every event of one probe while in scope.
template <typename E>
struct Recorder {
  Probe<E>& p;
  std::vector<E> ev;
  typename Probe<E>::Id id;
  explicit Recorder(Probe<E>& pr) : p(pr), id(pr.listen([this](const E& e) { ev.push_back(e); })) {}
  ~Recorder() { p.unlisten(id); }
};

TEST_F(GrethTest, Probes) {
  Recorder<GrethDmaBusyEvent> busy(b.mac.on_dma_busy);
  Recorder<GrethIrqEvent> irqs(b.mac.on_irq);
  Recorder<GrethDescEvent> descs(b.mac.on_desc);
  Recorder<GrethDmaBurstEvent> bursts(b.mac.on_dma_burst);
  Recorder<GrethKickEvent> kicks(b.mac.on_kick);
  std::vector<std::pair<sc_time, sc_time>> sent;
  std::vector<GrethRxVerdict> verdicts;
  std::vector<size_t> rx_len;
  const auto id_s = b.mac.on_frame_sent.listen([&](const GrethFrameSentEvent& e) {
    sent.emplace_back(e.start, e.end);
    EXPECT_EQ(e.len, 64u);
    EXPECT_EQ(e.frame->data.size(), 64u);
  });
  const auto id_r = b.mac.on_frame_received.listen([&](const GrethFrameReceivedEvent& e) {
    verdicts.push_back(e.verdict);
    rx_len.push_back(e.frame->data.size());
  });
  put_tx(0, make(kHostMac, 0x0800, 64), G::DESC_IE);
  put_rx(0, G::DESC_IE);
  put_rx(1, 0);  // keeps RE set for the second frame
  const sc_time t_kick = sc_core::sc_time_stamp();
  wr(G::CTRL, G::CTRL_TE | G::CTRL_TI | G::CTRL_RE | G::CTRL_RI);
  host_send(make(kMac, 0x0800, 64));
  host_send(make(kHostMac, 0x0800, 64));
  run_us(40);
  b.mac.frame_in(make(kMac, 0x0800, 20));  // runt (< 64 bytes with FCS): TS
  run_us(5);
  wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);  // RE only: one Rx kick, no Tx kick
  wr(G::CTRL, G::CTRL_TI);               // neither: no kick
  b.mac.on_frame_sent.unlisten(id_s);
  b.mac.on_frame_received.unlisten(id_r);

  // One frame sent, one received (IRQ each), one filtered, one runt.
  ASSERT_EQ(sent.size(), 1u);
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_EQ(verdicts[0], GrethRxVerdict::Ok);
  EXPECT_EQ(verdicts[1], GrethRxVerdict::Filtered);
  EXPECT_EQ(verdicts[2], GrethRxVerdict::Runt);
  EXPECT_EQ(rx_len[0], 64u);
  const GrethStats st = b.mac.stats();
  EXPECT_EQ(st.rx_frames - s0.rx_frames, 1u);
  EXPECT_EQ(st.rx_drop_filter - s0.rx_drop_filter, 1u);
  EXPECT_EQ(st.rx_drop_runt - s0.rx_drop_runt, 1u);
  // IRQ events at the exact times the IRQMP side saw the pulses.
  ASSERT_EQ(irqs.ev.size(), 2u);
  ASSERT_EQ(b.irq.pulses.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(irqs.ev[i].t, b.irq.pulses[i].second);

  // Kicks: the first write set TE and RE (Tx, then Rx, at its access
  // time), the second RE only, the third neither.
  ASSERT_EQ(kicks.ev.size(), 3u);
  EXPECT_EQ(kicks.ev[0].dir, GrethDir::Tx);
  EXPECT_EQ(kicks.ev[1].dir, GrethDir::Rx);
  EXPECT_EQ(kicks.ev[2].dir, GrethDir::Rx);
  EXPECT_EQ(kicks.ev[0].t, t_kick);
  EXPECT_EQ(kicks.ev[1].t, t_kick);
  EXPECT_GT(kicks.ev[2].t, t_kick);

  // Descriptors: TX 0 written back with 0, RX 0 with the length.
  ASSERT_EQ(descs.ev.size(), 2u);
  const GrethDescEvent* tx = descs.ev[0].dir == GrethDir::Tx ? &descs.ev[0] : &descs.ev[1];
  const GrethDescEvent* rx = descs.ev[0].dir == GrethDir::Rx ? &descs.ev[0] : &descs.ev[1];
  EXPECT_EQ(tx->index, 0u);
  EXPECT_EQ(tx->addr, TXT);
  EXPECT_EQ(tx->w0, G::DESC_EN | G::DESC_IE | 64u);
  EXPECT_EQ(tx->status, 0u);
  EXPECT_EQ(rx->index, 0u);
  EXPECT_EQ(rx->addr, RXT);
  EXPECT_EQ(rx->status, 64u);
  EXPECT_EQ(rx->status, b.m32(RXT));

  // The TX frame starts on the wire after its data was fetched, and the
  // descriptor is written back once it has left.
  EXPECT_GT(sent[0].second, sent[0].first);
  EXPECT_GE(tx->t, sent[0].second);
  // Bursts: the TX data fetch is 64 bytes in 16-byte bursts at the buffer.
  unsigned fetch = 0;
  for (const auto& e : bursts.ev) {
    EXPECT_TRUE(e.ok);
    EXPECT_GE(e.end, e.start);
    if (!e.write && e.bytes == 16) ++fetch;
  }
  EXPECT_EQ(fetch, 4u);
  // Busy on/off alternate per direction and start with "busy".
  for (GrethDir d : {GrethDir::Tx, GrethDir::Rx}) {
    bool expect = true;
    unsigned n = 0;
    for (const auto& e : busy.ev)
      if (e.dir == d) {
        EXPECT_EQ(e.busy, expect);
        expect = !expect;
        ++n;
      }
    EXPECT_GE(n, 2u);
  }
}

// Listening changes nothing: the same exchange with and without every probe
// listened to gives the same IRQ times, descriptors and status.
TEST_F(GrethTest, ListeningChangesNothing) {
  auto run = [&](bool listen) {
    std::vector<uint64_t> ids;
    if (listen) {
      b.mac.on_irq.listen([](const GrethIrqEvent&) {});
      b.mac.on_dma_busy.listen([](const GrethDmaBusyEvent&) {});
      b.mac.on_desc.listen([](const GrethDescEvent&) {});
      b.mac.on_kick.listen([](const GrethKickEvent&) {});
      b.mac.on_frame_sent.listen([](const GrethFrameSentEvent&) {});
      b.mac.on_frame_received.listen([](const GrethFrameReceivedEvent&) {});
      b.mac.on_dma_burst.listen([](const GrethDmaBurstEvent&) {});
    }
    SetUp();
    put_tx(0, make(kHostMac, 0x0800, 100), G::DESC_IE);
    put_rx(0, G::DESC_IE);
    wr(G::CTRL, G::CTRL_TE | G::CTRL_TI | G::CTRL_RE | G::CTRL_RI);
    host_send(make(kMac, 0x0800, 80));
    run_us(40);
    std::vector<uint64_t> r;
    for (const auto& p : b.irq.pulses) r.push_back((p.second - t0).value());
    r.push_back(b.m32(TXT));
    r.push_back(b.m32(RXT));
    r.push_back(rd(G::STATUS));
    r.push_back(rd(G::TXDESC));
    r.push_back(rd(G::RXDESC));
    return r;
  };
  const auto quiet = run(false);
  const auto heard = run(true);
  EXPECT_EQ(b.mac.on_irq.listener_count(), 1u);
  EXPECT_EQ(quiet, heard);
  EXPECT_EQ(quiet.size(), 7u);  // two IRQ pulses + five words
}

// ---------------------------------------------------------------------------
// GRETH_GBIT checksum offload (csum_offload = 1: gbit_bench(); README
// "Checksum offload"). Frames and their checksums are built here, without
// the model's code.
// ---------------------------------------------------------------------------

const uint8_t kHostIp[4] = {192, 168, 0, 1}, kBoardIp[4] = {192, 168, 0, 83};
constexpr size_t kIp = 14;                  // IPv4 header offset in the frame
constexpr size_t kL4 = kIp + 20;            // TCP/UDP header offset (IHL 5)
constexpr uint32_t kCsumBits = 0x7F << 19;  // RX ID IR UD UR TD TR IF

uint16_t get16(const EthFrame& f, size_t off) { return uint16_t(f.data[off] << 8 | f.data[off + 1]); }
void set16(EthFrame& f, size_t off, uint16_t v) {
  f.data[off] = uint8_t(v >> 8);
  f.data[off + 1] = uint8_t(v);
}

// RFC 1071: add the 16-bit big-endian words in a 32-bit accumulator, fold
// the carries once at the end, complement.
uint16_t inet_checksum(const std::vector<uint8_t>& bytes) {
  uint32_t acc = 0;
  for (size_t i = 0; i < bytes.size(); i += 2) {
    const uint8_t lo = i + 1 < bytes.size() ? bytes[i + 1] : 0;
    acc += uint32_t(bytes[i]) << 8 | lo;
  }
  while (acc > 0xFFFF) acc = (acc & 0xFFFF) + (acc >> 16);
  return uint16_t(~acc);
}

uint16_t ip_header_checksum(const EthFrame& f) {
  std::vector<uint8_t> h(f.data.begin() + kIp, f.data.begin() + kL4);
  h[10] = h[11] = 0;
  return inet_checksum(h);
}

// Checksum over the pseudo-header (addresses, 0, protocol, `len`) and `len`
// bytes of the segment with its checksum field (at `field`) taken as 0.
uint16_t l4_checksum(const EthFrame& f, uint8_t proto, size_t len, size_t field) {
  std::vector<uint8_t> v(f.data.begin() + kIp + 12, f.data.begin() + kIp + 20);
  v.push_back(0);
  v.push_back(proto);
  v.push_back(uint8_t(len >> 8));
  v.push_back(uint8_t(len));
  v.insert(v.end(), f.data.begin() + kL4, f.data.begin() + kL4 + len);
  v[12 + field] = v[12 + field + 1] = 0;
  return inet_checksum(v);
}

// Ethernet + IPv4 (IHL 5, DF) + UDP (8-byte header) or TCP (20-byte header)
// + `payload` bytes, both checksums correct.
EthFrame ip_frame(uint8_t proto, size_t payload, uint8_t tag = 0) {
  const size_t l4 = (proto == 6 ? 20 : 8) + payload;
  EthFrame f = make(kMac, 0x0800, kL4 + l4, tag);
  uint8_t* ip = f.data.data() + kIp;
  const uint8_t hdr[12] = {0x45, 0, uint8_t((20 + l4) >> 8), uint8_t(20 + l4), 0x12, 0x34, 0x40, 0, 64, proto,
                           0,    0};
  std::copy(hdr, hdr + 12, ip);
  std::copy(kHostIp, kHostIp + 4, ip + 12);
  std::copy(kBoardIp, kBoardIp + 4, ip + 16);
  set16(f, kIp + 10, ip_header_checksum(f));
  set16(f, kL4, 5000);   // source port
  set16(f, kL4 + 2, 7);  // destination port
  if (proto == 17) {
    set16(f, kL4 + 4, uint16_t(l4));
    const uint16_t c = l4_checksum(f, 17, l4, 6);
    set16(f, kL4 + 6, c ? c : 0xFFFF);
  } else {
    f.data[kL4 + 12] = 5 << 4;                // data offset: 5 words
    f.data[kL4 + 13] = 0x18;                  // ACK PSH
    f.data[kL4 + 18] = f.data[kL4 + 19] = 0;  // urgent pointer
    set16(f, kL4 + 16, l4_checksum(f, 6, l4, 16));
  }
  return f;
}
EthFrame udp_frame(size_t payload, uint8_t tag = 0) { return ip_frame(17, payload, tag); }
EthFrame tcp_frame(size_t payload, uint8_t tag = 0) { return ip_frame(6, payload, tag); }

class GrethCsumTest : public GrethTest {
 protected:
  GrethCsumTest() : GrethTest(gbit_bench()) {}
  // Receives `f` on bench `x`'s next RX descriptor and returns word 0 as the
  // MAC wrote it back (frames over the link; with a bad FCS injected).
  uint32_t receive_on(Bench& x, const EthFrame& f) {
    const unsigned i = next_rx_++;
    x.desc(RXT + 8 * i, G::DESC_EN, buf(RXB, i));
    x.wr(G::CTRL, G::CTRL_RE);
    if (f.crc_error)
      x.mac.frame_in(f);
    else
      x.link.port(1).send(f);
    run_us(150);
    EXPECT_EQ(x.m32(RXT + 8 * i) & G::DESC_EN, 0u) << "descriptor " << i << " not written back";
    return x.m32(RXT + 8 * i);
  }
  uint32_t receive(const EthFrame& f) { return receive_on(b, f); }
  uint64_t delta(uint64_t GrethStats::*c) const { return b.mac.stats().*c - s0.*c; }
  // Whether TX buffer `i` of bench `x` still holds `mem` (the insertion
  // changes the wire copy only).
  bool memory_holds(Bench& x, unsigned i, const EthFrame& mem) {
    return std::equal(mem.data.begin(), mem.data.end(), x.ptr(buf(TXB, i)));
  }
  Bench& off = bench();  // the same MAC without the option
  unsigned next_rx_ = 0;
};

TEST_F(GrethCsumTest, CtrlGaOnlyWithTheOption) {
  EXPECT_EQ(rd(G::CTRL), 0x0E000000u);  // GA | MA | MC
  EXPECT_EQ(off.rd(G::CTRL), 0x06000000u);
  wr(G::CTRL, G::CTRL_GA | 0x100);  // GA is read-only, GB (8) stays reserved
  EXPECT_EQ(rd(G::CTRL), 0x0E000000u);
  off.wr(G::CTRL, G::CTRL_GA);
  EXPECT_EQ(off.rd(G::CTRL), 0x06000000u);
  EXPECT_TRUE(b.mac.params().csum_offload);
  EXPECT_FALSE(off.mac.params().csum_offload);
}

TEST_F(GrethCsumTest, RxGoodUdpAndTcp) {
  const EthFrame u = udp_frame(100, 1), t = tcp_frame(200, 2);
  EXPECT_EQ(receive(u), G::RXD_ID | G::RXD_UD | 142u);
  EXPECT_EQ(receive(t), G::RXD_ID | G::RXD_TD | 254u);
  EXPECT_TRUE(rx_buffer_holds(0, u));
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI));
  EXPECT_EQ(delta(&GrethStats::rx_frames), 2u);
  EXPECT_EQ(delta(&GrethStats::rx_errors), 0u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_ip_errors), 0u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_udp_errors), 0u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_tcp_errors), 0u);
}

TEST_F(GrethCsumTest, RxCorruptedUdpPayloadGivesUr) {
  EthFrame f = udp_frame(100, 3);
  f.data[kL4 + 8 + 50] ^= 0x01;
  EXPECT_EQ(receive(f), G::RXD_ID | G::RXD_UD | G::RXD_UR | 142u);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_RI));  // a checksum result, not a frame error
  EXPECT_EQ(delta(&GrethStats::rx_csum_udp_errors), 1u);
  EXPECT_EQ(delta(&GrethStats::rx_errors), 0u);
}

TEST_F(GrethCsumTest, RxUdpWithoutChecksumIsNotAnError) {
  EthFrame f = udp_frame(100, 4);
  set16(f, kL4 + 6, 0);          // RFC 768: no checksum
  f.data[kL4 + 8 + 10] ^= 0xFF;  // would not match a checksum
  EXPECT_EQ(receive(f), G::RXD_ID | G::RXD_UD | 142u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_udp_errors), 0u);
}

TEST_F(GrethCsumTest, RxCorruptedTcpGivesTr) {
  EthFrame f = tcp_frame(300, 5);
  f.data.back() ^= 0x80;
  EXPECT_EQ(receive(f), G::RXD_ID | G::RXD_TD | G::RXD_TR | 354u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_tcp_errors), 1u);
}

TEST_F(GrethCsumTest, RxBadIpHeaderChecksumGivesIr) {
  EthFrame f = udp_frame(100, 6);
  set16(f, kIp + 10, uint16_t(get16(f, kIp + 10) + 1));
  // The UDP result is still reported; firmware trusts it only with IR clear.
  EXPECT_EQ(receive(f), G::RXD_ID | G::RXD_IR | G::RXD_UD | 142u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_ip_errors), 1u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_udp_errors), 0u);
}

TEST_F(GrethCsumTest, RxFragmentGivesIfWithoutL4Results) {
  EthFrame f = udp_frame(100, 7);
  f.data[kIp + 6] = 0x20;  // MF, offset 0: the UDP checksum covers more than this frame
  set16(f, kIp + 10, ip_header_checksum(f));
  f.data[kL4 + 8] ^= 0xFF;
  EXPECT_EQ(receive(f), G::RXD_ID | G::RXD_IF | 142u);
  EthFrame g = tcp_frame(100, 8);
  set16(g, kIp + 6, 0x00B9);  // MF clear, offset 185 (1480 bytes): a last fragment
  set16(g, kIp + 10, ip_header_checksum(g));
  EXPECT_EQ(receive(g), G::RXD_ID | G::RXD_IF | 154u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_udp_errors), 0u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_tcp_errors), 0u);
}

TEST_F(GrethCsumTest, RxArpOtherTypeAndBadFcsGetNoChecksumBits) {
  EXPECT_EQ(receive(make(kMac, 0x0806, 60, 9)), 60u);
  EthFrame v = udp_frame(100, 13);  // a good datagram, but the type is IPv6's
  set16(v, 12, 0x86DD);
  EXPECT_EQ(receive(v), 142u);
  EthFrame f = udp_frame(100, 10);
  f.crc_error = true;
  EXPECT_EQ(receive(f), G::RXD_CE | 142u);
  EXPECT_EQ(delta(&GrethStats::rx_crc_errors), 1u);
}

TEST_F(GrethCsumTest, RxUdpLengthBeyondTheIpPayloadGivesUr) {
  // 10 payload bytes: IP total 38, the frame padded to 60. The UDP length
  // field claims 4 bytes more than the IP payload; the checksum is made
  // right over those 22 bytes (4 of them padding), so only the length rule
  // can refuse it.
  EthFrame f = udp_frame(10, 11);
  f.data.resize(60, 0);
  set16(f, kL4 + 4, 22);
  set16(f, kL4 + 6, l4_checksum(f, 17, 22, 6));
  EXPECT_EQ(receive(f), G::RXD_ID | G::RXD_UD | G::RXD_UR | 60u);
  EXPECT_EQ(delta(&GrethStats::rx_csum_udp_errors), 1u);
}

// Without the option the same frame gets bits 19-25 all 0; with it the
// results cost no simulated time and no bus transaction: every DMA access
// (descriptor read, bursts, write-back) happens at the same time on both.
TEST_F(GrethCsumTest, RxOptionAddsNoTimeAndOffGivesNoBits) {
  const EthFrame f = udp_frame(1000, 12);
  for (Bench* x : {&b, &off}) {
    x->per_access = sc_time(100, SC_NS);
    x->per_word = sc_time(25, SC_NS);
    x->desc(RXT, G::DESC_EN | G::DESC_IE, buf(RXB, 0));
    x->wr(G::CTRL, G::CTRL_RE | G::CTRL_RI);
    x->link.port(1).send(f);
  }
  run_us(150);
  EXPECT_EQ(b.m32(RXT), G::RXD_ID | G::RXD_UD | 1042u);
  EXPECT_EQ(off.m32(RXT), 1042u);
  EXPECT_EQ(off.m32(RXT) & kCsumBits, 0u);
  ASSERT_EQ(b.dma.size(), off.dma.size());
  ASSERT_GE(b.dma.size(), 3u);
  for (size_t i = 0; i < b.dma.size(); ++i) {
    EXPECT_EQ(b.dma[i].t, off.dma[i].t) << i;
    EXPECT_EQ(b.dma[i].addr, off.dma[i].addr) << i;
    EXPECT_EQ(b.dma[i].len, off.dma[i].len) << i;
  }
  const Access& wb = b.dma[b.dma.size() - 2];  // then the next descriptor read
  EXPECT_TRUE(wb.write);
  EXPECT_EQ(wb.addr, RXT);
  ASSERT_EQ(b.irq.pulses.size(), 1u);
  ASSERT_EQ(off.irq.pulses.size(), 1u);
  EXPECT_EQ(b.irq.pulses[0].second, off.irq.pulses[0].second);
}

TEST_F(GrethCsumTest, TxInsertsEachChecksumOnTheWireOnly) {
  const EthFrame u = udp_frame(100, 1), t = tcp_frame(100, 2);
  EthFrame mem_ic = u, mem_tc = t, mem_uc = u;
  set16(mem_ic, kIp + 10, 0);
  set16(mem_tc, kL4 + 16, 0xDEAD);
  set16(mem_uc, kL4 + 6, 0);
  put_tx(0, mem_ic, G::TXD_IC);
  put_tx(1, mem_tc, G::TXD_TC);
  put_tx(2, mem_uc, G::TXD_UC);
  // IC|TC|UC on a TCP frame (Linux sets all three): IP and TCP inserted,
  // UC does not apply, nothing skipped.
  EthFrame mem_all = t;
  set16(mem_all, kIp + 10, 0x1111);
  set16(mem_all, kL4 + 16, 0x2222);
  put_tx(3, mem_all, G::TXD_IC | G::TXD_TC | G::TXD_UC);
  wr(G::CTRL, G::CTRL_TE);
  run_us(100);
  ASSERT_EQ(b.host.rx.size(), 4u);
  EXPECT_EQ(get16(b.host.rx[0].f, kIp + 10), ip_header_checksum(u));
  EXPECT_EQ(b.host.rx[0].f.data, u.data);
  EXPECT_EQ(get16(b.host.rx[1].f, kL4 + 16), l4_checksum(t, 6, 120, 16));
  EXPECT_EQ(b.host.rx[1].f.data, t.data);
  EXPECT_EQ(b.host.rx[2].f.data, u.data);
  EXPECT_EQ(b.host.rx[3].f.data, t.data);
  EXPECT_TRUE(memory_holds(b, 0, mem_ic));
  EXPECT_TRUE(memory_holds(b, 1, mem_tc));
  EXPECT_TRUE(memory_holds(b, 2, mem_uc));
  EXPECT_TRUE(memory_holds(b, 3, mem_all));
  EXPECT_EQ(delta(&GrethStats::tx_data_changed), 0u);
  EXPECT_EQ(delta(&GrethStats::tx_csum_skipped), 0u);
  EXPECT_EQ(delta(&GrethStats::tx_frames), 4u);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TI));
  EXPECT_EQ(b.m32(TXT), 0u);  // write-back as without the option
}

// A UDP checksum that computes to 0 goes out as 0xFFFF (0 = "none").
TEST_F(GrethCsumTest, TxUdpChecksumZeroIsSentAsFfff) {
  EthFrame f = udp_frame(100, 3);
  set16(f, kL4 + 8, 0);  // the first payload word balances the sum ...
  const uint16_t c = l4_checksum(f, 17, 108, 6);
  set16(f, kL4 + 8, c);  // ... so that the sum is 0xFFFF and the checksum 0
  ASSERT_EQ(l4_checksum(f, 17, 108, 6), 0u);
  set16(f, kL4 + 6, 0x5555);
  put_tx(0, f, G::TXD_UC);
  wr(G::CTRL, G::CTRL_TE);
  run_us(30);
  ASSERT_EQ(b.host.rx.size(), 1u);
  EXPECT_EQ(get16(b.host.rx[0].f, kL4 + 6), 0xFFFFu);
}

TEST_F(GrethCsumTest, TxImpossibleInsertionSendsTheFrameUnchanged) {
  const EthFrame arp = make(kBcast, 0x0806, 60, 4);
  EthFrame t = tcp_frame(100, 5);
  set16(t, kL4 + 16, 0xBEEF);
  put_tx(0, arp, G::TXD_IC | G::TXD_UC);  // not IPv4
  put_tx(1, t, G::TXD_UC);                // UDP asked, TCP given
  wr(G::CTRL, G::CTRL_TE);
  run_us(50);
  ASSERT_EQ(b.host.rx.size(), 2u);
  EXPECT_EQ(b.host.rx[0].f.data, arp.data);
  EXPECT_EQ(b.host.rx[1].f.data, t.data);
  EXPECT_EQ(delta(&GrethStats::tx_csum_skipped), 2u);
  EXPECT_EQ(delta(&GrethStats::tx_frames), 2u);
  EXPECT_EQ(rd(G::STATUS), uint32_t(G::ST_TI));
}

// Without the option IC/TC/UC are ignored: the frame goes out as it is in
// memory and, 1514 bytes long, starts after four bursts as always. With the
// option TC makes the DMA fetch the whole frame first; without TC the same
// frame starts as early as on the 10/100 MAC.
TEST_F(GrethCsumTest, TxChecksumFrameStartsAfterTheWholeFetch) {
  EthFrame f = tcp_frame(1514 - kL4 - 20, 6);
  const EthFrame good = f;
  set16(f, kL4 + 16, 0);
  for (Bench* x : {&b, &off}) {
    x->per_access = sc_time(100, SC_NS);
    x->per_word = sc_time(25, SC_NS);
    put_tx_on(*x, 0, f, G::TXD_IC | G::TXD_TC);
    x->wr(G::CTRL, G::CTRL_TE);
  }
  run_us(200);
  ASSERT_EQ(b.host.rx.size(), 1u);
  ASSERT_EQ(off.host.rx.size(), 1u);
  EXPECT_EQ(off.host.rx[0].f.data, f.data);  // ignored: unchanged
  EXPECT_EQ(off.host.rx[0].start - t0, sc_time(150 + 4 * 200, SC_NS));
  EXPECT_EQ(b.host.rx[0].f.data, good.data);
  // Descriptor read 150 ns, 94 bursts of 4 words (200 ns) and one of 3 (175 ns).
  EXPECT_EQ(b.host.rx[0].start - t0, sc_time(150 + 94 * 200 + 175, SC_NS));
  unsigned bursts = 0;
  for (const auto& a : b.dma) {
    if (!a.write && a.len != 8) {
      ++bursts;
      EXPECT_LT(a.t, b.host.rx[0].start);
    }
  }
  EXPECT_EQ(bursts, 95u);
  EXPECT_TRUE(memory_holds(b, 0, f));
  EXPECT_EQ(delta(&GrethStats::tx_underruns), 0u);
  EXPECT_EQ(delta(&GrethStats::tx_data_changed), 0u);
  // The same frame without IC/TC on the MAC with the option: streamed.
  put_tx(1, good, 0);
  const sc_time kick = sc_core::sc_time_stamp();
  wr(G::CTRL, G::CTRL_TE);
  run_us(200);
  ASSERT_EQ(b.host.rx.size(), 2u);
  EXPECT_EQ(b.host.rx[1].start - kick, sc_time(150 + 4 * 200, SC_NS));
  EXPECT_EQ(b.host.rx[1].f.data, good.data);
}

}  // namespace
}  // namespace l3vp::test

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
