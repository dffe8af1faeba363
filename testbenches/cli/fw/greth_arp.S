/* GRETH smoke test (APB slot 13 at 0x80000D00, AHB master 4).
   One TX descriptor holds an ARP request "who has 192.168.0.55, tell
   192.168.0.53" from 02:00:00:00:00:53; one RX descriptor waits for the
   answer. Caches and snooping are on (CCR = 0x0081000F, as crt0 sets it), so
   polling the RX descriptor exercises the D-cache snoop of the GRETH's
   write-back. Runs from the reset state (ET = 0) and exits through the
   leon3vp convention (ta 0, status in %o0):
     0  ARP reply from 192.168.0.55 with sender MAC 02:00:00:00:00:55 (the simulated host)
     1  ARP reply from 192.168.0.55 with another sender MAC (a real kernel behind --tap)
    10  no frame after TRIES requests           11  RX descriptor has error bits
    12  not an ARP frame (type != 0x0806)       13  ARP opcode is not "reply"
    14  sender IP is not 192.168.0.55           15  destination MAC is not ours
    16  TX descriptor was not written back      17  frame shorter than 42 bytes */
#define GRETH   0x80000D00
#define CTRL    0x00
#define STATUS  0x04
#define MAC_MSB 0x08
#define MAC_LSB 0x0C
#define TXDESC  0x14
#define RXDESC  0x18
#define DESC_EN 0x800
/* One try polls POLLS times (about 0.2 s simulated in timed mode), up to
   TRIES tries. A freshly attached TAP device may drop the kernel's first
   reply (the interface's carrier has just come up), so the request is resent
   like a real ARP client would; the simulated host answers the first one. */
#define POLLS   0x00100000
#define TRIES   24

        .section .text.start, "ax"
        .global _start
_start:
        set     txdesc, %g1             /* caches on: FLUSH, then DS|IB|DCS|ICS */
        flush   %g1
        set     0x0081000f, %g1
        sta     %g1, [%g0] 2

        set     GRETH, %g1
        set     0x0200, %g2             /* station address 02:00:00:00:00:53 */
        st      %g2, [%g1 + MAC_MSB]
        mov     0x53, %g2
        st      %g2, [%g1 + MAC_LSB]
        set     txdesc, %g2
        st      %g2, [%g1 + TXDESC]
        set     rxdesc, %g3
        st      %g3, [%g1 + RXDESC]
        mov     0x13, %g2               /* FD | RE | TE: start both DMAs */
        st      %g2, [%g1 + CTRL]

        mov     TRIES, %o2              /* ARP tries: resend like a real ARP client */
        set     txdesc, %o3
retry:  set     POLLS, %g4              /* wait for the RX descriptor's EN to clear */
poll:   ld      [%g3], %g5
        andcc   %g5, DESC_EN, %g0
        be      got
        subcc   %g4, 1, %g4
        bne     poll
        nop
        subcc   %o2, 1, %o2             /* no answer in this try: resend */
        be      done
        mov     10, %o0
        set     0x1800 + 42, %g2        /* re-arm the TX descriptor (EN | WR, 42 bytes) */
        st      %g2, [%o3]
        mov     0x13, %g2               /* and set TE again */
        ba      retry
        st      %g2, [%g1 + CTRL]

got:    set     0x7c000, %g6            /* AE FT CE OE LE */
        andcc   %g5, %g6, %g0
        bne     done
        mov     11, %o0
        and     %g5, 0x7ff, %g6
        cmp     %g6, 42
        bl      done
        mov     17, %o0
        set     txdesc, %g6             /* TX write-back: word 0 = 0 */
        ld      [%g6], %g6
        cmp     %g6, 0
        bne     done
        mov     16, %o0
        set     rxbuf, %g6
        lduh    [%g6 + 0], %g7          /* DA = 02:00:00:00:00:53 */
        cmp     %g7, 0x0200
        bne     done
        mov     15, %o0
        lduh    [%g6 + 2], %g7
        cmp     %g7, 0
        bne     done
        mov     15, %o0
        lduh    [%g6 + 4], %g7
        cmp     %g7, 0x53
        bne     done
        mov     15, %o0
        lduh    [%g6 + 12], %g7         /* EtherType */
        set     0x0806, %o1
        cmp     %g7, %o1
        bne     done
        mov     12, %o0
        lduh    [%g6 + 20], %g7         /* ARP opcode */
        cmp     %g7, 2
        bne     done
        mov     13, %o0
        ld      [%g6 + 28], %g7         /* sender protocol address */
        set     0xc0a80037, %o1
        cmp     %g7, %o1
        bne     done
        mov     14, %o0
        lduh    [%g6 + 22], %g7         /* sender hardware address */
        cmp     %g7, 0x0200
        bne     done
        mov     1, %o0
        ld      [%g6 + 24], %g7
        cmp     %g7, 0x55
        bne     done
        mov     1, %o0
        mov     0, %o0
done:   ta      0
        nop

        .section .data
        .align  1024
txdesc: .word   0x1800 + 42, arp_req    /* EN | WR, 42 bytes */
        .align  1024
rxdesc: .word   0x1800, rxbuf           /* EN | WR */
        .align  16
arp_req:
        .byte   0xff, 0xff, 0xff, 0xff, 0xff, 0xff      /* DA broadcast */
        .byte   0x02, 0x00, 0x00, 0x00, 0x00, 0x53      /* SA */
        .byte   0x08, 0x06                              /* ARP */
        .byte   0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01 /* Ethernet/IPv4, request */
        .byte   0x02, 0x00, 0x00, 0x00, 0x00, 0x53      /* sender MAC */
        .byte   192, 168, 0, 53                         /* sender IP */
        .byte   0, 0, 0, 0, 0, 0                        /* target MAC */
        .byte   192, 168, 0, 55                         /* target IP */
        .align  16
rxbuf:  .skip   1536
