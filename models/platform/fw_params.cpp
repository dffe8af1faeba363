#include "fw_params.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "format.h"
#include "memory.h"
#include "units.h"

namespace l3vp {
namespace {

using Kind = FwParamField::Kind;

[[noreturn]] void fail(const std::string& msg) { throw FwParamError(msg); }

const FwParamField* field(const std::string& name) {
  for (const FwParamField& f : fw_param_fields())
    if (name == f.name) return &f;
  return nullptr;
}

// Unsigned decimal or 0x-hex, whole string, <= max.
bool parse_uint(const std::string& s, uint64_t max, uint64_t& out) {
  size_t i = 0;
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    i = 2;
  }
  if (i >= s.size()) return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    unsigned d;
    if (std::isdigit(c))
      d = c - '0';
    else if (base == 16 && std::isxdigit(c))
      d = static_cast<unsigned>(std::tolower(c) - 'a' + 10);
    else
      return false;
    if (d > max || v > (max - d) / base) return false;
    v = v * base + d;
  }
  out = v;
  return true;
}

std::vector<std::string> split(const std::string& s, const std::string& seps) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (seps.find(c) != std::string::npos)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

std::vector<uint8_t> be(uint64_t v, unsigned n) {
  std::vector<uint8_t> b(n);
  for (unsigned i = 0; i < n; ++i) b[n - 1 - i] = static_cast<uint8_t>(v >> (8 * i));
  return b;
}

uint32_t get_be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

// Values of the chksum field (the firmware's NET_CHECKSUM_* numbers; 0 = the build's).
const char* const kChksumNames[] = {"default", "generic8", "word32", "fast", "hw"};

// Names of the flags field's bits (FW_PF_*).
struct FlagName {
  const char* name;
  uint32_t bit;
};
const FlagName kFlagNames[] = {{"polled", kFwPfPolled},
                               {"verbose", kFwPfVerbose},
                               {"verify", kFwPfVerify},
                               {"hold", kFwPfHold},
                               {"simcheck", kFwPfSimcheck}};

// "polled" SEP "verbose" SEP ... for error messages.
std::string flag_names(const char* sep) {
  std::string s;
  for (const FlagName& f : kFlagNames) s += (s.empty() ? "" : sep) + std::string(f.name);
  return s;
}

std::vector<uint8_t> encode(const FwParamField& f, const std::string& v) {
  const std::string what = "fw_params " + std::string(f.name) + ": '" + v + "' ";
  uint64_t n = 0;
  switch (f.kind) {
    case Kind::U32:
      if (!parse_uint(v, 0xFFFFFFFFu, n)) fail(what + "is not an integer in [0, 4294967295]");
      return be(n, 4);
    case Kind::U16:
      if (!parse_uint(v, 0xFFFF, n)) fail(what + "is not an integer in [0, 65535]");
      return be(n, 2);
    case Kind::Ip4: {
      uint32_t ip = 0;
      if (!parse_ip4(v, ip)) fail(what + "is not a dotted IPv4 address (a.b.c.d, each 0..255)");
      return be(ip, 4);
    }
    case Kind::Mac: {
      uint8_t m[6];
      if (!parse_mac(v, m)) fail(what + "is not a MAC address (aa:bb:cc:dd:ee:ff)");
      return std::vector<uint8_t>(m, m + 6);
    }
    case Kind::Flags: {
      if (!v.empty() && std::isdigit(static_cast<unsigned char>(v[0]))) {
        if (!parse_uint(v, 0xFFFFFFFFu, n))
          fail(what + "is not a number or " + flag_names("|") + " joined by '+'");
        return be(n, 4);
      }
      for (const std::string& p : split(v, "+,")) {
        const FlagName* f = std::find_if(std::begin(kFlagNames), std::end(kFlagNames),
                                         [&](const FlagName& x) { return p == x.name; });
        if (f != std::end(kFlagNames))
          n |= f->bit;
        else if (p != "none")
          fail(what + "has unknown flag '" + p + "' (" + flag_names(", ") + ", none, or a number)");
      }
      return be(n, 4);
    }
    case Kind::Ms:
      if (v == "off") return be(kFwParamsOff, 4);
      if (!parse_uint(v, kFwParamsOff - 1, n)) fail(what + "is not a time in ms or 'off'");
      return be(n, 4);
    case Kind::Chksum: {
      for (uint64_t i = 0; i < 5; ++i)
        if (v == kChksumNames[i]) return be(i, 4);
      if (!parse_uint(v, 4, n))
        fail(what + "is not a checksum variant (default, generic8, word32, fast, hw or 0..4)");
      return be(n, 4);
    }
  }
  fail(what + "cannot be encoded");
}

