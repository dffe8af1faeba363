/*
 * stream_memory: loads of every size with sign/zero extension, stores,
 * LDD/STD, LDSTUB, SWAP and the ASI 0xB forms on a data buffer.
 */
#include "stream.inc"

        .global stream_start
stream_start:
        set     src, %l0
        set     dst, %l1
        ldub    [%l0 + 0], %o0
        ldsb    [%l0 + 0], %o1
        ldsb    [%l0 + 1], %o2
        lduh    [%l0 + 0], %o3
        ldsh    [%l0 + 0], %o4
        ldsh    [%l0 + 2], %o5
        ld      [%l0 + 4], %i0
        mov     8, %g1
        ld      [%l0 + %g1], %i1
        ldd     [%l0 + 8], %i2
        ldsb    [%l0 + 11], %i4
        lduh    [%l0 + 14], %i5

        /* copy src to dst with different sizes, then read back */
        ldd     [%l0 + 0], %l2
        std     %l2, [%l1 + 0]
        ld      [%l0 + 8], %l4
        st      %l4, [%l1 + 8]
        lduh    [%l0 + 12], %l5
        sth     %l5, [%l1 + 12]
        ldub    [%l0 + 14], %l6
        stb     %l6, [%l1 + 14]
        ldub    [%l0 + 15], %l6
        stb     %l6, [%l1 + 15]
        ldd     [%l1 + 8], %o0
        ld      [%l1 + 12], %o2
        std     %g0, [%l1 + 16]         /* stores %g0 and %g1 */
        ldd     [%l1 + 16], %o4

        /* byte/halfword stores into a word */
        st      %g0, [%l1 + 24]
        mov     0x1ab, %g2
        stb     %g2, [%l1 + 25]
        sethi   %hi(0x12345400), %g3
        sth     %g3, [%l1 + 26]
        ld      [%l1 + 24], %o3

        /* atomics */
        ldstub  [%l1 + 25], %i0
        ldstub  [%l1 + 25], %i1
        ld      [%l1 + 24], %i2
        set     0xa5a5a5a5, %i3
        swap    [%l1 + 24], %i3
        ld      [%l1 + 24], %i4

        /* alternate space 0xb (supervisor data) */
        add     %l1, 32, %g2
        set     0x31415926, %g3
        sta     %g3, [%g2] 0xb
        lda     [%g2] 0xb, %i5
        lduba   [%g2] 0xb, %l2
        ldsha   [%g2] 0xb, %l3
        mov     0x80, %g3
        stba    %g3, [%g2] 0xb
        lda     [%g2] 0xb, %l4
        ldda    [%l1] 0xb, %l6
        swapa   [%g2] 0xb, %l5

        /* sum a table with a loop */
        mov     0, %g3
        mov     0, %g1
1:      ldub    [%l0 + %g1], %g2
        add     %g3, %g2, %g3
        add     %g1, 1, %g1
        cmp     %g1, 16
        bl      1b
         nop
        STREAM_EXIT

        .data
        .align  8
src:    .byte   0x80, 0x7f, 0xff, 0x01, 0x12, 0x34, 0x56, 0x78
        .byte   0xfe, 0xdc, 0xba, 0x98, 0x00, 0x80, 0x00, 0x01
        .align  8
dst:    .skip   48
