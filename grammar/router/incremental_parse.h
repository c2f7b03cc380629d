// Incremental re-parsing for editors: after an edit only the lines from the resume point before
// the change to the first resume point after it where the parse is back in step are parsed
// again; the blocks and diagnostics before and after are reused, the later ones shifted.
// The result is always equal to parse_document(new text); when that cannot be guaranteed
// cheaply, reparse() returns nullopt and the caller parses the whole text.
#pragma once

#include "grammar/model.h"
#include "grammar/parse_context.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace blockls {

// The one contiguous difference of two texts: old[begin, old_end) became new[begin, new_end)
// (the longest common prefix and then the longest common suffix that does not overlap it).
struct TextChange {
  size_t begin = 0;
  size_t old_end = 0;
  size_t new_end = 0;
};
TextChange find_change(std::string_view old_text, std::string_view new_text);
// find_change(old_text, new_text), given `known`: a change that is known to cover every
// difference (old[0, begin) == new[0, begin), old[old_end, end) == new[new_end, end), as an
// editor's edit says). Costs the bytes compared around the known change, not the texts.
TextChange complete_change(std::string_view old_text, std::string_view new_text, TextChange known);

// What a re-parse reused: everything before `first_*` is the old parse's, everything from the
// window's end on is the old parse's shifted by (byte_delta, line_delta, block_delta).
struct ReparseWindow {
  uint32_t first_block = 0, old_block_end = 0, new_block_end = 0;
  uint32_t first_diagnostic = 0, old_diagnostic_end = 0, new_diagnostic_end = 0;
  uint32_t first_line = 0, old_line_end = 0, new_line_end = 0;
  size_t first_offset = 0, old_offset_end = 0, new_offset_end = 0;
  // The window runs to the end of the text (nothing after it was reused; its end-of-input
  // diagnostics are on the line after the last).
  bool reaches_end = false;
  int64_t byte_delta() const {
    return static_cast<int64_t>(new_offset_end) - static_cast<int64_t>(old_offset_end);
  }
  int64_t line_delta() const {
    return static_cast<int64_t>(new_line_end) - static_cast<int64_t>(old_line_end);
  }
  int64_t block_delta() const {
    return static_cast<int64_t>(new_block_end) - static_cast<int64_t>(old_block_end);
  }
};

struct Reparse {
  ParsedDocument doc; // == parse_document(new_text, options)
  ReparseWindow window;
};

// Re-parses `new_text` given `old`, the parse of `old_text` with the same options.
// `change`: find_change(old_text, new_text) when the caller has it (null: computed here).
std::optional<Reparse> reparse(std::string_view old_text, const ParsedDocument& old,
                               std::string_view new_text, ParseOptions options,
                               const TextChange* change = nullptr);

// Moves every position of an element that lies after an edit: bytes by `bytes`, lines by
// `lines` (and, for diagnostics, block indices by `blocks`).
void shift_block(Block& block, int64_t bytes, int64_t lines);
void shift_diagnostic(Diagnostic& diagnostic, int64_t bytes, int64_t lines, int64_t blocks);

} // namespace blockls
