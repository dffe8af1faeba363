// AHB controller + APB bridge + MCTRL stub: address decoding from the P&P
// bars, the P&P words of hw-reference §2.4, error responses, DMI forwarding
// and invalidation, APB routing and empty-slot behaviour.
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "ahb_ctrl.h"
#include "apb_ctrl.h"
#include "log.h"
#include "mctrl.h"
#include "memory.h"
#include "tb_util.h"

using namespace l3vp;
using l3vp::test::TestInitiator;

namespace {

// APB slave with two plain registers and a given P&P record.
class TestApbDev : public ApbDevice {
 public:
  TestApbDev(sc_core::sc_module_name n, uint32_t id, uint32_t bar) : ApbDevice(n) {
    pnp_.id = id;
    pnp_.bar = bar;
    regs_.add("R0", 0x0, 0x11110000);
    regs_.add("R1", 0x4, 0);
  }
};

// AHB slave that records the (local) address it was handed.
class ProbeSlave : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ProbeSlave> tsock;
  uint64_t last_addr = ~0ull;
  unsigned hits = 0;
  explicit ProbeSlave(sc_core::sc_module_name n) : sc_core::sc_module(n), tsock("tsock") {
    tsock.register_b_transport(this, &ProbeSlave::bt);
  }
  void bt(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    last_addr = gp.get_address();
    ++hits;
    if (gp.is_read()) std::memset(gp.get_data_ptr(), 0x5A, gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// AHB slave that takes its latency by waiting (wait() inside b_transport,
// as a clocked RTL adapter may do) instead of annotating it.
class WaitSlave : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<WaitSlave> tsock;
  sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
  explicit WaitSlave(sc_core::sc_module_name n) : sc_core::sc_module(n), tsock("tsock") {
    tsock.register_b_transport(this, &WaitSlave::bt);
  }
  void bt(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    sc_core::wait(delay + latency);
    delay = sc_core::SC_ZERO_TIME;
    if (gp.is_read()) std::memset(gp.get_data_ptr(), 0xA5, gp.get_data_length());
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Bench {
  AhbCtrl ahb{"ahb"};
  TestInitiator cpu{"cpu"}, eth{"eth"};
  Memory prom{"prom", 8u << 20, Memory::Kind::Rom};
  Memory sdram{"sdram", 64u << 20};
  Mctrl mctrl{"mctrl"};
  ApbCtrl apb{"apb"};
  TestApbDev uart{"uart", pnp_id(VENDOR_GAISLER, DEV_APBUART, 2, 2),
                  pnp_bar(0x001, 0xFFF, false, false, BAR_APBIO)};
  TestApbDev irqmp{"irqmp", pnp_id(VENDOR_GAISLER, DEV_IRQMP, 4, 0),
                   pnp_bar(0x002, 0xFFF, false, false, BAR_APBIO)};
  TestApbDev gpt{"gpt", pnp_id(VENDOR_GAISLER, DEV_GPTIMER, 1, 8),
                 pnp_bar(0x003, 0xFFF, false, false, BAR_APBIO)};
  // A 4-slot (1 KiB) APB window at 0x80000800 (mask 0xFFC).
  TestApbDev wide{"wide", 0x01FFF000, pnp_bar(0x008, 0xFFC, false, false, BAR_APBIO)};
  ProbeSlave dsu{"dsu"}, io{"io"}, hidden{"hidden"};
  WaitSlave waiter{"waiter"};  // AHB slave 5 at 0xC0000000

  // Second controller: overlapping bars must be refused at elaboration.
  AhbCtrl ahb2{"ahb2"};
  TestInitiator m2{"m2"};
  ProbeSlave s2a{"s2a"}, s2b{"s2b"};
  std::string overlap_error, pnp_overlap_error;

  Bench() {
    AhbPnp leon3;
    leon3.id = pnp_id(VENDOR_GAISLER, DEV_LEON3, 3, 0);
    ahb.bind_master(cpu.isock, 0, leon3, "leon3");
    AhbPnp greth;
    greth.id = pnp_id(VENDOR_GAISLER, DEV_ETHMAC, 0, 6);
    ahb.bind_master(eth.isock, 4, greth, "greth");

    const AhbPnp mp = mctrl.ahb_pnp();
    ahb.add_slave(0, mp, "mctrl");
    ahb.bind_slave_bar(mctrl.prom_tsock, 0, Mctrl::BAR_PROM);
    ahb.bind_slave_bar(mctrl.io_tsock, 0, Mctrl::BAR_IO);
    ahb.bind_slave_bar(mctrl.ram_tsock, 0, Mctrl::BAR_RAM);
    mctrl.prom_isock.bind(prom.tsock);
    mctrl.ram_isock.bind(sdram.tsock);

    ahb.bind_slave(apb.tsock, 1, apb.ahb_pnp(), "apbctrl");
    apb.add_slave(0, mctrl);
    apb.add_slave(1, uart);
    apb.add_slave(2, irqmp);
    apb.add_slave(3, gpt);
    apb.add_slave(8, wide);
    apb.bind_hidden_slave(hidden.tsock, 12, "hidden");

    AhbPnp dsup;
    dsup.id = pnp_id(VENDOR_GAISLER, DEV_DSU3, 2, 0);
    dsup.bar[0] = pnp_bar(0x900, 0xF00, false, false, BAR_AHBMEM);
    ahb.bind_slave(dsu.tsock, 2, dsup, "dsu");
    AhbPnp iop;
    iop.id = 0x01FFE000;
    iop.bar[0] = pnp_bar(0x100, 0xFFF, false, false, BAR_AHBIO);  // 0xFFF10000, 256 B
    ahb.bind_slave(io.tsock, 3, iop, "io");
    AhbPnp wp;
    wp.id = 0x01FFD000;
    wp.bar[0] = pnp_bar(0xC00, 0xF00, false, false, BAR_AHBMEM);
    ahb.bind_slave(waiter.tsock, 5, wp, "waiter");

    ahb2.bind_master(m2.isock, 0, leon3, "m");
    AhbPnp a;
    a.bar[0] = pnp_bar(0x400, 0xC00, false, false, BAR_AHBMEM);
    ahb2.bind_slave(s2a.tsock, 0, a, "a");
    AhbPnp b;
    b.bar[0] = pnp_bar(0x600, 0xF00, false, false, BAR_AHBMEM);  // inside 0x40000000-0x7FFFFFFF
    try {
      ahb2.bind_slave(s2b.tsock, 1, b, "b");
    } catch (const std::logic_error& e) {
      overlap_error = e.what();
    }
    AhbPnp c;
    c.bar[0] = pnp_bar(0xFF0, 0xFF0, false, false, BAR_AHBIO);  // the P&P area itself
    try {
      ahb2.bind_slave(s2b.tsock, 2, c, "c");
    } catch (const std::logic_error& e) {
      pnp_overlap_error = e.what();
    }
    AhbPnp d;
    d.bar[0] = pnp_bar(0x800, 0xF00, false, false, BAR_AHBMEM);
    ahb2.bind_slave(s2b.tsock, 3, d, "d");
  }
};
std::unique_ptr<Bench> tb;
void build() { tb = std::make_unique<Bench>(); }

}  // namespace

// ---------------------------------------------------------------- P&P words

TEST(AhbPnp, MasterAndSlaveRecordsMatchReference) {
  TestInitiator& m = tb->cpu;
  EXPECT_EQ(m.rd32(0xFFFFF000), 0x01003060u);  // master 0 LEON3
  EXPECT_EQ(m.rd32(0xFFFFF080), 0x0101D006u);  // master 4 GRETH (rev 0, irq 6)
  EXPECT_EQ(m.rd32(0xFFFFF020), 0u);           // master 1 absent
  EXPECT_EQ(m.rd32(0xFFFFF800), 0x0400F020u);  // slave 0 MCTRL
  EXPECT_EQ(m.rd32(0xFFFFF810), 0x0003E002u);  // PROM bar
  EXPECT_EQ(m.rd32(0xFFFFF814), 0x2000E002u);  // I/O bar
  EXPECT_EQ(m.rd32(0xFFFFF818), 0x4003C002u);  // RAM bar
  EXPECT_EQ(m.rd32(0xFFFFF81C), 0u);
  EXPECT_EQ(m.rd32(0xFFFFF820), 0x01006020u);  // slave 1 APBCTRL
  EXPECT_EQ(m.rd32(0xFFFFF830), 0x8000FFF2u);
  EXPECT_EQ(m.rd32(0xFFFFF840), 0x01004040u);  // slave 2 DSU
  EXPECT_EQ(m.rd32(0xFFFFF850), 0x9000F002u);
  EXPECT_EQ(m.rd32(0xFFFFF860), 0x01FFE000u);  // slave 3 (I/O bar test slave)
  EXPECT_EQ(m.rd32(0xFFFFF870), 0x1000FFF3u);
  EXPECT_EQ(m.rd32(0xFFFFF880), 0u);  // slave 4 absent
  EXPECT_EQ(m.rd32(0xFFFFFFF0), 0u);  // system ID word (devid 0)
}

TEST(AhbPnp, SubWordReadsAndReadOnly) {
  TestInitiator& m = tb->cpu;
  uint8_t b[2];
  ASSERT_EQ(m.access(tlm::TLM_READ_COMMAND, 0xFFFFF802, b, 2), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(be16(b), 0xF020);
  uint8_t blk[32];
  ASSERT_EQ(m.access(tlm::TLM_READ_COMMAND, 0xFFFFF800, blk, 32), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(be32(blk + 24), 0x4003C002u);
  const uint64_t ge = Log::count(LogCat::GuestError);
  EXPECT_EQ(m.write32(0xFFFFF000, 0x12345678), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(m.rd32(0xFFFFF000), 0x01003060u);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 1);
}

TEST(ApbPnp, SlotRecordsMatchReference) {
  TestInitiator& m = tb->cpu;
  EXPECT_EQ(m.rd32(0x800FF000), 0x0400F020u);  // slot 0 MCTRL
  EXPECT_EQ(m.rd32(0x800FF004), 0x0000FFF1u);
  EXPECT_EQ(m.rd32(0x800FF008), 0x0100C042u);  // slot 1 APBUART
  EXPECT_EQ(m.rd32(0x800FF00C), 0x0010FFF1u);
  EXPECT_EQ(m.rd32(0x800FF010), 0x0100D080u);  // slot 2 IRQMP
  EXPECT_EQ(m.rd32(0x800FF014), 0x0020FFF1u);
  EXPECT_EQ(m.rd32(0x800FF018), 0x01011028u);  // slot 3 GPTIMER
  EXPECT_EQ(m.rd32(0x800FF01C), 0x0030FFF1u);
  EXPECT_EQ(m.rd32(0x800FF020), 0u);  // slot 4 empty
  EXPECT_EQ(m.rd32(0x800FF024), 0u);
  EXPECT_EQ(m.rd32(0x800FF044), 0x0080FFC1u);  // slot 8, 1 KiB window
  EXPECT_EQ(m.rd32(0x800FF800), 0u);           // beyond the table
}

// ---------------------------------------------------------------- decoding

TEST(AhbDecode, SdramAndPromThroughMctrl) {
  TestInitiator& m = tb->cpu;
  EXPECT_EQ(m.write32(0x40000100, 0xCAFEF00D), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(tb->sdram.data()[0x100], 0xCA);  // big-endian in memory
  EXPECT_EQ(tb->sdram.data()[0x103], 0x0D);
  EXPECT_EQ(m.rd32(0x40000100), 0xCAFEF00Du);
  EXPECT_EQ(m.write32(0x43FFFFFC, 1), tlm::TLM_OK_RESPONSE);  // last word of 64 MiB

  const uint8_t code[4] = {0x01, 0x00, 0x00, 0x00};
  tb->prom.load(0x10, code, 4);
  EXPECT_EQ(m.rd32(0x00000010), 0x01000000u);
  // PROM is read-only on the bus.
  EXPECT_EQ(m.write32(0x00000010, 0), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(m.rd32(0x00000010), 0x01000000u);
}

TEST(AhbDecode, HolesGiveAddressErrors) {
  TestInitiator& m = tb->cpu;
  uint32_t v;
  EXPECT_EQ(m.read32(0x44000000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // RAM bar past SDRAM
  EXPECT_EQ(m.read32(0x00800000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // PROM bar past PROM
  EXPECT_EQ(m.read32(0x20000000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // MCTRL I/O: nothing there
  EXPECT_EQ(m.read32(0xA0000000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // no bar
  EXPECT_EQ(m.read32(0x80100000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // just past APB bar
  EXPECT_EQ(m.read32(0xFFF00000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // I/O area hole
  EXPECT_EQ(m.write32(0xFFF20000, 0), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  uint8_t b[8];
  EXPECT_EQ(m.access(tlm::TLM_READ_COMMAND, 0x7FFFFFFC, b, 8),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);  // crosses bar end
  EXPECT_FALSE(tb->ahb.decode(0xA0000000).has_value());
}

TEST(AhbDecode, SlavesSeeLocalOffsets) {
  TestInitiator& m = tb->cpu;
  EXPECT_EQ(m.rd32(0x9012345C), 0x5A5A5A5Au);
  EXPECT_EQ(tb->dsu.last_addr, 0x012345Cu);
  EXPECT_EQ(m.rd32(0xFFF10010), 0x5A5A5A5Au);  // AHB I/O bar 0x100/0xFFF
  EXPECT_EQ(tb->io.last_addr, 0x10u);
  auto r = tb->ahb.decode(0x41000000);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->hindex, 0u);
  EXPECT_EQ(r->bar, 2u);
  EXPECT_EQ(r->start, 0x40000000u);
  EXPECT_EQ(r->size, 1ull << 30);
  EXPECT_TRUE(r->cacheable);
  auto io = tb->ahb.decode(0xFFF100FF);
  ASSERT_TRUE(io.has_value());
  EXPECT_TRUE(io->io);
  EXPECT_EQ(io->size, 256u);
}

TEST(AhbDecode, OverlappingBarsAreRefused) {
  EXPECT_NE(tb->overlap_error.find("overlaps"), std::string::npos) << tb->overlap_error;
  EXPECT_NE(tb->pnp_overlap_error.find("plug&play"), std::string::npos) << tb->pnp_overlap_error;
}

TEST(AhbCounters, PerMasterTransactions) {
  const auto before = tb->ahb.master_stats();
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before[1].hindex, 4u);
  uint32_t v;
  tb->eth.read32(0x40000000, v);
  tb->eth.write32(0x40000000, v);
  tb->eth.read32(0xA0000000, v);
  const auto& after = tb->ahb.master_stats();
  EXPECT_EQ(after[1].reads, before[1].reads + 2);
  EXPECT_EQ(after[1].writes, before[1].writes + 1);
  EXPECT_EQ(after[1].errors, before[1].errors + 1);
  EXPECT_EQ(after[0].reads, before[0].reads);
}

TEST(AhbTiming, DelayHookIsAddedPerAccess) {
  TestInitiator& m = tb->cpu;
  m.rd32(0x40000000);
  EXPECT_EQ(m.last_delay, sc_core::SC_ZERO_TIME);
  unsigned calls = 0;
  tb->ahb.set_delay_fn([&](unsigned mst, unsigned slv, const tlm::tlm_generic_payload& gp) {
    ++calls;
    EXPECT_EQ(mst, 0u);
    EXPECT_EQ(slv, 0u);
    EXPECT_EQ(gp.get_address(), 0x40000000u);  // still global
    return sc_core::sc_time(50, sc_core::SC_NS);
  });
  m.rd32(0x40000000);
  EXPECT_EQ(calls, 1u);
  EXPECT_EQ(m.last_delay, sc_core::sc_time(50, sc_core::SC_NS));
  tb->ahb.set_delay_fn(nullptr);
}

// ---------------------------------------------------------------- timing model

namespace {
const sc_core::sc_time kClk(25, sc_core::SC_NS);
sc_core::sc_time cyc(double n) { return kClk * n; }

// Installs the AHB timing (transfer 1, burst 1 per word) and SDRAM wait
// states (read 7, write 4) for one test; restores everything afterwards.
struct TimedBus {
  explicit TimedBus(bool arbitration) {
    AhbCtrl::Timing t;
    t.clock = kClk;
    t.transfer_cycles = 1;
    t.burst_cycles_per_word = 1;
    t.arbitration = arbitration;
    tb->ahb.set_timing(t);
    tb->sdram.set_latency(cyc(7), cyc(4));
    tb->apb.set_access_delay(cyc(3));
  }
  ~TimedBus() {
    tb->ahb.set_timing(AhbCtrl::Timing());
    tb->sdram.set_latency(sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME);
    tb->apb.set_access_delay(sc_core::SC_ZERO_TIME);
    tb->ahb.set_snoop_fn(nullptr);
    tb->ahb.set_interval_source(0, nullptr);
  }
};
}  // namespace

TEST(AhbTiming, TransferBurstAndWaitStates) {
  TimedBus t(false);
  uint8_t b[32];
  const auto z = sc_core::SC_ZERO_TIME;
  // single word: transfer 1 + read_ws 7; write: 1 + 4
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, z), cyc(8));
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_WRITE_COMMAND, 0x40000000, b, 4, z), cyc(5));
  // 8-word burst (I-cache line): 1 + 7 + 7 beats; LDD: 1 + 7 + 1
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 32, z), cyc(15));
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 8, z), cyc(9));
  // APB: AHB transfer 1 + bridge 3 (also for an empty slot)
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x80000100, b, 4, z), cyc(4));
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x80000400, b, 4, z), cyc(4));
  // P&P area: transfer 1 + a response clock; a burst (a DMA master's) one
  // clock per further word, like any slave's burst
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0xFFFFF000, b, 4, z), cyc(2));
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0xFFFFF000, b, 32, z), cyc(9));
  // delays add to the initiator's offset
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(10)), cyc(18));
  // the DMI grant carries the same single-access latency
  tlm::tlm_dmi d;
  ASSERT_TRUE(tb->cpu.dmi(0x40000000, false, d));
  EXPECT_EQ(d.get_read_latency(), cyc(8));
  EXPECT_EQ(d.get_write_latency(), cyc(5));
  EXPECT_GE(tb->ahb.master_stats()[0].bursts, 2u);
}

