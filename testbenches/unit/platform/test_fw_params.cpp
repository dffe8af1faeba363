// Per-run firmware parameters (models/platform/fw_params.h): KEY=VALUE and
// JSON parsing with strict validation, the big-endian block layout of
// struct fw_params (firmware/net/port/netapp.h), the header checks, and the
// write into a loaded image through the memory back door (symbol address ->
// load address through the PT_LOAD segments).
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "fw_params.h"
#include "memory.h"
#include "tb_util.h"

using namespace l3vp;
using nlohmann::json;

namespace {

std::unique_ptr<Memory> prom, ram;
std::unique_ptr<test::TestInitiator> prom_init, ram_init;  // only to bind the sockets
constexpr uint32_t kRamBase = 0x40000000;
void build() {
  prom = std::make_unique<Memory>("prom", 16 * 1024, Memory::Kind::Rom);
  ram = std::make_unique<Memory>("ram", 64 * 1024);
  prom_init = std::make_unique<test::TestInitiator>("prom_init");
  ram_init = std::make_unique<test::TestInitiator>("ram_init");
  prom_init->isock.bind(prom->tsock);
  ram_init->isock.bind(ram->tsock);
}

std::vector<LoadRegion> regions() { return {{"prom", 0, prom.get()}, {"ram", kRamBase, ram.get()}}; }

// A block as the firmware links it: header + flags = VERIFY, rest 0.
std::vector<uint8_t> fresh_block(uint32_t magic = kFwParamsMagic, uint32_t version = 3, uint32_t size = 68) {
  std::vector<uint8_t> b(version == 2 ? 60 : version == 3 ? 68 : 84, 0);
  auto put = [&](unsigned off, uint32_t v) {
    for (int i = 0; i < 4; ++i) b[off + i] = uint8_t(v >> (24 - 8 * i));
  };
  put(0, magic);
  put(4, version);
  put(8, size);
  put(52, kFwPfVerify);
  return b;
}

// Expects FwParamError whose one-line message contains `what`.
template <typename F>
void expect_error(F f, const std::string& what) {
  try {
    f();
  } catch (const FwParamError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(what), std::string::npos) << "message '" << m << "' lacks '" << what << "'";
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    return;
  }
  ADD_FAILURE() << "no error (expected one naming '" << what << "')";
}

std::vector<uint8_t> value_of(const FwParams& p, const std::string& k) { return p.values().at(k); }

}  // namespace

TEST(FwParams, LayoutMatchesTheFirmwareStruct) {
  // struct fw_params: 3 header words, board_ip, netmask, peer_ip, mac[6],
  // port (u16), window, count, bytes, idle_ms, max_ms, flags, chksum (the
  // firmware side checks the same offsets with _Static_assert in greth.c).
  const std::vector<std::pair<std::string, unsigned>> want = {
      {"board_ip", 12},       {"netmask", 16},      {"peer_ip", 20},      {"mac", 24},
      {"port", 30},           {"window", 32},       {"count", 36},        {"bytes", 40},
      {"idle_ms", 44},        {"max_ms", 48},       {"flags", 52},        {"chksum", 56},
      {"seed", 60},           {"gateway", 64},      {"conn_idle_ms", 68}, {"keepalive_ms", 72},
      {"persist_max_ms", 76}, {"evict_idle_ms", 80}};
  const auto& f = fw_param_fields();
  ASSERT_EQ(f.size(), want.size());
  unsigned next = 12;
  for (size_t i = 0; i < f.size(); ++i) {
    EXPECT_EQ(f[i].name, want[i].first);
    EXPECT_EQ(f[i].offset, want[i].second) << f[i].name;
    EXPECT_EQ(f[i].offset, next) << f[i].name << ": fields must be contiguous";
    next = f[i].offset + f[i].size;
  }
  EXPECT_EQ(next, kFwParamsSize);
}

