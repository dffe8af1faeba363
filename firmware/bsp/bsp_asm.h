/*
 * bsp_asm.h - constants shared by crt0.S and C (no C declarations here).
 */
#ifndef BSP_ASM_H
#define BSP_ASM_H

#define NWINDOWS 8 /* LEON3 template: CFG_NWIN = 8 */

/* PSR fields (SPARC V8) */
#define PSR_CWP_MASK 0x0000001f
#define PSR_ET 0x00000020
#define PSR_PS 0x00000040
#define PSR_S 0x00000080
#define PSR_PIL_MASK 0x00000f00
#define PSR_PIL_SHIFT 8
#define PSR_EF 0x00001000
#define PSR_ICC_MASK 0x00f00000
#define PSR_ICC_SHIFT 20

/* Layout of the trap stack frame built by trap_generic: a minimal C frame
 * (96 bytes: 16-word window save area, hidden struct pointer, 6 argument
 * words, pad) followed by struct trap_frame (see bsp.h). */
#define TF_OFFSET 96
#define TF_PSR (TF_OFFSET + 0)
#define TF_PC (TF_OFFSET + 4)
#define TF_NPC (TF_OFFSET + 8)
#define TF_TT (TF_OFFSET + 12)
#define TF_Y (TF_OFFSET + 16)
#define TF_G1 (TF_OFFSET + 24)
#define TF_G2 (TF_OFFSET + 28)
#define TF_G3 (TF_OFFSET + 32)
#define TF_G4 (TF_OFFSET + 36)
#define TF_G5 (TF_OFFSET + 40)
#define TF_G6 (TF_OFFSET + 44)
#define TF_G7 (TF_OFFSET + 48)
#define TRAP_FRAME_SIZE (TF_OFFSET + 56)

#endif /* BSP_ASM_H */
