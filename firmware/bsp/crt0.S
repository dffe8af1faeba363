/*
 * crt0.S - LEON3 (SPARC V8) start-up code, trap table and trap entry.
 *
 * Contents:
 *   trap_table     256 entries x 4 instructions at the image start. Entry 0
 *                  (reset) is also the ELF entry point.
 *   _reset         puts the IU into a known state without relying on a boot
 *                  loader: PSR, WIM, TBR, Y, every window register, globals,
 *                  caches, stack, .bss; then bsp_init(), main(), exit().
 *   win_overflow / win_underflow
 *                  the classic one-invalid-window spill/fill handlers.
 *   trap_irq       interrupts: wake-only levels counted and returned from
 *                  in the trap window; the others go on to trap_generic.
 *   trap_generic   every other trap: makes the trap window usable, builds a
 *                  struct trap_frame on the stack, re-enables traps (PIL =
 *                  the interrupt level for interrupts) and calls the C
 *                  dispatcher trap_dispatch(frame). On return the frame's
 *                  pc/npc are used, so C handlers can skip an instruction.
 *   bsp_halt       the exit convention: status in %o0, ET=0, "ta 0".
 *
 * Register use in trap windows (set up by the table entry):
 *   %l0 = PSR at trap time, %l1 = PC, %l2 = nPC (hardware), %l3 = tt.
 */
#include "bsp_asm.h"

        .section .note.GNU-stack, "", @progbits

/* Rotate an 8-bit WIM value right/left by one (one window down/up). */
#define WIM_MASK ((1 << NWINDOWS) - 1)

/*
 * SPILL_PREV: in a window X that is marked invalid, store the window below
 * it (X-1, the oldest valid window) to that window's stack and move the
 * invalid mark to X-1. Clobbers %l4, %l5, %l7 of X (restores %g1).
 */
#define SPILL_PREV                                  \
        mov     %g1, %l7;                           \
        rd      %wim, %l4;                          \
        srl     %l4, 1, %g1;                        \
        sll     %l4, NWINDOWS - 1, %l5;             \
        or      %g1, %l5, %g1;                      \
        and     %g1, WIM_MASK, %g1;                 \
        save;                                       \
        wr      %g1, %wim;                          \
        std     %l0, [%sp + 0];                     \
        std     %l2, [%sp + 8];                     \
        std     %l4, [%sp + 16];                    \
        std     %l6, [%sp + 24];                    \
        std     %i0, [%sp + 32];                    \
        std     %i2, [%sp + 40];                    \
        std     %i4, [%sp + 48];                    \
        std     %i6, [%sp + 56];                    \
        restore;                                    \
        mov     %l7, %g1

/*
 * FILL_NEXT: in a valid window X whose caller window X+1 is marked invalid,
 * reload X+1 from its stack and move the invalid mark to X+2.
 * Clobbers %l4, %l5, %l7 of X (restores %g1).
 */
#define FILL_NEXT                                   \
        mov     %g1, %l7;                           \
        rd      %wim, %l4;                          \
        sll     %l4, 1, %g1;                        \
        srl     %l4, NWINDOWS - 1, %l5;             \
        or      %g1, %l5, %g1;                      \
        and     %g1, WIM_MASK, %g1;                 \
        wr      %g1, %wim;                          \
        nop; nop; nop;                              \
        restore;                                    \
        ldd     [%sp + 0], %l0;                     \
        ldd     [%sp + 8], %l2;                     \
        ldd     [%sp + 16], %l4;                    \
        ldd     [%sp + 24], %l6;                    \
        ldd     [%sp + 32], %i0;                    \
        ldd     [%sp + 40], %i2;                    \
        ldd     [%sp + 48], %i4;                    \
        ldd     [%sp + 56], %i6;                    \
        save;                                       \
        mov     %l7, %g1

/* ------------------------------------------------------------------ */
        .section .text.traptable, "ax"
        .align  4096
        .global trap_table, _start
trap_table:
_start:
        .set    ttn, 0
        .rept   256
        .if     ttn == 0
        sethi   %hi(_reset), %g1
        jmp     %g1 + %lo(_reset)
        nop
        nop
        .elseif ttn == 5
        sethi   %hi(win_overflow), %l4
        jmp     %l4 + %lo(win_overflow)
        rd      %psr, %l0
        nop
        .elseif ttn == 6
        sethi   %hi(win_underflow), %l4
        jmp     %l4 + %lo(win_underflow)
        rd      %psr, %l0
        nop
        .elseif ttn >= 0x11 && ttn <= 0x1f
        mov     ttn, %l3
        sethi   %hi(trap_irq), %l4
        jmp     %l4 + %lo(trap_irq)
        rd      %psr, %l0
        .else
        mov     ttn, %l3
        sethi   %hi(trap_generic), %l4
        jmp     %l4 + %lo(trap_generic)
        rd      %psr, %l0
        .endif
        .set    ttn, ttn + 1
        .endr