TEST(AhbArbitration, SecondMasterWaitsWhileTheBusIsBusy) {
  TimedBus t(true);
  uint8_t b[32];
  const auto w0 = tb->ahb.master_stats()[1].wait;
  const uint64_t n0 = tb->ahb.master_stats()[1].waits;
  // The CPU reads a line at local time 100: the bus is busy [100, 115).
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 32, cyc(100)), cyc(115));
  // GRETH starts at 105: it waits 10 cycles, then takes 1 + 4 for its write.
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0x40001000, b, 4, cyc(105)), cyc(120));
  EXPECT_EQ(tb->ahb.master_stats()[1].wait - w0, cyc(10));
  EXPECT_EQ(tb->ahb.master_stats()[1].waits, n0 + 1);
  // The CPU at 118 finds the bus held by GRETH until 120: waits 2.
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(118)), cyc(128));
  // A master never waits for its own previous access ...
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(121)), cyc(129));
  // ... and nobody waits for a bus that is free again, or for an access that
  // starts later in simulated time than its own start.
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(200)), cyc(208));
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(150)), cyc(158));
  // Deterministic: the same sequence gives the same waits again.
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 32, cyc(300)), cyc(315));
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0x40001000, b, 4, cyc(305)), cyc(320));
}

// The CPU's DMI-served transactions reach the arbiter through the side-band
// and must arbitrate exactly as routed accesses do (the sequence of
// SecondMasterWaitsWhileTheBusIsBusy, with the CPU's accesses served by DMI).
TEST(AhbArbitration, SideBandArbitratesLikeRoutedAccesses) {
  TimedBus t(true);
  uint8_t b[32];
  bool pending = false;
  sc_core::sc_time ps, pe;
  unsigned takes = 0;
  tb->ahb.set_interval_source(0, [&](sc_core::sc_time& s, sc_core::sc_time& e) {
    if (!pending) return false;
    pending = false;
    s = ps;
    e = pe;
    ++takes;
    return true;
  });
  const auto cpu_w0 = tb->ahb.master_stats()[0].wait;
  const uint64_t cpu_n0 = tb->ahb.master_stats()[0].waits;
  // The CPU filled a line from DMI over [100, 115) (first transaction: no
  // other master was on the bus, so it did not ask).
  pending = true, ps = cyc(100), pe = cyc(115);
  // GRETH at 105: the controller takes the CPU's interval first, then waits 10.
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0x40001000, b, 4, cyc(105)), cyc(120));
  EXPECT_EQ(takes, 1u);
  // The CPU's next DMI-served transaction at 118 asks: GRETH holds the bus
  // until 120, so it waits 2 (counted for the CPU).
  EXPECT_EQ(tb->ahb.arbitrate_dmi(0, cyc(118), cyc(8)), cyc(2));
  EXPECT_EQ(tb->ahb.master_stats()[0].waits, cpu_n0 + 1);
  EXPECT_EQ(tb->ahb.master_stats()[0].wait - cpu_w0, cyc(2));
  pending = true, ps = cyc(120), pe = cyc(128);
  // A routed access of the CPU itself never waits for the CPU's own interval.
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(121)), cyc(129));
  EXPECT_EQ(takes, 2u);
  // GRETH at 125 now waits for the routed CPU access [121, 129).
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(125)), cyc(137));
  // Nothing pending: nothing taken.
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(300)), cyc(308));
  EXPECT_EQ(takes, 2u);
  // A DMI-served transaction after the bus is free does not wait.
  EXPECT_EQ(tb->ahb.arbitrate_dmi(0, cyc(400), cyc(8)), sc_core::SC_ZERO_TIME);
}

