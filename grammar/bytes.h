// Equality and prefix tests for the short strings the grammars and the catalog compare all
// the time (names, ids, hashes, era literals). The comparisons are inline byte loops: for a
// few bytes a library memcmp call costs more than the comparison itself.
#pragma once

#include <cstddef>
#include <string_view>

namespace blockls {

inline bool same_bytes(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

inline bool starts_with_bytes(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && same_bytes(s.substr(0, prefix.size()), prefix);
}

} // namespace blockls
