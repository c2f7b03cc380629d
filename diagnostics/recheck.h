// The incremental engine for editors: re-checks a document after an edit by re-parsing and
// re-validating only the window around the change (grammar/router/incremental_parse.h) and reusing
// the rest of the previous check. The result always equals check_document(new text).
#pragma once

#include "diagnostics/check.h"
#include "grammar/router/incremental_parse.h"

#include <cstddef>
#include <string_view>

namespace blockls {

struct Recheck {
  CheckedDocument checked;  // == check_document(new_text, options)
  bool incremental = false; // false: the whole text was checked again
  // checked.diagnostics[window_begin, window_end) were computed afresh; the others are the
  // previous check's (shifted). Fix verification need only look at the fresh ones.
  size_t window_begin = 0, window_end = 0;
  // When incremental: the re-parse's window (every block outside it is the old check's,
  // moved by the window's deltas when after it).
  ReparseWindow parse_window;
};

// `old` is the check of `old_text` with the same `options` (its diagnostics may carry verified
// fixes: the reused ones keep them). Only an `old` checked with keep_parser_diagnostics can be
// re-checked incrementally (and only a result asked for with it can be the next `old`); any
// other is checked again in full.
// `change`: find_change(old_text, new_text) when the caller has it (null: computed here).
Recheck recheck_document(std::string_view old_text, const CheckedDocument& old,
                         std::string_view new_text, const CheckOptions& options = {},
                         const TextChange* change = nullptr);

} // namespace blockls
