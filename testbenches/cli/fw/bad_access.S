/* Loads from an address no AHB slave decodes, with traps disabled: the AHB
   ERROR becomes data_access_exception, and with ET = 0 error mode. */
        .section .text.start, "ax"
        .global _start
_start: set     0xa0000000, %g1
        ld      [%g1], %g2
        nop
