/* A minimal per-run parameter block (struct fw_params of
   firmware/drivers/greth.h: magic "NETP", version 2, size 60, big-endian)
   and a program that exits with (window + count + port) & 0xff: the
   status shows what leon3vp wrote into the block before the start.
   MAGIC / SIZE can be changed to build broken blocks. */
#ifndef MAGIC
#define MAGIC 0x4e455450
#endif
#ifndef SIZE
#define SIZE 60
#endif

        .section .text.start, "ax"
        .global _start
_start:
        set     fw_params, %g1
        ld      [%g1 + 32], %o0         /* window */
        ld      [%g1 + 36], %g2         /* count */
        add     %o0, %g2, %o0
        lduh    [%g1 + 30], %g2         /* port (16 bit) */
        add     %o0, %g2, %o0
        and     %o0, 0xff, %o0
        ta      0
        nop

        .section .data
        .align  8
        .global fw_params
        .type   fw_params, #object
        .size   fw_params, 60
fw_params:
        .word   MAGIC, 2, SIZE
        .word   0, 0, 0                 /* board_ip, netmask, peer_ip */
        .byte   0, 0, 0, 0, 0, 0        /* mac */
        .half   0                       /* port */
        .word   3                       /* window */
        .word   0, 0, 0, 0              /* count, bytes, idle_ms, max_ms */
        .word   4                       /* flags */
        .word   0                       /* chksum */
