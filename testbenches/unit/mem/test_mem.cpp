// Memory target (lengths, bounds, byte enables, ROM, DMI grant/invalidate)
// and the ELF loader (valid image, placement errors, malformed files).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "elf_loader.h"
#include "memory.h"
#include "tb_util.h"

using namespace l3vp;
using l3vp::test::TestInitiator;

#ifndef TEST_ELF_DIR
#error "TEST_ELF_DIR must point at the directory holding the test ELF images"
#endif

namespace {

struct Bench {
  Memory ram{"ram", 4096};
  Memory rom{"rom", 1024, Memory::Kind::Rom};
  Memory sdram{"sdram", 64u << 20};
  Memory prom{"prom", 8u << 20, Memory::Kind::Rom};
  TestInitiator i_ram{"i_ram"}, i_rom{"i_rom"}, i_sdram{"i_sdram"}, i_prom{"i_prom"};
  Bench() {
    i_ram.isock.bind(ram.tsock);
    i_rom.isock.bind(rom.tsock);
    i_sdram.isock.bind(sdram.tsock);
    i_prom.isock.bind(prom.tsock);
  }
  std::vector<LoadRegion> regions() { return {{"prom", 0x00000000, &prom}, {"sdram", 0x40000000, &sdram}}; }
};
std::unique_ptr<Bench> tb;
void build() { tb = std::make_unique<Bench>(); }

std::string elf(const char* name) { return std::string(TEST_ELF_DIR) + "/" + name; }

std::vector<char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
std::string write_tmp(const std::string& name, const std::vector<char>& bytes) {
  const std::string p = ::testing::TempDir() + "l3vp_" + name;
  std::ofstream(p, std::ios::binary).write(bytes.data(), bytes.size());
  return p;
}

// Loads and expects an ElfError; returns its one-line message.
std::string load_error(const std::string& path) {
  try {
    load_elf(path, tb->regions());
  } catch (const ElfError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << "multi-line message: " << m;
    return m;
  }
  ADD_FAILURE() << path << " loaded without error";
  return "";
}

}  // namespace

// ---------------------------------------------------------------- Memory

