#!/usr/bin/env bash
# check-v8.sh ELF...
# Fails (exit 1) if any executable section of the ELF files contains an
# instruction that is not plain SPARC V8 integer code as implemented by the
# LEON3 template: no V9/V8+ (casa, popc, membar, ldx/stx, movcc, %xcc/%icc
# branches, prediction bits, rd %ccr ...), no FPU or coprocessor ops, no
# LEON MAC, nothing objdump cannot decode. Works on a whitelist of V8
# mnemonics (including the synthetic ones objdump prints).
set -euo pipefail

OBJDUMP="${OBJDUMP:-sparc64-linux-gnu-objdump}"
if [ $# -lt 1 ]; then
    echo "usage: $0 ELF..." >&2
    exit 2
fi

status=0
for elf in "$@"; do
    if [ ! -f "$elf" ]; then
        echo "check-v8: $elf: no such file" >&2
        exit 2
    fi
    if ! out="$("$OBJDUMP" -d --no-show-raw-insn "$elf")"; then
        echo "check-v8: $OBJDUMP failed on $elf" >&2
        exit 2
    fi
    bad="$(printf '%s\n' "$out" | awk -F'\t' '
    BEGIN {
        n = split("add addcc addx addxcc sub subcc subx subxcc " \
                  "and andcc andn andncc or orcc orn orncc xor xorcc xnor xnorcc " \
                  "sll srl sra taddcc taddcctv tsubcc tsubcctv mulscc " \
                  "umul umulcc smul smulcc udiv udivcc sdiv sdivcc " \
                  "sethi save restore rett call jmpl jmp ret retl flush iflush stbar rd wr " \
                  "ld ldub ldsb lduh ldsh ldd st stb sth std " \
                  "lda lduba ldsba lduha ldsha ldda sta stba stha stda " \
                  "ldstub ldstuba swap swapa unimp nop " \
                  "mov clr clrb clrh cmp tst btst bset bclr btog inc dec inccc deccc neg not " \
                  "b ba bn bne bnz be bz bg ble bge bl bgu bleu bcc bgeu bcs blu bpos bneg bvc bvs " \
                  "t ta tn tne tnz te tz tg tle tge tl tgu tleu tcc tgeu tcs tlu tpos tneg tvc tvs", ok, " ")
        for (i = 1; i <= n; i++) allowed[ok[i]] = 1
    }
    NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ {
        insn = $2
        for (i = 3; i <= NF; i++) insn = insn "\t" $i
        split(insn, parts, /[ \t]+/)
        mnem = parts[1]
        opnds = substr(insn, length(mnem) + 1)
        base = mnem
        sub(/,.*/, "", base)
        why = ""
        if (!(base in allowed)) why = "not a V8 integer instruction"
        else if (mnem ~ /,p[tn]/) why = "V9 branch prediction"
        else if (opnds ~ /%(xcc|icc|fcc[0-3]?|ccr|asi|fprs|tick|stick|pstate|tl|tpc|tnpc|tstate|tt|pil|cwp|cansave|canrestore|cleanwin|otherwin|wstate|ver|gsr|softint|pc)([^a-z0-9]|$)/) why = "V9 register operand"
        else if (opnds ~ /%(f[0-9]+|fsr|fq|c[0-9]+|csr|cq)([^0-9]|$)/) why = "FPU/coprocessor operand"
        else if ((base == "rd" || base == "wr") && opnds ~ /%asr([1-9]|1[0-5])([^0-9]|$)/) why = "reserved %asr1-15"
        if (why != "") print $1 " " insn "    <-- " why
    }')"
    if [ -n "$bad" ]; then
        echo "check-v8: $elf contains non-V8 instructions:" >&2
        printf '%s\n' "$bad" >&2
        status=1
    fi
done
exit $status
