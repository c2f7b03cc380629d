// The marker lines of a Codex patch, matched on the trimmed line (Codex trims them too).
#pragma once

#include <cstddef>
#include <string_view>

namespace blockls::patch {

inline constexpr std::string_view kBegin = "*** Begin Patch";
inline constexpr std::string_view kEnd = "*** End Patch";

enum class HeaderKind : unsigned char { none, add, remove, update, move };

struct Header {
  HeaderKind kind = HeaderKind::none;
  size_t marker_size = 0; // `*** Add File:` without the space
  size_t path_begin = 0;  // where the path starts in the trimmed line
};

// A file-operation header (`*** Add File: P`, `*** Delete File: P`, `*** Update File: P`) or
// `*** Move to: P`, in a trimmed line.
constexpr Header classify_header(std::string_view t) {
  constexpr struct {
    std::string_view prefix;
    HeaderKind kind;
  } kHeaders[] = {{"*** Add File: ", HeaderKind::add},
                  {"*** Delete File: ", HeaderKind::remove},
                  {"*** Update File: ", HeaderKind::update},
                  {"*** Move to: ", HeaderKind::move}};
  for (const auto& h : kHeaders)
    if (t.starts_with(h.prefix)) return {h.kind, h.prefix.size() - 1, h.prefix.size()};
  return {};
}

} // namespace blockls::patch
