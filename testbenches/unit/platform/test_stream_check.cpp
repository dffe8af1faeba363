// The stream checker (models/platform/stream_check.h): the firmware's three
// stores per piece, the comparison with the pattern i mod 251, the per-stream
// offsets, and bad input (too long, unreadable, too many streams) counted,
// never a crash.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "log.h"
#include "stats.h"
#include "stream_check.h"
#include "tb_util.h"

namespace l3vp {
namespace {

constexpr uint32_t kMem = 0x40000000;  // base of the test's memory

// SystemC object names must be unique in the process: one suffix per bench.
inline std::string uniq(const char* base) {
  static int n = 0;
  return base + std::to_string(n++);
}

struct Bench {
  std::vector<uint8_t> mem = std::vector<uint8_t>(64 * 1024);
  test::TestInitiator cpu{uniq("cpu").c_str()};
  StreamCheck sc{uniq("stream_check").c_str(), [this](uint32_t a, uint8_t* d, unsigned n) -> unsigned {
                   unsigned got = 0;
                   for (; got < n && a + got >= kMem && a + got - kMem < mem.size(); ++got)
                     d[got] = mem[a + got - kMem];
                   return got;
                 }};
  Bench() { cpu.isock.bind(sc.tsock); }

  // The pattern of stream offset `off` onwards at mem[at..at+n).
  void fill(uint32_t at, unsigned n, uint64_t off) {
    for (unsigned i = 0; i < n; ++i) mem[at + i] = uint8_t((off + i) % 251);
  }
  // STREAM_CHECK(id, kMem + at, n) of firmware/bsp/streamcheck.h.
  void piece(uint32_t id, uint32_t addr, uint32_t n) {
    EXPECT_EQ(cpu.write32(StreamCheck::kSelectOffset, id), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(cpu.write32(StreamCheck::kAddrOffset, addr), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(cpu.write32(StreamCheck::kLenOffset, n), tlm::TLM_OK_RESPONSE);
  }
  const StreamCheckStream& stream(uint32_t id) { return sc.streams().at(id); }
};

TEST(StreamCheckAlone, ConsecutivePiecesOfAStreamFollowThePattern) {
  Bench b;
  b.fill(0, 1460, 0);
  b.fill(2000, 1460, 1460);  // the next segment, elsewhere in memory
  b.fill(4001, 3, 2920);     // an odd address and a short piece
  b.piece(7, kMem, 1460);
  b.piece(7, kMem + 2000, 1460);
  b.piece(7, kMem + 4001, 3);
  EXPECT_EQ(b.sc.totals().pieces, 3u);
  EXPECT_EQ(b.sc.totals().bytes, 2923u);
  EXPECT_EQ(b.sc.totals().bad_bytes, 0u);
  EXPECT_EQ(b.stream(7).offset, 2923u);
  EXPECT_EQ(b.stream(7).first_bad, -1);
}

TEST(StreamCheckAlone, AWrongByteIsCountedWithItsStreamOffset) {
  Bench b;
  b.fill(0, 1000, 0);
  b.mem[600] ^= 0x40;
  b.mem[601] ^= 0x01;
  b.piece(1, kMem, 500);
  b.piece(1, kMem + 500, 500);
  EXPECT_EQ(b.sc.totals().bad_bytes, 2u);
  EXPECT_EQ(b.sc.totals().bad_pieces, 1u);
  EXPECT_EQ(b.stream(1).first_bad, 600);
  EXPECT_EQ(b.stream(1).bad_bytes, 2u);
}

TEST(StreamCheckAlone, APieceDeliveredTwiceOrSkippedIsWrong) {
  Bench b;
  b.fill(0, 3000, 0);
  b.piece(1, kMem, 1000);
  b.piece(1, kMem, 1000);  // the same data again: the stream expects offset 1000
  EXPECT_GT(b.sc.totals().bad_bytes, 990u);
  b.piece(2, kMem + 1000, 1000);  // a new stream starts at offset 0, not 1000
  EXPECT_GT(b.stream(2).bad_bytes, 990u);
  EXPECT_EQ(b.stream(2).first_bad, 0);
}

TEST(StreamCheckAlone, StreamsKeepTheirOwnOffsets) {
  Bench b;
  b.fill(0, 100, 0);      // stream 1, offsets 0..99
  b.fill(100, 100, 0);    // stream 2, offsets 0..99
  b.fill(200, 100, 100);  // stream 1, offsets 100..199
  b.piece(1, kMem, 100);
  b.piece(2, kMem + 100, 100);
  b.piece(1, kMem + 200, 100);
  EXPECT_EQ(b.sc.totals().bad_bytes, 0u);
  EXPECT_EQ(b.stream(1).offset, 200u);
  EXPECT_EQ(b.stream(2).offset, 100u);
  EXPECT_EQ(b.sc.streams().size(), 2u);
}

TEST(StreamCheckAlone, BadPiecesAreCountedNeverRead) {
  Bench b;
  b.fill(0, 64, 0);
  b.piece(3, kMem + 0x10000 - 10, 20);  // the last 10 bytes are outside memory
  EXPECT_EQ(b.sc.totals().unreadable, 10u);
  EXPECT_GE(b.sc.totals().bad_bytes, 10u);
  b.piece(4, kMem, 0x7fffffff);  // absurd length: not read, all bad, offset advances
  EXPECT_EQ(b.sc.totals().rejected, 1u);
  EXPECT_EQ(b.stream(4).offset, 0x7fffffffu);
  EXPECT_EQ(b.stream(4).bad_bytes, 0x7fffffffu);
  b.piece(5, kMem, 0);  // an empty piece is fine
  EXPECT_EQ(b.stream(5).bad_bytes, 0u);
}

TEST(StreamCheckAlone, ReadsAreZeroAndOtherStoresIgnored) {
  Bench b;
  EXPECT_EQ(b.cpu.rd32(StreamCheck::kLenOffset), 0u);
  EXPECT_EQ(b.cpu.write32(0x40, 123), tlm::TLM_OK_RESPONSE);
  uint8_t byte = 1;  // a byte store to LEN does not check anything
  EXPECT_EQ(b.cpu.access(tlm::TLM_WRITE_COMMAND, StreamCheck::kLenOffset, &byte, 1), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.sc.totals().pieces, 0u);
}

TEST(StreamCheckAlone, TooManyStreamsAreRejectedNotStored) {
  Bench b;
  for (uint32_t id = 0; id < StreamCheck::kMaxStreams + 10; ++id) b.piece(id, kMem, 0);
  EXPECT_EQ(b.sc.streams().size(), StreamCheck::kMaxStreams);
  EXPECT_EQ(b.sc.totals().rejected, 10u);
}

TEST(StreamCheckAlone, StatisticsCarryTheTotalsAndTheStreams) {
  Bench b;
  b.fill(0, 10, 0);
  b.mem[3] = 0xff;
  b.piece(9, kMem, 10);
  StatsRegistry reg;
  b.sc.register_stats(reg.root().sub("stream_check"));
  const nlohmann::json j = reg.to_json()["stream_check"];
  EXPECT_EQ(j["bytes"], 10);
  EXPECT_EQ(j["bad_bytes"], 1);
  ASSERT_EQ(j["streams"].size(), 1u);
  EXPECT_EQ(j["streams"][0]["id"], 9);
  EXPECT_EQ(j["streams"][0]["first_bad"], 3);
}

}  // namespace
}  // namespace l3vp

// No elaboration: the benches are built and used before any sc_start().
int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
