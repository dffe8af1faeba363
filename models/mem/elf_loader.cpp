#include "elf_loader.h"
#include "format.h"

#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "input_file.h"
#include "memory.h"

namespace l3vp {
namespace {

struct ElfCloser {
  void operator()(Elf* e) const { elf_end(e); }
};

// The raw file plus the libelf view of it (elf_memory keeps pointing into buf).
struct ElfFile {
  std::string path;
  std::string buf;
  std::unique_ptr<Elf, ElfCloser> elf;

  [[noreturn]] void fail(const std::string& why) const { throw ElfError(path + ": " + why); }
};

void open_elf(ElfFile& f) {
  try {
    f.buf = read_input_file(f.path, kMaxFirmwareBytes, "firmware");
  } catch (const InputFileError& e) {
    throw ElfError(e.what());
  }
  if (elf_version(EV_CURRENT) == EV_NONE) f.fail("libelf initialisation failed");
  f.elf.reset(elf_memory(f.buf.data(), f.buf.size()));
  if (!f.elf || elf_kind(f.elf.get()) != ELF_K_ELF) f.fail("not an ELF file");
  size_t n = 0;
  const char* id = elf_getident(f.elf.get(), &n);
  if (!id || n < EI_NIDENT) f.fail("truncated ELF header");
  if (id[EI_CLASS] != ELFCLASS32) f.fail("not a 32-bit ELF (expected ELF32 big-endian SPARC)");
  if (id[EI_DATA] != ELFDATA2MSB) f.fail("not a big-endian ELF (expected ELF32 big-endian SPARC)");
}

// The first sign of a position-independent image is the reason given.
void note_pie(ElfImage& img, const char* why) {
  if (img.position_independent) return;
  img.position_independent = true;
  img.pie_reason = why;
}

// Region names (ElfImage::region_names): section ".l3vp.regions".
constexpr size_t kRegionNameRecord = 64;  // firmware/bsp/region.h struct region_name_rec
void parse_region_names(ElfFile& f, Elf* e, ElfImage& img) {
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(e, &shstrndx) != 0) return;  // no section names: no table
  for (Elf_Scn* scn = elf_nextscn(e, nullptr); scn; scn = elf_nextscn(e, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS) continue;
    const char* nm = elf_strptr(e, shstrndx, sh.sh_name);
    if (!nm || std::string(nm) != ".l3vp.regions") continue;
    const std::string where = "section .l3vp.regions";
    if (uint64_t(sh.sh_offset) + sh.sh_size > f.buf.size()) f.fail(where + ": beyond the end of the file");
    const uint8_t* p = reinterpret_cast<const uint8_t*>(f.buf.data()) + sh.sh_offset;
    if (sh.sh_size % kRegionNameRecord != 0)
      f.fail(where + ": size " + std::to_string(sh.sh_size) + " is not a multiple of " +
             std::to_string(kRegionNameRecord));
    for (size_t at = 0; at < sh.sh_size; at += kRegionNameRecord) {
      const uint8_t* r = p + at;
      const uint32_t id = (uint32_t(r[0]) << 24) | (uint32_t(r[1]) << 16) | (uint32_t(r[2]) << 8) | r[3];
      std::string name;
      size_t k = 4;
      while (k < kRegionNameRecord && r[k] != 0) name += char(r[k++]);
      const bool ok =
          k < kRegionNameRecord && !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
          });
      if (!ok)
        f.fail(where + ": bad region name in the record at offset " + std::to_string(at) +
               " (1..59 characters of A-Za-z0-9_.-, NUL-terminated)");
      img.region_names[id] = name;  // a later record for the same id wins
    }
  }
}

