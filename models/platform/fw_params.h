// Per-run firmware parameters: the simulator side of the network programs'
// `fw_params` block (struct fw_params in firmware/net/port/netapp.h, section
// .params, magic "NETP", all fields big-endian).
//
// leon3vp collects KEY=VALUE settings (--fw-param, and "board": {"params"}
// of a scenario file, the command line winning), finds the symbol
// `fw_params` in the loaded ELF, checks the block's header in the loaded
// image (magic, version, size) and writes the given fields into simulated
// memory through the memory back door before the simulation starts (no
// simulated time, no bus traffic). Fields not given keep the image's value.
//
// The field layout below is the only C++ copy of the firmware struct; keep
// both in step (the version number guards against mismatches).
//
// Every problem is a FwParamError whose what() is one line naming the key,
// value or block at fault ("leon3vp: error: <what>", exit 2).
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "elf_loader.h"

namespace l3vp {

class FwParamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr uint32_t kFwParamsMagic = 0x4E455450;  // "NETP"
// Version 3 (68 bytes) added seed and gateway at the end, version 4 (84
// bytes) the TCP slot policy times (conn_idle_ms, keepalive_ms,
// persist_max_ms, evict_idle_ms); images of versions 2 and 3 (firmware
// built before) are still written, all but the fields they lack.
constexpr uint32_t kFwParamsVersion = 4;
constexpr uint32_t kFwParamsSize = 84;
constexpr uint32_t kFwParamsSizeV3 = 68;
constexpr uint32_t kFwParamsSizeV2 = 60;
// A version 4 time field's "off" (FW_PARAMS_OFF), and the longest time taken.
constexpr uint32_t kFwParamsOff = 0xFFFFFFFF;
constexpr uint32_t kFwParamsMaxMs = 86400000;  // 24 h
constexpr const char* kFwParamsSymbol = "fw_params";

// The firmware's values for board_ip and netmask 0 (firmware/README.md).
constexpr uint32_t kFwDefaultBoardIp = 0xC0A80035, kFwDefaultNetmask = 0xFFFFFF00;

// Bits of the flags field (FW_PF_*).
constexpr uint32_t kFwPfPolled = 0x1, kFwPfVerbose = 0x2, kFwPfVerify = 0x4, kFwPfHold = 0x8,
                   kFwPfSimcheck = 0x10;

struct FwParamField {
  enum class Kind { U32, U16, Ip4, Mac, Flags, Chksum, Ms };
  const char* name;
  uint32_t offset;  // byte offset in the block
  uint32_t size;    // bytes
  Kind kind;
};

// The settable fields (magic, version and size are the header, not settable).
const std::vector<FwParamField>& fw_param_fields();
// "board_ip, netmask, ..." for error messages and --help.
std::string fw_param_names();

class FwParams {
 public:
  // One setting; a later set() of the same key replaces the earlier one.
  // Values: U32/U16 decimal or 0x-hex; Ip4 dotted quad; Mac aa:bb:cc:dd:ee:ff;
  // Flags a number or names polled|verbose|verify|hold|simcheck joined by '+' or ','
  // ("none" = 0); Chksum a number 0..4 or default|generic8|word32|fast|hw
  // (the firmware's NET_CHECKSUM_* values, 0 = the build's choice); Ms a
  // time in ms within the field's range (check_value) or "off".
  // Throws FwParamError (unknown key, bad or out-of-range value).
  void set(const std::string& key, const std::string& value);
  // "KEY=VALUE" (the --fw-param argument).
  void set_arg(const std::string& kv);
  // A JSON object {key: number-or-string, ...}; `where` prefixes messages.
  void set_json(const nlohmann::json& obj, const std::string& where);
  // The checks across fields (apply() runs it first): a gateway other than
  // the board's own address (board_ip) and its subnet's broadcast address,
  // with the firmware's defaults for board_ip and netmask not given.
  void check() const;

  bool empty() const { return bytes_.empty(); }
  // Encoded values by field name (big-endian bytes, field size).
  const std::map<std::string, std::vector<uint8_t>>& values() const { return bytes_; }

  // The settings as JSON, normalised: {"window": 300, "board_ip": "10.0.0.2",
  // "mac": "02:00:00:00:00:53", "flags": 5, ...} (leon3vp --stats "fw_params").
  nlohmann::json to_json() const;

  // Checks the header of a block image (`len` bytes at `block`: version 2
  // with 60 bytes, 3 with 68 or 4 with 84) and writes every set field into it.
  // Throws FwParamError on a bad header or size, or a field the image's
  // version does not have.
  void apply(uint8_t* block, uint64_t len) const;

 private:
  std::map<std::string, std::vector<uint8_t>> bytes_;
};

// Finds `fw_params` in `img`, locates the block in the memory it was loaded
// into (symbol address -> load address through the PT_LOAD segments),
// checks its header and writes the settings. Throws FwParamError.
void write_fw_params(const ElfImage& img, const std::vector<LoadRegion>& regions, const FwParams& p);

}  // namespace l3vp
