/*
 * fs_notrap.S - traps with no trap table installed: the run must end in
 * error mode with leon3vp's "no trap handler" note (CMakeLists.txt,
 * fs.notrap.*). 16 nested SAVEs overflow the windows in the boot-loader
 * state (WIM = 2); in the reset state (WIM = 0) they do not, and the
 * misaligned load after them traps instead.
 */
        .section .note.GNU-stack, "", @progbits
        .section .text.start, "ax"
        .global _start
_start:
        mov     16, %g1
1:      save    %sp, -96, %sp
        subcc   %g1, 1, %g1
        bne     1b
         nop
        ld      [%sp + 2], %g1          /* mem_address_not_aligned */
        ta      0
