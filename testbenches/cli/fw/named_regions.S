/* Enters regions 1, 2 and 7 once each (BEGIN id, END id) and exits 0.
   Regions 1 and 7 are named with REGION_NAME records (firmware/bsp/region.h:
   64 bytes, a big-endian id and a NUL-terminated name, in the non-allocated
   section .l3vp.regions); region 2 has no name. The --profile region table
   must show the names (cli.profile.region_names). */
#define MARKER  0x80000C00

        .section .text.start, "ax"
        .global _start
_start:
        set     MARKER, %g1
        mov     1, %g3
        st      %g3, [%g1 + 0]          /* REGION_BEGIN(1) */
        st      %g3, [%g1 + 4]          /* REGION_END(1) */
        mov     2, %g3
        st      %g3, [%g1 + 0]
        st      %g3, [%g1 + 4]
        mov     7, %g3
        st      %g3, [%g1 + 0]
        st      %g3, [%g1 + 4]
        mov     0, %o0
        ta      0
        nop

        .section .l3vp.regions, ""
        .align  4
        .word   1
name1:  .asciz  "alpha.loop"
        .skip   60 - (. - name1)
        .word   7
name7:  .asciz  "omega_7"
        .skip   60 - (. - name7)
