/*
 * stream_branch: every Bicc condition, with and without annul, taken and
 * not taken, over condition codes produced by compares of value pairs;
 * CALL, JMPL and a DCTI couple of two unconditional transfers.
 */
#include "stream.inc"

/* For one cond: %l5 counts executed delay slots, %l6 taken branches. */
#define BR(cond)                                \
        b##cond 1f;                             \
         add    %l5, 1, %l5;                    \
        ba      2f;                             \
         nop;                                   \
1:      add     %l6, 1, %l6;                    \
2:      b##cond,a 3f;                           \
         add    %l5, 16, %l5;                   \
        ba      4f;                             \
         nop;                                   \
3:      add     %l6, 16, %l6;                   \
4:

        .global stream_start
stream_start:
        set     values, %l0
        mov     0, %l1                  /* index */
        mov     0, %l5
        mov     0, %l6
10:     sll     %l1, 2, %o0
        ld      [%l0 + %o0], %o1
        add     %o0, 4, %o0
        and     %o0, 31, %o0
        ld      [%l0 + %o0], %o2
        cmp     %o1, %o2
        BR(n)
        BR(e)
        BR(le)
        BR(l)
        BR(leu)
        BR(cs)
        BR(neg)
        BR(vs)
        BR(a)
        BR(ne)
        BR(g)
        BR(ge)
        BR(gu)
        BR(cc)
        BR(pos)
        BR(vc)
        add     %l1, 1, %l1
        cmp     %l1, 8
        bl      10b
         nop

        /* CALL / JMPL */
        call    sub1
         mov    3, %o0
        mov     %o0, %l2
        set     sub1, %l3
        jmpl    %l3, %o7
         mov    5, %o0
        add     %l2, %o0, %l2
        set     20f, %l3
        jmpl    %l3 + 4, %l4            /* skip one word, %l4 = this pc */
         add    %l2, 1, %l2
20:     add     %l2, 100, %l2           /* skipped */
        add     %l2, 1000, %l2

        /* DCTI couple: ba followed by ba in its delay slot executes the
         * first target's instruction, then continues at the second. */
        ba      30f
         ba     31f
        add     %l2, 7, %l2             /* skipped */
30:     add     %l2, 2000, %l2          /* executed once */
        add     %l2, 3000, %l2          /* skipped */
31:     add     %l2, 4000, %l2
        STREAM_EXIT

sub1:   add     %o0, %o0, %o1
        retl
         add    %o0, %o1, %o0

        .data
        .align  4
values: .word   0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x80000001, 5, 0xfffffffb
