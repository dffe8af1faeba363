/* Two leaf functions with exactly known instruction counts, for the profile
 * and region tests (testbenches/cli: cli.profile.*). Keep them unchanged: the
 * tests compute their expected counts from this listing.
 *
 * region_loop(id, n): REGION_BEGIN(id); n iterations; REGION_END(id)
 *   function: 3 + 4n + 3 = 4n + 6 instructions per call
 *   region:   st (BEGIN) + mov + 4n = 4n + 2 instructions
 * region_warm(): fetches the first half of region_loop's first I-cache line
 * sum_words(p, n): sum of n words at p
 *   function: 1 + 5n + 2 = 5n + 3 instructions
 */
#include "region.h"

        .section .note.GNU-stack, "", @progbits

        .section ".text.region_loop", "ax"
        /* region_loop starts half way into a 32-byte I-cache line whose
         * first half is region_warm, which main() calls first: whatever
         * the linker puts before them, region_loop's first line is then
         * warm and its loop crosses into a cold line after the BEGIN store
         * has drained, region 1's one I-miss (cli.profile.prof_regions:
         * 4n + 5 + 18 cycles; a line boundary right after the store costs
         * 2 more, a cold first line one miss more). */
        .balign 32
        .global region_warm
        .type   region_warm, #function
region_warm:
        retl
         nop
        nop
        nop
        .size   region_warm, . - region_warm
        .global region_loop
        .type   region_loop, #function
region_loop:                            ! %o0 = id, %o1 = n (n >= 1)
        sethi   %hi(REGION_MARKER_BASE), %o2
        st      %o0, [%o2 + REGION_BEGIN_OFF]
        mov     0, %o3
1:      add     %o3, %o1, %o3
        subcc   %o1, 1, %o1
        bne     1b
         nop
        st      %o0, [%o2 + REGION_END_OFF]
        retl
         mov    %o3, %o0
        .size   region_loop, . - region_loop

        .section ".text.sum_words", "ax"
        .align  4
        .global sum_words
        .type   sum_words, #function
sum_words:                              ! %o0 = p, %o1 = n (n >= 1)
        mov     0, %o2
1:      ld      [%o0], %o3
        add     %o0, 4, %o0
        subcc   %o1, 1, %o1
        bne     1b
         add    %o2, %o3, %o2
        retl
         mov    %o2, %o0
        .size   sum_words, . - sum_words
