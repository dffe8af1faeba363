// Semantic functions of the SPARC V8 instructions listed in sparcv8.def: one
// small function h_<name> per mnemonic. Each is a template on the i bit of
// format 3 (I = true: operand 2 is simm13 in Decoded::imm; false: r[rs2]), so
// the decoder picks the variant once and no handler tests i at run time.
//
// Contract with the run loop (core.cpp):
//  * On entry next_pc = nPC and next_npc = nPC + 4; control transfers
//    overwrite them; pc/npc still hold the executing instruction's values.
//  * A trap is raised with c.trap(tt) and the handler returns at once, before
//    any architectural state was changed (V8 precise traps). Checks are written
//    in trap-priority order (hw-reference §7.2).
//  * An annulled delay slot is skipped here by moving next_pc/next_npc past it
//    (c.annul_next() counts it); it is never fetched, traced or interrupted.
// Included by isa.cpp, core.cpp and fast_loop.cpp.
#pragma once
#include <cstdint>
#include <limits>

#include "cpu_state.h"

namespace l3vp::leon3::sem {

// ---- operands and condition codes ------------------------------------------

template <bool I>
inline uint32_t op2(const Cpu& c, const Decoded& d) {
  return I ? uint32_t(d.imm) : c.R(d.rs2);
}
template <bool I>
inline uint32_t ea(const Cpu& c, const Decoded& d) {
  return c.R(d.rs1) + op2<I>(c, d);
}

constexpr uint32_t kN = 8, kZ = 4, kV = 2, kC = 1;

inline uint32_t nz(uint32_t r) { return ((r >> 31) << 3) | (uint32_t(r == 0) << 2); }
// hw-reference §8.4: the same formulas hold with a carry in, on the final result.
inline uint32_t add_icc(uint32_t a, uint32_t b, uint32_t r) {
  uint32_t v = ((a & b & ~r) | (~a & ~b & r)) >> 31;
  uint32_t c = ((a & b) | (~r & (a | b))) >> 31;
  return nz(r) | (v << 1) | c;
}
inline uint32_t sub_icc(uint32_t a, uint32_t b, uint32_t r) {
  uint32_t v = ((a & ~b & ~r) | (~a & b & r)) >> 31;
  uint32_t c = ((~a & b) | (r & (~a | b))) >> 31;
  return nz(r) | (v << 1) | c;
}

// The same without a carry in (ADDcc, SUBcc): V is the signed overflow of
// the operation and C the unsigned carry (a + b wraps) or borrow (a < b),
// which the compiler turns into the host's flags.
#if defined(__x86_64__) && defined(__GNUC__)
// On x86-64 the host's flags after the same 32-bit add or subtract are the
// icc bits: LAHF puts SF, ZF and CF in AH (bits 7, 6 and 0), SETO gives OF,
// and kAhIcc maps AH to N, Z and C (a third of the instructions of the
// portable formulas below; ADDcc and SUBcc are the most frequent icc writers).
constexpr auto kAhIcc = [] {
  struct T {
    uint8_t v[256];
  } t{};
  for (unsigned ah = 0; ah < 256; ++ah) t.v[ah] = uint8_t(((ah >> 4) & (kN | kZ)) | (ah & kC));
  return t;
}();
inline uint32_t add_icc0(uint32_t a, uint32_t b, uint32_t) {
  uint32_t ah;
  uint8_t of;
  asm("addl %k3, %k2\n\tlahf\n\tseto %b1\n\tmovzbl %%ah, %0" : "=a"(ah), "=r"(of), "+r"(a) : "r"(b) : "cc");
  return kAhIcc.v[ah] | (uint32_t(of) << 1);
}
inline uint32_t sub_icc0(uint32_t a, uint32_t b, uint32_t) {
  uint32_t ah;
  uint8_t of;
  asm("cmpl %k3, %k2\n\tlahf\n\tseto %b1\n\tmovzbl %%ah, %0" : "=a"(ah), "=r"(of) : "r"(a), "r"(b) : "cc");
  return kAhIcc.v[ah] | (uint32_t(of) << 1);
}
#else
inline uint32_t add_icc0(uint32_t a, uint32_t b, uint32_t r) {
  int32_t t;
  const bool v = __builtin_add_overflow(int32_t(a), int32_t(b), &t);
  return nz(r) | (uint32_t(v) << 1) | uint32_t(r < a);
}
inline uint32_t sub_icc0(uint32_t a, uint32_t b, uint32_t r) {
  int32_t t;
  const bool v = __builtin_sub_overflow(int32_t(a), int32_t(b), &t);
  return nz(r) | (uint32_t(v) << 1) | uint32_t(a < b);
}
#endif

// Bicc/Ticc conditions as 16-bit masks indexed by the icc nibble (N Z V C).
constexpr bool cond_eval(unsigned cond, unsigned icc) {
  bool n = icc & kN, z = icc & kZ, v = icc & kV, c = icc & kC;
  bool r = false;
  switch (cond & 7) {
    case 0:
      r = false;
      break;  // N / A
    case 1:
      r = z;
      break;  // E / NE
    case 2:
      r = z || (n != v);
      break;  // LE / G
    case 3:
      r = n != v;
      break;  // L / GE
    case 4:
      r = c || z;
      break;  // LEU / GU
    case 5:
      r = c;
      break;  // CS / CC
    case 6:
      r = n;
      break;  // NEG / POS
    case 7:
      r = v;
      break;  // VS / VC
  }
  return (cond & 8) ? !r : r;
}
constexpr uint16_t cond_mask(unsigned cond) {
  uint16_t m = 0;
  for (unsigned icc = 0; icc < 16; ++icc)
    if (cond_eval(cond, icc)) m |= uint16_t(1u << icc);
  return m;
}
constexpr uint16_t kCondTab[16] = {cond_mask(0),  cond_mask(1),  cond_mask(2),  cond_mask(3),
                                   cond_mask(4),  cond_mask(5),  cond_mask(6),  cond_mask(7),
                                   cond_mask(8),  cond_mask(9),  cond_mask(10), cond_mask(11),
                                   cond_mask(12), cond_mask(13), cond_mask(14), cond_mask(15)};
inline bool cond_true(unsigned cond, uint32_t icc) { return (kCondTab[cond & 15] >> icc) & 1; }

// Inlined wherever a loop calls one directly (the page loops' cases: GCC
// gives up inlining in functions that large); tables take their address.
#define L3_SEM(name) \
  template <bool I>  \
  [[gnu::always_inline]] inline void h_##name([[maybe_unused]] Cpu& c, [[maybe_unused]] const Decoded& d)
#define A_ (c.R(d.rs1))
#define B_ (op2<I>(c, d))

// ---- arithmetic and logic ------------------------------------------------------

L3_SEM(add) { c.W(d.rd, A_ + B_); }
L3_SEM(addx) { c.W(d.rd, A_ + B_ + (c.icc & kC)); }
L3_SEM(sub) { c.W(d.rd, A_ - B_); }
L3_SEM(subx) { c.W(d.rd, A_ - B_ - (c.icc & kC)); }
L3_SEM(and_op) { c.W(d.rd, A_ & B_); }
L3_SEM(andn) { c.W(d.rd, A_ & ~B_); }
L3_SEM(or_op) { c.W(d.rd, A_ | B_); }
L3_SEM(orn) { c.W(d.rd, A_ | ~B_); }
L3_SEM(xor_op) { c.W(d.rd, A_ ^ B_); }
L3_SEM(xnor) { c.W(d.rd, ~(A_ ^ B_)); }

L3_SEM(addcc) {
  uint32_t a = A_, b = B_, r = a + b;
  c.icc = add_icc0(a, b, r);
  c.W(d.rd, r);
}
L3_SEM(addxcc) {
  uint32_t a = A_, b = B_, r = a + b + (c.icc & kC);
  c.icc = add_icc(a, b, r);
  c.W(d.rd, r);
}
L3_SEM(subcc) {
  uint32_t a = A_, b = B_, r = a - b;
  c.icc = sub_icc0(a, b, r);
  c.W(d.rd, r);
}
L3_SEM(subxcc) {
  uint32_t a = A_, b = B_, r = a - b - (c.icc & kC);
  c.icc = sub_icc(a, b, r);
  c.W(d.rd, r);
}
#define L3_LOGIC_CC(name, expr) \
  L3_SEM(name) {                \
    uint32_t a = A_, b = B_;    \
    uint32_t r = (expr);        \
    c.icc = nz(r);              \
    c.W(d.rd, r);               \
  }
L3_LOGIC_CC(andcc, a& b)
L3_LOGIC_CC(andncc, a & ~b)
L3_LOGIC_CC(orcc, a | b)
L3_LOGIC_CC(orncc, a | ~b)
L3_LOGIC_CC(xorcc, a ^ b)
L3_LOGIC_CC(xnorcc, ~(a ^ b))
#undef L3_LOGIC_CC

L3_SEM(sll) { c.W(d.rd, A_ << (B_ & 31)); }
L3_SEM(srl) { c.W(d.rd, A_ >> (B_ & 31)); }
L3_SEM(sra) { c.W(d.rd, uint32_t(int32_t(A_) >> (B_ & 31))); }
L3_SEM(sethi) { c.W(d.rd, uint32_t(d.imm)); }

// ---- tagged arithmetic (absent when CoreConfig::tagged_ops = false) -------------

template <bool I, bool Sub, bool TrapOnV>
inline void tagged(Cpu& c, const Decoded& d) {
  if (!c.cfg.tagged_ops) return c.trap(kTtIllegal);
  uint32_t a = A_, b = B_;
  uint32_t r = Sub ? a - b : a + b;
  uint32_t icc = Sub ? sub_icc(a, b, r) : add_icc(a, b, r);
  if ((a | b) & 3) icc |= kV;
  if (TrapOnV && (icc & kV)) return c.trap(kTtTagOverflow);
  c.icc = icc;
  c.W(d.rd, r);
}
L3_SEM(taddcc) { tagged<I, false, false>(c, d); }
L3_SEM(tsubcc) { tagged<I, true, false>(c, d); }
L3_SEM(taddcctv) { tagged<I, false, true>(c, d); }
L3_SEM(tsubcctv) { tagged<I, true, true>(c, d); }

// ---- multiply / divide ---------------------------------------------------------------

L3_SEM(mulscc) {
  uint32_t a = A_, b = B_;
  uint32_t nxv = ((c.icc >> 3) ^ (c.icc >> 1)) & 1;
  uint32_t x = (nxv << 31) | (a >> 1);
  uint32_t yv = (c.y & 1) ? b : 0;
  uint32_t r = x + yv;
  c.y = (a << 31) | (c.y >> 1);
  c.icc = add_icc(x, yv, r);
  c.W(d.rd, r);
}

template <bool I, bool Signed, bool CC>
inline void multiply(Cpu& c, const Decoded& d) {
  uint32_t a = A_, b = B_;
  uint64_t p = Signed ? uint64_t(int64_t(int32_t(a)) * int64_t(int32_t(b))) : uint64_t(a) * b;
  uint32_t lo = uint32_t(p);
  c.y = uint32_t(p >> 32);
  if (CC) c.icc = nz(lo);
  c.W(d.rd, lo);
}
L3_SEM(umul) { multiply<I, false, false>(c, d); }
L3_SEM(smul) { multiply<I, true, false>(c, d); }
L3_SEM(umulcc) { multiply<I, false, true>(c, d); }
L3_SEM(smulcc) { multiply<I, true, true>(c, d); }

// Y:rs1 / operand2; quotient saturates on overflow; Y is not written (LEON3).
template <bool I, bool Signed, bool CC>
inline void divide(Cpu& c, const Decoded& d) {
  uint32_t b = B_;
  if (b == 0) return c.trap(kTtDivZero);
  uint64_t dividend = (uint64_t(c.y) << 32) | A_;
  uint32_t q;
  bool v = false;
  if (Signed) {
    int64_t n = int64_t(dividend), m = int32_t(b);
    if (n == std::numeric_limits<int64_t>::min() && m == -1) {
      q = 0x7FFFFFFF;
      v = true;
    } else {
      int64_t t = n / m;
      if (t > 0x7FFFFFFFll) {
        q = 0x7FFFFFFF;
        v = true;
      } else if (t < -0x80000000ll) {
        q = 0x80000000;
        v = true;
      } else {
        q = uint32_t(t);
      }
    }
  } else {
    uint64_t t = dividend / b;
    v = t > 0xFFFFFFFFull;
    q = v ? 0xFFFFFFFF : uint32_t(t);
  }
  if (CC) c.icc = nz(q) | (v ? kV : 0);
  c.W(d.rd, q);
}
L3_SEM(udiv) { divide<I, false, false>(c, d); }
L3_SEM(sdiv) { divide<I, true, false>(c, d); }
L3_SEM(udivcc) { divide<I, false, true>(c, d); }
L3_SEM(sdivcc) { divide<I, true, true>(c, d); }

// ---- state registers --------------------------------------------------------------------

L3_SEM(rdasr) {
  unsigned r = d.rs1;
  // %asr1..15 (15 with rd = 0 is STBAR) read Y, as RDY: the LEON3 decodes
  // them as RDY, no trap (README "Choices where the reference is uncertain").
  if (r < 16) return c.W(d.rd, c.y);
  c.W(d.rd, r == 17 ? c.asr17() : 0);  // 16, 18, 20..31: not modelled, read 0
}
L3_SEM(stbar) {}
L3_SEM(rdpsr) {
  if (!c.s) return c.trap(kTtPrivileged);
  c.W(d.rd, c.psr());
}
L3_SEM(rdwim) {
  if (!c.s) return c.trap(kTtPrivileged);
  c.W(d.rd, c.wim);
}
L3_SEM(rdtbr) {
  if (!c.s) return c.trap(kTtPrivileged);
  c.W(d.rd, c.tba | (c.tt << 4));
}
L3_SEM(wrasr) {
  uint32_t v = A_ ^ B_;
  unsigned r = d.rd;
  if (r == 0) {
    c.y = v;
    return;
  }
  if (r < 16) return;  // %asr1..15: no effect, no trap, unprivileged (as the LEON3)
  if (!c.s) return c.trap(kTtPrivileged);
  if (r == 17) {
    c.svt = (v >> 13) & 1;
    c.dwt = (v >> 14) & 1;
  } else if (r == 19) {
    c.pd = true;  // run() returns PowerDown once this instruction retired
    c.refresh_limit();
  }
}
L3_SEM(wrpsr) {
  if (!c.s) return c.trap(kTtPrivileged);
  uint32_t v = A_ ^ B_;
  if ((v & 31) >= c.nwin) return c.trap(kTtIllegal);
  c.write_psr(v);
  // LEON3 ignores interrupts for the one instruction after a WRPSR.
  c.irq_inhibit_seq = c.retired() + 1;
}
L3_SEM(wrwim) {
  if (!c.s) return c.trap(kTtPrivileged);
  c.wim = (A_ ^ B_) & c.wim_mask;
}
L3_SEM(wrtbr) {
  if (!c.s) return c.trap(kTtPrivileged);
  c.tba = (A_ ^ B_) & 0xFFFFF000u;
}

// ---- control transfer -----------------------------------------------------------------------

// Where a Bicc at pc (delay slot at npc) sends execution: next_pc/next_npc
// arrive as npc/npc + 4 and are changed when the branch is taken or annuls.
// Returns true when the delay slot is annulled (the caller counts it). The
// page loop (fast_loop.cpp) calls it with pc/npc in registers.
inline bool bicc_next(const Decoded& d, uint32_t icc, uint32_t pc, uint32_t npc, uint32_t& next_pc,
                      uint32_t& next_npc) {
  const unsigned cond = d.rd & 15;
  const bool annul = d.rd & 16;
  if (cond_true(cond, icc)) {
    const uint32_t target = pc + uint32_t(d.imm);
    if (annul && cond == 8) {  // ba,a: jump and skip the delay slot
      next_pc = target;
      next_npc = target + 4;
      return true;
    }
    next_npc = target;
    return false;
  }
  if (!annul) return false;
  next_pc = npc + 4;  // untaken with a=1 (incl. bn,a): skip the delay slot
  next_npc = npc + 8;
  return true;
}
L3_SEM(bicc) {
  if (bicc_next(d, c.icc, c.pc, c.npc, c.next_pc, c.next_npc)) c.annul_next();
}
L3_SEM(call) {
  c.W(15, c.pc);
  c.next_npc = c.pc + uint32_t(d.imm);
}
L3_SEM(jmpl) {
  uint32_t t = A_ + B_;
  if (t & 3) return c.trap(kTtUnaligned);
  c.W(d.rd, c.pc);
  c.next_npc = t;
}
L3_SEM(rett) {
  // With ET=1 RETT is privileged (user) or illegal (supervisor); with ET=0 any
  // trap condition enters error mode (enter_trap() does that when ET=0).
  if (c.et) return c.trap(c.s ? kTtIllegal : kTtPrivileged);
  if (!c.s) return c.trap(kTtPrivileged);
  unsigned nw = c.cwp + 1 == c.nwin ? 0 : c.cwp + 1;
  if ((c.wim >> nw) & 1) return c.trap(kTtWinUnderflow);
  uint32_t t = A_ + B_;
  if (t & 3) return c.trap(kTtUnaligned);
  c.set_cwp(nw);
  c.s = c.ps;
  c.et = true;
  c.update_irq();
  c.next_npc = t;
}
L3_SEM(ticc) {
  if (!cond_true(d.rd & 15, c.icc)) return;
  unsigned n = (A_ + B_) & 0x7F;
  // A taken Ticc counts as a retired instruction of class Trap.
  ++c.ctr.by_class[static_cast<unsigned>(InsnClass::Trap)];
  c.trap(0x80 + n);
}
L3_SEM(save) {
  uint32_t v = A_ + B_;  // operands from the old window
  unsigned nw = c.cwp == 0 ? c.nwin - 1 : c.cwp - 1;
  if ((c.wim >> nw) & 1) return c.trap(kTtWinOverflow);
  c.set_cwp(nw);
  c.W(d.rd, v);
}
L3_SEM(restore) {
  uint32_t v = A_ + B_;
  unsigned nw = c.cwp + 1 == c.nwin ? 0 : c.cwp + 1;
  if ((c.wim >> nw) & 1) return c.trap(kTtWinUnderflow);
  c.set_cwp(nw);
  c.W(d.rd, v);
}
// The decoded-instruction cache is tagged by the raw word, so FLUSH has
// nothing to invalidate there. In timed mode it invalidates both cache models
// entirely (LEON3 flushes everything, not just the addressed doubleword).
L3_SEM(flush) {
  if (c.timed) c.flush_caches();
}

// ---- traps for unimplemented units -------------------------------------------------------------

L3_SEM(unimp) { c.trap(kTtIllegal); }
L3_SEM(illegal) { c.trap(kTtIllegal); }
L3_SEM(fp_disabled) { c.trap(kTtFpDisabled); }
L3_SEM(cp_disabled) { c.trap(kTtCpDisabled); }
// STDFQ/STDCQ are privileged; privileged_instruction outranks fp/cp_disabled.
L3_SEM(stdfq) { c.trap(c.s ? kTtFpDisabled : kTtPrivileged); }
L3_SEM(stdcq) { c.trap(c.s ? kTtCpDisabled : kTtPrivileged); }

// ---- loads and stores --------------------------------------------------------------------------

template <unsigned N, bool Signed>
inline uint32_t extend(const uint8_t* b) {
  if constexpr (N == 1) return Signed ? uint32_t(int32_t(int8_t(b[0]))) : b[0];
  if constexpr (N == 2) return Signed ? uint32_t(int32_t(int16_t(be16(b)))) : be16(b);
  return be32(b);
}
template <unsigned N>
inline void pack(uint8_t* b, uint32_t v) {
  if constexpr (N == 1) b[0] = uint8_t(v);
  if constexpr (N == 2) put_be16(b, uint16_t(v));
  if constexpr (N == 4) put_be32(b, v);
}

// Register side of a load (rd, or rd and rd + 1 for a doubleword; rd = 0
// writes only r1, r0 going to the sink) and of a store.
template <unsigned N, bool Signed>
inline void to_regs(Cpu& c, const Decoded& d, const uint8_t* b) {
  if constexpr (N == 8) {
    c.W(d.rd, be32(b));
    c.W(d.rd + 1, be32(b + 4));
  } else {
    c.W(d.rd, extend<N, Signed>(b));
  }
}
template <unsigned N>
inline void from_regs(const Cpu& c, const Decoded& d, uint8_t* b) {
  if constexpr (N == 8) {
    put_be32(b, c.R(d.rd));
    put_be32(b + 4, c.R(d.rd + 1));
  } else {
    pack<N>(b, c.R(d.rd));
  }
}

// LDA/STA family: privileged; i = 1 is illegal (no %asi register in V8).
template <bool I>
inline bool alt_ok(Cpu& c) {
  if (!c.s) {
    c.trap(kTtPrivileged);
    return false;
  }
  if (I) {
    c.trap(kTtIllegal);
    return false;
  }
  return true;
}
template <bool Alt, unsigned N>
inline bool rd_mem(Cpu& c, const Decoded& d, uint32_t a, uint8_t* b) {
  return Alt ? c.alt_read(a, d.asi, b, N) : c.read<N>(a, b);
}
template <bool Alt, unsigned N>
inline bool wr_mem(Cpu& c, const Decoded& d, uint32_t a, const uint8_t* b) {
  return Alt ? c.alt_write(a, d.asi, b, N) : c.write<N>(a, b);
}

template <bool I, bool Alt, unsigned N, bool Signed>
inline void load(Cpu& c, const Decoded& d) {
  if (Alt && !alt_ok<I>(c)) return;
  uint32_t a = ea<I>(c, d);
  if (a & (N - 1)) return c.trap(kTtUnaligned);
  uint8_t b[N];
  if (!rd_mem<Alt, N>(c, d, a, b)) return;
  to_regs<N, Signed>(c, d, b);
}
template <bool I, bool Alt, unsigned N>
inline void store(Cpu& c, const Decoded& d) {
  if (Alt && !alt_ok<I>(c)) return;
  uint32_t a = ea<I>(c, d);
  if (a & (N - 1)) return c.trap(kTtUnaligned);
  uint8_t b[N];
  from_regs<N>(c, d, b);
  wr_mem<Alt, N>(c, d, a, b);
}
template <bool I, bool Alt>
inline void load_double(Cpu& c, const Decoded& d) {
  if (Alt && !alt_ok<I>(c)) return;
  if (d.rd & 1) return c.trap(kTtIllegal);
  uint32_t a = ea<I>(c, d);
  if (a & 7) return c.trap(kTtUnaligned);
  uint8_t b[8];
  if (!rd_mem<Alt, 8>(c, d, a, b)) return;
  to_regs<8, false>(c, d, b);
}
template <bool I, bool Alt>
inline void store_double(Cpu& c, const Decoded& d) {
  if (Alt && !alt_ok<I>(c)) return;
  if (d.rd & 1) return c.trap(kTtIllegal);
  uint32_t a = ea<I>(c, d);
  if (a & 7) return c.trap(kTtUnaligned);
  uint8_t b[8];
  from_regs<8>(c, d, b);
  wr_mem<Alt, 8>(c, d, a, b);
}
// Atomics: read and write inside one instruction; the run loop never stops
// between the two accesses.
template <bool I, bool Alt>
inline void ldstub_op(Cpu& c, const Decoded& d) {
  if (Alt && !alt_ok<I>(c)) return;
  uint32_t a = ea<I>(c, d);
  uint8_t old, ff = 0xFF;
  if (!rd_mem<Alt, 1>(c, d, a, &old)) return;
  if (!wr_mem<Alt, 1>(c, d, a, &ff)) return;
  c.W(d.rd, old);
}
template <bool I, bool Alt>
inline void swap_op(Cpu& c, const Decoded& d) {
  if (Alt && !alt_ok<I>(c)) return;
  uint32_t a = ea<I>(c, d);
  if (a & 3) return c.trap(kTtUnaligned);
  uint8_t old[4], nw[4];
  if (!rd_mem<Alt, 4>(c, d, a, old)) return;
  put_be32(nw, c.R(d.rd));
  if (!wr_mem<Alt, 4>(c, d, a, nw)) return;
  c.W(d.rd, be32(old));
}

// The page loop's functional fast forms (fast_loop.cpp): the access when it
// hits the data DMI window (read_w/write_w, empty in timed mode) and traps
// on nothing; false, having changed nothing, when it would take any other
// path. The loop then runs the full handler above.
// The address of a fast form's access; false when the access would trap
// (misaligned, or LDD/STD with an odd rd).
template <bool I, unsigned N>
inline bool fast_ea(Cpu& c, const Decoded& d, uint32_t& a) {
  a = ea<I>(c, d);
  return !(N == 8 && (d.rd & 1)) && !(a & (N - 1));
}
// kHoled: through the holed windows instead (run_page_seq while watchpoints
// are set), where any access to the hole goes to the handler, which checks it.
template <bool I, unsigned N, bool Signed, bool kHoled = false>
inline bool load_fast(Cpu& c, const Decoded& d) {
  uint32_t a;
  if (!fast_ea<I, N>(c, d, a)) return false;
  const uint8_t* p;
  if constexpr (kHoled) {
    p = c.read_hw.hit<N>(a);
    if (!p) return false;
  } else {  // the window's offset test alone: a hit's pointer is never null
    const uint64_t off = uint64_t(a) - c.read_w.base;
    if (off + (N - 1) > c.read_w.last) return false;
    p = c.read_w.ptr + off;
  }
  to_regs<N, Signed>(c, d, p);
  return true;
}
template <bool I, unsigned N, bool kHoled = false>
inline bool store_fast(Cpu& c, const Decoded& d) {
  uint32_t a;
  if (!fast_ea<I, N>(c, d, a)) return false;
  uint8_t* p;
  if constexpr (kHoled) {
    p = c.write_hw.hit<N>(a);
    if (!p) return false;
  } else {
    const uint64_t off = uint64_t(a) - c.write_w.base;
    if (off + (N - 1) > c.write_w.last) return false;
    p = c.write_w.ptr + off;
  }
  from_regs<N>(c, d, p);
  c.code_store(a, N);
  return true;
}
// The timed page loop's fast forms: a load that takes Cpu::read's timed
// inline path (its line is the MRU line of its D-cache set and the timed DMI
// window holds it), a store the timed DMI write window holds, when neither
// traps; false, having changed nothing, otherwise. The arbitration side-band
// of a store (arb_dmi) only computes a wait and reports the transaction.
template <bool I, unsigned N, bool Signed>
inline bool tload_fast(Cpu& c, const Decoded& d) {
  uint32_t a;
  if (!fast_ea<I, N>(c, d, a)) return false;
  if (!c.dc_fast(a >> c.dc_shift)) return false;
  const uint8_t* p = c.tread_w.hit<N>(a);
  if (!p) return false;
  ++c.tctr.dc_read_hits;
  to_regs<N, Signed>(c, d, p);
  return true;
}
template <bool I, unsigned N>
inline bool tstore_fast(Cpu& c, const Decoded& d) {
  uint32_t a;
  if (!fast_ea<I, N>(c, d, a)) return false;
  uint8_t* p = c.twrite_w.hit<N>(a);
  if (!p) return false;
  // = write_timed's DMI path: a store is the same bus write whether it hits
  // the D-cache, misses it (no allocation) or is uncached; only the counter differs.
  c.wait_write_buffer();
  from_regs<N>(c, d, p);
  c.code_store(a, N);
  const uint64_t drain = c.twrite_w.wlat + (N > 4 ? c.burst_beat : 0);
  c.wb_free = c.cycles + drain + c.arb_dmi(drain, CoreBus::Kind::Write, a, N);
  ++c.tctr.ahb_writes;
  c.count_dc_write(a);
  return true;
}

// Each plain load and store with its two fast forms (the page loops'
// cases): name, access size and, for loads, sign extension.
#define L3_FAST_LOADS(X) \
  X(ld, 4, false) X(ldub, 1, false) X(lduh, 2, false) X(ldsb, 1, true) X(ldsh, 2, true) X(ldd, 8, false)
#define L3_FAST_STORES(X) X(st, 4) X(stb, 1) X(sth, 2) X(std, 8)
#define L3_LOAD_FORMS(name, N, S)                      \
  template <bool I>                                    \
  inline bool fast_##name(Cpu& c, const Decoded& d) {  \
    return load_fast<I, N, S>(c, d);                   \
  }                                                    \
  template <bool I>                                    \
  inline bool wfast_##name(Cpu& c, const Decoded& d) { \
    return load_fast<I, N, S, true>(c, d);             \
  }                                                    \
  template <bool I>                                    \
  inline bool tfast_##name(Cpu& c, const Decoded& d) { \
    return tload_fast<I, N, S>(c, d);                  \
  }