// The bus is synchronous: a waiting master is granted at the first clock edge
// at or after the end of the access it waited for, also when that access
// did not end on an edge (GRETH receive data arrives at wire times).
TEST(AhbArbitration, GrantOnTheNextClockEdge) {
  TimedBus t(true);
  uint8_t b[4];
  const sc_core::sc_time off(651, sc_core::SC_PS);
  // GRETH write at 100 + 651 ps: busy until 105 + 651 ps.
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0x40001000, b, 4, cyc(100) + off), cyc(105) + off);
  // The CPU at 101 is granted at 106 (not 105 + 651 ps).
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 4, cyc(101)), cyc(106 + 8));
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0x40001000, b, 4, cyc(200) + off), cyc(205) + off);
  EXPECT_EQ(tb->ahb.arbitrate_dmi(0, cyc(202), cyc(8)), cyc(4));
}

TEST(AhbArbitration, OffMeansNoWaits) {
  TimedBus t(false);
  uint8_t b[32];
  EXPECT_EQ(tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0x40000000, b, 32, cyc(100)), cyc(115));
  EXPECT_EQ(tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0x40001000, b, 4, cyc(105)), cyc(110));
  EXPECT_EQ(tb->ahb.arbitrate_dmi(0, cyc(106), cyc(8)), sc_core::SC_ZERO_TIME);
}

