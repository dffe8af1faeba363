/* Never ends: for the --max-time test. */
        .section .text.start, "ax"
        .global _start
_start: ba      _start
        nop
