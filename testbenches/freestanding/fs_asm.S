/*
 * fs_asm.S - a freestanding program in assembly only, for a boot loader's
 * state: no stack, no trap table, no UART set-up. Prints a greeting and the
 * sum 1 + 2 + ... + 100 in decimal, then exits 0.
 */
        .section .note.GNU-stack, "", @progbits
        .section .text.start, "ax"
        .global _start
_start:
        wr      %g0, %y                 /* udiv below divides %y:%o1 */
        set     0x80000100, %g7         /* APBUART */
        set     greeting, %o0
        call    puts_leaf
         nop
        /* %o1 = 1 + ... + 100 */
        clr     %o1
        mov     100, %o2
1:      add     %o1, %o2, %o1
        subcc   %o2, 1, %o2
        bne     1b
         nop
        /* decimal digits into digits[], least significant first */
        set     digits, %o3
        clr     %o4
2:      udiv    %o1, 10, %o5
        smul    %o5, 10, %g2
        sub     %o1, %g2, %g2
        add     %g2, '0', %g2
        stb     %g2, [%o3 + %o4]
        inc     %o4
        orcc    %o5, %g0, %o1
        bne     2b
         nop
        set     sum_is, %o0
        call    puts_leaf
         nop
3:      dec     %o4
        ldub    [%o3 + %o4], %g1
        call    putc_leaf
         nop
        tst     %o4
        bne     3b
         nop
        mov     '\n', %g1
        call    putc_leaf
         nop
        clr     %o0                     /* exit status 0 */
        rd      %psr, %g1
        andn    %g1, 0x20, %g1
        wr      %g1, %psr
        nop; nop; nop
        ta      0

/* putc_leaf: %g1 = character. Polls STATUS.TE, writes DATA. Uses %g3. */
putc_leaf:
        ld      [%g7 + 4], %g3
        btst    4, %g3
        be      putc_leaf
         nop
        retl
         st     %g1, [%g7]

/* puts_leaf: %o0 = string. Uses %g1, %g3, %g4 and %o0; calls putc_leaf
 * with its return address kept in %g4. */
puts_leaf:
        mov     %o7, %g4
1:      ldub    [%o0], %g1
        tst     %g1
        be      2f
         nop
        call    putc_leaf
         inc    %o0
        ba      1b
         nop
2:      jmp     %g4 + 8
         nop

        .section .rodata
greeting:
        .asciz  "fs_asm: assembly only, no stack, no set-up\n"
sum_is:
        .asciz  "fs_asm: 1 + 2 + ... + 100 = "
        .section .bss
digits: .skip   12