TEST(AhbSnoop, WritesOfEveryMasterAreReported) {
  TimedBus t(false);
  std::vector<std::tuple<unsigned, uint64_t, unsigned>> seen;
  tb->ahb.set_snoop_fn([&](unsigned m, uint64_t a, unsigned l) { seen.emplace_back(m, a, l); });
  uint8_t b[8] = {};
  tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0x40000010, b, 8, sc_core::SC_ZERO_TIME);
  tb->cpu.access_at(tlm::TLM_WRITE_COMMAND, 0x40000020, b, 4, sc_core::SC_ZERO_TIME);
  tb->eth.access_at(tlm::TLM_READ_COMMAND, 0x40000010, b, 8, sc_core::SC_ZERO_TIME);   // read: no
  tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0x00000010, b, 4, sc_core::SC_ZERO_TIME);  // ROM error: no
  tb->eth.access_at(tlm::TLM_WRITE_COMMAND, 0xA0000000, b, 4, sc_core::SC_ZERO_TIME);  // hole: no
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], std::make_tuple(4u, uint64_t(0x40000010), 8u));  // global address, GRETH hindex
  EXPECT_EQ(seen[1], std::make_tuple(0u, uint64_t(0x40000020), 4u));
}

TEST(ApbHidden, HiddenSlaveIsRoutedButNotInPnp) {
  // Slot 12 holds the hidden probe; the P&P table shows an empty slot.
  uint32_t v = 0;
  EXPECT_EQ(tb->cpu.rd32(0x800FF000 + 8 * 12), 0u);
  EXPECT_EQ(tb->cpu.rd32(0x800FF000 + 8 * 12 + 4), 0u);
  const uint64_t empty0 = tb->apb.empty_slot_accesses();
  const unsigned h0 = tb->hidden.hits;
  EXPECT_EQ(tb->cpu.write32(0x80000C04, 7), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(tb->hidden.hits, h0 + 1);
  EXPECT_EQ(tb->hidden.last_addr, 4u);
  EXPECT_EQ(tb->apb.empty_slot_accesses(), empty0);  // routed, not an empty slot
  (void)v;
}

// ---------------------------------------------------------------- DMI

TEST(AhbDmi, GrantTranslatedToGlobalAddresses) {
  TestInitiator& m = tb->cpu;
  bool allowed = false;
  uint8_t b[4];
  m.access(tlm::TLM_READ_COMMAND, 0x40000010, b, 4, &allowed);
  EXPECT_TRUE(allowed);
  tlm::tlm_dmi d;
  ASSERT_TRUE(m.dmi(0x40000010, true, d));
  EXPECT_EQ(d.get_start_address(), 0x40000000u);
  EXPECT_EQ(d.get_end_address(), 0x43FFFFFFu);
  EXPECT_EQ(d.get_dmi_ptr(), tb->sdram.data());
  EXPECT_TRUE(d.is_read_write_allowed());

  tlm::tlm_dmi p;
  ASSERT_TRUE(m.dmi(0x00000100, false, p));
  EXPECT_EQ(p.get_start_address(), 0u);
  EXPECT_EQ(p.get_end_address(), 0x7FFFFFu);
  EXPECT_TRUE(p.is_read_allowed());
  EXPECT_FALSE(p.is_write_allowed());
  tlm::tlm_dmi pw;
  EXPECT_FALSE(m.dmi(0x00000100, true, pw));  // ROM: no write DMI

  tlm::tlm_dmi a;
  EXPECT_FALSE(m.dmi(0x80000100, false, a));  // APB: never DMI
  m.access(tlm::TLM_READ_COMMAND, 0x80000100, b, 4, &allowed);
  EXPECT_FALSE(allowed);
  EXPECT_FALSE(m.dmi(0xFFFFF000, false, a));  // P&P area
  EXPECT_FALSE(m.dmi(0xA0000000, false, a));  // hole
}

TEST(AhbDmi, InvalidationReachesAllMastersWithGlobalRange) {
  tb->cpu.invalidations.clear();
  tb->eth.invalidations.clear();
  tb->sdram.invalidate_dmi();
  ASSERT_EQ(tb->cpu.invalidations.size(), 1u);
  EXPECT_EQ(tb->cpu.invalidations[0].first, 0x40000000u);
  EXPECT_EQ(tb->cpu.invalidations[0].second, 0x43FFFFFFu);
  ASSERT_EQ(tb->eth.invalidations.size(), 1u);
  EXPECT_EQ(tb->eth.invalidations[0], tb->cpu.invalidations[0]);
  tb->cpu.invalidations.clear();
  tb->prom.invalidate_dmi();
  ASSERT_EQ(tb->cpu.invalidations.size(), 1u);
  EXPECT_EQ(tb->cpu.invalidations[0].first, 0u);
  EXPECT_EQ(tb->cpu.invalidations[0].second, 0x7FFFFFu);
}

TEST(AhbDebug, TransportDbgTranslates) {
  tb->sdram.data()[0x200] = 0x77;
  uint8_t b[4] = {};
  EXPECT_EQ(tb->cpu.debug_read(0x40000200, b, 4), 4u);
  EXPECT_EQ(b[0], 0x77);
  EXPECT_EQ(tb->cpu.debug_read(0xFFFFF800, b, 4), 4u);
  EXPECT_EQ(be32(b), 0x0400F020u);
  EXPECT_EQ(tb->cpu.debug_read(0xA0000000, b, 4), 0u);
}

// ---------------------------------------------------------------- APB

TEST(ApbRouting, RegistersAtSlotOffsets) {
  TestInitiator& m = tb->cpu;
  EXPECT_EQ(m.rd32(0x80000000), 0x10380033u);  // MCFG1
  EXPECT_EQ(m.rd32(0x80000004), 0xE6B86E60u);  // MCFG2
  EXPECT_EQ(m.rd32(0x80000008), 0x000FF000u);  // MCFG3
  EXPECT_EQ(m.write32(0x80000104, 0xA5A5A5A5), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(tb->uart.regs()["R1"].get(), 0xA5A5A5A5u);
  EXPECT_EQ(tb->irqmp.regs()["R1"].get(), 0u);
  EXPECT_EQ(m.write32(0x80000304, 0x3), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(tb->gpt.regs()["R1"].get(), 3u);
  // The 1 KiB window: offset 0x304 inside it is bit 8..9 of the local address;
  // the device aliases in its 256-byte register bank.
  EXPECT_EQ(m.write32(0x80000B04, 0x42), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(tb->wide.regs()["R1"].get(), 0x42u);
  EXPECT_EQ(tb->apb.slave_accesses(8), 1u);
}

TEST(ApbRouting, SubWordAndDoubleWord) {
  TestInitiator& m = tb->cpu;
  uint8_t b[8] = {};
  ASSERT_EQ(m.access(tlm::TLM_READ_COMMAND, 0x80000003, b, 1), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b[0], 0x33);
  ASSERT_EQ(m.access(tlm::TLM_READ_COMMAND, 0x80000000, b, 8), tlm::TLM_OK_RESPONSE);  // LDD
  EXPECT_EQ(be32(b), 0x10380033u);
  EXPECT_EQ(be32(b + 4), 0xE6B86E60u);
  ASSERT_EQ(m.access(tlm::TLM_READ_COMMAND, 0x800FF008, b, 8), tlm::TLM_OK_RESPONSE);  // P&P by LDD
  EXPECT_EQ(be32(b), 0x0100C042u);
  EXPECT_EQ(be32(b + 4), 0x0010FFF1u);
  EXPECT_EQ(m.access(tlm::TLM_READ_COMMAND, 0x80000002, b, 4), tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST(ApbRouting, EmptySlotReadsZeroDropsWritesNoError) {
  TestInitiator& m = tb->cpu;
  const uint64_t ge = Log::count(LogCat::GuestError);
  const uint64_t empty = tb->apb.empty_slot_accesses();
  uint32_t v = 0xFFFFFFFF;
  EXPECT_EQ(m.read32(0x80000400, v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(m.write32(0x80000F00, 0x1234), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(m.read32(0x80000F00, v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(tb->apb.empty_slot_accesses(), empty + 3);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 3);
  // Writes to the APB P&P table are dropped too.
  EXPECT_EQ(m.write32(0x800FF008, 0), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(m.rd32(0x800FF008), 0x0100C042u);
}

// Runs last (it advances simulated time with sc_start). A slave that calls
// wait() inside b_transport: the latency the master sees
// and the published transaction's end are absolute times (time stamp after
// the call + the delay left), not the entry time stamp + the delay.
TEST(AhbWaitingSlave, TimedByAbsoluteTimes) {
  TimedBus t(true);
  tb->waiter.latency = cyc(5);
  std::vector<AhbTransaction> seen;
  const auto id = tb->ahb.on_transaction.listen([&](const AhbTransaction& e) { seen.push_back(e); });
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  sc_core::sc_time end;
  sc_core::sc_spawn([&] {
    uint8_t b[4];
    const sc_core::sc_time d = tb->cpu.access_at(tlm::TLM_READ_COMMAND, 0xC0000010, b, 4, cyc(2));
    end = sc_core::sc_time_stamp() + d;
  });
  sc_core::sc_start(cyc(50));
  tb->ahb.on_transaction.unlisten(id);
  tb->waiter.latency = sc_core::SC_ZERO_TIME;
  // Starts at +2, one transfer cycle, then the slave waits 5 cycles.
  EXPECT_EQ(end, t0 + cyc(8));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].start, t0 + cyc(2));
  EXPECT_EQ(seen[0].end, end);
  EXPECT_EQ(seen[0].slave, 5);
  EXPECT_EQ(seen[0].addr, 0xC0000010u);
  EXPECT_TRUE(seen[0].ok);
}

L3VP_SC_GTEST_MAIN(build)
