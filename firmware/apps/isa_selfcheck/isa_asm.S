/*
 * isa_asm.S - instruction sequences for isa_selfcheck that need exact
 * control over branches, delay slots and windows.
 */
#include "bsp_asm.h"

        .section .note.GNU-stack, "", @progbits
        .text
        .align  4

/* Set icc = %o0 (4 bits N Z V C) leaving the rest of the PSR alone.
 * Clobbers %o4, %o5. */
#define SET_ICC                                 \
        rd      %psr, %o4;                      \
        sethi   %hi(PSR_ICC_MASK), %o5;         \
        andn    %o4, %o5, %o4;                  \
        sll     %o0, PSR_ICC_SHIFT, %o5;        \
        or      %o4, %o5, %o4;                  \
        wr      %o4, %psr;                      \
        nop; nop; nop

/* One Bicc test: shift the mask left, set bit 0 if the branch is taken. */
#define BTEST(br)                               \
        sll     %o1, 1, %o1;                    \
        br      1f;                             \
         nop;                                   \
        ba      2f;                             \
         nop;                                   \
1:      or      %o1, 1, %o1;                    \
2:

/* uint32_t isa_branch_mask(uint32_t icc): bit (15 - cond) set when Bicc
 * with that cond field is taken (cond 0 = bn ... 15 = bvc). */
        .global isa_branch_mask
isa_branch_mask:
        SET_ICC
        mov     0, %o1
        BTEST(bn)
        BTEST(be)
        BTEST(ble)
        BTEST(bl)
        BTEST(bleu)
        BTEST(bcs)
        BTEST(bneg)
        BTEST(bvs)
        BTEST(ba)
        BTEST(bne)
        BTEST(bg)
        BTEST(bge)
        BTEST(bgu)
        BTEST(bcc)
        BTEST(bpos)
        BTEST(bvc)
        retl
         mov    %o1, %o0

/* void isa_ticc_all(uint32_t icc): executes t<cond> with software trap
 * number 0x20 + cond for all 16 conds (tt = 0xa0 + cond). */
        .global isa_ticc_all
isa_ticc_all:
        SET_ICC
        tn      0x20
        te      0x21
        tle     0x22
        tl      0x23
        tleu    0x24
        tcs     0x25
        tneg    0x26
        tvs     0x27
        ta      0x28
        tne     0x29
        tg      0x2a
        tge     0x2b
        tgu     0x2c
        tcc     0x2d
        tpos    0x2e
        tvc     0x2f
        retl
         nop

/* uint32_t isa_annul(void): bit mask of the delay slots that executed.
 * Expected 0xf1 (see isa_selfcheck.c). */
        .global isa_annul
isa_annul:
        mov     0, %o0
        cmp     %g0, %g0                /* Z = 1 */
        be,a    1f                      /* taken, a=1: slot executes */
         or     %o0, 0x01, %o0
        or      %o0, 0x100, %o0         /* skipped */
1:      bne,a   2f                      /* untaken, a=1: slot annulled */
         or     %o0, 0x02, %o0
2:      ba,a    3f                      /* ba,a: slot annulled */
         or     %o0, 0x04, %o0
        or      %o0, 0x200, %o0         /* skipped */
3:      bn,a    4f                      /* bn,a: slot annulled */
         or     %o0, 0x08, %o0
4:      bn      5f                      /* bn: slot executes */
         or     %o0, 0x10, %o0
5:      bne     6f                      /* untaken, a=0: slot executes */
         or     %o0, 0x20, %o0
6:      be      7f                      /* taken, a=0: slot executes */
         or     %o0, 0x40, %o0
        or      %o0, 0x400, %o0         /* skipped */
7:      ba      8f                      /* ba: slot executes */
         or     %o0, 0x80, %o0
        or      %o0, 0x800, %o0         /* skipped */
8:      retl
         nop

