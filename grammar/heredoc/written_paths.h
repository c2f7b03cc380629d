// The paths the heredocs of a parse have written so far (DUPLICATE_FILE), by a 64-bit hash of
// each path: an open-addressing table (linear probing, power-of-two size, at most half full).
// Why not std::unordered_map: it allocated a node per heredoc and divided by a prime per
// lookup, a tenth of a heredoc transcript's parse; this table allocates only when it doubles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace blockls::heredoc {

class WrittenPaths {
public:
  // Records that the path hashed `key` is written at `line` (0-based), unless it was written
  // before: then returns the line of that first write and records nothing.
  std::optional<uint32_t> insert(uint64_t key, uint32_t line) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = home(key, mask);; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.line_plus_one == 0) {
        s = {key, line + 1};
        ++count_;
        return std::nullopt;
      }
      if (s.key == key) return s.line_plus_one - 1;
    }
  }

private:
  struct Slot {
    uint64_t key = 0;
    uint32_t line_plus_one = 0; // 0: the slot is empty
  };

  // Fibonacci hashing: the top bits of the product, so that any bits of `key` spread.
  size_t home(uint64_t key, size_t mask) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_) & mask;
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t size = old.empty() ? 256 : old.size() * 2;
    slots_.assign(size, Slot{});
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(size));
    count_ = 0;
    for (const Slot& s : old)
      if (s.line_plus_one != 0) insert(s.key, s.line_plus_one - 1);
  }

  std::vector<Slot> slots_;
  size_t count_ = 0;
  unsigned shift_ = 64;
};

} // namespace blockls::heredoc
