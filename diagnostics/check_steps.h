// The steps of check_parsed, shared with the incremental re-check (diagnostics/recheck.h) so
// that both order and judge diagnostics the same way.
#pragma once

#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace blockls::check_steps {

// Syntax diagnostics [first_syntax, end_syntax) of `parsed` and the catalog validation of
// blocks [first_block, end_block), in check order: by line, then first byte; on ties syntax
// before validation, each in the order found. The syntax diagnostics are copied, or moved out
// of `movable_syntax` when it is given (it must be &parsed.diagnostics). `validated`, when
// given, holds the validation of those blocks already (what validate_blocks() reports, in its
// order) and is moved from.
std::vector<Diagnostic> ordered(std::string_view text, const ParsedDocument& parsed,
                                const ActionCatalog& catalog, size_t first_syntax,
                                size_t end_syntax, size_t first_block, size_t end_block,
                                std::vector<Diagnostic>* movable_syntax = nullptr,
                                std::vector<Diagnostic>* validated = nullptr);

// The document-level INVALID_UTF8 diagnostic of `text`, if it has an invalid byte.
std::optional<Diagnostic> invalid_utf8(std::string_view text, const LineIndex& lines);

// Inserts a document-level diagnostic into an ordered list, after every diagnostic at the
// same position (where check_document puts it); returns its index.
size_t insert_document_level(std::vector<Diagnostic>& ordered, Diagnostic diagnostic);

// The verdicts of blocks [first_block, end_block) (resized to cover them) from
// `diagnostics`, which holds every diagnostic of those blocks. `command_counts`, when given,
// holds the number of commands of every block of `parsed` (so that only blocks with an error
// need be read).
void judge(const ParsedDocument& parsed, const std::vector<Diagnostic>& diagnostics,
           std::vector<BlockVerdict>& verdicts, size_t first_block, size_t end_block,
           const std::vector<uint32_t>* command_counts = nullptr);

} // namespace blockls::check_steps
