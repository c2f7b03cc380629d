// Equality and prefix tests for the short strings the grammars and the catalog compare all
// the time (names, ids, hashes, era literals), and the byte classes they test. The comparisons
// are inline byte loops: for a few bytes a library memcmp call costs more than the comparison
// itself.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace blockls {

inline bool same_bytes(std::string_view a, std::string_view b) {
  const size_t n = a.size();
  if (n != b.size()) return false;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) { // eight bytes at a time (fixed-size copies compile to loads)
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

inline bool starts_with_bytes(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && same_bytes(s.substr(0, prefix.size()), prefix);
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
