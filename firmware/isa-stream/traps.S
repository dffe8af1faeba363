/*
 * stream_traps: synchronous traps handled by stream.inc's record_trap
 * (count in %g7, sum of tt in %g6, instruction skipped): Ticc taken and
 * untaken with register and immediate trap numbers, tag overflow,
 * division by zero, misaligned accesses and JMPL, UNIMP, RETT with ET=1,
 * and a window overflow/underflow from a trap-heavy recursion.
 */
#include "stream.inc"

        .global stream_start
stream_start:
        set     buf, %l0
        ta      1
        mov     0x7f, %o0
        ta      %o0 + 2                 /* (0x7f + 2) & 0x7f = 1 -> tt 0x81 */
        mov     0x10, %o1
        ta      %o0 + %o1               /* tt 0x8f */
        cmp     %g0, 1                  /* N=1, C=1 */
        te      5                       /* not taken */
        tne     6                       /* tt 0x86 */
        tcs     7                       /* tt 0x87 */
        tgu     8                       /* not taken */
        tl      9                       /* tt 0x89 */
        tvs     10                      /* not taken */

        /* tag overflow (taddcctv with tag bits), rd must stay */
        mov     0x55, %o2
        mov     1, %o3
        taddcctv %o3, 4, %o2
        set     0x7ffffffc, %o3
        tsubcctv %o3, -4, %o2
        taddcctv %o3, -4, %o4           /* no trap: 0x7ffffff8 */

        /* division by zero */
        wr      %g0, %y
        nop; nop; nop
        mov     0x66, %o5
        udiv    %o3, %g0, %o5
        sdivcc  %o3, 0, %o5

        /* alignment */
        ld      [%l0 + 2], %i0
        lduh    [%l0 + 1], %i1
        ldd     [%l0 + 4], %i2
        st      %o3, [%l0 + 1]
        sth     %o3, [%l0 + 3]
        std     %o2, [%l0 + 12]
        swap    [%l0 + 2], %i4
        set     40f + 2, %i5
        jmpl    %i5, %g0                /* trap, skipped: falls through */
         nop
        add     %o5, 1, %o5
40:
        /* illegal instructions */
        unimp   0x1234
        rett    %o7 + 8                 /* ET=1: illegal_instruction */

        /* recursion with a trap at each level */
        mov     12, %o0
        call    rec
         nop
        STREAM_EXIT

rec:    save    %sp, -96, %sp
        ta      0x20
        cmp     %i0, 0
        be      1f
         nop
        call    rec
         sub    %i0, 1, %o0
        add     %o0, %i0, %i0
1:      ret
         restore

        .data
        .align  8
buf:    .word   1, 2, 3, 4, 5, 6, 7, 8
