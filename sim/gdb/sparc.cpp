#include "sparc.h"

namespace l3vp::gdb {

int signal_of_trap(unsigned tt) {
  switch (tt) {
    case 0x01:  // instruction_access_exception
    case 0x09:  // data_access_exception
    case 0x20:  // r_register_access_error
    case 0x21:  // instruction_access_error
    case 0x29:  // data_access_error
    case 0x2B:  // data_store_error
      return kSigSegv;
    case 0x02:  // illegal_instruction
    case 0x03:  // privileged_instruction
    case 0x04:  // fp_disabled
    case 0x24:  // cp_disabled
    case 0x25:  // unimplemented_FLUSH
      return kSigIll;
    case 0x07:  // mem_address_not_aligned
      return kSigBus;
    case 0x08:  // fp_exception
    case 0x28:  // cp_exception
    case 0x2A:  // division_by_zero
      return kSigFpe;
    default:
      return kSigTrap;
  }
}

}  // namespace l3vp::gdb