TEST(FwParams, ChecksumVariantByNameOrNumber) {
  FwParams p;
  p.set("chksum", "generic8");
  EXPECT_EQ(value_of(p, "chksum"), (std::vector<uint8_t>{0, 0, 0, 1}));
  p.set("chksum", "fast");
  EXPECT_EQ(value_of(p, "chksum"), (std::vector<uint8_t>{0, 0, 0, 3}));
  p.set("chksum", "2");
  EXPECT_EQ(value_of(p, "chksum"), (std::vector<uint8_t>{0, 0, 0, 2}));
  EXPECT_EQ(p.to_json()["chksum"], "word32");
  p.set("chksum", "default");
  EXPECT_EQ(value_of(p, "chksum"), (std::vector<uint8_t>{0, 0, 0, 0}));
  expect_error([&] { p.set("chksum", "crc32"); }, "chksum: 'crc32' is not a checksum variant");
  p.set("chksum", "hw");  // the checksum engine's variant
  EXPECT_EQ(value_of(p, "chksum"), (std::vector<uint8_t>{0, 0, 0, 4}));
  EXPECT_EQ(p.to_json()["chksum"], "hw");
  expect_error([&] { p.set("chksum", "5"); }, "chksum: '5'");
  expect_error([&] { p.set("port", "65536"); }, "port: '65536'");
}

TEST(FwParams, ValuesAreEncodedBigEndian) {
  FwParams p;
  p.set("window", "1500");
  p.set("count", "0x10");
  p.set("port", "65535");
  p.set("board_ip", "10.1.2.254");
  p.set("mac", "02:aB:00:ff:10:53");
  p.set("flags", "verify+polled");
  EXPECT_EQ(value_of(p, "window"), (std::vector<uint8_t>{0, 0, 0x05, 0xdc}));
  EXPECT_EQ(value_of(p, "count"), (std::vector<uint8_t>{0, 0, 0, 0x10}));
  EXPECT_EQ(value_of(p, "port"), (std::vector<uint8_t>{0xff, 0xff}));
  EXPECT_EQ(value_of(p, "board_ip"), (std::vector<uint8_t>{10, 1, 2, 254}));
  EXPECT_EQ(value_of(p, "mac"), (std::vector<uint8_t>{0x02, 0xab, 0x00, 0xff, 0x10, 0x53}));
  EXPECT_EQ(value_of(p, "flags"), (std::vector<uint8_t>{0, 0, 0, 5}));
  p.set("flags", "polled,verbose");
  EXPECT_EQ(value_of(p, "flags"), (std::vector<uint8_t>{0, 0, 0, 3}));
  p.set("flags", "verify+hold");
  EXPECT_EQ(value_of(p, "flags"), (std::vector<uint8_t>{0, 0, 0, 0xc}));
  p.set("flags", "verify+simcheck");  // FW_PF_SIMCHECK 0x10 (netapp.h)
  EXPECT_EQ(value_of(p, "flags"), (std::vector<uint8_t>{0, 0, 0, 0x14}));
  p.set("flags", "none");
  EXPECT_EQ(value_of(p, "flags"), (std::vector<uint8_t>{0, 0, 0, 0}));
  p.set("flags", "6");
  EXPECT_EQ(value_of(p, "flags"), (std::vector<uint8_t>{0, 0, 0, 6}));
  p.set_arg("max_ms=4294967295");
  EXPECT_EQ(value_of(p, "max_ms"), (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff}));
  p.set_arg("window=300");  // a later setting replaces the earlier one
  EXPECT_EQ(value_of(p, "window"), (std::vector<uint8_t>{0, 0, 0x01, 0x2c}));
  EXPECT_EQ(p.to_json(), json::parse(R"({"window": 300, "count": 16, "port": 65535, "board_ip": "10.1.2.254",
                                         "mac": "02:ab:00:ff:10:53", "flags": 6, "max_ms": 4294967295})"));
}

TEST(FwParams, BadKeysAndValuesAreRejected) {
  FwParams p;
  expect_error([&] { p.set("windw", "300"); }, "unknown key 'windw'");
  expect_error([&] { p.set("magic", "1"); }, "unknown key 'magic'");  // the header is not settable
  expect_error([&] { p.set_arg("window"); }, "not KEY=VALUE");
  expect_error([&] { p.set_arg("=5"); }, "not KEY=VALUE");
  expect_error([&] { p.set("window", "12x"); }, "window: '12x'");
  expect_error([&] { p.set("window", ""); }, "window");
  expect_error([&] { p.set("window", "-1"); }, "window: '-1'");
  expect_error([&] { p.set("window", "4294967296"); }, "[0, 4294967295]");
  expect_error([&] { p.set("port", "65536"); }, "[0, 65535]");
  expect_error([&] { p.set("board_ip", "1.2.3"); }, "board_ip");
  expect_error([&] { p.set("netmask", "255.255.255.256"); }, "netmask");
  expect_error([&] { p.set("peer_ip", "1.2.3.+4"); }, "peer_ip");
  expect_error([&] { p.set("mac", "02:00:00:00:53"); }, "MAC address");
  expect_error([&] { p.set("mac", "02:00:00:00:00:5g"); }, "MAC address");
  expect_error([&] { p.set("flags", "fast"); }, "unknown flag 'fast'");
  expect_error([&] { p.set("flags", "verify+"); }, "unknown flag ''");
  EXPECT_TRUE(p.empty()) << "a rejected setting must not be kept";
}

