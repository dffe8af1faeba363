#!/usr/bin/python3
"""Generate vectors.h for isa_selfcheck: known-answer vectors for the
table-driven instruction groups, computed from the SPARC V8 manual's
definitions (condition codes per Appendix C / hw-reference section 8.4,
LEON3 divide saturation without Y write-back).

Run from this directory: ./gen_vectors.py > vectors.h
"""

M = 0xFFFFFFFF

# name, group, asm template, immediate (None = register form, b from table)
OPS = [
    ("ADD", "ALU", "add %[a], %[b], %[r]", None),
    ("SUB", "ALU", "sub %[a], %[b], %[r]", None),
    ("ADD_I", "ALU", "add %[a], -2048, %[r]", -2048),
    ("SUB_I", "ALU", "sub %[a], 4095, %[r]", 4095),
    ("ADDCC", "CC", "addcc %[a], %[b], %[r]", None),
    ("SUBCC", "CC", "subcc %[a], %[b], %[r]", None),
    ("ADDCC_I", "CC", "addcc %[a], -1, %[r]", -1),
    ("SUBCC_I", "CC", "subcc %[a], 1, %[r]", 1),
    ("ADDX", "ADDX_SUBX", "addx %[a], %[b], %[r]", None),
    ("ADDXCC", "ADDX_SUBX", "addxcc %[a], %[b], %[r]", None),
    ("SUBX", "ADDX_SUBX", "subx %[a], %[b], %[r]", None),
    ("SUBXCC", "ADDX_SUBX", "subxcc %[a], %[b], %[r]", None),
    ("ADDXCC_I", "ADDX_SUBX", "addxcc %[a], 0, %[r]", 0),
    ("SUBXCC_I", "ADDX_SUBX", "subxcc %[a], 0, %[r]", 0),
    ("AND", "LOGIC", "and %[a], %[b], %[r]", None),
    ("ANDCC", "LOGIC", "andcc %[a], %[b], %[r]", None),
    ("ANDN", "LOGIC", "andn %[a], %[b], %[r]", None),
    ("ANDNCC", "LOGIC", "andncc %[a], %[b], %[r]", None),
    ("OR", "LOGIC", "or %[a], %[b], %[r]", None),
    ("ORCC", "LOGIC", "orcc %[a], %[b], %[r]", None),
    ("ORN", "LOGIC", "orn %[a], %[b], %[r]", None),
    ("ORNCC", "LOGIC", "orncc %[a], %[b], %[r]", None),
    ("XOR", "LOGIC", "xor %[a], %[b], %[r]", None),
    ("XORCC", "LOGIC", "xorcc %[a], %[b], %[r]", None),
    ("XNOR", "LOGIC", "xnor %[a], %[b], %[r]", None),
    ("XNORCC", "LOGIC", "xnorcc %[a], %[b], %[r]", None),
    ("AND_I", "LOGIC", "and %[a], 0xfff, %[r]", 0xFFF),
    ("OR_I", "LOGIC", "or %[a], -4096, %[r]", -4096),
    ("XORCC_I", "LOGIC", "xorcc %[a], -1, %[r]", -1),
    ("SLL", "SHIFT", "sll %[a], %[b], %[r]", None),
    ("SRL", "SHIFT", "srl %[a], %[b], %[r]", None),
    ("SRA", "SHIFT", "sra %[a], %[b], %[r]", None),
    ("SLL_I", "SHIFT", "sll %[a], 31, %[r]", 31),
    ("SRL_I", "SHIFT", "srl %[a], 1, %[r]", 1),
    ("SRA_I", "SHIFT", "sra %[a], 17, %[r]", 17),
    ("TADDCC", "TAGGED", "taddcc %[a], %[b], %[r]", None),
    ("TSUBCC", "TAGGED", "tsubcc %[a], %[b], %[r]", None),
    ("TADDCCTV", "TAGGED", "taddcctv %[a], %[b], %[r]", None),
    ("TSUBCCTV", "TAGGED", "tsubcctv %[a], %[b], %[r]", None),
    ("MULSCC", "MULSCC", "mulscc %[a], %[b], %[r]", None),
    ("UMUL", "MUL", "umul %[a], %[b], %[r]", None),
    ("UMULCC", "MUL", "umulcc %[a], %[b], %[r]", None),
    ("SMUL", "MUL", "smul %[a], %[b], %[r]", None),
    ("SMULCC", "MUL", "smulcc %[a], %[b], %[r]", None),
    ("UMUL_I", "MUL", "umul %[a], -1, %[r]", -1),
    ("SMULCC_I", "MUL", "smulcc %[a], -3, %[r]", -3),
    ("UDIV", "DIV", "udiv %[a], %[b], %[r]", None),
    ("UDIVCC", "DIV", "udivcc %[a], %[b], %[r]", None),
    ("SDIV", "DIV", "sdiv %[a], %[b], %[r]", None),
    ("SDIVCC", "DIV", "sdivcc %[a], %[b], %[r]", None),
    ("UDIV_I", "DIV", "udiv %[a], 4095, %[r]", 4095),
    ("SDIVCC_I", "DIV", "sdivcc %[a], -2, %[r]", -2),
]

