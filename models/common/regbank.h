// A register bank declared once as a table, with one generic dispatch, so
// device models hold no if (addr == ...) chains (a register is a table row;
// docs/developer-guide.md, "Add an APB device"). Every APB device model uses it.
//
// A register declares what the hardware manual says about its bits; the
// bank applies it, so the model's hooks only hold what the register *does*:
//
//   regs_.add("STATUS", 0x04)
//       .bind(status_)            // storage is the model's member; reset() sets it
//       .reset_value(0)
//       .w1c(0x1FF)               // write 1 to clear
//       .rsvd(~0x1FFu)            // reads 0, writes ignored
//       .on_write([this](uint32_t) { update_irq(); });
//
// Bit classes (a bit is in at most one; unlisted bits are read/write):
//   ro     read-only: a write leaves the stored bit (the model may change it)
//   w1c    write-1-to-clear: writing 1 clears the stored bit, 0 leaves it
//   rsvd   reserved: reads 0, writes ignored
//   unimp  stored like read/write bits, but the feature is not modelled: the
//          first write that sets one is logged (Log::unimp) once per register
//   no_reset  bits that reset() leaves alone (their power-on value is the
//          reset value, applied when the register is declared/bound)
//
// Hooks:
//   sync(fn)        catch-up run before every CPU read and write (e.g. bring an
//                   analytical timer to the access time). May change state.
//                   before_read(fn) / before_write(fn) set it for one side.
//   read_value(fn)  computes the read value instead of the stored one. Must
//                   have no side effects: debug reads call it too.
//   on_read(fn)     read side effect, run after the value was taken (pop a
//                   FIFO, clear on read). CPU reads only.
//   on_write(fn)    write side effect, run after the masked store with the
//                   written value (reserved bits removed) and, if fn takes
//                   two arguments, the stored value before the write.
//                   CPU writes only.
//   no_store()      the register has no storage: a write is a command for
//                   on_write (e.g. IRQMP ICLEAR); reads give 0 unless
//                   read_value is set.
//
// Debug accesses (TLM transport_dbg) run no side effects at all: a debug read
// returns read_value() or the stored value (no sync, no on_read, no log); a
// debug write stores the read/write bits of a register without hooks (no
// W1C, no log) and is refused (returns false) for a register with a sync or
// write hook, whose state lives in the model.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "format.h"
#include "log.h"

namespace l3vp {

class RegBank;

class Reg {
 public:
  using SyncFn = std::function<void()>;
  using ValueFn = std::function<uint32_t()>;
  using ReadFx = std::function<void()>;
  using WriteFx = std::function<void(uint32_t, uint32_t)>;  // (written, old)

  // `wmask`: the writable bits; the others are read-only (ro = ~wmask).
  Reg(std::string owner, std::string name, uint32_t offset, uint32_t reset, uint32_t wmask)
      : owner_(std::move(owner)),
        name_(std::move(name)),
        offset_(offset),
        reset_(reset),
        ro_(~wmask),
        own_(reset),
        store_(&own_) {}

  // --- declaration (chainable) ---
  Reg& reset_value(uint32_t v) {
    reset_ = v;
    *store_ = v & ~rsvd_;
    return *this;
  }
  Reg& ro(uint32_t m) {
    ro_ |= m;
    return normalise();
  }
  Reg& w1c(uint32_t m) {
    w1c_ |= m;
    ro_ &= ~m;
    return normalise();
  }
  Reg& rsvd(uint32_t m) {
    rsvd_ |= m;
    *store_ &= ~m;
    return normalise();
  }
  // `what` names the unmodelled feature in the log line.
  Reg& unimp(uint32_t m, const std::string& what) {
    unimp_ |= m;
    ro_ &= ~m;
    unimp_what_ += (unimp_what_.empty() ? "" : ", ") + what;
    return normalise();
  }
  Reg& no_reset(uint32_t m) {
    keep_ |= m;
    return *this;
  }
  // Storage is the model's member (its power-on value becomes the reset value).
  Reg& bind(uint32_t& member) {
    store_ = &member;
    member = reset_ & ~rsvd_;
    return *this;
  }
  Reg& no_store() {
    nostore_ = true;
    return *this;
  }
  Reg& sync(const SyncFn& f) { return before_read(f).before_write(f); }
  Reg& before_read(SyncFn f) {
    sync_rd_ = std::move(f);
    return *this;
  }
  Reg& before_write(SyncFn f) {
    sync_wr_ = std::move(f);
    return *this;
  }
  Reg& read_value(ValueFn f) {
    value_ = std::move(f);
    return *this;
  }
  Reg& on_read(ReadFx f) {
    read_fx_ = std::move(f);
    return *this;
  }
  Reg& on_write(WriteFx f) {
    write_fx_ = std::move(f);
    return *this;
  }
  Reg& on_write(std::function<void(uint32_t)> f) {
    write_fx_ = [f = std::move(f)](uint32_t v, uint32_t) { f(v); };
    return *this;
  }