/* void isa_call_jmpl(uint32_t out[8]):
 *   out[0] = %o7 written by CALL      out[1] = address of that CALL
 *   out[2] = rd written by JMPL       out[3] = address of that JMPL
 *   out[4] = 7 if only the JMPL delay slot ran (99 if the fall-through ran)
 *   out[5] = leaf(5) called through "jmpl %reg, %o7" (expect 15)
 *   out[6] = value computed after "jmpl %reg+8" skipping two words (expect 3)
 */
        .global isa_call_jmpl
isa_call_jmpl:
        save    %sp, -96, %sp
10:     call    11f
         nop
11:     st      %o7, [%i0 + 0]
        set     10b, %l0
        st      %l0, [%i0 + 4]
        set     13f, %l1
12:     jmpl    %l1, %l2
         mov    7, %l3
        mov     99, %l3
13:     st      %l2, [%i0 + 8]
        set     12b, %l0
        st      %l0, [%i0 + 12]
        st      %l3, [%i0 + 16]
        set     isa_leaf_times3, %l0
        jmpl    %l0, %o7
         mov    5, %o0
        st      %o0, [%i0 + 20]
        mov     1, %l4
        set     14f, %l0
        jmpl    %l0 + 8, %g0
         add    %l4, 1, %l4             /* delay slot: 2 */
14:     add     %l4, 10, %l4            /* skipped */
        add     %l4, 20, %l4            /* skipped */
        add     %l4, 1, %l4             /* target: 3 */
        st      %l4, [%i0 + 24]
        ret
         restore

isa_leaf_times3:
        add     %o0, %o0, %o1
        retl
         add    %o0, %o1, %o0

/* uint32_t isa_save_restore(uint32_t out[6]):
 *   out[0] = CWP before, out[1] = CWP after SAVE, out[2] = CWP after RESTORE
 *   out[3] = new window's %o1 after "save %o0, 5, %o1" with %o0 = 10 (15)
 *   out[4] = new window's %i0 (the old %o0 = 10)
 *   out[5] = old window's %o2 after "restore %o1, 2, %o2" (17)
 *   out[6] = old window's %o1, untouched by the SAVE (0x77)
 */
        .global isa_save_restore
isa_save_restore:
        mov     %o0, %g1                /* out[] pointer survives in %g1 */
        mov     10, %o0
        mov     0x77, %o1
        rd      %psr, %o3
        and     %o3, PSR_CWP_MASK, %o3
        st      %o3, [%g1 + 0]
        save    %o0, 5, %o1
        rd      %psr, %o3
        and     %o3, PSR_CWP_MASK, %o3
        st      %o3, [%g1 + 4]
        st      %o1, [%g1 + 12]
        st      %i0, [%g1 + 16]
        restore %o1, 2, %o2
        rd      %psr, %o3
        and     %o3, PSR_CWP_MASK, %o3
        st      %o3, [%g1 + 8]
        st      %o2, [%g1 + 20]
        st      %o1, [%g1 + 24]
        retl
         nop

/* uint32_t isa_wim_rw(uint32_t value): with traps disabled, write WIM,
 * read it back, restore the old WIM. Returns the value read. */
        .global isa_wim_rw
isa_wim_rw:
        rd      %psr, %o4
        andn    %o4, PSR_ET, %o5
        wr      %o5, %psr
        nop; nop; nop
        rd      %wim, %o3
        wr      %o0, %wim
        nop; nop; nop
        rd      %wim, %o0
        wr      %o3, %wim
        nop; nop; nop
        wr      %o4, %psr
        nop; nop; nop
        retl
         nop

/* uint32_t isa_wim_xor(uint32_t a, uint32_t b): WIM written with
 * "wr a, b, %wim" (stores a ^ b), read back, restored. */
        .global isa_wim_xor
isa_wim_xor:
        rd      %psr, %o4
        andn    %o4, PSR_ET, %o5
        wr      %o5, %psr
        nop; nop; nop
        rd      %wim, %o3
        wr      %o0, %o1, %wim
        nop; nop; nop
        rd      %wim, %o0
        wr      %o3, %wim
        nop; nop; nop
        wr      %o4, %psr
        nop; nop; nop
        retl
         nop