#define L3_STORE_FORMS(name, N)                        \
  template <bool I>                                    \
  inline bool fast_##name(Cpu& c, const Decoded& d) {  \
    return store_fast<I, N>(c, d);                     \
  }                                                    \
  template <bool I>                                    \
  inline bool wfast_##name(Cpu& c, const Decoded& d) { \
    return store_fast<I, N, true>(c, d);               \
  }                                                    \
  template <bool I>                                    \
  inline bool tfast_##name(Cpu& c, const Decoded& d) { \
    return tstore_fast<I, N>(c, d);                    \
  }
L3_FAST_LOADS(L3_LOAD_FORMS)
L3_FAST_STORES(L3_STORE_FORMS)
#undef L3_LOAD_FORMS
#undef L3_STORE_FORMS
#undef L3_FAST_LOADS
#undef L3_FAST_STORES

L3_SEM(ld) { load<I, false, 4, false>(c, d); }
L3_SEM(ldub) { load<I, false, 1, false>(c, d); }
L3_SEM(lduh) { load<I, false, 2, false>(c, d); }
L3_SEM(ldsb) { load<I, false, 1, true>(c, d); }
L3_SEM(ldsh) { load<I, false, 2, true>(c, d); }
L3_SEM(ldd) { load_double<I, false>(c, d); }
L3_SEM(st) { store<I, false, 4>(c, d); }
L3_SEM(stb) { store<I, false, 1>(c, d); }
L3_SEM(sth) { store<I, false, 2>(c, d); }
L3_SEM(std) { store_double<I, false>(c, d); }
L3_SEM(ldstub) { ldstub_op<I, false>(c, d); }
L3_SEM(swap) { swap_op<I, false>(c, d); }

