// Reading a user-supplied input file (firmware ELF, configuration, scenario,
// UART input) safely: one helper, so every option refuses the same things
// the same way instead of repeating checks per option.
//
// The file is opened non-blocking (a FIFO with no writer must not hang the
// open), checked with fstat() to be a regular file (a directory, FIFO,
// socket or device such as /dev/zero is refused: a device could be read
// forever), refused when empty, and refused when larger than the caller's
// bound (a kind-specific limit, listed in docs/user-guide.md "Input limits
// and errors"). Only then is it read, never more than the bound (a file
// that grows while it is read is refused too).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace l3vp {

// The message is one line: "<noun> '<path>': <problem>", without the
// option's name (the caller prefixes it: "--scenario: file 'x.json': is empty").
struct InputFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Limits of each kind of input (bytes).
constexpr uint64_t kMaxFirmwareBytes = uint64_t(256) << 20;  // ELF file incl. symbols and debug info
constexpr uint64_t kMaxJsonBytes = uint64_t(4) << 20;        // configuration and scenario files
constexpr uint64_t kMaxUartInBytes = uint64_t(16) << 20;     // --uart-in file (held in memory)

// The whole content of `path` (a regular, non-empty file of at most
// `max_bytes`). `noun` names the file in messages ("firmware", "file").
std::string read_input_file(const std::string& path, uint64_t max_bytes, const std::string& noun = "file");

// The same checks without reading (for files another component reads later).
void check_input_file(const std::string& path, uint64_t max_bytes, const std::string& noun = "file");

// "4 MiB", "256 MiB", "1000 bytes": the limit as the messages and docs say it.
std::string format_bytes(uint64_t n);

}  // namespace l3vp
