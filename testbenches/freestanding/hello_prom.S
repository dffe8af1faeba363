/*
 * hello_prom.S - the BSP program hello as a PROM image for --boot reset: a
 * 3-instruction stub at the reset address 0 jumps to hello's unchanged RAM
 * image (its loadable bytes, included as a binary at 0x40000000), whose crt0
 * sets up everything itself. The ELF entry stays 0x40000000, so the default
 * boot mode is still "loader".
 */
        .section .note.GNU-stack, "", @progbits
        .section .prom, "ax"
        .global prom_reset
prom_reset:
        sethi   %hi(0x40000000), %g1
        jmp     %g1 + %lo(0x40000000)
         nop

        .section .text.start, "ax"
        .global _start
_start:
        .incbin "hello.bin"
