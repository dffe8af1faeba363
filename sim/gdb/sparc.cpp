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

std::optional<MemAccess> decode_mem_access(uint32_t word, uint32_t base, uint32_t index) {
  if ((word >> 30) != 3) return std::nullopt;
  const unsigned op3 = (word >> 19) & 0x3F;
  const bool imm = (word >> 13) & 1;
  // simm13, sign-extended
  const uint32_t off = imm ? uint32_t(int32_t(word << 19) >> 19) : index;
  if (op3 == 0x3C)  // CASA: address r[rs1] only
    return MemAccess{base, 4, true, true};
  unsigned size;
  bool rd = false, wr = false;
  switch (op3 & 0x2F) {  // bit 4: the alternate-space variant, same access
    case 0x00:
      size = 4;
      rd = true;
      break;  // LD(A)
    case 0x01:
      size = 1;
      rd = true;
      break;  // LDUB(A)
    case 0x02:
      size = 2;
      rd = true;
      break;  // LDUH(A)
    case 0x03:
      size = 8;
      rd = true;
      break;  // LDD(A)
    case 0x04:
      size = 4;
      wr = true;
      break;  // ST(A)
    case 0x05:
      size = 1;
      wr = true;
      break;  // STB(A)
    case 0x06:
      size = 2;
      wr = true;
      break;  // STH(A)
    case 0x07:
      size = 8;
      wr = true;
      break;  // STD(A)
    case 0x09:
      size = 1;
      rd = true;
      break;  // LDSB(A)
    case 0x0A:
      size = 2;
      rd = true;
      break;  // LDSH(A)
    case 0x0D:
      size = 1;
      rd = wr = true;
      break;  // LDSTUB(A)
    case 0x0F:
      size = 4;
      rd = wr = true;
      break;  // SWAP(A)
    case 0x20:
    case 0x21:
      size = 4;
      rd = true;
      break;  // LDF, LDFSR (and LDC, LDCSR)
    case 0x23:
      size = 8;
      rd = true;
      break;  // LDDF (LDDC)
    case 0x24:
    case 0x25:
      size = 4;
      wr = true;
      break;  // STF, STFSR (STC, STCSR)
    case 0x26:
    case 0x27:
      size = 8;
      wr = true;
      break;  // STDFQ, STDF (STDCQ, STDC)
    default:
      return std::nullopt;
  }
  return MemAccess{base + off, size, rd, wr};
}

}  // namespace l3vp::gdb