GROUPS = ["ALU", "CC", "ADDX_SUBX", "LOGIC", "SHIFT", "TAGGED", "MULSCC", "MUL", "DIV"]


def bit(v, n):
    return (v >> n) & 1


def icc(n, z, v, c):
    return (n << 3) | (z << 2) | (v << 1) | c


def nz(r):
    return bit(r, 31), int(r == 0)


def add_cc(a, b, cin):
    r = (a + b + cin) & M
    a31, b31, r31 = bit(a, 31), bit(b, 31), bit(r, 31)
    v = (a31 & b31 & (1 - r31)) | ((1 - a31) & (1 - b31) & r31)
    c = (a31 & b31) | ((1 - r31) & (a31 | b31))
    return r, v, c


def sub_cc(a, b, cin):
    r = (a - b - cin) & M
    a31, b31, r31 = bit(a, 31), bit(b, 31), bit(r, 31)
    v = (a31 & (1 - b31) & (1 - r31)) | ((1 - a31) & b31 & r31)
    c = ((1 - a31) & b31) | (r31 & ((1 - a31) | b31))
    return r, v, c


def s32(x):
    return x - (1 << 32) if x & 0x80000000 else x


def trunc_div(n, d):
    q = abs(n) // abs(d)
    return q if (n >= 0) == (d >= 0) else -q


def model(name, a, b, icc_in, y):
    """Return (result, icc_out, y_out)."""
    cin = icc_in & 1
    n_in, v_in = bit(icc_in, 3), bit(icc_in, 1)
    base = name.split("_")[0]
    cc = base.endswith("CC") and base not in ("TADDCCTV", "TSUBCCTV")
    if base in ("ADD", "ADDCC", "ADDX", "ADDXCC"):
        r, v, c = add_cc(a, b, cin if base.startswith("ADDX") else 0)
        return r, (icc(*nz(r), v, c) if base.endswith("CC") else icc_in), y
    if base in ("SUB", "SUBCC", "SUBX", "SUBXCC"):
        r, v, c = sub_cc(a, b, cin if base.startswith("SUBX") else 0)
        return r, (icc(*nz(r), v, c) if base.endswith("CC") else icc_in), y
    logic = {"AND": a & b, "ANDN": a & ~b & M, "OR": a | b, "ORN": (a | ~b) & M,
             "XOR": a ^ b, "XNOR": ~(a ^ b) & M}
    lb = base[:-2] if base.endswith("CC") else base
    if lb in logic:
        r = logic[lb]
        return r, (icc(*nz(r), 0, 0) if base.endswith("CC") else icc_in), y
    if base == "SLL":
        return (a << (b & 31)) & M, icc_in, y
    if base == "SRL":
        return a >> (b & 31), icc_in, y
    if base == "SRA":
        return (s32(a) >> (b & 31)) & M, icc_in, y
    if base in ("TADDCC", "TADDCCTV", "TSUBCC", "TSUBCCTV"):
        f = add_cc if base.startswith("TADD") else sub_cc
        r, v, c = f(a, b, 0)
        v |= int(((a | b) & 3) != 0)
        if base.endswith("TV"):
            assert v == 0, "trapping case in the table"
        return r, icc(*nz(r), v, c), y
    if base == "MULSCC":
        op1 = ((n_in ^ v_in) << 31) | (a >> 1)
        op2 = b if (y & 1) else 0
        r, v, c = add_cc(op1, op2, 0)
        return r, icc(*nz(r), v, c), ((a & 1) << 31) | (y >> 1)
    if base in ("UMUL", "UMULCC"):
        p = a * b
        r = p & M
        return r, (icc(*nz(r), 0, 0) if cc else icc_in), (p >> 32) & M
    if base in ("SMUL", "SMULCC"):
        p = (s32(a) * s32(b)) & 0xFFFFFFFFFFFFFFFF
        r = p & M
        return r, (icc(*nz(r), 0, 0) if cc else icc_in), (p >> 32) & M
    if base in ("UDIV", "UDIVCC"):
        q = ((y << 32) | a) // b
        ovf = int(q > M)
        r = M if ovf else q
        return r, (icc(*nz(r), ovf, 0) if cc else icc_in), y
    if base in ("SDIV", "SDIVCC"):
        n = (y << 32) | a
        if n & (1 << 63):
            n -= 1 << 64
        q = trunc_div(n, s32(b))
        ovf = 0
        if q > 0x7FFFFFFF:
            q, ovf = 0x7FFFFFFF, 1
        elif q < -0x80000000:
            q, ovf = -0x80000000, 1
        r = q & M
        return r, (icc(*nz(r), ovf, 0) if cc else icc_in), y
    raise ValueError(name)


VALS = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x12345678, 0xEDCBA987, 0x80000001, 0x3]


def pairs(vals):
    return [(a, b) for a in vals for b in vals]