TEST(Memory, AnyLengthInsideBounds) {
  TestInitiator& m = tb->i_ram;
  for (unsigned len : {1u, 2u, 4u, 8u, 16u, 32u}) {
    std::vector<uint8_t> w(len), r(len);
    for (unsigned i = 0; i < len; ++i) w[i] = uint8_t(len * 7 + i);
    ASSERT_EQ(m.access(tlm::TLM_WRITE_COMMAND, 64, w.data(), len), tlm::TLM_OK_RESPONSE) << len;
    ASSERT_EQ(m.access(tlm::TLM_READ_COMMAND, 64, r.data(), len), tlm::TLM_OK_RESPONSE) << len;
    EXPECT_EQ(w, r) << len;
    EXPECT_EQ(tb->ram.data()[64], w[0]);  // bytes kept in target (address) order
  }
  EXPECT_EQ(m.write32(0x100, 0x11223344), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(tb->ram.data()[0x100], 0x11);
  EXPECT_EQ(tb->ram.data()[0x103], 0x44);
  EXPECT_EQ(m.write32(4092, 1), tlm::TLM_OK_RESPONSE);  // last word
}

TEST(Memory, OutOfBoundsIsAddressError) {
  TestInitiator& m = tb->i_ram;
  uint32_t v;
  EXPECT_EQ(m.read32(4094, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // straddles the end
  EXPECT_EQ(m.read32(4096, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(m.write32(1ull << 40, 0), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_THROW(tb->ram.load(4090, reinterpret_cast<const uint8_t*>("0123456789"), 10), std::out_of_range);
}

TEST(Memory, ByteEnablesOnWrite) {
  tlm::tlm_generic_payload gp;
  uint8_t d[4] = {1, 2, 3, 4};
  uint8_t be[2] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED};
  tb->ram.fill(0x200, 0xEE, 4);
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(0x200);
  gp.set_data_ptr(d);
  gp.set_data_length(4);
  gp.set_streaming_width(4);
  gp.set_byte_enable_ptr(be);
  gp.set_byte_enable_length(2);
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  tb->i_ram.isock->b_transport(gp, t);
  ASSERT_TRUE(gp.is_response_ok());
  const uint8_t* m = tb->ram.data() + 0x200;
  EXPECT_EQ(m[0], 1);
  EXPECT_EQ(m[1], 0xEE);
  EXPECT_EQ(m[2], 3);
  EXPECT_EQ(m[3], 0xEE);
}

TEST(Memory, RomRefusesBusWritesButLoads) {
  const uint8_t code[4] = {0x91, 0xD0, 0x20, 0x00};  // ta 0
  tb->rom.load(0, code, 4);
  EXPECT_EQ(tb->i_rom.rd32(0), 0x91D02000u);
  EXPECT_EQ(tb->i_rom.write32(0, 0), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(tb->i_rom.rd32(0), 0x91D02000u);
}

TEST(Memory, DmiGrantWithLatencies) {
  tb->ram.set_latency(sc_core::sc_time(10, sc_core::SC_NS), sc_core::sc_time(20, sc_core::SC_NS));
  bool allowed = false;
  uint8_t b[4];
  tb->i_ram.access(tlm::TLM_READ_COMMAND, 0, b, 4, &allowed);
  EXPECT_TRUE(allowed);
  EXPECT_EQ(tb->i_ram.last_delay, sc_core::sc_time(10, sc_core::SC_NS));
  tb->i_ram.write32(0, 0);
  EXPECT_EQ(tb->i_ram.last_delay, sc_core::sc_time(20, sc_core::SC_NS));
  tlm::tlm_dmi d;
  ASSERT_TRUE(tb->i_ram.dmi(8, true, d));
  EXPECT_EQ(d.get_start_address(), 0u);
  EXPECT_EQ(d.get_end_address(), 4095u);
  EXPECT_EQ(d.get_dmi_ptr(), tb->ram.data());
  EXPECT_TRUE(d.is_read_write_allowed());
  EXPECT_EQ(d.get_read_latency(), sc_core::sc_time(10, sc_core::SC_NS));
  EXPECT_EQ(d.get_write_latency(), sc_core::sc_time(20, sc_core::SC_NS));
  tb->ram.set_latency(sc_core::SC_ZERO_TIME, sc_core::SC_ZERO_TIME);

  tlm::tlm_dmi r;
  ASSERT_TRUE(tb->i_rom.dmi(0, false, r));
  EXPECT_TRUE(r.is_read_allowed());
  EXPECT_FALSE(r.is_write_allowed());
  tlm::tlm_dmi w;
  EXPECT_FALSE(tb->i_rom.dmi(0, true, w));
}

TEST(Memory, DmiDisabledAndInvalidation) {
  tb->ram.set_dmi_enabled(false);
  tlm::tlm_dmi d;
  EXPECT_FALSE(tb->i_ram.dmi(0, false, d));
  bool allowed = true;
  uint8_t b[4];
  tb->i_ram.access(tlm::TLM_READ_COMMAND, 0, b, 4, &allowed);
  EXPECT_FALSE(allowed);
  tb->ram.set_dmi_enabled(true);
  EXPECT_TRUE(tb->i_ram.dmi(0, false, d));

  tb->i_ram.invalidations.clear();
  tb->ram.invalidate_dmi();
  ASSERT_EQ(tb->i_ram.invalidations.size(), 1u);
  EXPECT_EQ(tb->i_ram.invalidations[0].first, 0u);
  EXPECT_EQ(tb->i_ram.invalidations[0].second, 4095u);
}

// The write generations a DMI grant hands out (common/write_gen.h): every
// write the memory sees bumps the counter of each 4 KiB page it touches;
// reads and refused writes do not.
TEST(Memory, WriteGenerationsCountTheWritesItSees) {
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(0);
  WriteGenExt ext;
  gp.set_extension(&ext);
  tlm::tlm_dmi d;
  const bool granted = tb->i_sdram.isock->get_direct_mem_ptr(gp, d);
  gp.clear_extension(&ext);
  ASSERT_TRUE(granted);
  ASSERT_NE(ext.gen, nullptr);
  EXPECT_EQ(ext.base, tb->sdram.data());
  const uint32_t* g = ext.gen;
  const uint32_t g0 = g[0], g1 = g[1], g2 = g[2];
  tb->i_sdram.write32(0x1004, 1);  // a bus write
  EXPECT_EQ(g[1], g1 + 1);
  uint8_t b[8] = {};
  tb->i_sdram.access(tlm::TLM_WRITE_COMMAND, 0x1FFC, b, 8);  // across two pages
  EXPECT_EQ(g[1], g1 + 2);
  EXPECT_EQ(g[2], g2 + 1);
  tb->i_sdram.access(tlm::TLM_READ_COMMAND, 0x1000, b, 8);  // a read
  tb->i_sdram.debug_read(0x10, b, 4);
  EXPECT_EQ(g[0], g0);
  EXPECT_EQ(g[1], g1 + 2);
  tlm::tlm_generic_payload dbg;  // a debugger's write
  dbg.set_command(tlm::TLM_WRITE_COMMAND);
  dbg.set_address(0x20);
  dbg.set_data_ptr(b);
  dbg.set_data_length(4);
  dbg.set_streaming_width(4);
  EXPECT_EQ(tb->i_sdram.isock->transport_dbg(dbg), 4u);
  EXPECT_EQ(g[0], g0 + 1);
  tb->sdram.load(0x2000, b, 4);  // the back door
  tb->sdram.fill(0x2000, 0, 4);
  EXPECT_EQ(g[2], g2 + 3);
  EXPECT_EQ(g[0], g0 + 1);
  // A ROM counts the loader's writes and ignores the refused bus write.
  const uint32_t r0 = tb->rom.write_gen().data()[0];
  EXPECT_EQ(tb->i_rom.write32(0, 0), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(tb->rom.write_gen().data()[0], r0);
}

// ---------------------------------------------------------------- ELF loader

TEST(ElfLoader, LoadsSegmentsZeroFillsBssAndReadsSymbols) {
  tb->sdram.fill(0, 0xAA, 0x100);
  const ElfImage img = load_elf(elf("ok.elf"), tb->regions());
  EXPECT_EQ(img.entry, 0x40000000u);
  ASSERT_EQ(img.segments.size(), 1u);
  EXPECT_LT(img.segments[0].filesz, img.segments[0].memsz);
  const uint8_t* m = tb->sdram.data();
  EXPECT_EQ(be32(m + 0), 0x03100000u);  // sethi %hi(0x40000010), %g1
  EXPECT_EQ(be32(m + 8), 0x91D02000u);  // ta 0
  const uint32_t memsz = img.segments[0].memsz;
  EXPECT_EQ(m[memsz], 0xAA);  // nothing written past memsz

  auto find = [&](const std::string& n) -> const ElfSymbol* {
    for (const auto& s : img.symbols)
      if (s.name == n) return &s;
    return nullptr;
  };
  const ElfSymbol* start = find("_start");
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(start->type, ElfSymbol::Type::Func);
  EXPECT_EQ(start->value, 0x40000000u);
  EXPECT_EQ(start->size, 16u);
  const ElfSymbol* counter = find("counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->type, ElfSymbol::Type::Object);
  EXPECT_EQ(counter->size, 4u);
  EXPECT_EQ(be32(m + (counter->value - 0x40000000)), 0x12345678u);  // .data loaded
  const ElfSymbol* buf = find("buf");
  ASSERT_NE(buf, nullptr);
  EXPECT_EQ(buf->size, 64u);
  EXPECT_EQ(buf->value + 64, 0x40000000 + memsz);  // .bss ends the segment
  for (uint32_t a = buf->value; a < buf->value + 64; ++a) ASSERT_EQ(m[a - 0x40000000], 0) << "bss byte " << a;
  const ElfSymbol* lbl = find("local_label");
  ASSERT_NE(lbl, nullptr);
  EXPECT_EQ(lbl->type, ElfSymbol::Type::NoType);
  EXPECT_EQ(symbol_at(img, 0x40000004), "_start");
  EXPECT_EQ(symbol_at(img, buf->value + 63), "buf");
  EXPECT_EQ(symbol_at(img, 0x50000000), "");
  for (size_t i = 1; i < img.symbols.size(); ++i) EXPECT_LE(img.symbols[i - 1].value, img.symbols[i].value);
}

TEST(ElfLoader, ReadsRegionNamesAndRejectsBadOnes) {
  const ElfImage img = read_elf(elf("ok.elf"));
  ASSERT_EQ(img.region_names.size(), 2u);
  EXPECT_EQ(img.region_names.at(7), "phase_a");
  EXPECT_EQ(img.region_names.at(0x50480001u), "net.driver");
  // The names are not loaded: the only segment is the code/data one.
  EXPECT_EQ(img.segments.size(), 1u);

  std::vector<char> b = slurp(elf("ok.elf"));
  const std::string key = "phase_a";
  auto at = std::search(b.begin(), b.end(), key.begin(), key.end());
  ASSERT_NE(at, b.end());
  *at = ' ';  // a space is not allowed in a name
  const std::string m = load_error(write_tmp("badname.elf", b));
  EXPECT_NE(m.find(".l3vp.regions"), std::string::npos) << m;
  EXPECT_NE(m.find("bad region name"), std::string::npos) << m;
  // A name that fills its record without a terminating NUL.
  b = slurp(elf("ok.elf"));
  at = std::search(b.begin(), b.end(), key.begin(), key.end());
  std::fill(at, at + 60, 'x');
  EXPECT_NE(load_error(write_tmp("nonul.elf", b)).find("bad region name"), std::string::npos);
}

TEST(ElfLoader, SegmentOutsideMemoryNamesSegmentAndAddress) {
  tb->sdram.fill(0, 0xAA, 4);
  const std::string m = load_error(elf("outside.elf"));
  EXPECT_NE(m.find("segment 0"), std::string::npos) << m;
  EXPECT_NE(m.find("0x90000000"), std::string::npos) << m;
  EXPECT_NE(m.find("outside memory"), std::string::npos) << m;
  // Straddling the end of SDRAM is outside too (a segment must fit entirely).
  const std::string s = load_error(elf("straddle.elf"));
  EXPECT_NE(s.find("0x43ffffe0"), std::string::npos) << s;
  EXPECT_EQ(tb->sdram.data()[0], 0xAA);
}

// Position-independent images (PIE) are loaded but marked, with the first
// sign that showed it (leon3vp prints the warning); a plain executable is not.
TEST(ElfLoader, MarksPositionIndependentImages) {
  EXPECT_FALSE(l3vp::read_elf(elf("ok.elf")).position_independent);
  std::vector<char> b = slurp(elf("ok.elf"));
  ASSERT_GT(b.size(), 64u);
  b[16] = 0;
  b[17] = 3;  // e_type = ET_DYN
  const l3vp::ElfImage img = l3vp::read_elf(write_tmp("dyn.elf", b));
  EXPECT_TRUE(img.position_independent);
  EXPECT_EQ(img.pie_reason, "ELF type ET_DYN");
  EXPECT_NO_THROW(load_elf(write_tmp("dyn.elf", b), tb->regions()));
}

TEST(ElfLoader, RejectsNonExecutablesAndOtherMachines) {
  EXPECT_NE(load_error(elf("ok.o")).find("not an executable"), std::string::npos);
  // The test binary itself: a 64-bit little-endian host ELF.
  EXPECT_NE(load_error("/proc/self/exe").find("not a 32-bit ELF"), std::string::npos);
  // A big-endian ELF32 executable for another machine (e_machine patched).
  std::vector<char> b = slurp(elf("ok.elf"));
  ASSERT_GT(b.size(), 64u);
  b[18] = 0;
  b[19] = 8;  // EM_MIPS
  EXPECT_NE(load_error(write_tmp("mips.elf", b)).find("wrong machine 8"), std::string::npos);
  // Little-endian flag with SPARC machine.
  b = slurp(elf("ok.elf"));
  b[5] = 1;  // ELFDATA2LSB
  EXPECT_NE(load_error(write_tmp("le.elf", b)).find("big-endian"), std::string::npos);
}

TEST(ElfLoader, RejectsMalformedFiles) {
  EXPECT_NE(load_error("/nonexistent/fw.elf").find("cannot open"), std::string::npos);
  EXPECT_NE(load_error(write_tmp("text.elf", {'h', 'e', 'l', 'l', 'o', '\n'})).find("not an ELF"),
            std::string::npos);
  EXPECT_NE(load_error(write_tmp("empty.elf", {})).find("is empty"), std::string::npos);
  EXPECT_NE(load_error("/tmp").find("is a directory"), std::string::npos);
  EXPECT_NE(load_error("/dev/zero").find("is a character device"), std::string::npos);
  const std::vector<char> b = slurp(elf("ok.elf"));
  // Cut inside the ELF header, inside the program headers, inside the segment
  // (the image's only PT_LOAD starts right after the program headers).
  for (size_t cut : {size_t(40), size_t(60), size_t(0x58)}) {
    const std::vector<char> t(b.begin(), b.begin() + cut);
    const std::string m = load_error(write_tmp("cut" + std::to_string(cut) + ".elf", t));
    EXPECT_FALSE(m.empty()) << cut;
  }
  const std::vector<char> t(b.begin(), b.begin() + 0x58);
  EXPECT_NE(load_error(write_tmp("cutseg.elf", t)).find("truncated"), std::string::npos);
}

L3VP_SC_GTEST_MAIN(build)
