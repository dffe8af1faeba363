// Re-entry guard of the RTL adapters (README "Re-entry"). An adapter steps
// its Verilator model from inside an access or an event, and a step may call
// out of the adapter (a DMA burst on the bus, an interrupt pulse); a path
// from there back into the same adapter must not step the model again (the
// checksum engine's DMA reading its own registers recursed until the host
// stack overflowed). EvalScope marks "being evaluated" for the extent of a
// step; the adapter's access hooks look at the flag and answer from the
// model's current state instead of stepping.
#pragma once

namespace l3vp {

class EvalScope {
 public:
  explicit EvalScope(bool& flag) : flag_(flag), prev_(flag) { flag_ = true; }
  ~EvalScope() { flag_ = prev_; }
  EvalScope(const EvalScope&) = delete;
  EvalScope& operator=(const EvalScope&) = delete;

 private:
  bool& flag_;
  bool prev_;
};

}  // namespace l3vp
