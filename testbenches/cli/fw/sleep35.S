/* Sleeps 35 s of simulated time and exits with status 7: GPTIMER timer 1
   (1 MHz ticks) fires once after 35 000 000 ticks (IRQ 8 through IRQMP)
   and wakes the powered-down CPU (ET stays 0: it just continues). The
   idle time costs no host time; the run is longer than the old default
   limit of 10 s, so it checks that there is no default limit. */
#define IRQMP   0x80000200
#define GPT     0x80000300
        .section .text.start, "ax"
        .global _start
_start:
        set     IRQMP, %g1
        set     1 << 8, %g2
        st      %g2, [%g1 + 0x40]       /* PIMASK0: unmask IRQ 8 */
        set     GPT, %g1
        mov     39, %g2
        st      %g2, [%g1 + 0x04]       /* SRELOAD: 1 MHz tick at 40 MHz */
        set     35000000 - 1, %g2
        st      %g2, [%g1 + 0x14]       /* TRLDVAL1 */
        mov     0xd, %g2
        st      %g2, [%g1 + 0x18]       /* TCTRL1: EN | LD | IE, no restart */
        wr      %g0, %asr19             /* power-down until IRQ 8 */
        nop
        mov     7, %o0
        ta      0                       /* ET = 0: exit with %o0 */
        nop
