/* Determinism workload: GPTIMER timer 1 interrupts every 100 us (IRQ 8
   through IRQMP) while the main loop alternates power-down (%asr19) with
   busy work that polls the timer counter. Prints one '.' per interrupt and
   exits with a checksum of every counter value it read, so any change in
   when the CPU observes device state changes the output, the exit status
   or the cycle counts. */
#define UART    0x80000100
#define IRQMP   0x80000200
#define GPT     0x80000300
#define NIRQ    20

        .section .text.start, "ax"
        .global _start
_start:
        set     traptable, %g1
        wr      %g1, %tbr
        set     UART, %g1
        mov     3, %g2
        st      %g2, [%g1 + 0x08]       /* UART: RE | TE */
        set     IRQMP, %g1
        set     1 << 8, %g2
        st      %g2, [%g1 + 0x40]       /* PIMASK0: unmask IRQ 8 */
        set     GPT, %g1
        mov     39, %g2
        st      %g2, [%g1 + 0x04]       /* SRELOAD: 1 MHz tick */
        mov     99, %g2
        st      %g2, [%g1 + 0x14]       /* TRLDVAL1: 100 ticks */
        mov     0xf, %g2
        st      %g2, [%g1 + 0x18]       /* TCTRL1: EN | RS | LD | IE */
        clr     %g6                     /* interrupts taken */
        clr     %g7                     /* checksum */
        rd      %psr, %g2
        andn    %g2, 0xf00, %g2         /* PIL = 0 */
        or      %g2, 0x20, %g2          /* ET = 1 */
        wr      %g2, %psr
        nop
        nop
        nop
loop:   cmp     %g6, NIRQ
        bge     done
        nop
        andcc   %g6, 1, %g0             /* odd rounds: sleep, even: poll */
        be      busy
        nop
        wr      %g0, %asr19             /* power-down until the interrupt */
        ba      loop
        nop
busy:   mov     %g6, %g5
spin:   ld      [%g1 + 0x10], %g3       /* TCNTVAL1 */
        add     %g7, %g3, %g7
        sll     %g7, 1, %g4
        srl     %g7, 31, %g7
        or      %g4, %g7, %g7           /* rotate left */
        cmp     %g5, %g6                /* until the next interrupt */
        be      spin
        nop
        ba      loop
        nop
done:   rd      %psr, %g2
        andn    %g2, 0x20, %g2          /* ET = 0 */
        wr      %g2, %psr
        nop
        nop
        nop
        and     %g7, 0xff, %o0
        ta      0
        nop

/* Interrupt level 8 handler: acknowledge the timer (IP is write-1-to-clear;
   keep EN | RS | IE), count, print '.', return to the interrupted code. */
irq8:   mov     0x1b, %l3
        st      %l3, [%g1 + 0x18]
        inc     %g6
        set     UART, %l4
        mov     '.', %l3
        st      %l3, [%l4]
        jmp     %l1
        rett    %l2

/* Trap table: everything but interrupt level 8 halts (unimp words while
   ET = 0 -> error mode with tt = illegal_instruction). */
        .section .traptable, "ax"
traptable:
        .skip   0x18 * 16
        ba      irq8
        nop
        nop
        nop
        .skip   (256 - 0x19) * 16
