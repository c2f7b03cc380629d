// Outward positions and excerpts of a diagnostic: 1-based lines, 1-based UTF-16 columns (as
// nesl-js and SARIF count), the error line's content and the two context formats in use.
#pragma once

#include "grammar/model.h"

#include <string>
#include <string_view>

namespace blockls {

struct OutwardPosition {
  uint32_t line = 1;   // 1-based
  uint32_t column = 1; // 1-based, UTF-16 code units
};

// A source text with its line index: what every excerpt function needs.
struct SourceView {
  std::string_view text;
  const LineIndex& lines;

  // Position of byte `offset`, reported on 0-based `line` (which may be one past the last
  // line for end-of-input errors: column 1 there).
  OutwardPosition position(uint32_t line, size_t offset) const;
  OutwardPosition start_of(const Diagnostic& d) const { return position(d.line, d.range.begin); }
  // End of the diagnostic's range (the start when the range is empty).
  OutwardPosition end_of(const Diagnostic& d) const;
  // Length of the range in UTF-16 units.
  size_t utf16_length(ByteRange range) const;

  // The reported line's text without its line break ("" past the end).
  std::string_view line_content(uint32_t line) const;
  // nesl-js `context`: up to 5 lines around the 0-based `line` (2 before, 2 after, shifted at
  // the edges), split on "\n" only, so a CRLF document keeps its "\r"s.
  std::string nesl_context(uint32_t line) const;
  // The TELT seed's `context_window`: lines line-2..line+2 as "line N: text", the error line
  // marked "  <-- ERROR HERE".
  std::string context_window(uint32_t line) const;
};

} // namespace blockls
