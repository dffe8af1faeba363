// Cycle costs of the LEON3 core, in one place.
//
// Functional mode (default): every executed instruction costs 1 cycle plus the
// latency the bus reports for its fetch and data accesses (kClassCycles, copied
// into Decoded::cost at decode time).
// Timed mode (CoreConfig::timed): per-kind pipeline costs (kTimedCycles,
// hw-reference §7.3) and the register/icc/Y usage flags the interlock model
// uses (TFlag), both decoded once per instruction word; see README "Timed mode".
// The kind and the flags of each instruction are columns of isa/sparcv8.def
// (names in timing::row below); this file only says what they mean and cost.
#pragma once
#include <cstdint>

#include "core.h"

namespace l3vp::leon3::timing {

// Cycles per executed instruction, by class (hw-reference §7.3 lists the real
// LEON3 costs: JMPL/RETT 3, LDD 2, ST 2, STD 3, atomics 3, DIV 35, ...).
constexpr uint8_t kClassCycles[static_cast<unsigned>(InsnClass::Count)] = {
    1,  // Alu
    1,  // Load
    1,  // Store
    1,  // Branch
    1,  // CallJmpl
    1,  // Mul
    1,  // Div
    1,  // SaveRestore
    1,  // Trap
    1,  // Other
};

// An annulled delay slot still occupies one pipeline slot.
constexpr uint64_t kAnnulledCycles = 1;
// Trap entry (synchronous, interrupt, fetch error) on top of the trapping
// instruction's own cost. LEON3 needs about 5 cycles; functional mode charges 1.
constexpr uint64_t kTrapEntryCycles = 1;

// ---- timed mode (CoreConfig::timed, README "Timed mode") ------------------------

// Timing kind of an instruction: the `kind` column of isa/sparcv8.def, copied
// into Decoded::tk at decode time. Its base cost in timed mode comes from a
// per-core table (some entries depend on TimingConfig).
enum TKind : uint8_t {
  kTkAlu = 0,  // ALU, SETHI, RD/WR state regs, SAVE/RESTORE, MULScc, Ticc, FLUSH, ...: 1
  kTkBranch,   // Bicc: 1
  kTkCall,     // CALL: 1
  kTkJmpl,     // JMPL, RETT: 3 (target known in EX: 2 fetch bubbles)
  kTkLoad,     // single loads: 1
  kTkLdd,      // LDD(A): 2
  kTkStore,    // ST, STB, STH (+A): 2
  kTkStd,      // STD(A): 3
  kTkAtomic,   // LDSTUB, SWAP, CASA (+A): 3
  kTkMul,      // UMUL/SMUL(cc): TimingConfig::mul (1 / 4 / 5)
  kTkDiv,      // UDIV/SDIV(cc): TimingConfig::div_cycles
  kTkCount
};
constexpr uint8_t kTimedCycles[kTkCount] = {1, 1, 1, 3, 1, 2, 2, 3, 3, 1, 35};

// Register/condition-code usage flags, decoded once (Decoded::tflags) from
// the `flags` column of isa/sparcv8.def (under the names of timing::row).
enum TFlag : uint16_t {
  kTfLoad = 1u << 0,     // rd (LDD: rd and rd+1) is written from memory
  kTfLdd = 1u << 1,      // LDD: rd+1 arrives one cycle after rd; STD: rd+1 is read too
  kTfMul = 1u << 2,      // UMUL/SMUL(cc): rd comes from the multiplier
  kTfWIcc = 1u << 3,     // writes icc (cc forms, tagged ops, MULScc, WRPSR)
  kTfBicc = 1u << 4,     // conditional Bicc (not BA/BN): reads icc, may be predicted
  kTfIccHold = 1u << 5,  // conditional Ticc, RDPSR: reads icc, never predicted
  kTfNoBp = 1u << 6,     // icc writer after which no prediction is made (MULcc, DIVcc)
  kTfWY = 1u << 7,       // writes Y late (WRY, UMUL/SMUL(cc), MULScc)
  kTfRY = 1u << 8,       // waits for Y (UDIV/SDIV(cc))
  kTfCwp = 1u << 9,      // may change CWP (SAVE, RESTORE, RETT, WRPSR)
};

// The vocabulary of the `flags` column of isa/sparcv8.def. The low 16 bits are
// the TFlag bits under short names (the decoder copies them into
// Decoded::tflags); the bits above are properties the decoder turns into
// other Decoded fields, applying the few rules that depend on the instruction
// word rather than the opcode (isa.cpp decode_timing()).
namespace row {
constexpr uint32_t Load = kTfLoad, Ldd = kTfLdd, Mul = kTfMul, WIcc = kTfWIcc, Bicc = kTfBicc,
                   IccHold = kTfIccHold, NoBp = kTfNoBp, WY = kTfWY, RY = kTfRY, Cwp = kTfCwp;
constexpr uint32_t kTFlagMask = 0xFFFF;
constexpr uint32_t Rs1 = 1u << 16;        // r[rs1] read at issue -> Decoded::hs1
constexpr uint32_t Rs2 = 1u << 17;        // r[rs2] read at issue when i = 0 -> Decoded::hs2
constexpr uint32_t Rs2Always = 1u << 18;  // r[rs2] read at issue whatever i (CASA)
constexpr uint32_t StRd = 1u << 19;       // r[rd] read one cycle after issue (store data;
                                          // with Ldd: rd+1 one more cycle later) -> hsl
constexpr uint32_t CondIcc = 1u << 20;    // Bicc/IccHold hold only when cond is not A/N
constexpr uint32_t Cti = 1u << 21;        // may write next_pc/next_npc -> Decoded::cti
}  // namespace row

}  // namespace l3vp::leon3::timing
