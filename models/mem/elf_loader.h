// ELF loader for firmware images: validates an ELF32 big-endian EM_SPARC
// executable (ET_EXEC, or ET_DYN: see ElfImage::position_independent), copies every PT_LOAD segment into the
// memory that holds it (zero-filling memsz > filesz) and returns the entry point and symbol table.
//
// Segments are placed at their physical (load) address p_paddr: with the MMU
// off after reset that is the address the CPU sees, and it is what the linker
// gives initialised data that is copied out of PROM at boot (AT(...)).
//
// Every problem is reported as an ElfError whose what() is one line without a
// trailing newline, suitable for "leon3vp: error: <what>".
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace l3vp {

class Memory;

class ElfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ElfSymbol {
  enum class Type { Func, Object, NoType };
  std::string name;
  uint32_t value = 0;
  uint32_t size = 0;
  Type type = Type::NoType;
};

struct ElfSegment {
  unsigned index = 0;  // program header index
  uint32_t paddr = 0, vaddr = 0;
  uint32_t filesz = 0, memsz = 0;
  uint32_t flags = 0;  // PF_X/PF_W/PF_R
};

struct ElfImage {
  uint32_t entry = 0;
  std::vector<ElfSegment> segments;  // PT_LOAD segments with memsz > 0
  // Defined FUNC, OBJECT and NOTYPE symbols (assembler labels are NOTYPE),
  // sorted by value; section/file symbols and undefined symbols are dropped.
  std::vector<ElfSymbol> symbols;
  // Names of measured regions (firmware/bsp/region.h REGION_NAME): the
  // non-allocated section ".l3vp.regions", 64-byte records of a big-endian
  // 32-bit id and a NUL-terminated name of 1..59 characters of [A-Za-z0-9_.-].
  // Empty when the section is absent; malformed: an ElfError.
  std::map<uint32_t, std::string> region_names;
  // Position-independent (PIE): type ET_DYN, a PT_DYNAMIC or PT_INTERP
  // segment or a SHT_DYNAMIC section (Debian's gcc links PIE by default:
  // -fno-pic -no-pie -static make a plain executable). Loaded like any
  // executable, at its addresses; its relocations are not applied.
  bool position_independent = false;
  std::string pie_reason;  // what showed it, e.g. "ELF type ET_DYN", "a PT_DYNAMIC segment"
};

// One memory the loader may write into: global addresses [base, base+size).
struct LoadRegion {
  std::string name;
  uint32_t base = 0;
  Memory* mem = nullptr;
};

// Parses and validates `path` without loading anything.
ElfImage read_elf(const std::string& path);
// Parses, validates and loads `path` into `regions`. Each PT_LOAD segment must
// lie entirely inside one region; nothing is written unless all segments fit.
ElfImage load_elf(const std::string& path, const std::vector<LoadRegion>& regions);

// Name of the symbol whose [value, value+size) contains addr ("" if none).
std::string symbol_at(const ElfImage& img, uint32_t addr);

}  // namespace l3vp
