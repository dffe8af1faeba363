// Tag-only model of one LEON3 cache (hw-reference §7.4), used by the core in
// timed mode. It answers "would this access hit?" and keeps the replacement
// state; it holds no data (the core always reads memory, so a cache can only
// change timing, never results).
//
// Geometry: 1..4 ways of 1..256 KiB, 16- or 32-byte lines. Replacement: LRU,
// LRR (least recently replaced, 2 ways only) or random from a seeded
// generator (reproducible). A miss fills an invalid way first, if any.
#pragma once
#include <cstdint>
#include <vector>

#include "core.h"

namespace l3vp::leon3 {

class CacheModel {
 public:
  // Throws std::invalid_argument for an unsupported geometry. `name` is used
  // in the message.
  CacheModel(const CacheConfig& cfg, const char* name);

  // Hit test for the line holding `addr`; a hit updates the LRU order.
  bool lookup(uint32_t addr) {
    uint32_t line = addr >> line_shift_;
    uint32_t* t = &tags_[(line & set_mask_) * ways_];
    for (unsigned w = 0; w < ways_; ++w)
      if (t[w] == line) {
        if (repl_ == CacheRepl::Lru && ways_ > 1) touch(line & set_mask_, w);
        return true;
      }
    return false;
  }
  // Side-effect-free hit test.
  bool contains(uint32_t addr) const;
  // Allocates the line of `addr` (after a miss), evicting per the policy.
  void fill(uint32_t addr);
  void invalidate_all();
  // Invalidates every line overlapping [addr, addr + len); returns how many.
  unsigned invalidate_range(uint32_t addr, uint32_t len);
  // Restores the power-on state: all invalid, generator reseeded.
  void reset();

  // Cache configuration register (ASI 2, 0x08 / 0x0C), hw-reference §7.4.
  uint32_t config_word(bool mmu_present) const;

  unsigned line_bytes() const { return 1u << line_shift_; }
  unsigned line_shift() const { return line_shift_; }
  unsigned ways() const { return ways_; }
  uint32_t set_mask() const { return set_mask_; }

 private:
  static constexpr uint32_t kInvalid = 0xFFFFFFFFu;  // never a line number (lines >= 16 B)
  void touch(uint32_t set, unsigned way);
  unsigned victim(uint32_t set);

  CacheConfig cfg_;
  unsigned ways_, line_shift_, way_log2_kib_;
  uint32_t set_mask_;
  CacheRepl repl_;
  std::vector<uint32_t> tags_;  // [set * ways + way] = line number (addr >> line_shift)
  std::vector<uint8_t> order_;  // LRU: [set * 4 + k] = way, k = 0 most recently used
  std::vector<uint8_t> lrr_;    // LRR: per set, the way replaced last
  uint32_t rng_ = 1;
};

}  // namespace l3vp::leon3
