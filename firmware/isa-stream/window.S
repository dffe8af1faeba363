/*
 * stream_window: nested SAVEs down to depth 20 and back, twice, with the
 * overflow/underflow handlers of stream.inc; values kept in locals and
 * ins must survive the spills.
 */
#include "stream.inc"

        .global stream_start
stream_start:
        mov     20, %o0
        call    descend
         mov    1, %o1
        mov     %o0, %l0
        mov     13, %o0
        call    descend
         mov    7, %o1
        add     %l0, %o0, %l0
        /* save/restore arithmetic across one window */
        mov     10, %o2
        save    %o2, 5, %o3             /* new %o3 = 15 */
        restore %o3, 2, %o4             /* old %o4 = 17 */
        STREAM_EXIT

/* descend(n, acc): returns acc * 3 + n + descend(n - 1, acc + n) */
descend:
        save    %sp, -96, %sp
        mov     %i0, %l0
        add     %i0, %i1, %l1
        sll     %i1, 1, %l2
        add     %l2, %i1, %l2           /* acc * 3 */
        cmp     %i0, 0
        be      1f
         mov    %l1, %i0
        sub     %l0, 1, %o0
        call    descend
         mov    %l1, %o1
        add     %o0, %l2, %i0
        add     %i0, %l0, %i0
1:      ret
         restore