TEST(FwParams, MeaninglessValuesAreRejected) {
  // No lenient options: values that parse but cannot work.
  FwParams p;
  expect_error([&] { p.set("window", "0"); }, "window: '0' is not an integer in [1, 65535]");
  expect_error([&] { p.set("window", "65536"); }, "window: '65536' is not an integer in [1, 65535]");
  expect_error([&] { p.set("board_ip", "0.0.0.0"); }, "board_ip: '0.0.0.0' is not a usable board address");
  expect_error([&] { p.set("netmask", "255.0.255.0"); },
               "netmask: '255.0.255.0' is not a contiguous netmask");
  expect_error([&] { p.set("netmask", "0.0.0.255"); }, "not a contiguous netmask");
  expect_error([&] { p.set("mac", "01:00:5e:00:00:01"); },
               "mac: '01:00:5e:00:00:01' is a multicast MAC address");
  expect_error([&] { p.set("mac", "ff:ff:ff:ff:ff:ff"); }, "multicast MAC address");
  EXPECT_TRUE(p.empty()) << "a rejected setting must not be kept";
  p.set("window", "1");
  p.set("window", "65535");
  p.set("netmask", "255.255.255.255");
  p.set("netmask", "255.255.240.0");
  p.set("netmask", "0.0.0.0");  // 0 = the default
  p.set("mac", "02:00:00:00:00:53");
  p.set("mac", "00:00:00:00:00:00");  // 0 = the default
  p.set("board_ip", "10.0.0.2");
  // The gateway against the board's address and subnet (given or default).
  auto block = fresh_block();
  FwParams g;
  g.set("gateway", "192.168.0.53");  // the default board_ip
  expect_error([&] { g.apply(block.data(), block.size()); },
               "gateway: '192.168.0.53' is the board's own address");
  g.set("gateway", "192.168.0.255");  // the default subnet's broadcast
  expect_error([&] { g.apply(block.data(), block.size()); },
               "gateway: '192.168.0.255' is the broadcast address");
  g.set("board_ip", "10.1.2.3");
  g.set("netmask", "255.255.0.0");
  g.set("gateway", "10.1.255.255");
  expect_error([&] { g.check(); }, "is the broadcast address of the board's subnet 10.1.0.0/255.255.0.0");
  g.set("gateway", "255.255.255.255");
  expect_error([&] { g.check(); }, "is the limited broadcast address");
  g.set("gateway", "10.1.2.3");
  expect_error([&] { g.check(); }, "is the board's own address");
  g.set("gateway", "10.1.0.1");
  g.check();
  g.set("gateway", "0.0.0.0");  // none
  g.check();
  g.apply(block.data(), block.size());
}

TEST(FwParams, JsonObjects) {
  FwParams p;
  p.set_json(json::parse(R"({"window": 700, "board_ip": "192.168.1.9", "flags": "verify"})"),
             ".board.params");
  EXPECT_EQ(value_of(p, "window"), (std::vector<uint8_t>{0, 0, 0x02, 0xbc}));
  EXPECT_EQ(value_of(p, "board_ip"), (std::vector<uint8_t>{192, 168, 1, 9}));
  expect_error([&] { p.set_json(json::parse(R"({"window": true})"), ".board.params"); },
               ".board.params.window");
  expect_error([&] { p.set_json(json::parse(R"({"window": -3})"), ".board.params"); },
               ".board.params.window");
  expect_error([&] { p.set_json(json::parse(R"({"count": 1.5})"), ".board.params"); }, ".board.params.count");
  expect_error([&] { p.set_json(json::parse(R"({"cnt": 1})"), ".board.params"); },
               ".board.params: fw_params: unknown key 'cnt'");
  expect_error([&] { p.set_json(json::parse(R"([1])"), ".board.params"); },
               ".board.params: must be an object");
}

