/*
 * fs_notrap.S - traps with no trap table installed: the run must end in
 * error mode with leon3vp's "no trap handler" note (CMakeLists.txt,
 * fs.notrap.*). 16 nested SAVEs overflow the windows in the boot-loader
 * state (WIM = 2); in the reset state (WIM = 0) they do not, and the
 * misaligned load after them traps instead. With ENABLE_ET the program
 * turns traps on first: the overflow then jumps into the empty PROM at
 * TBR.TBA = 0 and the CPU stops there.
 */
        .section .note.GNU-stack, "", @progbits
        .section .text.start, "ax"
        .global _start
_start:
#ifdef ENABLE_ET
        rd      %psr, %g1               /* traps on, with no trap table */
        wr      %g1, 0x20, %psr
        nop; nop; nop
#endif
        mov     16, %g1
1:      save    %sp, -96, %sp
        subcc   %g1, 1, %g1
        bne     1b
         nop
        ld      [%sp + 2], %g1          /* mem_address_not_aligned */
        ta      0
