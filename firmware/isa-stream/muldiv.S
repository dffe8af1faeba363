/*
 * stream_muldiv: UMUL/SMUL(cc), MULSCC (a full 32-step multiply),
 * UDIV/SDIV(cc) including overflow saturation, and Y reads/writes.
 */
#include "stream.inc"

        .global stream_start
stream_start:
        set     operands, %l0
        mov     0, %l1
1:      sll     %l1, 2, %g1
        ld      [%l0 + %g1], %o0
        add     %g1, 12, %g1
        and     %g1, 31, %g1
        ld      [%l0 + %g1], %o1
        umul    %o0, %o1, %o2
        rd      %y, %o3
        smulcc  %o0, %o1, %o4
        rd      %y, %o5
        umulcc  %o0, 13, %i0
        smul    %o1, -7, %i1
        rd      %y, %i2
        /* divide y:rs1 by rs2 (y from the multiply) */
        orcc    %o1, %g0, %g0
        be      2f                      /* skip divide by zero */
         nop
        udivcc  %o2, %o1, %i3
        sdivcc  %o2, %o1, %i4
        wr      %g0, %y
        nop; nop; nop
        udiv    %o0, %o1, %i5
        sdiv    %o0, %o1, %l2
2:      add     %l1, 1, %l1
        cmp     %l1, 8
        bl      1b
         nop

        /* saturation cases */
        wr      %g0, 1, %y
        nop; nop; nop
        udivcc  %g0, 1, %l3             /* 2^32 / 1 -> 0xffffffff, V */
        set     0x80000000, %g1
        wr      %g0, -1, %y
        nop; nop; nop
        sdivcc  %g1, -1, %l4            /* 2^31 -> 0x7fffffff, V */
        wr      %g0, 0x40, %y
        nop; nop; nop
        sdivcc  %g0, 2, %l5             /* positive overflow */
        wr      %g0, -64, %y
        nop; nop; nop
        sdivcc  %g0, 2, %l6             /* negative overflow -> 0x80000000 */
        rd      %y, %l7                 /* Y not written by divide */

        /* 32-step MULSCC multiply of 0x12345 by 0x6789a */
        set     0x6789a, %g1
        wr      %g1, %y
        set     0x12345, %g2
        andcc   %g0, %g0, %g3
        nop; nop
        .rept   32
        mulscc  %g3, %g2, %g3
        .endr
        mulscc  %g3, %g0, %g3
        rd      %y, %g2
        STREAM_EXIT

        .data
        .align  4
operands:
        .word   0, 1, 7, 0xffffffff, 0x80000000, 0x7fffffff, 0x12345678, 0xfffffffd
