// A table of code point ranges, as the generated Unicode tables hold them (unicode_tables.cpp,
// unicode_width_tables.cpp; scripts/lib/unicode_ranges.py writes them), and their lookup.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>

namespace blockls::unicode {

struct CodepointRange {
  char32_t first;
  char32_t last;
};

// True when `cp` lies in one of `table`'s ranges (sorted and disjoint): a binary search.
template <size_t N> bool in_table(const CodepointRange (&table)[N], char32_t cp) {
  auto it =
      std::upper_bound(std::begin(table), std::end(table), cp,
                       [](char32_t value, const CodepointRange& r) { return value < r.first; });
  if (it == std::begin(table)) return false;
  --it;
  return cp <= it->last;
}

} // namespace blockls::unicode
