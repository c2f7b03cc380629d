// The marker lines of the seed's replacer format (spec: ../shared/spec/dialects.md,
// "SEARCH/REPLACE edits — seed 001"): each marker is alone on its line, exactly as written
// (the real tool's replies in the corpus never vary them). Hand-written, no regular expressions.
#pragma once

#include <string_view>

namespace blockls::replacer {

enum class Marker : unsigned char { none, explanation, file, search, replace, overwrite, end };

inline constexpr std::string_view kExplanation = "<<<EXPLANATION>>>";
inline constexpr std::string_view kFile = "<<<FILE>>>";
inline constexpr std::string_view kSearch = "<<<SEARCH>>>";
inline constexpr std::string_view kReplace = "<<<REPLACE>>>";
inline constexpr std::string_view kOverwrite = "<<<OVERWRITE>>>";
inline constexpr std::string_view kEnd = "<<<END>>>";

// Which marker the line (without its break) is; none for any other line. Cheap: a length and
// prefix test before one comparison.
inline Marker classify(std::string_view line) {
  if (line.size() < kEnd.size() || line.size() > kExplanation.size() || line[0] != '<' ||
      line[1] != '<' || line[2] != '<' || !line.ends_with(">>>"))
    return Marker::none;
  switch (line[3]) {
  case 'E':
    return line == kExplanation ? Marker::explanation : line == kEnd ? Marker::end : Marker::none;
  case 'F':
    return line == kFile ? Marker::file : Marker::none;
  case 'S':
    return line == kSearch ? Marker::search : Marker::none;
  case 'R':
    return line == kReplace ? Marker::replace : Marker::none;
  case 'O':
    return line == kOverwrite ? Marker::overwrite : Marker::none;
  default:
    return Marker::none;
  }
}

// True when `s` holds only ASCII blanks (space, tab, CR, vertical tab, form feed).
inline bool is_blank(std::string_view s) {
  for (const char c : s)
    if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') return false;
  return true;
}

// `s` without leading and trailing ASCII blanks.
inline std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_blank(s.substr(b, 1)))
    ++b;
  while (e > b && is_blank(s.substr(e - 1, 1)))
    --e;
  return s.substr(b, e - b);
}

} // namespace blockls::replacer
