/* Tiny SPARC V8 image for the ELF loader tests: code, initialised data,
   zero-initialised data, and FUNC/OBJECT/NOTYPE symbols. */
        .text
        .global _start
        .type   _start, #function
_start:
        sethi   %hi(counter), %g1
        ld      [%g1 + %lo(counter)], %g2
local_label:
        ta      0
        nop
        .size   _start, . - _start

        .data
        .global counter
        .type   counter, #object
        .size   counter, 4
counter:
        .word   0x12345678

        .bss
        .global buf
        .type   buf, #object
        .size   buf, 64
buf:
        .skip   64

        /* Region names (firmware/bsp/region.h REGION_NAME): 64-byte records,
         * not allocated. */
        .section .l3vp.regions,"",@progbits
        .word   7
        .asciz  "phase_a"
        .fill   52, 1, 0
        .word   0x50480001
        .asciz  "net.driver"
        .fill   49, 1, 0
