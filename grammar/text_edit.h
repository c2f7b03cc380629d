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

} // namespace blockls
