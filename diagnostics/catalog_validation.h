// Validation of parsed commands against the action catalog: TELT commands by their command
// name, NESL blocks by their `action` value. Produces diagnostics with did-you-mean fixes
// that are only offered when the renamed command would validate with no new diagnostic.
#pragma once

#include "diagnostics/action_catalog.h"
#include "grammar/model.h"

#include <string_view>
#include <vector>

namespace blockls {

// Validates blocks [first_block, end_block) of `doc` (all of them, or those an incremental
// re-check parsed again).
void validate_blocks(std::string_view text, const ParsedDocument& doc, const ActionCatalog& catalog,
                     size_t first_block, size_t end_block, std::vector<Diagnostic>* out);
// What validate_blocks() reports for the one block `block` (number `block_index`); `lines`
// need index the text only as far as the block's last line.
void validate_block(std::string_view text, const Block& block, size_t block_index,
                    const LineIndex& lines, const ActionCatalog& catalog,
                    std::vector<Diagnostic>* out);

// Type check of one value (nesl's transformToAction rules). Returns "" when the value is
// acceptable, else the nesl-style message ("Invalid integer value: x", ...).
std::string type_error(const ParamSpec& spec, std::string_view value);

} // namespace blockls
