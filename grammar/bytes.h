// Equality and prefix tests for the short strings the grammars and the catalog compare all
// the time (names, ids, hashes, era literals), and the byte classes they test. The comparisons
// are inline byte loops: for a few bytes a library memcmp call costs more than the comparison
// itself.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace blockls {

namespace detail {
// The sizeof(Word) bytes at `a + at` and `b + at` are equal (a fixed-size copy compiles to a load).
template <typename Word> inline bool same_word(const char* a, const char* b, size_t at) {
  Word x, y;
  std::memcpy(&x, a + at, sizeof x);
  std::memcpy(&y, b + at, sizeof y);
  return x == y;
}
} // namespace detail

// Words of 8 bytes, then the tail as two words that may overlap (no byte loop: the names, ids
// and delimiters compared here are mostly 3 to 20 bytes long).
inline bool same_bytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8)
      if (!detail::same_word<uint64_t>(x, y, i)) return false;
    return detail::same_word<uint64_t>(x, y, n - 8);
  }
  if (n >= 4)
    return detail::same_word<uint32_t>(x, y, 0) && detail::same_word<uint32_t>(x, y, n - 4);
  if (n >= 2)
    return detail::same_word<uint16_t>(x, y, 0) && detail::same_word<uint16_t>(x, y, n - 2);
  return n == 0 || x[0] == y[0];
}

inline bool starts_with_bytes(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && same_bytes(s.substr(0, prefix.size()), prefix);
}

// Copies `n` bytes from `src` to `dst` (not overlapping): below 16 bytes as two fixed-size
// words that may overlap, like same_bytes() (a library memcpy call costs more than the copy
// of an id).
inline void copy_bytes(char* dst, const char* src, size_t n) {
  const auto copy2 = [&]<typename Word>(Word) {
    Word head, tail;
    std::memcpy(&head, src, sizeof head);
    std::memcpy(&tail, src + n - sizeof tail, sizeof tail);
    std::memcpy(dst, &head, sizeof head);
    std::memcpy(dst + n - sizeof tail, &tail, sizeof tail);
  };
  if (n >= 16)
    std::memcpy(dst, src, n);
  else if (n >= 8)
    copy2(uint64_t{});
  else if (n >= 4)
    copy2(uint32_t{});
  else if (n >= 2)
    copy2(uint16_t{});
  else if (n == 1)
    dst[0] = src[0];
}

// 0x80 in each byte of `y` that is zero, 0 in every other byte (exactly: no carry between
// bytes). For testing several bytes of a word at once: zero_byte_flags(x ^ (c * 0x01...01))
// flags the bytes of `x` equal to `c`.
template <typename Word> constexpr Word zero_byte_flags(Word y) {
  constexpr Word kLow7 = static_cast<Word>(~Word{0} / 0xFF * 0x7F);
  return static_cast<Word>(~(((y & kLow7) + kLow7) | y | kLow7));
}

// The number of ' ' and '\t' bytes from `p` on, reading no byte at or after `limit`. Eight
// bytes at a time (where eight remain): the count ends at the first other byte without a
// branch per byte, for indentation that varies from line to line.
inline size_t blank_run(const char* p, const char* limit) {
  size_t count = 0;
  if constexpr (std::endian::native == std::endian::little) {
    while (limit - p >= 8) {
      uint64_t x;
      std::memcpy(&x, p, 8);
      const uint64_t blanks =
          zero_byte_flags(x ^ 0x2020202020202020ull) | zero_byte_flags(x ^ 0x0909090909090909ull);
      const uint64_t others = ~blanks & 0x8080808080808080ull;
      if (others != 0) return count + static_cast<size_t>(__builtin_ctzll(others) >> 3);
      count += 8;
      p += 8;
    }
  }
  while (p < limit && (*p == ' ' || *p == '\t')) {
    ++p;
    ++count;
  }
  return count;
}

// [A-Za-z0-9], by table (ids, hashes and keys test it on every byte).
inline bool is_ascii_alnum(char c) {
  static constexpr auto kAlnum = [] {
    std::array<bool, 256> t{};
    for (int b = 0; b < 256; ++b)
      t[b] = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9');
    return t;
  }();
  return kAlnum[static_cast<unsigned char>(c)];
}

// The ASCII JavaScript whitespace: space and "\t" to "\r".
inline bool is_ascii_js_space(char c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0D);
}

} // namespace blockls
