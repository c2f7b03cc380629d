// A small deterministic random generator (splitmix64) for generated test and benchmark inputs:
// the std distributions differ between standard libraries, this gives the same sequence
// everywhere.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace blockls::bench {

class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }       // n > 0
  size_t between(size_t lo, size_t hi) { return lo + below(hi - lo + 1); } // inclusive
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
  template <size_t N> std::string_view pick(const std::array<std::string_view, N>& items) {
    return items[below(N)];
  }

private:
  uint64_t state_;
};

} // namespace blockls::bench