/* ------------------------------------------------------------------ */
        .section .text.start, "ax"
        .align  4
        .global _reset
_reset:
        /* Supervisor, traps off, PIL 15, CWP 0, icc clear, EF 0. */
        wr      %g0, PSR_S | PSR_PS | PSR_PIL_MASK, %psr
        nop; nop; nop
        wr      %g0, %wim               /* no invalid window while clearing */
        nop; nop; nop
        set     trap_table, %g1
        wr      %g1, %tbr
        wr      %g0, %y
        nop; nop; nop

        /* Clear %l0-%l7 and %o0-%o7 of every window (ins are the outs of
         * the neighbour), ending back in window 0. */
        mov     NWINDOWS, %g1
1:      mov     %g0, %l0
        mov     %g0, %l1
        mov     %g0, %l2
        mov     %g0, %l3
        mov     %g0, %l4
        mov     %g0, %l5
        mov     %g0, %l6
        mov     %g0, %l7
        mov     %g0, %o0
        mov     %g0, %o1
        mov     %g0, %o2
        mov     %g0, %o3
        mov     %g0, %o4
        mov     %g0, %o5
        mov     %g0, %o6
        mov     %g0, %o7
        subcc   %g1, 1, %g1
        bne     1b
         save   %g0, %g0, %g0           /* 8 saves: CWP wraps back to 0 */

        mov     %g0, %g2
        mov     %g0, %g3
        mov     %g0, %g4
        mov     %g0, %g5
        mov     %g0, %g6
        mov     %g0, %g7

        /* Window 1 (above window 0) is the invalid one. */
        mov     1 << 1, %g1
        wr      %g1, %wim
        nop; nop; nop

        /* Enable caches: FLUSH invalidates both, then CCR = DS|IB|DCS|ICS. */
        set     trap_table, %g1
        flush   %g1
        set     0x0081000f, %g1
        sta     %g1, [%g0] 2

        /* Stack at the top of RAM, one minimal frame reserved. */
        set     __stack_top - 96, %sp
        mov     %g0, %fp

        /* Zero .bss (word-aligned by the linker script). */
        set     __bss_start, %g1
        set     __bss_end, %g2
2:      cmp     %g1, %g2
        bgeu    3f
         nop
        st      %g0, [%g1]
        ba      2b
         add    %g1, 4, %g1
3:
        /* Traps on, interrupts still masked by PIL 15 until bsp_init. */
        wr      %g0, PSR_S | PSR_PS | PSR_PIL_MASK | PSR_ET, %psr
        nop; nop; nop

        call    bsp_init
         nop
        call    main
         nop
        call    exit
         nop
4:      ba      4b
         nop

/* ------------------------------------------------------------------ */
/* bsp_halt(status): stop the simulation, status in %o0. */
        .text
        .align  4
        .global bsp_halt
bsp_halt:
        rd      %psr, %g1
        andn    %g1, PSR_ET, %g1
        wr      %g1, %psr
        nop; nop; nop
        ta      0
        nop
1:      ba      1b
         nop

/* ------------------------------------------------------------------ */
/* The window and generic trap handlers run on every interrupt: their own
 * section, which leon3.ld places with the other hot code (the I-cache
 * note there). */
        .section .text.hot.trap, "ax"
/* tt 5: SAVE found the next window invalid. We are in that window. */
        .align  4
win_overflow:
        SPILL_PREV
        sethi   %hi(bsp_window_overflows), %l4
        ld      [%l4 + %lo(bsp_window_overflows)], %l5
        add     %l5, 1, %l5
        st      %l5, [%l4 + %lo(bsp_window_overflows)]
        jmp     %l1                     /* re-execute the SAVE */
         rett   %l2

/* tt 6: RESTORE (or RETT) found the window above invalid. We are two
 * windows below it: restore twice, reload it, save twice. */
        .align  4
win_underflow:
        mov     %g1, %l7
        rd      %wim, %l4
        sll     %l4, 1, %g1
        srl     %l4, NWINDOWS - 1, %l5
        or      %g1, %l5, %g1
        and     %g1, WIM_MASK, %g1
        wr      %g1, %wim
        nop; nop; nop
        restore
        restore
        ldd     [%sp + 0], %l0
        ldd     [%sp + 8], %l2
        ldd     [%sp + 16], %l4
        ldd     [%sp + 24], %l6
        ldd     [%sp + 32], %i0
        ldd     [%sp + 40], %i2
        ldd     [%sp + 48], %i4
        ldd     [%sp + 56], %i6
        save
        save
        mov     %l7, %g1
        sethi   %hi(bsp_window_underflows), %l4
        ld      [%l4 + %lo(bsp_window_underflows)], %l5
        add     %l5, 1, %l5
        st      %l5, [%l4 + %lo(bsp_window_underflows)]
        jmp     %l1                     /* re-execute the RESTORE */
         rett   %l2