// The slot policy times (version 4): 0 would be "the program's default",
// so a given 0 is refused; the shortest are the stack's slow timer period
// (100 ms; the persist limit: 1 s, its first probe comes after an RTO);
// persist_max_ms cannot be off (a zero window would hold a slot forever).
void check_ms(const std::string& name, const std::string& what, uint32_t n) {
  const uint32_t lo = name == "persist_max_ms" ? 1000 : 100;
  const bool off_ok = name != "persist_max_ms";
  if (n == kFwParamsOff && off_ok) return;
  if (n < lo || n > kFwParamsMaxMs)
    fail(what + "is not a time in [" + std::to_string(lo) + ", " + std::to_string(kFwParamsMaxMs) + "] ms" +
         (off_ok ? " or 'off'" : "") + " (leave the key out for the program's default)");
}

// Checks of one field's meaning beyond its syntax (the bytes are encode()'s).
// 0 in the block means "the program's default" for window, board_ip and
// netmask, so a given 0 is refused there rather than silently ignored.
void check_value(const FwParamField& f, const std::string& v, const std::vector<uint8_t>& b) {
  const std::string what = "fw_params " + std::string(f.name) + ": '" + v + "' ";
  const std::string name = f.name;
  uint32_t n = 0;
  for (size_t i = 0; i < b.size() && i < 4; ++i) n = n << 8 | b[i];
  if (name == "window" && (n == 0 || n > 0xFFFF))
    fail(what + "is not an integer in [1, 65535] (leave the key out for the program's default)");
  if (name == "board_ip" && n == 0) fail(what + "is not a usable board address (0.0.0.0 is 'this host')");
  if (name == "netmask" && (~n & (~n + 1)) != 0)
    fail(what + "is not a contiguous netmask (ones, then zeros)");
  if (name == "mac" && (b[0] & 1))
    fail(what + "is a multicast MAC address (the first byte's low bit is set)");
  if (f.kind == Kind::Ms) check_ms(name, what, n);
}

// A field's value as given, else `dflt` (the firmware's default for 0).
uint32_t ip_or(const std::map<std::string, std::vector<uint8_t>>& m, const char* key, uint32_t dflt) {
  const auto it = m.find(key);
  if (it == m.end()) return dflt;
  const uint32_t v = get_be32(it->second.data());
  return v ? v : dflt;
}

std::string dotted(uint32_t ip) {
  return std::to_string(ip >> 24) + "." + std::to_string(ip >> 16 & 0xff) + "." +
         std::to_string(ip >> 8 & 0xff) + "." + std::to_string(ip & 0xff);
}

}  // namespace

const std::vector<FwParamField>& fw_param_fields() {
  static const std::vector<FwParamField> f = {
      {"board_ip", 12, 4, Kind::Ip4},      {"netmask", 16, 4, Kind::Ip4},
      {"peer_ip", 20, 4, Kind::Ip4},       {"mac", 24, 6, Kind::Mac},
      {"port", 30, 2, Kind::U16},          {"window", 32, 4, Kind::U32},
      {"count", 36, 4, Kind::U32},         {"bytes", 40, 4, Kind::U32},
      {"idle_ms", 44, 4, Kind::U32},       {"max_ms", 48, 4, Kind::U32},
      {"flags", 52, 4, Kind::Flags},       {"chksum", 56, 4, Kind::Chksum},
      {"seed", 60, 4, Kind::U32},          {"gateway", 64, 4, Kind::Ip4},      // version 3
      {"conn_idle_ms", 68, 4, Kind::Ms},   {"keepalive_ms", 72, 4, Kind::Ms},  // version 4
      {"persist_max_ms", 76, 4, Kind::Ms}, {"evict_idle_ms", 80, 4, Kind::Ms},
  };
  return f;
}

