// Edit distance for did-you-mean fixes.
#include "diagnostics/suggest.h"

#include <algorithm>
#include <cctype>

namespace blockls {

size_t edit_distance(std::string_view a, std::string_view b) {
  const auto fold = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::vector<std::string> close_names(std::string_view word, const std::vector<std::string>& candidates,
                                     size_t max_distance) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string& c : candidates) {
    if (c == word) continue;
    // Cheap length filter before the quadratic distance.
    const size_t diff = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (diff > max_distance) continue;
    const size_t d = edit_distance(word, c);
    if (d <= max_distance &&
        std::none_of(scored.begin(), scored.end(), [&](const auto& s) { return s.second == c; }))
      scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (auto& s : scored) out.push_back(std::move(s.second));
  return out;
}

} // namespace blockls
