/* Prints a greeting on APBUART #1 and exits with EXIT_CODE through the
   leon3vp convention (ta 0 with traps disabled -> error mode tt 0x80, exit
   status = %o0). Runs from the reset state (ET = 0, supervisor). */
#ifndef EXIT_CODE
#define EXIT_CODE 0
#endif
#define UART    0x80000100
#define DATA    0x00
#define STATUS  0x04
#define CTRL    0x08
#define SCALER  0x0c
#define ST_TS   0x002
#define ST_TE   0x004
#define ST_TF   0x200

        .section .text.start, "ax"
        .global _start
_start:
        set     UART, %g1
        mov     42, %g2                 /* 115200 baud at 40 MHz */
        st      %g2, [%g1 + SCALER]
        mov     3, %g2                  /* RE | TE */
        st      %g2, [%g1 + CTRL]
        set     msg, %g3
next:   ldub    [%g3], %g4
        cmp     %g4, 0
        be      drain
        nop
full:   ld      [%g1 + STATUS], %g5     /* wait while the TX FIFO is full */
        andcc   %g5, ST_TF, %g0
        bne     full
        nop
        st      %g4, [%g1 + DATA]
        ba      next
        inc     %g3
drain:  ld      [%g1 + STATUS], %g5     /* wait until FIFO and shifter are empty */
        and     %g5, ST_TS | ST_TE, %g5
        cmp     %g5, ST_TS | ST_TE
        bne     drain
        nop
        mov     EXIT_CODE, %o0
        ta      0
        nop

        .section .rodata
msg:    .asciz  "Hello, LEON3!\n"
