// Splicing TextEdits into a text: the one primitive behind every fix application (the
// grammar's own fix checks, the engine's fix verification, `blockls fix`, the LSP).
#pragma once

#include "grammar/model.h"

#include <span>
#include <string>
#include <string_view>

namespace blockls {

// Applies `edits` to `text`, whose first byte has offset `base` in the edits' coordinates.
// Returns false (and leaves `out` alone) when edits overlap, two insert at one point, or an
// edit lies outside the text.
bool apply_edits(std::string_view text, std::span<const TextEdit> edits, std::string* out,
                 size_t base = 0);

// The smallest span of `before` that differs from `after` (common prefix and suffix removed,
// kept on UTF-8 boundaries): replacing it with `after.substr(span.begin, after.size() -
// (before.size() - span.end) - span.begin)` turns `before` into `after`. One edit instead of a
// whole-document replacement keeps editors' cursors and undo history intact.
ByteRange differing_span(std::string_view before, std::string_view after);

} // namespace blockls