TEST(FwParams, ApplyChecksTheHeaderAndWritesOnlyGivenFields) {
  FwParams p;
  p.set("window", "100");
  p.set("mac", "02:00:00:00:00:99");
  std::vector<uint8_t> b = fresh_block();
  const std::vector<uint8_t> before = b;
  p.apply(b.data(), b.size());
  EXPECT_EQ(be32(&b[32]), 100u);
  EXPECT_EQ(b[29], 0x99);
  EXPECT_EQ(be32(&b[52]), kFwPfVerify) << "flags not given: the image's value stays";
  for (unsigned i = 0; i < 60; ++i)
    if (i < 24 || (i >= 30 && i < 32) || i >= 36) {
      EXPECT_EQ(b[i], before[i]) << "byte " << i;
    }
  b = fresh_block(0x12345678);
  expect_error([&] { p.apply(b.data(), b.size()); }, "bad magic 0x12345678");
  b = fresh_block(kFwParamsMagic, 1);
  expect_error([&] { p.apply(b.data(), b.size()); }, "version 1");
  b = fresh_block(kFwParamsMagic, 2, 56);
  expect_error([&] { p.apply(b.data(), b.size()); }, "size field 56");
  b = fresh_block(kFwParamsMagic, 3, 60);
  expect_error([&] { p.apply(b.data(), b.size()); }, "size field 60");
  b = fresh_block();
  expect_error([&] { p.apply(b.data(), 40); }, "block is 40 bytes");
}

TEST(FwParams, WrittenIntoTheLoadedImage) {
  const uint32_t addr = kRamBase + 0x1230;
  const std::vector<uint8_t> blk = fresh_block();
  ram->fill(0, 0xEE, ram->size());
  ram->load(0x1230, blk.data(), blk.size());
  ElfImage img;
  img.segments.push_back({0, kRamBase, kRamBase, 0x2000, 0x3000, 6});
  img.symbols.push_back({"main", kRamBase + 0x100, 64, ElfSymbol::Type::Func});
  img.symbols.push_back({"fw_params", addr, 68, ElfSymbol::Type::Object});
  FwParams p;
  p.set("window", "1100");
  p.set("count", "10");
  write_fw_params(img, regions(), p);
  const uint8_t* m = ram->data() + 0x1230;
  EXPECT_EQ(be32(m), kFwParamsMagic);
  EXPECT_EQ(be32(m + 32), 1100u);
  EXPECT_EQ(be32(m + 36), 10u);
  EXPECT_EQ(be32(m + 52), kFwPfVerify);
  EXPECT_EQ(ram->data()[0x122f], 0xEE) << "nothing outside the block is touched";
  EXPECT_EQ(ram->data()[0x1230 + 68], 0xEE);

  // Linked for RAM, loaded into PROM (vaddr != paddr): written at the load address.
  prom->fill(0, 0, prom->size());
  prom->load(0x1230, blk.data(), blk.size());
  img.segments[0] = {0, 0x0, kRamBase, 0x2000, 0x2000, 6};
  write_fw_params(img, regions(), p);
  EXPECT_EQ(be32(prom->data() + 0x1230 + 32), 1100u);
}

TEST(FwParams, ImageProblemsAreErrors) {
  FwParams p;
  p.set("window", "300");
  ElfImage img;
  img.segments.push_back({0, kRamBase, kRamBase, 0x2000, 0x3000, 6});
  expect_error([&] { write_fw_params(img, regions(), p); }, "no 'fw_params' symbol");
  img.symbols.push_back({"fw_params", kRamBase + 0x2400, 60, ElfSymbol::Type::Object});
  expect_error([&] { write_fw_params(img, regions(), p); }, "not in the initialised data");  // in .bss
  img.symbols[0] = {"fw_params", kRamBase + 0x100, 40, ElfSymbol::Type::Object};
  expect_error([&] { write_fw_params(img, regions(), p); }, "symbol is 40 bytes");
  img.symbols[0] = {"fw_params", kRamBase + 0x100, 68, ElfSymbol::Type::Object};
  ram->fill(0, 0, ram->size());
  expect_error([&] { write_fw_params(img, regions(), p); }, "bad magic 0x00000000");
  // A segment outside every memory (the loader would have refused it).
  img.segments[0] = {0, 0x90000000, kRamBase, 0x2000, 0x2000, 6};
  expect_error([&] { write_fw_params(img, regions(), p); }, "outside memory");
}