L3_SEM(lda) { load<I, true, 4, false>(c, d); }
L3_SEM(lduba) { load<I, true, 1, false>(c, d); }
L3_SEM(lduha) { load<I, true, 2, false>(c, d); }
L3_SEM(ldsba) { load<I, true, 1, true>(c, d); }
L3_SEM(ldsha) { load<I, true, 2, true>(c, d); }
L3_SEM(ldda) { load_double<I, true>(c, d); }
L3_SEM(sta) { store<I, true, 4>(c, d); }
L3_SEM(stba) { store<I, true, 1>(c, d); }
L3_SEM(stha) { store<I, true, 2>(c, d); }
L3_SEM(stda) { store_double<I, true>(c, d); }
L3_SEM(ldstuba) { ldstub_op<I, true>(c, d); }
L3_SEM(swapa) { swap_op<I, true>(c, d); }

// CASA (LEON3 extension used by SMP kernels): compare r[rs2] with the word at
// r[rs1]; if equal store r[rd]; r[rd] always receives the old word. The ASI
// comes from the instruction; like LEON3 it is allowed in user mode with ASI
// 0xA (user data), otherwise privileged. i = 1 is illegal.
L3_SEM(casa) {
  if (I) return c.trap(c.s ? kTtIllegal : kTtPrivileged);
  if (!c.s && d.asi != 0xA) return c.trap(kTtPrivileged);
  uint32_t a = A_;
  if (a & 3) return c.trap(kTtUnaligned);
  uint8_t old[4];
  if (!c.alt_read(a, d.asi, old, 4)) return;
  uint32_t ov = be32(old);
  if (ov == c.R(d.rs2)) {
    uint8_t nw[4];
    put_be32(nw, c.R(d.rd));
    if (!c.alt_write(a, d.asi, nw, 4)) return;
  }
  c.W(d.rd, ov);
}

// ---- extensions (LEON3VP_ISA_EXTENSIONS) ---------------------------------------------------------
// The semantic functions of the extension tables (foo.h next to foo.def),
// included here, inside this namespace and with L3_SEM, A_ and B_ defined, so
// that they read like the ones above. isa.cpp only: the build defines
// L3_ISA_EXT_SEMANTICS for the decoder's file, never for core.cpp.
#ifdef L3_ISA_EXT_SEMANTICS
#include L3_ISA_EXT_SEMANTICS
#endif

#undef A_
#undef B_
#undef L3_SEM

}  // namespace l3vp::leon3::sem
