// Edit distance for did-you-mean fixes.
#include "diagnostics/suggest.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>

namespace blockls {

namespace {

// ASCII folding, as std::tolower does in the "C" locale (blockls never changes the locale).
char fold_ascii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// The distance when it is at most `bound`, otherwise some value above `bound`: rows are
// abandoned once two consecutive ones exceed the bound (no later cell can come back under it,
// as every cell derives from the two rows above).
size_t bounded_distance(std::string_view a, std::string_view b, size_t bound);

} // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
  return bounded_distance(a, b, SIZE_MAX);
}

namespace {

size_t bounded_distance(std::string_view a, std::string_view b, size_t bound) {
  const auto fold = fold_ascii;
  const size_t n = a.size(), m = b.size();
  // Three rolling rows (the transposition looks two rows back); on the stack for short names.
  constexpr size_t kStackColumns = 64;
  size_t stack[3 * kStackColumns];
  std::vector<size_t> heap;
  size_t* rows = stack;
  if (m + 1 > kStackColumns) {
    heap.resize(3 * (m + 1));
    rows = heap.data();
  }
  const size_t width = m + 1;
  const auto row = [&](size_t i) { return rows + (i % 3) * width; };
  for (size_t j = 0; j <= m; ++j)
    row(0)[j] = j;
  bool prev_over = false;
  // With a small bound only the diagonal band |i - j| <= bound can hold a cell within it (each
  // step off the diagonal costs 1): cells outside are never computed and read as "far".
  const bool banded = bound < std::max(n, m);
  const size_t far = banded ? bound + n + m + 2 : 0;
  if (banded && (n > m ? n - m : m - n) > bound) return bound + 1; // the corner is off the band
  for (size_t i = 1; i <= n; ++i) {
    size_t* cur = row(i);
    const size_t* prev = row(i - 1);
    const size_t* prev2 = i > 1 ? row(i - 2) : nullptr;
    cur[0] = i;
    size_t row_min = cur[0];
    const char ai = fold(a[i - 1]);
    size_t lo = 1, hi = m;
    if (banded) {
      lo = i > bound ? i - bound : 1;
      hi = std::min(m, i + bound);
      if (lo > 1) {
        cur[lo - 1] = far;
        row_min = far;
      }
      if (hi < m) cur[hi + 1] = far; // read as "above" by the next row
      if (lo > hi) {
        if (row_min > bound && prev_over) return bound + 1;
        prev_over = row_min > bound;
        continue;
      }
    }
    for (size_t j = lo; j <= hi; ++j) {
      const char bj = fold(b[j - 1]);
      const size_t cost = ai == bj ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && ai == fold(b[j - 2]) && fold(a[i - 2]) == bj)
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      row_min = std::min(row_min, cur[j]);
    }
    const bool over = row_min > bound;
    if (over && prev_over) return bound + 1;
    prev_over = over;
  }
  return row(n)[m];
}

} // namespace

namespace {

// Byte counts of a name, ASCII case folded, in 32 bins (bin = folded byte mod 32: letters
// and `_` each have their own; names are far shorter than 32767 bytes).
using CharCounts = std::array<int16_t, 32>;

CharCounts char_counts(std::string_view s) {
  CharCounts counts{};
  for (const char c : s)
    ++counts[static_cast<unsigned char>(fold_ascii(c)) & 31];
  return counts;
}

// A lower bound of the distance between the names counted in `word` and `other`, in time
// linear in `other`'s length: an insertion or a deletion changes the (binned) counts by 1 in
// all, a substitution by at most 2, a transposition not at all, so the distance is at least
// half their difference. It rules out most candidates before the quadratic distance.
size_t distance_lower_bound(const CharCounts& word, std::string_view other) {
  CharCounts gap = word;
  for (const char c : other)
    --gap[static_cast<unsigned char>(fold_ascii(c)) & 31];
  size_t total = 0;
  for (const int16_t g : gap)
    total += static_cast<size_t>(g < 0 ? -g : g);
  return (total + 1) / 2;
}

} // namespace

std::vector<std::string> close_names(std::string_view word,
                                     const std::vector<std::string>& candidates,
                                     size_t max_distance) {
  std::vector<std::pair<size_t, std::string>> scored;
  const CharCounts word_counts = char_counts(word);
  for (const std::string& c : candidates) {
    if (c == word) continue;
    // Cheap filters (length, then byte counts) before the quadratic distance.
    const size_t diff = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (diff > max_distance || distance_lower_bound(word_counts, c) > max_distance) continue;
    const size_t d = bounded_distance(word, c, max_distance);
    if (d <= max_distance &&
        std::none_of(scored.begin(), scored.end(), [&](const auto& s) { return s.second == c; }))
      scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& s : scored)
    out.push_back(std::move(s.second));
  return out;
}

} // namespace blockls
