// Tag-only cache model (see cache.h).
#include "cache.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace l3vp::leon3 {

namespace {
unsigned log2_exact(unsigned v) {
  unsigned n = 0;
  while ((1u << n) < v) ++n;
  return n;
}
bool pow2(unsigned v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

CacheModel::CacheModel(const CacheConfig& cfg, const char* name) : cfg_(cfg) {
  auto bad = [&](const std::string& why) {
    throw std::invalid_argument(std::string("leon3: ") + name + ": " + why);
  };
  if (cfg.ways < 1 || cfg.ways > 4) bad("ways must be 1..4");
  if (!pow2(cfg.way_kib) || cfg.way_kib > 256) bad("way size must be 1..256 KiB, a power of 2");
  if (cfg.line_bytes != 16 && cfg.line_bytes != 32) bad("line size must be 16 or 32 bytes");
  if (cfg.repl == CacheRepl::Lrr && cfg.ways != 2) bad("LRR replacement needs exactly 2 ways");
  ways_ = cfg.ways;
  line_shift_ = log2_exact(cfg.line_bytes);
  way_log2_kib_ = log2_exact(cfg.way_kib);
  uint32_t sets = cfg.way_kib * 1024u / cfg.line_bytes;
  set_mask_ = sets - 1;
  repl_ = ways_ == 1 ? CacheRepl::Lru : cfg.repl;  // direct-mapped: no choice to make
  tags_.resize(size_t(sets) * ways_);
  order_.resize(size_t(sets) * 4);
  lrr_.resize(sets);
  reset();
}

void CacheModel::reset() {
  invalidate_all();
  for (size_t s = 0; s < lrr_.size(); ++s) {
    for (unsigned k = 0; k < 4; ++k) order_[s * 4 + k] = uint8_t(k);
    lrr_[s] = 1;  // way 0 is replaced first
  }
  rng_ = cfg_.seed ? cfg_.seed : 1;
}

void CacheModel::invalidate_all() { std::fill(tags_.begin(), tags_.end(), kInvalid); }

bool CacheModel::contains(uint32_t addr) const {
  uint32_t line = addr >> line_shift_;
  const uint32_t* t = &tags_[(line & set_mask_) * ways_];
  for (unsigned w = 0; w < ways_; ++w)
    if (t[w] == line) return true;
  return false;
}

void CacheModel::touch(uint32_t set, unsigned way) {
  uint8_t* o = &order_[set * 4];
  unsigned k = 0;
  while (o[k] != way) ++k;
  for (; k > 0; --k) o[k] = o[k - 1];
  o[0] = uint8_t(way);
}

unsigned CacheModel::victim(uint32_t set) {
  const uint32_t* t = &tags_[set * ways_];
  for (unsigned w = 0; w < ways_; ++w)
    if (t[w] == kInvalid) return w;
  switch (repl_) {
    case CacheRepl::Lru:
      return order_[set * 4 + ways_ - 1];
    case CacheRepl::Lrr:
      return lrr_[set] ^ 1u;
    case CacheRepl::Random:
    default:
      // xorshift32: deterministic for a given seed and access sequence
      rng_ ^= rng_ << 13;
      rng_ ^= rng_ >> 17;
      rng_ ^= rng_ << 5;
      return rng_ % ways_;
  }
}

void CacheModel::fill(uint32_t addr) {
  uint32_t line = addr >> line_shift_;
  uint32_t set = line & set_mask_;
  unsigned w = victim(set);
  tags_[set * ways_ + w] = line;
  if (ways_ > 1) {
    if (repl_ == CacheRepl::Lru) touch(set, w);
    lrr_[set] = uint8_t(w);
  }
}

unsigned CacheModel::invalidate_range(uint32_t addr, uint32_t len) {
  if (len == 0) return 0;
  unsigned n = 0;
  uint64_t first = addr >> line_shift_, last = (uint64_t(addr) + len - 1) >> line_shift_;
  if (last - first > set_mask_) {  // larger than the cache: sweep every tag instead
    for (uint32_t& t : tags_)
      if (t != kInvalid && t >= first && t <= last) {
        t = kInvalid;
        ++n;
      }
    return n;
  }
  for (uint64_t l = first; l <= last; ++l) {
    uint32_t* t = &tags_[(uint32_t(l) & set_mask_) * ways_];
    for (unsigned w = 0; w < ways_; ++w)
      if (t[w] == uint32_t(l)) {
        t[w] = kInvalid;
        ++n;
      }
  }
  return n;
}

uint32_t CacheModel::config_word(bool mmu_present) const {
  unsigned repl = 0;  // direct-mapped
  if (ways_ > 1) repl = repl_ == CacheRepl::Lru ? 1 : repl_ == CacheRepl::Lrr ? 2 : 3;
  return (uint32_t(repl) << 28) | (uint32_t(cfg_.snoop) << 27) | (uint32_t(ways_ - 1) << 24) |
         (uint32_t(way_log2_kib_) << 20) | (uint32_t(line_shift_ - 2) << 16) | (uint32_t(mmu_present) << 3);
}

}  // namespace l3vp::leon3
