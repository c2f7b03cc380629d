// The protocol-free engine API: text in, blocks + every diagnostic (syntax and catalog
// validation) + a verdict per block out. The CLI, the language server and the apply module
// all call this; none of them parse on their own.
#pragma once

#include "diagnostics/action_catalog.h"
#include "grammar/model.h"
#include "grammar/parse_context.h"

#include <string_view>
#include <vector>

namespace blockls {

struct CheckOptions {
  ParseOptions parse;
  const ActionCatalog* catalog = nullptr; // nullptr: the built-in catalog
};

struct BlockVerdict {
  bool valid = false;               // no block_fatal / command_error diagnostic in the block
  std::vector<bool> command_valid;  // per command
  size_t error_count = 0;           // error-severity diagnostics of the block
  size_t warning_count = 0;         // parameter_warning + syntax_info
};

struct CheckedDocument {
  ParsedDocument parsed;                // blocks and line index (parsed.diagnostics: syntax only)
  std::vector<Diagnostic> diagnostics;  // syntax + validation, ordered by line then column
  std::vector<BlockVerdict> verdicts;   // one per parsed.blocks entry
  size_t error_count() const;
};

// Parses and validates `text` (which must outlive the result's ranges' use). The grammar's
// fixes are attached as built; fixits/verify_fixes.h verifies them against the catalog.
CheckedDocument check_document(std::string_view text, const CheckOptions& options = {});
// Validates an already parsed document (streaming callers parse themselves).
CheckedDocument check_parsed(std::string_view text, ParsedDocument parsed,
                             const CheckOptions& options = {});

} // namespace blockls
