/* Enters power-down (%asr19) with nothing that could ever wake it: no
   device is programmed and traps stay disabled. Without a time limit
   leon3vp must end the run as "idle" (exit 5) instead of running forever. */
        .section .text.start, "ax"
        .global _start
_start: nop
        nop
        wr      %g0, %asr19
        ba      _start
        nop
