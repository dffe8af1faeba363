// A register bank declared once as a table (offset, reset value, write mask,
// optional read/write hooks) with one generic dispatch, so device models hold
// no if (addr == ...) chains. Used by every APB device model.
//
//   bank.add("CTRL", 0x08, /*reset*/ 0, /*wmask*/ 0x7FFF)
//       .on_write([this](uint32_t v) { ... });
//
// Default behaviour: a read returns the stored value; a write stores
// (old & ~wmask) | (new & wmask). A read hook replaces the stored value as the
// read result; a write hook replaces the default store (it receives the raw
// written value and may call Reg::set()).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <deque>
#include <stdexcept>
#include <vector>

namespace l3vp {

class RegBank;

class Reg {
 public:
  using ReadHook = std::function<uint32_t()>;
  using WriteHook = std::function<void(uint32_t)>;

  Reg(std::string name, uint32_t offset, uint32_t reset, uint32_t wmask)
      : name_(std::move(name)), offset_(offset), reset_(reset), wmask_(wmask), value_(reset) {}

  Reg& on_read(ReadHook h) { read_ = std::move(h); return *this; }
  Reg& on_write(WriteHook h) { write_ = std::move(h); return *this; }

  const std::string& name() const { return name_; }
  uint32_t offset() const { return offset_; }
  uint32_t wmask() const { return wmask_; }
  uint32_t get() const { return value_; }
  void set(uint32_t v) { value_ = v; }
  void reset() { value_ = reset_; }

  uint32_t read() const { return read_ ? read_() : value_; }
  void write(uint32_t v) {
    if (write_) write_(v);
    else value_ = (value_ & ~wmask_) | (v & wmask_);
  }

 private:
  std::string name_;
  uint32_t offset_, reset_, wmask_, value_;
  ReadHook read_;
  WriteHook write_;
};

class RegBank {
 public:
  // Registers are looked up by word offset within a window of `span` bytes
  // (the address bits the device decodes; higher bits alias).
  explicit RegBank(uint32_t span = 256) : span_(span), map_(span / 4, -1) {}

  Reg& add(const std::string& name, uint32_t offset, uint32_t reset = 0, uint32_t wmask = 0xFFFFFFFFu) {
    regs_.emplace_back(name, offset, reset, wmask);
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
  // Returns false for an offset with no register (reads as 0, write ignored).
  bool read(uint32_t offset, uint32_t& v) {
    Reg* r = find(offset);
    v = r ? r->read() : 0;
    return r != nullptr;
  }
  bool write(uint32_t offset, uint32_t v) {
    Reg* r = find(offset);
    if (r) r->write(v);
    return r != nullptr;
  }
  void reset() {
    for (auto& r : regs_) r.reset();
  }
  uint32_t span() const { return span_; }

 private:
  uint32_t span_;
  std::vector<int> map_;
  std::deque<Reg> regs_;  // deque: references returned by add() stay valid
};

}  // namespace l3vp