std::string fw_param_names() {
  std::string s;
  for (const FwParamField& f : fw_param_fields()) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

void FwParams::set(const std::string& key, const std::string& value) {
  const FwParamField* f = field(key);
  if (!f) fail("fw_params: unknown key '" + key + "' (known: " + fw_param_names() + ")");
  std::vector<uint8_t> b = encode(*f, value);
  check_value(*f, value, b);
  bytes_[key] = std::move(b);
}

void FwParams::check() const {
  if (!bytes_.count("gateway")) return;
  const uint32_t gw = get_be32(bytes_.at("gateway").data());
  if (gw == 0) return;  // none
  const uint32_t ip = ip_or(bytes_, "board_ip", kFwDefaultBoardIp),
                 mask = ip_or(bytes_, "netmask", kFwDefaultNetmask);
  const std::string what = "fw_params gateway: '" + dotted(gw) + "' ";
  if (gw == ip) fail(what + "is the board's own address (board_ip)");
  if (gw == 0xFFFFFFFFu) fail(what + "is the limited broadcast address");
  if (gw == (ip | ~mask))
    fail(what + "is the broadcast address of the board's subnet " + dotted(ip & mask) + "/" + dotted(mask));
}

void FwParams::set_arg(const std::string& kv) {
  const size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) fail("--fw-param: '" + kv + "' is not KEY=VALUE");
  set(kv.substr(0, eq), kv.substr(eq + 1));
}

void FwParams::set_json(const nlohmann::json& obj, const std::string& where) {
  if (!obj.is_object()) fail(where + ": must be an object of firmware parameters");
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    std::string v;
    if (it.value().is_number_unsigned())
      v = std::to_string(it.value().get<uint64_t>());
    else if (it.value().is_string())
      v = it.value().get<std::string>();
    else
      fail(where + "." + it.key() + ": must be a non-negative integer or a string");
    try {
      set(it.key(), v);
    } catch (const FwParamError& e) {
      fail(where + ": " + e.what());
    }
  }
}

nlohmann::json FwParams::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, b] : bytes_) {
    const FwParamField* f = field(name);
    uint64_t v = 0;
    for (uint8_t x : b) v = v << 8 | x;
    if (f->kind == Kind::Ip4) {
      j[name] = std::to_string(b[0]) + "." + std::to_string(b[1]) + "." + std::to_string(b[2]) + "." +
                std::to_string(b[3]);
    } else if (f->kind == Kind::Mac) {
      std::string m;
      for (uint8_t x : b) m += (m.empty() ? "" : ":") + hex(x, 2).substr(2);
      j[name] = m;
    } else if (f->kind == Kind::Chksum) {
      j[name] = v <= 4 ? kChksumNames[v] : "?";
    } else if (f->kind == Kind::Ms && v == kFwParamsOff) {
      j[name] = "off";
    } else {
      j[name] = v;
    }
  }
  return j;
}

// The block size of a layout version (0: unknown version).
static uint32_t size_of_version(uint32_t version) {
  return version == 4 ? kFwParamsSize : version == 3 ? kFwParamsSizeV3 : version == 2 ? kFwParamsSizeV2 : 0;
}

// The first layout version that has field f.
static uint32_t version_of_field(const FwParamField& f) {
  const uint32_t end = f.offset + f.size;
  return end <= kFwParamsSizeV2 ? 2 : end <= kFwParamsSizeV3 ? 3 : 4;
}

