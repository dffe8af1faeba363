/*
 * start.S - the whole start-up of the freestanding C programs: what a
 * program that trusts its boot loader does. It keeps the loader's %sp,
 * caches, UART and trap state as they are, zeroes .bss, calls main() and
 * stops with main's return value as the exit status (the leon3vp/QEMU exit
 * convention: status in %o0, PSR.ET = 0, "ta 0").
 */
        .section .note.GNU-stack, "", @progbits
        .section .text.start, "ax"
        .global _start
_start:
        set     __bss_start, %g2
        set     __bss_end, %g3
1:      cmp     %g2, %g3
        bgeu    2f
         nop
        st      %g0, [%g2]
        ba      1b
         add    %g2, 4, %g2
2:      call    main
         nop
        /* fall through: exit(%o0) */
        .global fs_exit
fs_exit:
        rd      %psr, %g1
        andn    %g1, 0x20, %g1          /* ET = 0 */
        wr      %g1, %psr
        nop; nop; nop
        ta      0
3:      ba      3b
         nop