  // --- introspection ---
  const std::string& name() const { return name_; }
  uint32_t offset() const { return offset_; }
  uint32_t reset_val() const { return reset_; }
  uint32_t ro_mask() const { return ro_; }
  uint32_t w1c_mask() const { return w1c_; }
  uint32_t rsvd_mask() const { return rsvd_; }
  uint32_t unimp_mask() const { return unimp_; }
  // Bits a CPU write stores as written.
  uint32_t wmask() const { return ~(ro_ | w1c_ | rsvd_); }

  // Stored value (the bound member). set() is the model's back door: no
  // masks, no hooks.
  uint32_t get() const { return *store_; }
  void set(uint32_t v) { *store_ = v; }
  void reset() { *store_ = ((*store_ & keep_) | (reset_ & ~keep_)) & ~rsvd_; }

  // --- accesses ---
  uint32_t read(bool debug = false) {
    if (!debug && sync_rd_) sync_rd_();
    const uint32_t v = peek();
    if (!debug && read_fx_) read_fx_();
    return v;
  }
  // Returns false only for a refused debug write.
  bool write(uint32_t v, bool debug = false) {
    v &= ~rsvd_;
    if (debug) {
      if (sync_wr_ || write_fx_) return false;
      if (!nostore_) *store_ = (*store_ & ~wmask()) | (v & wmask());
      return true;
    }
    if (sync_wr_) sync_wr_();
    if ((v & unimp_) && !unimp_logged_) {
      unimp_logged_ = true;
      Log::unimp(owner_,
                 name_ + ": write sets unmodelled bits " + hex(v & unimp_) + " (" + unimp_what_ + ")");
    }
    const uint32_t old = *store_;
    if (!nostore_) *store_ = ((old & ~wmask()) | (v & wmask())) & ~(v & w1c_) & ~rsvd_;
    if (write_fx_) write_fx_(v, old);
    return true;
  }
  // The value a read returns, without running anything but read_value.
  uint32_t peek() const {
    const uint32_t v = value_ ? value_() : nostore_ ? 0u : *store_;
    return v & ~rsvd_;
  }

 private:
  // A bit belongs to one class; later declarations win over `ro`.
  Reg& normalise() {
    ro_ &= ~(w1c_ | rsvd_ | unimp_);
    w1c_ &= ~rsvd_;
    unimp_ &= ~rsvd_;
    return *this;
  }

  std::string owner_, name_;
  uint32_t offset_, reset_;
  uint32_t ro_ = 0, w1c_ = 0, rsvd_ = 0, unimp_ = 0, keep_ = 0;
  uint32_t own_;     // storage when not bound
  uint32_t* store_;  // &own_ or the model's member
  bool nostore_ = false;
  bool unimp_logged_ = false;
  std::string unimp_what_;
  SyncFn sync_rd_, sync_wr_;
  ValueFn value_;
  ReadFx read_fx_;
  WriteFx write_fx_;
};

class RegBank {
 public:
  // Registers are looked up by word offset within a window of `span` bytes
  // (the address bits the device decodes; higher bits alias). `owner` names
  // the device in log lines.
  explicit RegBank(uint32_t span = 256, std::string owner = "regbank")
      : span_(span), owner_(std::move(owner)), map_(span / 4, -1) {}

  void set_owner(const std::string& owner) { owner_ = owner; }

  Reg& add(const std::string& name, uint32_t offset, uint32_t reset = 0, uint32_t wmask = 0xFFFFFFFFu) {
    regs_.emplace_back(owner_, name, offset, reset, wmask);
    map_.at((offset % span_) / 4) = static_cast<int>(regs_.size() - 1);
    return regs_.back();
  }
  Reg* find(uint32_t offset) {
    int i = map_[(offset % span_) / 4];
    return i < 0 ? nullptr : &regs_[i];
  }
  Reg& operator[](const std::string& name) {
    for (auto& r : regs_)
      if (r.name() == name) return r;
    throw std::out_of_range("no register " + name);
  }
  // Both return false for an offset with no register (reads as 0, write
  // ignored; the caller logs it). A refused debug write also returns false.
  bool read(uint32_t offset, uint32_t& v, bool debug = false) {
    Reg* r = find(offset);
    v = r ? r->read(debug) : 0;
    return r != nullptr;
  }
  bool write(uint32_t offset, uint32_t v, bool debug = false) {
    Reg* r = find(offset);
    return r && r->write(v, debug);
  }
  bool mapped(uint32_t offset) { return find(offset) != nullptr; }
  void reset() {
    for (auto& r : regs_) r.reset();
  }
  uint32_t span() const { return span_; }

 private:
  uint32_t span_;
  std::string owner_;
  std::vector<int> map_;
  std::deque<Reg> regs_;  // deque: references returned by add() stay valid
};

}  // namespace l3vp
