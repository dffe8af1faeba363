// The TLM-2.0 payload of a plain bus transfer as the board issues it (the
// GRETH's and the checksum engine's DMA bursts, the APB bridge's forwarded
// accesses): one transfer of `len`
// bytes at `addr`, data in target byte order (endian.h), streaming width =
// length, no byte enables, no DMI hint, response not yet set.
#pragma once
#include <cstdint>
#include <tlm>

namespace l3vp {

inline void set_burst(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
                      unsigned len) {
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace l3vp
