// check_with_verified_fixes() of a large text, handed over part by part, so that a caller
// which reports each part before the next is checked keeps about one part's model at a time
// instead of the whole document's (`blockls check` of a large input, cli/parted_report.h).
#pragma once

#include "diagnostics/check.h"

#include <cstddef>
#include <functional>
#include <string_view>

namespace blockls {

// Checks `text` in parts cut at resume points (grammar/router/document_parser.h, PartParser),
// each the first one at or past `part_bytes` bytes beyond the last, and calls `on_part` with
// each, in text order, until it returns false. Together the parts are
// check_with_verified_fixes(text, options): the same blocks, diagnostics (with the same
// verified fixes), verdicts and order, the document's one INVALID_UTF8 in the part that holds
// it. In a part, positions are those of `text` and block indices count from the part's first
// block. `lines` is the line index of the whole text, as index_document_lines(text,
// options.parse) gives it: it is lent to each part as parsed.lines (to be left there) and is
// back in `lines` when this returns. Each part is let go after its call. Returns the number
// of parts handed over.
//
// `pipelined`: the parts are parsed on a thread of their own (at most one parsed part waits
// besides the one being parsed) while the calling thread checks, verifies and hands over the
// parts before: a second core does the parse, about two thirds of the work. The parts and
// calls are the same. options.parse.observer, if any, is told of each block on that thread
// (with a copy of `lines`).
size_t check_in_parts(std::string_view text, LineIndex& lines, const CheckOptions& options,
                      size_t part_bytes,
                      const std::function<bool(const CheckedDocument& part)>& on_part,
                      bool pipelined = false);

} // namespace blockls