TEST(FwParams, Version2ImagesTakeAllButTheVersion3Fields) {
  // Firmware built before seed/gateway (version 2, 60 bytes) still runs
  // with the older parameters; the new ones are an error naming the field.
  const uint32_t addr = kRamBase + 0x1400;
  const std::vector<uint8_t> v2 = fresh_block(kFwParamsMagic, 2, 60);
  ram->fill(0, 0xEE, ram->size());
  ram->load(0x1400, v2.data(), v2.size());
  ElfImage img;
  img.segments.push_back({0, kRamBase, kRamBase, 0x2000, 0x3000, 6});
  img.symbols.push_back({"fw_params", addr, 60, ElfSymbol::Type::Object});
  FwParams p;
  p.set("window", "700");
  write_fw_params(img, regions(), p);
  EXPECT_EQ(be32(ram->data() + 0x1400 + 32), 700u);
  EXPECT_EQ(ram->data()[0x1400 + 60], 0xEE) << "a version 2 block is 60 bytes";
  p.set("seed", "42");
  expect_error([&] { write_fw_params(img, regions(), p); }, "'seed' needs version 3");
  // Version 3 with an unsized symbol: the block's size field gives 68.
  const std::vector<uint8_t> v3 = fresh_block();
  ram->load(0x1400, v3.data(), v3.size());
  img.symbols[0].size = 0;
  p.set("gateway", "192.168.0.1");
  write_fw_params(img, regions(), p);
  EXPECT_EQ(be32(ram->data() + 0x1400 + 60), 42u);
  EXPECT_EQ(be32(ram->data() + 0x1400 + 64), 0xC0A80001u);
  EXPECT_EQ(ram->data()[0x1400 + 68], 0xEE);
}

TEST(FwParams, SlotPolicyTimesAreCheckedAndTakeOff) {
  // Version 4 (84 bytes): the TCP slot policy times in ms, 'off' =
  // 0xffffffff; 0 (the program's default), the absurdly large and what is
  // below the stack's resolution are refused, and the persist limit cannot
  // be off (a peer could hold a slot forever).
  FwParams p;
  p.set("conn_idle_ms", "30000");
  p.set("keepalive_ms", "off");
  p.set("persist_max_ms", "1000");
  p.set("evict_idle_ms", "86400000");
  EXPECT_EQ(value_of(p, "conn_idle_ms"), (std::vector<uint8_t>{0, 0, 0x75, 0x30}));
  EXPECT_EQ(value_of(p, "keepalive_ms"), (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(p.to_json()["keepalive_ms"], "off");
  EXPECT_EQ(p.to_json()["conn_idle_ms"], 30000);
  expect_error([&] { p.set("conn_idle_ms", "0"); },
               "conn_idle_ms: '0' is not a time in [100, 86400000] ms or 'off'");
  expect_error([&] { p.set("keepalive_ms", "99"); },
               "keepalive_ms: '99' is not a time in [100, 86400000] ms");
  expect_error([&] { p.set("evict_idle_ms", "86400001"); }, "evict_idle_ms: '86400001' is not a time");
  expect_error([&] { p.set("conn_idle_ms", "99999999999"); },
               "conn_idle_ms: '99999999999' is not a time in ms");
  expect_error([&] { p.set("conn_idle_ms", "4294967295"); },
               "conn_idle_ms: '4294967295' is not a time in ms");
  expect_error([&] { p.set("persist_max_ms", "off"); },
               "persist_max_ms: 'off' is not a time in [1000, 86400000] ms (");
  expect_error([&] { p.set("persist_max_ms", "999"); }, "persist_max_ms: '999'");
  expect_error([&] { p.set("keepalive_ms", "soon"); }, "keepalive_ms: 'soon' is not a time in ms or 'off'");
  std::vector<uint8_t> b = fresh_block(kFwParamsMagic, 4, 84);
  p.apply(b.data(), b.size());
  EXPECT_EQ(be32(&b[68]), 30000u);
  EXPECT_EQ(be32(&b[72]), 0xFFFFFFFFu);
  EXPECT_EQ(be32(&b[76]), 1000u);
  EXPECT_EQ(be32(&b[80]), 86400000u);
  // A version 3 image (68 bytes) cannot take them.
  b = fresh_block();
  expect_error([&] { p.apply(b.data(), b.size()); },
               "needs version 4 of the block; the loaded image has version 3");
  b = fresh_block(kFwParamsMagic, 4, 68);
  expect_error([&] { p.apply(b.data(), b.size()); }, "size field 68");
}

L3VP_SC_GTEST_MAIN(build)