void FwParams::apply(uint8_t* block, uint64_t len) const {
  check();
  if (len < kFwParamsSizeV2)
    fail("fw_params: block is " + std::to_string(len) + " bytes, expected " + std::to_string(kFwParamsSize));
  const uint32_t magic = get_be32(block), version = get_be32(block + 4), size = get_be32(block + 8);
  if (magic != kFwParamsMagic)
    fail("fw_params: bad magic " + hex(magic, 8) + " in the loaded image (expected " +
         hex(kFwParamsMagic, 8) + " \"NETP\")");
  const uint32_t want = size_of_version(version);
  if (want == 0)
    fail("fw_params: version " + std::to_string(version) +
         " in the loaded image, leon3vp knows versions 2 to " + std::to_string(kFwParamsVersion));
  if (size != want)
    fail("fw_params: size field " + std::to_string(size) + " in the loaded image, expected " +
         std::to_string(want) + " for version " + std::to_string(version));
  if (len < size)
    fail("fw_params: block is " + std::to_string(len) + " bytes, expected " + std::to_string(size));
  for (const auto& [name, b] : bytes_) {
    const FwParamField* f = field(name);
    if (f->offset + f->size > size)
      fail("fw_params: '" + name + "' needs version " + std::to_string(version_of_field(*f)) +
           " of the block; the loaded image has version " + std::to_string(version) +
           " (rebuild the firmware)");
  }
  for (const auto& [name, b] : bytes_) {
    const FwParamField* f = field(name);
    for (size_t i = 0; i < b.size(); ++i) block[f->offset + i] = b[i];
  }
}

void write_fw_params(const ElfImage& img, const std::vector<LoadRegion>& regions, const FwParams& p) {
  const ElfSymbol* sym = nullptr;
  for (const ElfSymbol& s : img.symbols)
    if (s.name == kFwParamsSymbol) sym = &s;
  if (!sym)
    fail(
        "fw_params: the firmware has no 'fw_params' symbol (it takes no per-run parameters, or is stripped)");
  if (sym->size != 0 && sym->size != kFwParamsSize && sym->size != kFwParamsSizeV3 &&
      sym->size != kFwParamsSizeV2)
    fail("fw_params: symbol is " + std::to_string(sym->size) + " bytes, expected " +
         std::to_string(kFwParamsSize) + " (or " + std::to_string(kFwParamsSizeV3) + " and " +
         std::to_string(kFwParamsSizeV2) + " for versions 3 and 2)");
  // Without a symbol size, the block's own size field says (apply() checks it).
  uint32_t n = sym->size ? uint32_t(sym->size) : kFwParamsSizeV2;
  for (int pass = 0; pass < 2; ++pass) {
    // Symbol (virtual) address -> load address through the segment holding it.
    const ElfSegment* seg = nullptr;
    for (const ElfSegment& s : img.segments)
      if (sym->value >= s.vaddr && uint64_t(sym->value) + n <= uint64_t(s.vaddr) + s.filesz) seg = &s;
    if (!seg)
      fail("fw_params: block at " + hex(sym->value, 8) +
           " is not in the initialised data of a loaded segment");
    const uint32_t addr = seg->paddr + (sym->value - seg->vaddr);
    const LoadRegion* reg = nullptr;
    for (const LoadRegion& r : regions)
      if (r.mem && addr >= r.base && uint64_t(addr) + n <= uint64_t(r.base) + r.mem->size()) reg = &r;
    if (!reg) fail("fw_params: block at " + hex(addr, 8) + " lies outside memory");
    const uint64_t off = addr - reg->base;
    std::vector<uint8_t> block(reg->mem->data() + off, reg->mem->data() + off + n);
    const uint32_t size_field = get_be32(block.data() + 8);
    if (pass == 0 && sym->size == 0 && (size_field == kFwParamsSize || size_field == kFwParamsSizeV3) &&
        n != size_field) {
      n = size_field;  // a version 3 or 4 block: look again with its size
      continue;
    }
    p.apply(block.data(), n);
    reg->mem->load(off, block.data(), n);  // back door: no simulated time
    return;
  }
}

}  // namespace l3vp
