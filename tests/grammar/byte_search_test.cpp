// The SIMD byte searches of grammar/byte_search.h against plain loops, at every offset around
// their 16-, 32- and 64-byte steps (the AVX2 paths on a CPU that has it, SSE2 otherwise).
#include "grammar/byte_search.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace blockls;

namespace {

// A text of `n` bytes from a small alphabet (so that needles recur), with "\n" and a byte
// >= 0x80 here and there.
std::string sample_text(size_t n, uint32_t seed) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    const uint32_t r = (seed >> 16) % 23;
    s.push_back(r == 0 ? '\n' : r == 1 ? '\xC3' : static_cast<char>('a' + r % 4));
  }
  return s;
}

} // namespace

TEST_CASE("find_bytes finds what string_view::find finds, from every offset", "[byte_search]") {
  const std::string text = sample_text(300, 7);
  for (const std::string_view needle : {"ab", "abc", "dcba", "a\nb", "bbbbbbbb", "cadabcda"}) {
    for (size_t from = 0; from <= text.size() + 1; ++from) {
      INFO("needle '" << needle << "' from " << from);
      CHECK(find_bytes(text, needle, from) == std::string_view(text).find(needle, from));
    }
  }
  // A needle found only at the very end, and in texts of every length around the steps.
  for (size_t n = 0; n <= 100; ++n) {
    const std::string t = std::string(n, 'a') + "xyz";
    INFO("length " << t.size());
    CHECK(find_bytes(t, "xyz") == n);
    CHECK(find_bytes(t, "xyzz") == std::string_view::npos);
  }
}

TEST_CASE("newline_masks gives each block's newline_mask and the non-ASCII test", "[byte_search]") {
  for (const uint32_t seed : {1u, 2u, 3u}) {
    const std::string text = sample_text(64 * 40, seed);
    std::vector<uint64_t> masks(40);
    const unsigned high = newline_masks(text.data(), 40, masks.data());
    unsigned any = 0;
    for (size_t b = 0; b < 40; ++b) {
      uint64_t expected = 0;
      for (size_t i = 0; i < 64; ++i)
        if (text[64 * b + i] == '\n') expected |= uint64_t{1} << i;
      INFO("block " << b);
      CHECK(masks[b] == expected);
      unsigned block_high = 0;
      newline_mask(text.data() + 64 * b, &block_high);
      any |= block_high;
    }
    CHECK((high != 0) == (any != 0));
  }
  const std::string ascii(64 * 3, 'x');
  std::vector<uint64_t> masks(3);
  CHECK(newline_masks(ascii.data(), 3, masks.data()) == 0);
  CHECK(masks == std::vector<uint64_t>(3, 0));
}
