// GDB remote protocol helpers of sim/gdb (no sockets, no SystemC): packet
// framing and checksums, escaping, the reader's events, hex encodings, the
// load/store decode behind watchpoints and the trap -> signal map.
#include <gtest/gtest.h>

#include "packet.h"
#include "sparc.h"

namespace l3vp::gdb {
namespace {

std::vector<PacketReader::Event> feed_all(PacketReader& r, const std::string& s) {
  std::vector<PacketReader::Event> v;
  for (char c : s)
    if (auto e = r.feed(c)) v.push_back(*e);
  return v;
}

TEST(GdbPacket, FrameAndChecksum) {
  EXPECT_EQ(checksum(""), 0);
  EXPECT_EQ(frame("OK"), "$OK#9a");  // 'O' 0x4f + 'K' 0x4b = 0x9a
  EXPECT_EQ(frame("g"), "$g#67");
  // $ # } * are escaped as } followed by the byte xor 0x20, checksum over the escaped text.
  EXPECT_EQ(frame("a$#}*"),
            std::string("$a}\x04}\x03}]}\x0a#") + "c3");  // 0x61 + 4*0x7d + 0x04 + 0x03 + 0x5d + 0x0a = 0x2c3
}

TEST(GdbPacket, ReaderRoundTripAndEvents) {
  PacketReader r;
  const std::string payload = std::string("X40001000,4:\x01}$#*", 17);
  auto ev = feed_all(r, "+" + frame(payload) + "\x03-");
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[0].kind, PacketReader::Kind::Ack);
  EXPECT_EQ(ev[1].kind, PacketReader::Kind::Packet);
  EXPECT_EQ(ev[1].text, payload);
  EXPECT_EQ(ev[2].kind, PacketReader::Kind::Interrupt);
  EXPECT_EQ(ev[3].kind, PacketReader::Kind::Nak);
}

TEST(GdbPacket, ReaderRejectsBadChecksum) {
  PacketReader r;
  auto ev = feed_all(r, "$g#68$g#zz$m0,4#fd");
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[0].kind, PacketReader::Kind::BadPacket);
  EXPECT_EQ(ev[1].kind, PacketReader::Kind::BadPacket);
  EXPECT_EQ(ev[2].kind, PacketReader::Kind::Packet);
  EXPECT_EQ(ev[2].text, "m0,4");
}

// A packet longer than the reader's limit (the stub advertises
// PacketSize=4096) is refused like a bad checksum, whatever its checksum,
// and holds at most the limit in memory; the next packet is read normally
// (once an unterminated 100 MB packet grew the stub by 100 MB).
TEST(GdbPacket, ReaderRefusesOverlongPackets) {
  PacketReader r(16);
  EXPECT_EQ(r.max_payload(), 16u);
  auto ev = feed_all(r, frame(std::string(17, 'a')) + frame(std::string(16, 'b')));
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].kind, PacketReader::Kind::BadPacket);
  EXPECT_EQ(ev[1].kind, PacketReader::Kind::Packet);
  EXPECT_EQ(ev[1].text, std::string(16, 'b'));
  PacketReader big;
  EXPECT_EQ(big.max_payload(), PacketReader::kDefaultMaxPayload);
  for (int i = 0; i < 100000; ++i) big.feed('x');  // unterminated
  EXPECT_LE(big.buffered(), PacketReader::kDefaultMaxPayload);
}

TEST(GdbPacket, Hex) {
  const uint8_t b[] = {0x00, 0x7f, 0xa5, 0xff};
  EXPECT_EQ(to_hex(b, 4), "007fa5ff");
  std::vector<uint8_t> out;
  ASSERT_TRUE(from_hex("007FA5ff", out));
  EXPECT_EQ(out, std::vector<uint8_t>(b, b + 4));
  EXPECT_FALSE(from_hex("abc", out));
  EXPECT_FALSE(from_hex("zz", out));
  EXPECT_EQ(be32_hex(0x40000004u), "40000004");
  uint32_t v = 0;
  ASSERT_TRUE(parse_be32_hex("deadbeef", v));
  EXPECT_EQ(v, 0xdeadbeefu);
  EXPECT_FALSE(parse_be32_hex("dead", v));
  ASSERT_TRUE(parse_hex_u32("43fffdc0", v));
  EXPECT_EQ(v, 0x43fffdc0u);
  EXPECT_FALSE(parse_hex_u32("", v));
  EXPECT_FALSE(parse_hex_u32("100000000", v));
  EXPECT_FALSE(parse_hex_u32("12g", v));
}

TEST(GdbSparc, SignalOfTrap) {
  EXPECT_EQ(signal_of_trap(0x09), kSigSegv);
  EXPECT_EQ(signal_of_trap(0x01), kSigSegv);
  EXPECT_EQ(signal_of_trap(0x02), kSigIll);
  EXPECT_EQ(signal_of_trap(0x07), kSigBus);
  EXPECT_EQ(signal_of_trap(0x2a), kSigFpe);
  EXPECT_EQ(signal_of_trap(0x05), kSigTrap);  // window overflow
  EXPECT_EQ(signal_of_trap(0x80), kSigTrap);  // software trap
}

}  // namespace
}  // namespace l3vp::gdb
