/*
 * fs_traps.S - the trap table of fs_recurse: what a program that installs its
 * own window handling needs, and nothing else (8 register windows, as on the
 * GR-XC3S-1500 template and QEMU leon3_generic).
 *
 *   tt 0x05 window_overflow   spill the oldest valid window, move WIM down
 *   tt 0x06 window_underflow  reload the window being returned into, move WIM up
 *   any other trap            stop with exit status 90 (traps are off in a
 *                             trap handler: "ta 0" is the exit convention)
 *
 * fs_install_traps() points TBR at the table and turns traps on with PIL 15
 * (no interrupts); WIM stays as the boot loader left it (any single invalid
 * window works with these handlers).
 */
#define NWIN 8
        .section .note.GNU-stack, "", @progbits

        .section .traptable, "ax"
        .align  4096
fs_trap_table:
        .set    n, 0
        .rept   256
        .if     n == 5
        ba      fs_overflow
         rd     %psr, %l0
        nop
        nop
        .elseif n == 6
        ba      fs_underflow
         rd     %psr, %l0
        nop
        nop
        .else
        ba      fs_bad_trap
         mov    n, %l3
        nop
        nop
        .endif
        .set    n, n + 1
        .endr

        .text
        .align  4
        .global fs_install_traps
fs_install_traps:
        set     fs_trap_table, %o0
        wr      %o0, %tbr
        rd      %psr, %o1
        or      %o1, 0xf20, %o1         /* PIL = 15, ET = 1 */
        wr      %o1, %psr
        nop; nop; nop
        retl
         nop

/* We are in the invalid window W (a SAVE from W+1 trapped). Save W-1, the
 * oldest valid window, to its own stack and make it the invalid one. */
fs_overflow:
        mov     %g1, %l7
        rd      %wim, %l4
        srl     %l4, 1, %g1             /* new WIM = WIM rotated right by one */
        sll     %l4, NWIN - 1, %l5
        or      %g1, %l5, %g1
        and     %g1, (1 << NWIN) - 1, %g1
        save                            /* to W-1: still valid */
        wr      %g1, %wim
        std     %l0, [%sp + 0]
        std     %l2, [%sp + 8]
        std     %l4, [%sp + 16]
        std     %l6, [%sp + 24]
        std     %i0, [%sp + 32]
        std     %i2, [%sp + 40]
        std     %i4, [%sp + 48]
        std     %i6, [%sp + 56]
        restore                         /* back to W, valid now */
        mov     %l7, %g1
        sethi   %hi(fs_overflows), %l4
        ld      [%l4 + %lo(fs_overflows)], %l5
        inc     %l5
        st      %l5, [%l4 + %lo(fs_overflows)]
        jmp     %l1                     /* execute the SAVE again */
         rett   %l2

/* A RESTORE in window X found X+1 invalid; we are in X-1. Make X+2 the
 * invalid window, reload X+1 from its stack (its %sp is X's %fp). */
fs_underflow:
        mov     %g1, %l7
        rd      %wim, %l4
        sll     %l4, 1, %g1             /* new WIM = WIM rotated left by one */
        srl     %l4, NWIN - 1, %l5
        or      %g1, %l5, %g1
        and     %g1, (1 << NWIN) - 1, %g1
        wr      %g1, %wim
        nop; nop; nop
        restore                         /* to X */
        restore                         /* to X+1 */
        ldd     [%sp + 0], %l0
        ldd     [%sp + 8], %l2
        ldd     [%sp + 16], %l4
        ldd     [%sp + 24], %l6
        ldd     [%sp + 32], %i0
        ldd     [%sp + 40], %i2
        ldd     [%sp + 48], %i4
        ldd     [%sp + 56], %i6
        save
        save                            /* back to X-1 */
        mov     %l7, %g1
        sethi   %hi(fs_underflows), %l4
        ld      [%l4 + %lo(fs_underflows)], %l5
        inc     %l5
        st      %l5, [%l4 + %lo(fs_underflows)]
        jmp     %l1                     /* execute the RESTORE again */
         rett   %l2

fs_bad_trap:
        mov     90, %o0
        ta      0
1:      ba      1b
         nop

        .section .bss
        .align  4
        .global fs_overflows, fs_underflows
fs_overflows:   .skip 4
fs_underflows:  .skip 4
