// RegBank field semantics (ro, w1c, reserved, unimplemented, bound member,
// reset, hooks) and the ApbDevice TLM dispatch: debug accesses have no side
// effects, unmapped reads and writes are guest errors.
#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "apb_device.h"
#include "regbank.h"

namespace l3vp {
namespace {

TEST(RegBank, ReadOnlyW1cReservedAndPlainBits) {
  RegBank bank(64, "dev");
  Reg& r = bank.add("R", 0x8, 0x0000F0F0).ro(0xF000).w1c(0x00F0).rsvd(0xFF000000u);
  EXPECT_EQ(r.get(), 0x0000F0F0u);
  EXPECT_EQ(r.wmask(), 0x00FF0F0Fu);
  uint32_t v = 0;
  // ro: 15:12 keep 0xF; w1c: writing 1 to bits 4,5 clears them, 0s leave
  // bits 6,7; rw: bits 3:0, 11:8 and 23:16 take the value; rsvd: 31:24 read 0.
  ASSERT_TRUE(bank.write(0x8, 0xFFAB0F3Fu));
  ASSERT_TRUE(bank.read(0x8, v));
  EXPECT_EQ(v, 0x00ABFFCFu);
  // The model sets a w1c bit again; a write of 0 leaves it.
  r.set(r.get() | 0x10);
  bank.write(0x8, 0);
  EXPECT_EQ(r.get() & 0xF0, 0xD0u);
  // Aliasing: the bank decodes `span` bytes.
  ASSERT_TRUE(bank.read(0x48, v));
  EXPECT_EQ(v, 0x0000F0D0u);
  EXPECT_FALSE(bank.read(0x4, v));
  EXPECT_EQ(v, 0u);
  EXPECT_FALSE(bank.write(0x4, 1));
}

TEST(RegBank, BoundMemberResetAndNoReset) {
  uint32_t member = 0x12345678;
  RegBank bank(16, "dev");
  bank.add("R", 0x0).bind(member).reset_value(0xA5).rsvd(0xFFFF0000u).no_reset(0x0F);
  EXPECT_EQ(member, 0xA5u);  // power-on value applied at declaration
  bank.write(0x0, 0xFFFF1234);
  EXPECT_EQ(member, 0x1234u);  // the model's member is the storage
  member = 0x5678;             // the model changes it; a read shows it
  uint32_t v = 0;
  bank.read(0x0, v);
  EXPECT_EQ(v, 0x5678u);
  bank.reset();
  EXPECT_EQ(member, 0xA8u);  // bits 3:0 kept (0x8), the rest reset (0xA0)
}

TEST(RegBank, UnimplementedBitsLoggedOncePerRegister) {
  Log::enable(LogCat::Unimp, false);
  RegBank bank(16, "dev");
  bank.add("A", 0x0).unimp(0x10, "feature x").unimp(0x20, "feature y");
  bank.add("B", 0x4).unimp(0x1, "feature z");
  const uint64_t u0 = Log::count(LogCat::Unimp);
  bank.write(0x0, 0x0F);  // no unimplemented bit set
  EXPECT_EQ(Log::count(LogCat::Unimp), u0);
  bank.write(0x0, 0x10);
  EXPECT_EQ(Log::count(LogCat::Unimp), u0 + 1);
  bank.write(0x0, 0x30);  // same register: not again
  bank.write(0x0, 0x20);
  EXPECT_EQ(Log::count(LogCat::Unimp), u0 + 1);
  uint32_t v = 0;
  bank.read(0x0, v);
  EXPECT_EQ(v, 0x20u);  // unimplemented bits are stored
  bank.write(0x4, 1);   // another register logs its own
  EXPECT_EQ(Log::count(LogCat::Unimp), u0 + 2);
}

TEST(RegBank, HooksOrderAndDebugAccesses) {
  RegBank bank(16, "dev");
  std::vector<std::string> trace;
  uint32_t fifo_head = 7, pops = 0;
  Reg& r = bank.add("R", 0x0, 0x1)
               .w1c(0x1)
               .sync([&] { trace.push_back("sync"); })
               .on_read([&] {
                 trace.push_back("pop");
                 ++pops;
               })
               .on_write([&](uint32_t v, uint32_t old) {
                 trace.push_back("write " + std::to_string(v) + " old " + std::to_string(old));
               });
  bank.add("D", 0x4).no_store().read_value([&] { return fifo_head; }).on_read([&] { ++pops; });
  bank.add("P", 0x8, 0x3);  // plain register, no hooks
  uint32_t v = 0;
  bank.read(0x0, v);
  bank.write(0x0, 0xF1);
  EXPECT_EQ(trace, (std::vector<std::string>{"sync", "pop", "sync", "write 241 old 1"}));
  EXPECT_EQ(r.get(), 0xF0u);  // W1C applied before the hook ran
  trace.clear();
  pops = 0;
  // Debug: no sync, no read side effect, no write hook, no W1C.
  r.set(0x1);
  EXPECT_TRUE(bank.read(0x0, v, true));
  EXPECT_EQ(v, 0x1u);
  EXPECT_FALSE(bank.write(0x0, 0x1, true));  // refused: the register has hooks
  EXPECT_EQ(r.get(), 0x1u);
  EXPECT_TRUE(bank.read(0x4, v, true));
  EXPECT_EQ(v, 7u);
  EXPECT_TRUE(trace.empty());
  EXPECT_EQ(pops, 0u);
  // A plain register takes a debug write.
  EXPECT_TRUE(bank.write(0x8, 0x55, true));
  EXPECT_EQ(bank["P"].get(), 0x55u);
  // A no_store register reads 0 without a value hook and keeps nothing.
  bank.add("C", 0xC).no_store().on_write([&](uint32_t x) { trace.push_back(std::to_string(x)); });
  bank.write(0xC, 9);
  bank.read(0xC, v);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(trace, (std::vector<std::string>{"9"}));
}

// --- ApbDevice dispatch ---------------------------------------------------

class FifoDev : public ApbDevice {
 public:
  std::vector<uint8_t> fifo{0x41, 0x42};
  uint32_t irq_status = 0x3;
  explicit FifoDev(sc_core::sc_module_name n) : ApbDevice(n, 16) {
    regs_.add("DATA", 0x0)
        .no_store()
        .read_value([this] { return fifo.empty() ? 0u : fifo.front(); })
        .on_read([this] {
          if (!fifo.empty()) fifo.erase(fifo.begin());
        });
    regs_.add("STATUS", 0x4).bind(irq_status).w1c(0x3);
  }
};

struct Top : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Top> s{"s"};
  FifoDev dev{"dev"};
  explicit Top(sc_core::sc_module_name n) : sc_module(n) { s.bind(dev.tsock); }
  uint32_t access(bool dbg, bool write, uint32_t addr, uint32_t v, unsigned* n = nullptr) {
    uint8_t b[4];
    put_be32(b, v);
    tlm::tlm_generic_payload gp;
    gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(b);
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    if (dbg) {
      const unsigned got = s->transport_dbg(gp);
      if (n) *n = got;
    } else {
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      s->b_transport(gp, d);
    }
    return be32(b);
  }
};

Top& top() {
  static Top* t = new Top("top");
  return *t;
}

TEST(ApbDeviceDispatch, DebugAccessHasNoSideEffects) {
  Top& t = top();
  Log::enable(LogCat::GuestError, false);
  const uint64_t ge = Log::count(LogCat::GuestError);
  t.dev.irq_status = 0x3;  // two pending events (the power-on value is 0)
  unsigned n = 0;
  // A debug read shows the FIFO head without popping it.
  EXPECT_EQ(t.access(true, false, 0x0, 0, &n), 0x41u);
  EXPECT_EQ(n, 4u);
  EXPECT_EQ(t.access(true, false, 0x0, 0), 0x41u);
  EXPECT_EQ(t.dev.fifo.size(), 2u);
  // A debug write of 1s to a W1C register clears nothing.
  t.access(true, true, 0x4, 0x3, &n);
  EXPECT_EQ(t.dev.irq_status, 0x3u);
  // Debug accesses to unmapped offsets are no guest errors.
  t.access(true, false, 0x8, 0);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge);
  // A CPU read pops, a CPU write clears.
  EXPECT_EQ(t.access(false, false, 0x0, 0), 0x41u);
  EXPECT_EQ(t.access(false, false, 0x0, 0), 0x42u);
  EXPECT_TRUE(t.dev.fifo.empty());
  t.access(false, true, 0x4, 0x1);
  EXPECT_EQ(t.dev.irq_status, 0x2u);
}

TEST(ApbDeviceDispatch, UnmappedReadsAndWritesAreGuestErrors) {
  Top& t = top();
  Log::enable(LogCat::GuestError, false);
  const uint64_t ge = Log::count(LogCat::GuestError);
  EXPECT_EQ(t.access(false, false, 0x8, 0xFFFFFFFF), 0u);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 1);
  t.access(false, true, 0xC, 5);
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 2);
  t.access(false, false, 0x4, 0);  // mapped: nothing logged
  EXPECT_EQ(Log::count(LogCat::GuestError), ge + 2);
}

}  // namespace
}  // namespace l3vp

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
