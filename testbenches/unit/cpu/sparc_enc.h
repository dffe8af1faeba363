// Hand-written SPARC V8 instruction encoder for the core unit tests, straight
// from the instruction formats of the SPARC V8 manual (§B):
//   format 1: op=1 | disp30
//   format 2: op=0 | rd/a+cond | op2 | imm22/disp22
//   format 3: op=2/3 | rd | op3 | rs1 | i | asi/simm13 | rs2
#pragma once
#include <cstdint>
#include <stdexcept>

namespace enc {

// Register numbers in the current window.
enum Reg : unsigned {
  G0 = 0,
  G1,
  G2,
  G3,
  G4,
  G5,
  G6,
  G7,
  O0 = 8,
  O1,
  O2,
  O3,
  O4,
  O5,
  O6,
  O7,
  L0 = 16,
  L1,
  L2,
  L3,
  L4,
  L5,
  L6,
  L7,
  I0 = 24,
  I1,
  I2,
  I3,
  I4,
  I5,
  I6,
  I7,
  SP = O6,
  FP = I6,
};

// Bicc / Ticc condition codes.
enum Cond : unsigned {
  N = 0,
  E = 1,
  LE = 2,
  L = 3,
  LEU = 4,
  CS = 5,
  NEG = 6,
  VS = 7,
  A = 8,
  NE = 9,
  G = 10,
  GE = 11,
  GU = 12,
  CC = 13,
  POS = 14,
  VC = 15,
};

// op3 values, op = 2
enum Op3Alu : unsigned {
  ADD = 0x00,
  AND = 0x01,
  OR = 0x02,
  XOR = 0x03,
  SUB = 0x04,
  ANDN = 0x05,
  ORN = 0x06,
  XNOR = 0x07,
  ADDX = 0x08,
  UMUL = 0x0A,
  SMUL = 0x0B,
  SUBX = 0x0C,
  UDIV = 0x0E,
  SDIV = 0x0F,
  ADDCC = 0x10,
  ANDCC = 0x11,
  ORCC = 0x12,
  XORCC = 0x13,
  SUBCC = 0x14,
  ANDNCC = 0x15,
  ORNCC = 0x16,
  XNORCC = 0x17,
  ADDXCC = 0x18,
  UMULCC = 0x1A,
  SMULCC = 0x1B,
  SUBXCC = 0x1C,
  UDIVCC = 0x1E,
  SDIVCC = 0x1F,
  TADDCC = 0x20,
  TSUBCC = 0x21,
  TADDCCTV = 0x22,
  TSUBCCTV = 0x23,
  MULSCC = 0x24,
  SLL = 0x25,
  SRL = 0x26,
  SRA = 0x27,
  RDY = 0x28,
  RDPSR = 0x29,
  RDWIM = 0x2A,
  RDTBR = 0x2B,
  WRY = 0x30,
  WRPSR = 0x31,
  WRWIM = 0x32,
  WRTBR = 0x33,
  FPOP1 = 0x34,
  FPOP2 = 0x35,
  CPOP1 = 0x36,
  CPOP2 = 0x37,
  JMPL = 0x38,
  RETT = 0x39,
  TICC = 0x3A,
  FLUSH = 0x3B,
  SAVE = 0x3C,
  RESTORE = 0x3D,
};
// op3 values, op = 3
enum Op3Mem : unsigned {
  LD = 0x00,
  LDUB = 0x01,
  LDUH = 0x02,
  LDD = 0x03,
  ST = 0x04,
  STB = 0x05,
  STH = 0x06,
  STD = 0x07,
  LDSB = 0x09,
  LDSH = 0x0A,
  LDSTUB = 0x0D,
  SWAP = 0x0F,
  LDA = 0x10,
  LDUBA = 0x11,
  LDUHA = 0x12,
  LDDA = 0x13,
  STA = 0x14,
  STBA = 0x15,
  STHA = 0x16,
  STDA = 0x17,
  LDSBA = 0x19,
  LDSHA = 0x1A,
  LDSTUBA = 0x1D,
  SWAPA = 0x1F,
  LDF = 0x20,
  LDFSR = 0x21,
  LDDF = 0x23,
  STF = 0x24,
  STFSR = 0x25,
  STDFQ = 0x26,
  STDF = 0x27,
  LDC = 0x30,
  LDCSR = 0x31,
  LDDC = 0x33,
  STC = 0x34,
  STCSR = 0x35,
  STDCQ = 0x36,
  STDC = 0x37,
  CASA = 0x3C,
};

// Every opcode slot SPARC V8 defines, as named above (the others are free;
// LEON3 traps the FPU and coprocessor ones as disabled): the test of free
// slots (test_isa_slots.cpp) checks the instruction table against these lists.
constexpr unsigned kOp2Defined[] = {0 /* UNIMP */, 2 /* Bicc */, 4 /* SETHI */, 6 /* FBfcc */, 7 /* CBccc */};
constexpr Op3Alu kOp3AluDefined[] = {
    ADD,    AND,    OR,     XOR,    SUB,    ANDN,   ORN,    XNOR,   ADDX,     UMUL,     SMUL,
    SUBX,   UDIV,   SDIV,   ADDCC,  ANDCC,  ORCC,   XORCC,  SUBCC,  ANDNCC,   ORNCC,    XNORCC,
    ADDXCC, UMULCC, SMULCC, SUBXCC, UDIVCC, SDIVCC, TADDCC, TSUBCC, TADDCCTV, TSUBCCTV, MULSCC,
    SLL,    SRL,    SRA,    RDY,    RDPSR,  RDWIM,  RDTBR,  WRY,    WRPSR,    WRWIM,    WRTBR,
    FPOP1,  FPOP2,  CPOP1,  CPOP2,  JMPL,   RETT,   TICC,   FLUSH,  SAVE,     RESTORE};
constexpr Op3Mem kOp3MemDefined[] = {LD,     LDUB,  LDUH,    LDD,   ST,    STB,   STH,   STD,  LDSB,  LDSH,
                                     LDSTUB, SWAP,  LDA,     LDUBA, LDUHA, LDDA,  STA,   STBA, STHA,  STDA,
                                     LDSBA,  LDSHA, LDSTUBA, SWAPA, LDF,   LDFSR, LDDF,  STF,  STFSR, STDFQ,
                                     STDF,   LDC,   LDCSR,   LDDC,  STC,   STCSR, STDCQ, STDC, CASA};

constexpr uint32_t f3(unsigned op, unsigned rd, unsigned op3, unsigned rs1, unsigned rs2, unsigned asi = 0) {
  return (op << 30) | ((rd & 31) << 25) | ((op3 & 63) << 19) | ((rs1 & 31) << 14) | ((asi & 0xFF) << 5) |
         (rs2 & 31);
}
constexpr uint32_t f3i(unsigned op, unsigned rd, unsigned op3, unsigned rs1, int32_t simm13) {
  // catches test programs whose immediates do not fit (they would silently wrap)
  if (simm13 < -4096 || simm13 > 4095) throw std::out_of_range("simm13 out of range");
  return (op << 30) | ((rd & 31) << 25) | ((op3 & 63) << 19) | ((rs1 & 31) << 14) | (1u << 13) |
         (uint32_t(simm13) & 0x1FFF);
}

// ---- format 3, op = 2 ----
constexpr uint32_t alu(unsigned op3, unsigned rd, unsigned rs1, unsigned rs2) {
  return f3(2, rd, op3, rs1, rs2);
}
constexpr uint32_t alui(unsigned op3, unsigned rd, unsigned rs1, int32_t imm) {
  return f3i(2, rd, op3, rs1, imm);
}
constexpr uint32_t enc_add(unsigned rd, unsigned rs1, unsigned rs2) { return alu(ADD, rd, rs1, rs2); }
constexpr uint32_t enc_addi(unsigned rd, unsigned rs1, int32_t imm) { return alui(ADD, rd, rs1, imm); }
constexpr uint32_t enc_sub(unsigned rd, unsigned rs1, unsigned rs2) { return alu(SUB, rd, rs1, rs2); }
constexpr uint32_t enc_subcc(unsigned rd, unsigned rs1, unsigned rs2) { return alu(SUBCC, rd, rs1, rs2); }
constexpr uint32_t enc_subcci(unsigned rd, unsigned rs1, int32_t imm) { return alui(SUBCC, rd, rs1, imm); }
constexpr uint32_t enc_or(unsigned rd, unsigned rs1, unsigned rs2) { return alu(OR, rd, rs1, rs2); }
constexpr uint32_t enc_ori(unsigned rd, unsigned rs1, int32_t imm) { return alui(OR, rd, rs1, imm); }
constexpr uint32_t enc_mov(unsigned rd, unsigned rs) { return enc_or(rd, G0, rs); }
constexpr uint32_t enc_movi(unsigned rd, int32_t imm) { return enc_ori(rd, G0, imm); }
constexpr uint32_t enc_jmpl(unsigned rd, unsigned rs1, int32_t imm) { return alui(JMPL, rd, rs1, imm); }
constexpr uint32_t enc_rett(unsigned rs1, int32_t imm) { return alui(RETT, 0, rs1, imm); }
constexpr uint32_t enc_save(unsigned rd, unsigned rs1, int32_t imm) { return alui(SAVE, rd, rs1, imm); }
constexpr uint32_t enc_restore(unsigned rd, unsigned rs1, int32_t imm) { return alui(RESTORE, rd, rs1, imm); }
constexpr uint32_t enc_rdpsr(unsigned rd) { return alu(RDPSR, rd, 0, 0); }
constexpr uint32_t enc_rdwim(unsigned rd) { return alu(RDWIM, rd, 0, 0); }
constexpr uint32_t enc_rdtbr(unsigned rd) { return alu(RDTBR, rd, 0, 0); }
constexpr uint32_t enc_rdy(unsigned rd) { return alu(RDY, rd, 0, 0); }
constexpr uint32_t enc_rdasr(unsigned rd, unsigned asr) { return alu(RDY, rd, asr, 0); }
constexpr uint32_t enc_wrpsr(unsigned rs1, int32_t imm) { return alui(WRPSR, 0, rs1, imm); }
constexpr uint32_t enc_wrwim(unsigned rs1, int32_t imm) { return alui(WRWIM, 0, rs1, imm); }
constexpr uint32_t enc_wrtbr(unsigned rs1, int32_t imm) { return alui(WRTBR, 0, rs1, imm); }
constexpr uint32_t enc_wry(unsigned rs1, int32_t imm) { return alui(WRY, 0, rs1, imm); }
constexpr uint32_t enc_wrasr(unsigned asr, unsigned rs1, int32_t imm) { return alui(WRY, asr, rs1, imm); }
constexpr uint32_t enc_stbar() { return alu(RDY, 0, 15, 0); }
constexpr uint32_t enc_flush(unsigned rs1, int32_t imm) { return alui(FLUSH, 0, rs1, imm); }
constexpr uint32_t enc_ticc(unsigned cond, unsigned rs1, int32_t imm7) {
  return alui(TICC, cond & 15, rs1, imm7 & 0x7F);
}
constexpr uint32_t enc_ticcr(unsigned cond, unsigned rs1, unsigned rs2) {
  return alu(TICC, cond & 15, rs1, rs2);
}
constexpr uint32_t enc_ta(int32_t n) { return enc_ticc(A, G0, n); }

// ---- format 3, op = 3 ----
constexpr uint32_t mem(unsigned op3, unsigned rd, unsigned rs1, unsigned rs2) {
  return f3(3, rd, op3, rs1, rs2);
}
constexpr uint32_t memi(unsigned op3, unsigned rd, unsigned rs1, int32_t imm) {
  return f3i(3, rd, op3, rs1, imm);
}
constexpr uint32_t mema(unsigned op3, unsigned rd, unsigned rs1, unsigned rs2, unsigned asi) {
  return f3(3, rd, op3, rs1, rs2, asi);
}
constexpr uint32_t enc_ld(unsigned rd, unsigned rs1, int32_t imm) { return memi(LD, rd, rs1, imm); }
constexpr uint32_t enc_st(unsigned rd, unsigned rs1, int32_t imm) { return memi(ST, rd, rs1, imm); }

// ---- format 2 ----
constexpr uint32_t enc_sethi(unsigned rd, uint32_t value) {  // value's bits 31:10
  return ((rd & 31) << 25) | (4u << 22) | (value >> 10);
}
constexpr uint32_t enc_nop() { return enc_sethi(G0, 0); }
// disp in instructions (words), relative to the branch
constexpr uint32_t enc_bicc(unsigned cond, bool annul, int32_t disp) {
  return (uint32_t(annul) << 29) | ((cond & 15) << 25) | (2u << 22) | (uint32_t(disp) & 0x3FFFFF);
}
constexpr uint32_t enc_fbfcc(unsigned cond, int32_t disp) {
  return ((cond & 15) << 25) | (6u << 22) | (uint32_t(disp) & 0x3FFFFF);
}
constexpr uint32_t enc_cbccc(unsigned cond, int32_t disp) {
  return ((cond & 15) << 25) | (7u << 22) | (uint32_t(disp) & 0x3FFFFF);
}
constexpr uint32_t enc_unimp(uint32_t imm22) { return imm22 & 0x3FFFFF; }

// ---- format 1 ----
constexpr uint32_t enc_call(int32_t disp) { return (1u << 30) | (uint32_t(disp) & 0x3FFFFFFF); }

}  // namespace enc
