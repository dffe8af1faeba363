#include "trap_names.h"

namespace l3vp {

std::string trap_name(unsigned tt) {
  tt &= 0xFF;
  if (tt >= 0x80) return "trap_instruction";
  if (tt >= 0x11 && tt <= 0x1F) return "interrupt_level_" + std::to_string(tt - 0x10);
  switch (tt) {
    case 0x00:
      return "reset";
    case 0x01:
      return "instruction_access_exception";
    case 0x02:
      return "illegal_instruction";
    case 0x03:
      return "privileged_instruction";
    case 0x04:
      return "fp_disabled";
    case 0x05:
      return "window_overflow";
    case 0x06:
      return "window_underflow";
    case 0x07:
      return "mem_address_not_aligned";
    case 0x08:
      return "fp_exception";
    case 0x09:
      return "data_access_exception";
    case 0x0A:
      return "tag_overflow";
    case 0x0B:
      return "watchpoint_detected";
    case 0x20:
      return "r_register_access_error";
    case 0x21:
      return "instruction_access_error";
    case 0x24:
      return "cp_disabled";
    case 0x28:
      return "cp_exception";
    case 0x29:
      return "data_access_error";
    case 0x2A:
      return "division_by_zero";
    case 0x2B:
      return "data_store_error";
    default:
      return "unknown";
  }
}

}  // namespace l3vp
