/* Stores COUNT distinct region ids to the region marker (BEGIN id, END id
   for id = 1..COUNT), then exits 0. The simulator must account only the
   first Regions::kMaxRegions ids and count the marks of the rest, in bounded
   memory and with one log line (cli.guest.many_regions). */
#ifndef COUNT
#define COUNT 1000000
#endif
#define MARKER  0x80000C00

        .section .text.start, "ax"
        .global _start
_start:
        set     MARKER, %g1
        set     COUNT, %g2
        mov     1, %g3
loop:   st      %g3, [%g1 + 0]          /* REGION_BEGIN(id) */
        st      %g3, [%g1 + 4]          /* REGION_END(id) */
        cmp     %g3, %g2
        bne     loop
        inc     %g3
        mov     0, %o0
        ta      0
        nop