def vectors_for(name, imm):
    base = name.split("_")[0]
    out = []
    k = [0]

    def add(a, b, icc_in, y):
        if imm is not None:
            b = imm & M
        out.append((name, a, b, icc_in, y))

    def next_icc():
        k[0] += 1
        return (k[0] * 7) % 16

    if base in ("ADD", "SUB", "ADDCC", "SUBCC") or base in ("AND", "ANDCC", "ANDN", "ANDNCC", "OR", "ORCC",
                                                            "ORN", "ORNCC", "XOR", "XORCC", "XNOR", "XNORCC"):
        ab = pairs(VALS) if imm is None else [(a, 0) for a in VALS]
        for a, b in ab:
            add(a, b, next_icc(), 0)
    elif base in ("ADDX", "ADDXCC", "SUBX", "SUBXCC"):
        vals = [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x12345678]
        ab = pairs(vals) if imm is None else [(a, 0) for a in vals]
        for a, b in ab:
            for c in (0, 1):
                add(a, b, (next_icc() & 0xE) | c, 0)
    elif base in ("SLL", "SRL", "SRA"):
        counts = [0, 1, 4, 15, 31, 32, 33, 0xFFFFFFE1] if imm is None else [0]
        for a in (0x80000001, 0x12345678, 0xFFFFFFFF, 0x7FFFFFFF):
            for b in counts:
                add(a, b, next_icc(), 0)
    elif base in ("TADDCC", "TSUBCC"):
        for a, b in pairs([0, 4, 1, 2, 0x7FFFFFFC, 0x80000000, 0xFFFFFFFC, 0x3FFFFFFF]):
            add(a, b, next_icc(), 0)
    elif base in ("TADDCCTV", "TSUBCCTV"):
        f = add_cc if base == "TADDCCTV" else sub_cc
        for a, b in pairs([0, 4, 8, 0x7FFFFFF0, 0x80000000, 0xFFFFFFFC, 0x40000000]):
            if ((a | b) & 3) == 0 and f(a, b, 0)[1] == 0:
                add(a, b, next_icc(), 0)
    elif base == "MULSCC":
        for a in (0, 1, 0x80000000, 0xFFFFFFFF, 0x12345679):
            for b in (0, 1, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000):
                for y in (0, 1, 0x80000000, 0xFFFFFFFF):
                    for nv in (0, 2, 8, 10):  # N/V combinations
                        add(a, b, nv | (next_icc() & 5), y)
    elif base in ("UMUL", "UMULCC", "SMUL", "SMULCC"):
        vals = [0, 1, 2, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0x12345678, 0x10000, 0xFFFE0000, 0xFFFF]
        ab = pairs(vals) if imm is None else [(a, 0) for a in vals]
        for a, b in ab:
            add(a, b, next_icc(), 0x5A5A5A5A)
    elif base in ("UDIV", "UDIVCC", "SDIV", "SDIVCC"):
        ys = [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000]
        as_ = [0, 1, 7, 0x80000000, 0xFFFFFFFF, 0x12345678]
        bs = [1, 2, 3, 7, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, 0x7FFFFFFF, 0x10000] if imm is None else [0]
        for y in ys:
            for a in as_:
                for b in bs:
                    add(a, b, next_icc(), y)
    else:
        raise ValueError(name)
    return out


def main():
    print("/* Generated by gen_vectors.py from the SPARC V8 definitions. Do not edit. */")
    print("#ifndef ISA_VECTORS_H\n#define ISA_VECTORS_H\n")
    print("enum vec_group {")
    for g in GROUPS:
        print("    G_%s," % g)
    print("    G_COUNT\n};\n")
    print("static const char *const vec_group_names[G_COUNT] = {")
    print("    " + ", ".join('"%s"' % g for g in GROUPS))
    print("};\n")
    print("/* X(op, group, asm) */")
    print("#define ISA_OPS(X) \\")
    for name, group, asm, imm in OPS:
        print('    X(%s, G_%s, "%s") \\' % (name, group, asm))
    print("\n")
    print("enum vec_op {")
    print("#define X(op, group, text) OP_##op,")
    print("    ISA_OPS(X)")
    print("#undef X")
    print("    OP_COUNT\n};\n")
    print("struct vec {\n    uint8_t op, icc_in, icc_out, pad;\n    uint32_t a, b, y_in, r, y_out;\n};\n")
    print("static const struct vec vectors[] = {")
    total = 0
    for name, group, asm, imm in OPS:
        for (_, a, b, icc_in, y) in vectors_for(name, imm):
            r, icc_out, y_out = model(name, a, b, icc_in, y)
            print("    { OP_%s, 0x%x, 0x%x, 0, 0x%08x, 0x%08x, 0x%08x, 0x%08x, 0x%08x }," %
                  (name, icc_in, icc_out, a, b, y, r, y_out))
            total += 1
    print("};\n")
    print("#endif /* ISA_VECTORS_H */")


if __name__ == "__main__":
    main()