/* ------------------------------------------------------------------ */
/* Interrupts (tt 0x11..0x1f). A level marked wake-only (irq_set_wake():
 * bit 16 + level of bsp_irq_wake_mask, i.e. bit tt & 31) is only counted in
 * bsp_irq_wakes[level] and returns at once: its purpose is to end a
 * power-down (the GRETH's: the main loop reads the MAC's status itself).
 * It uses only the trap window's locals, which are free even when that
 * window is the invalid one, and calls nothing, so no window is spilled or
 * filled and RETT returns to the interrupted window, which is valid. About
 * 20 instructions instead of trap_generic's frame, PSR sequences and C
 * dispatch (docs/firmware.md "The fast path"). Other
 * levels go on to trap_generic with %l0-%l3 as the table entry set them. */
        .align  4
trap_irq:
        sethi   %hi(bsp_irq_wake_mask), %l4
        ld      [%l4 + %lo(bsp_irq_wake_mask)], %l4
        srl     %l4, %l3, %l4           /* shift count = tt & 31 */
        btst    1, %l4
        bz      trap_generic
         and    %l3, 0xf, %l5           /* level */
        sll     %l5, 2, %l5
        sethi   %hi(bsp_irq_wakes), %l4
        or      %l4, %lo(bsp_irq_wakes), %l4
        ld      [%l4 + %l5], %l6
        add     %l6, 1, %l6
        st      %l6, [%l4 + %l5]
        wr      %l0, %psr               /* the interrupted icc back (btst) */
        nop; nop; nop
        jmp     %l1
         rett   %l2

/* ------------------------------------------------------------------ */
/* All other traps and interrupts: call trap_dispatch(struct trap_frame *). */
        .align  4
trap_generic:
        /* 1. If the trap window itself is the invalid one, spill below it. */
        rd      %wim, %l4
        srl     %l4, %l0, %l4           /* shift count = CWP (psr[4:0]) */
        btst    1, %l4
        bz      1f
         nop
        SPILL_PREV
1:
        /* 2. Frame below the interrupted code's stack pointer. */
        sub     %fp, TRAP_FRAME_SIZE, %sp
        st      %l0, [%sp + TF_PSR]
        st      %l1, [%sp + TF_PC]
        st      %l2, [%sp + TF_NPC]
        st      %l3, [%sp + TF_TT]
        rd      %y, %l4
        st      %l4, [%sp + TF_Y]
        st      %g1, [%sp + TF_G1]
        st      %g2, [%sp + TF_G2]
        st      %g3, [%sp + TF_G3]
        st      %g4, [%sp + TF_G4]
        st      %g5, [%sp + TF_G5]
        st      %g6, [%sp + TF_G6]
        st      %g7, [%sp + TF_G7]

        /* 3. Interrupts (tt 0x11..0x1f) run with PIL = their level so that
         * only higher levels nest; other traps keep the interrupted PIL. */
        mov     %l0, %l5
        sub     %l3, 0x11, %l4
        cmp     %l4, 14
        bgu     2f
         and    %l3, 0xf, %l4
        sll     %l4, 8, %l4
        andn    %l0, PSR_PIL_MASK, %l5
        or      %l5, %l4, %l5
        wr      %l5, %psr               /* new PIL first, ET still 0 */
        nop; nop; nop
2:      wr      %l5, PSR_ET, %psr       /* (wr xors) then ET = 1 */
        nop; nop; nop

        call    trap_dispatch
         add    %sp, TF_OFFSET, %o0

        /* 4. Traps off again (also back to the interrupted PIL). */
        wr      %l0, %psr
        nop; nop; nop
        ld      [%sp + TF_Y], %l4
        wr      %l4, %y
        ld      [%sp + TF_G1], %g1
        ld      [%sp + TF_G2], %g2
        ld      [%sp + TF_G3], %g3
        ld      [%sp + TF_G4], %g4
        ld      [%sp + TF_G5], %g5
        ld      [%sp + TF_G6], %g6
        ld      [%sp + TF_G7], %g7
        ld      [%sp + TF_PC], %l1
        ld      [%sp + TF_NPC], %l2

        /* 5. RETT goes to window CWP+1: reload it if it was spilled. */
        and     %l0, PSR_CWP_MASK, %l5
        add     %l5, 1, %l5
        cmp     %l5, NWINDOWS
        be,a    3f
         mov    0, %l5
3:      rd      %wim, %l4
        srl     %l4, %l5, %l4
        btst    1, %l4
        bz      4f
         nop
        FILL_NEXT
4:
        wr      %l0, %psr               /* restore the interrupted icc */
        nop; nop; nop
        jmp     %l1
         rett   %l2
