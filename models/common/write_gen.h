// Write generations of a DMI memory: how an initiator that keeps state
// derived from memory contents (the LEON3 core's decoded code pages) learns
// that another master changed them.
//
// A memory that grants DMI keeps one counter per 4 KiB page of its array and
// bumps it on every write it sees: bus writes (DMA, a core without DMI),
// debug writes (gdb, loaders through transport_dbg) and its back door. Writes
// through the DMI pointer itself are not seen: the initiator holding the
// pointer tracks its own. An initiator that wants the counters attaches a
// WriteGenExt to its DMI request; the memory fills it in with the grant.
#pragma once
#include <cstdint>
#include <tlm>
#include <vector>

namespace l3vp {

constexpr unsigned kWriteGenShift = 12;  // 4 KiB pages

struct WriteGenExt : tlm::tlm_extension<WriteGenExt> {
  const uint32_t* gen = nullptr;  // counter of the page at `base` + k * 4 KiB: gen[k]
  const uint8_t* base = nullptr;  // host address of page 0 (the DMI pointer of offset 0)
  tlm::tlm_extension_base* clone() const override { return new WriteGenExt(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const WriteGenExt&>(e); }
};

// The counters of one memory array of `size` bytes.
class WriteGen {
 public:
  explicit WriteGen(uint64_t size) : gen_(size ? ((size - 1) >> kWriteGenShift) + 1 : 0, 0) {}
  // [offset, offset + len) was written (offset + len <= size).
  void bump(uint64_t offset, uint64_t len) {
    if (!len) return;
    for (uint64_t p = offset >> kWriteGenShift, e = (offset + len - 1) >> kWriteGenShift; p <= e; ++p)
      ++gen_[p];
  }
  const uint32_t* data() const { return gen_.data(); }

 private:
  std::vector<uint32_t> gen_;
};

}  // namespace l3vp
