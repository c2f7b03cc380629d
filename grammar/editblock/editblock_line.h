// The lines of Aider's SEARCH/REPLACE edit blocks (spec: ../shared/spec/dialects.md, "Aider
// edit blocks"; Aider's find_original_update_blocks): the three markers as matched on the
// trimmed line, the filename rules of the lines before a block, and shell fences. Hand-written,
// no regular expressions.
#pragma once

#include <cstddef>
#include <string_view>

namespace blockls::editblock {

enum class Marker : unsigned char { none, head, divider, updated };

inline constexpr std::string_view kHead = "<<<<<<< SEARCH";
inline constexpr std::string_view kDivider = "=======";
inline constexpr std::string_view kUpdated = ">>>>>>> REPLACE";

struct MarkerLine {
  Marker kind = Marker::none;
  bool canonical = false; // exactly the canonical marker, nothing around it
};

// Which marker `line` is once trimmed: `<{5,9} SEARCH>?`, `={5,9}`, `>{5,9} REPLACE`.
MarkerLine classify(std::string_view line);

// False when `line` (raw) can be no marker at all: its first byte that trim() keeps is none
// of `<`, `=`, `>` (or it has none). A cheap test for the fast path over SEARCH and REPLACE
// text, which takes every line that is not possibly a marker without classify().
inline bool may_be_marker(std::string_view line) {
  for (const char c : line) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
        (c >= '\x1c' && c <= '\x1f'))
      continue;
    return c == '<' || c == '=' || c == '>';
  }
  return false;
}

// The canonical text of a marker.
std::string_view canonical(Marker kind);

// `line` without leading and trailing whitespace (Python's str.strip() on ASCII).
std::string_view trim(std::string_view line);

// True when `line` (raw, not trimmed) begins a fence: ``` or ~~~ (Markdown), or one of the
// HTML-like fences Aider uses for files that hold backticks (`<source>`, `<code>`, `<pre>`,
// `<codeblock>`, `<sourcecode>`).
bool is_fence_line(std::string_view line);

// The filename a line before a block names (Aider's rules: trimmed; a fence line names the
// rest of its info string only when it holds `.` or `/`; otherwise a trailing `:`, leading
// `#`, surrounding backticks and `*` are stripped; `...` names nothing). Offsets into `line`:
// the filename is always a contiguous slice of the line. Empty when it names nothing.
struct Name {
  size_t begin = 0, end = 0;
  bool empty() const { return begin == end; }
};
Name filename_in(std::string_view line);

// True when the trimmed `line` opens a shell fence (```bash, ```sh, ```cmd, ...): Aider runs
// those as commands, never as edit blocks.
bool is_shell_fence(std::string_view line);

} // namespace blockls::editblock