ElfImage parse(ElfFile& f) {
  Elf* e = f.elf.get();
  Elf32_Ehdr* eh = elf32_getehdr(e);
  if (!eh) f.fail("truncated or corrupt ELF header");
  if (eh->e_machine != EM_SPARC)
    f.fail("wrong machine " + std::to_string(eh->e_machine) + " (expected EM_SPARC, SPARC V8)");
  if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
    f.fail("not an executable (ELF type " + std::to_string(eh->e_type) + ")");

  if (eh->e_entry % 4) f.fail("entry point " + hex(eh->e_entry) + " is not a multiple of 4");

  ElfImage img;
  img.entry = eh->e_entry;
  size_t nph = 0;
  if (elf_getphdrnum(e, &nph) != 0) f.fail("corrupt program header table");
  // The header's own count: libelf quietly shortens a table that runs past
  // the end of the file (PN_XNUM: the real count is elsewhere, libelf's).
  const uint64_t phnum = eh->e_phnum == PN_XNUM ? nph : eh->e_phnum;
  // libelf reads the table with the size of its own Elf32_Phdr; a file that
  // says otherwise was not written for this layout.
  if (phnum && eh->e_phentsize != sizeof(Elf32_Phdr))
    f.fail("program header entry size " + std::to_string(eh->e_phentsize) + " (expected " +
           std::to_string(sizeof(Elf32_Phdr)) + ")");
  if (phnum && uint64_t(eh->e_phoff) + phnum * sizeof(Elf32_Phdr) > f.buf.size())
    f.fail("program header table beyond the end of the file");
  Elf32_Phdr* ph = nph ? elf32_getphdr(e) : nullptr;
  if (nph && !ph) f.fail("truncated program header table");
  if (eh->e_type == ET_DYN) note_pie(img, "ELF type ET_DYN");
  for (size_t i = 0; i < nph; ++i) {
    const Elf32_Phdr& p = ph[i];
    if (p.p_type == PT_DYNAMIC) note_pie(img, "a PT_DYNAMIC segment");
    if (p.p_type == PT_INTERP) note_pie(img, "a PT_INTERP segment");
    if (p.p_type != PT_LOAD || p.p_memsz == 0) continue;
    const std::string seg = "segment " + std::to_string(i) + " at " + hex(p.p_paddr);
    if (p.p_filesz > p.p_memsz) f.fail(seg + ": file size exceeds memory size");
    if (uint64_t(p.p_offset) + p.p_filesz > f.buf.size()) f.fail(seg + ": truncated file (data beyond end)");
    if (uint64_t(p.p_paddr) + p.p_memsz > (uint64_t(1) << 32)) f.fail(seg + ": wraps past 4 GiB");
    img.segments.push_back(
        {static_cast<unsigned>(i), p.p_paddr, p.p_vaddr, p.p_filesz, p.p_memsz, p.p_flags});
  }
  if (img.segments.empty()) f.fail("no loadable segment");
  // Two segments loading the same bytes: which one wins would depend on
  // the order of the table.
  std::vector<const ElfSegment*> by_addr;
  for (const ElfSegment& s : img.segments) by_addr.push_back(&s);
  std::sort(by_addr.begin(), by_addr.end(),
            [](const ElfSegment* a, const ElfSegment* b) { return a->paddr < b->paddr; });
  for (size_t i = 1; i < by_addr.size(); ++i) {
    const ElfSegment& a = *by_addr[i - 1];
    const ElfSegment& b = *by_addr[i];
    if (uint64_t(a.paddr) + a.memsz > b.paddr)
      f.fail("segments " + std::to_string(a.index) + " (" + hex(a.paddr) + ".." +
             hex(uint64_t(a.paddr) + a.memsz - 1) + ") and " + std::to_string(b.index) + " (" + hex(b.paddr) +
             "..) overlap");
  }

  // Symbol table (optional: a stripped image simply has none).
  for (Elf_Scn* scn = elf_nextscn(e, nullptr); scn; scn = elf_nextscn(e, scn)) {
    GElf_Shdr sh;
    if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNAMIC) note_pie(img, "a .dynamic section");
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
    Elf_Data* d = elf_getdata(scn, nullptr);
    if (!d || sh.sh_entsize == 0) f.fail("corrupt or truncated symbol table");
    const size_t count = sh.sh_size / sh.sh_entsize;
    for (size_t k = 1; k < count; ++k) {
      GElf_Sym s;
      if (!gelf_getsym(d, static_cast<int>(k), &s)) f.fail("corrupt or truncated symbol table");
      if (s.st_shndx == SHN_UNDEF) continue;
      ElfSymbol sym;
      switch (GELF_ST_TYPE(s.st_info)) {
        case STT_FUNC:
          sym.type = ElfSymbol::Type::Func;
          break;
        case STT_OBJECT:
          sym.type = ElfSymbol::Type::Object;
          break;
        case STT_NOTYPE:
          sym.type = ElfSymbol::Type::NoType;
          break;
        default:
          continue;  // sections, files, TLS, ...
      }
      const char* nm = elf_strptr(e, sh.sh_link, s.st_name);
      if (!nm || !*nm) continue;
      sym.name = nm;
      sym.value = static_cast<uint32_t>(s.st_value);
      sym.size = static_cast<uint32_t>(s.st_size);
      img.symbols.push_back(std::move(sym));
    }
  }
  std::stable_sort(img.symbols.begin(), img.symbols.end(),
                   [](const ElfSymbol& a, const ElfSymbol& b) { return a.value < b.value; });
  parse_region_names(f, e, img);
  return img;
}

}  // namespace

ElfImage read_elf(const std::string& path) {
  ElfFile f;
  f.path = path;
  open_elf(f);
  return parse(f);
}

ElfImage load_elf(const std::string& path, const std::vector<LoadRegion>& regions) {
  ElfFile f;
  f.path = path;
  open_elf(f);
  ElfImage img = parse(f);

  // Place every segment first, load only when all of them fit.
  std::vector<const LoadRegion*> where;
  for (const ElfSegment& s : img.segments) {
    const LoadRegion* hit = nullptr;
    for (const LoadRegion& r : regions) {
      const uint64_t lo = r.base, hi = lo + (r.mem ? r.mem->size() : 0);
      if (s.paddr >= lo && uint64_t(s.paddr) + s.memsz <= hi) {
        hit = &r;
        break;
      }
    }
    if (!hit)
      f.fail("segment " + std::to_string(s.index) + " at " + hex(s.paddr) + ".." +
             hex(uint64_t(s.paddr) + s.memsz - 1) + " lies outside memory");
    where.push_back(hit);
  }
  Elf32_Phdr* ph = elf32_getphdr(f.elf.get());
  for (size_t i = 0; i < img.segments.size(); ++i) {
    const ElfSegment& s = img.segments[i];
    const uint64_t off = s.paddr - where[i]->base;
    const auto* src = reinterpret_cast<const uint8_t*>(f.buf.data()) + ph[s.index].p_offset;
    where[i]->mem->load(off, src, s.filesz);
    where[i]->mem->fill(off + s.filesz, 0, s.memsz - s.filesz);
  }
  return img;
}

std::string symbol_at(const ElfImage& img, uint32_t addr) {
  for (const ElfSymbol& s : img.symbols)
    if (addr >= s.value && addr - s.value < std::max<uint32_t>(s.size, 1)) return s.name;
  return "";
}

}  // namespace l3vp
