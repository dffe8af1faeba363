/* Writes COUNT times to an empty APB slot (slot 14, 0x80000E00: nothing
   there, the bridge drops the store and logs a guest error each time), to
   a different offset each time, then exits 0. The log must stay bounded
   (cli.guest.bad_accesses). */
#ifndef COUNT
#define COUNT 1000000
#endif
#define EMPTY   0x80000E00

        .section .text.start, "ax"
        .global _start
_start:
        set     EMPTY, %g1
        set     COUNT, %g2
        mov     0, %g3
loop:   and     %g3, 0xfc, %g4          /* offsets 0x00..0xfc */
        st      %g3, [%g1 + %g4]
        inc     %g3
        cmp     %g3, %g2
        bne     loop
        nop
        mov     0, %o0
        ta      0
        nop
