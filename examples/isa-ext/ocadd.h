// Semantics of OCADD (ocadd.def). Included by the decoder inside namespace
// l3vp::leon3::sem after the base semantic functions, so L3_SEM, A_ (r[rs1])
// and B_ (operand 2: r[rs2] or simm13) are those of isa/semantics.h. No
// #include here: everything needed is already in scope.
L3_SEM(ocadd) {
  const uint64_t s = uint64_t(A_) + B_;
  c.W(d.rd, uint32_t(s) + uint32_t(s >> 32));
}
