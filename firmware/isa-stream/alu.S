/*
 * stream_alu: arithmetic, logic, shifts and condition codes on a
 * pseudo-random sequence (32-bit xorshift), 48 rounds.
 */
#include "stream.inc"

        .global stream_start
stream_start:
        set     0x2545f491, %l0         /* xorshift state */
        set     0x9e3779b9, %l1         /* second operand stream */
        mov     48, %l7                 /* rounds */
        mov     0, %l6                  /* checksum */
1:
        /* xorshift32: x ^= x << 13; x ^= x >> 17; x ^= x << 5 */
        sll     %l0, 13, %o0
        xor     %l0, %o0, %l0
        srl     %l0, 17, %o0
        xor     %l0, %o0, %l0
        sll     %l0, 5, %o0
        xor     %l0, %o0, %l0
        add     %l1, %l0, %l1

        addcc   %l0, %l1, %o1
        addxcc  %o1, %l0, %o2
        addx    %o2, 7, %o3
        subcc   %l0, %l1, %o4
        subxcc  %o4, %l1, %o5
        subx    %o5, -9, %g1
        andcc   %l0, %l1, %g2
        andncc  %l0, %l1, %g3
        orcc    %g2, %g3, %l2
        orncc   %l0, %l1, %l3
        xorcc   %l2, %l3, %l4
        xnorcc  %l4, %l0, %l5
        and     %l1, 0x7ff, %i0
        andn    %l1, -16, %i1
        or      %i0, %i1, %i2
        orn     %i2, %l0, %i3
        xor     %i3, 0x555, %i4
        xnor    %i4, %l1, %i5
        sra     %l0, %l1, %o1           /* count = l1 & 31 */
        srl     %l1, %l0, %o2
        sll     %o1, %o2, %o3
        sra     %o3, 31, %o4
        taddcc  %l0, %l1, %o5
        tsubcc  %l1, %l0, %g1
        addcc   %l0, -1, %g0
        subcc   %g0, %l1, %g2
        subxcc  %g0, %g0, %g3           /* -C */
        addxcc  %g0, %g0, %o0           /* C */

        /* fold everything into the checksum, rotating it */
        add     %l6, %o1, %l6
        xor     %l6, %o2, %l6
        add     %l6, %o3, %l6
        xor     %l6, %o4, %l6
        add     %l6, %o5, %l6
        xor     %l6, %g1, %l6
        add     %l6, %g2, %l6
        xor     %l6, %g3, %l6
        add     %l6, %l2, %l6
        xor     %l6, %l3, %l6
        add     %l6, %l4, %l6
        xor     %l6, %l5, %l6
        add     %l6, %i5, %l6
        add     %l6, %o0, %l6
        sll     %l6, 3, %o0
        srl     %l6, 29, %o1
        or      %o0, %o1, %l6

        subcc   %l7, 1, %l7
        bne     1b
         nop

        /* condition-code corner cases */
        set     0x7fffffff, %o0
        addcc   %o0, 1, %o1             /* V=1 N=1 */
        set     0x80000000, %o2
        subcc   %o2, 1, %o3             /* V=1 */
        addcc   %o2, %o2, %o4           /* C=1 V=1 Z=1 */
        subcc   %g0, 1, %o5             /* C=1 N=1 */
        addxcc  %g0, 0, %i0             /* 1 */
        orcc    %g0, 0, %i1             /* Z=1 */
        sethi   %hi(0xfffffc00), %i2
        or      %i2, 0x3ff, %i2
        xnorcc  %i2, %g0, %i3           /* Z=1 */
        STREAM_EXIT
