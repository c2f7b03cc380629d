// The engine's result as JSON, in the TELT seed's output shape (blocks / errors / summary)
// extended with dialect, block ids, end positions and concrete fixes. Positions are 1-based
// lines and 1-based UTF-16 columns. Used by `blockls check --format json` and by tests.
#pragma once

#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"
#include "diagnostics/json_writer.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace blockls {

struct Summary;

// The writers: each appends one report object to `w` (the fast path of every JSON output).
// The nlohmann::json functions below are the same objects read back, for callers that edit them.
// {"blocks", "errors", ["path",] "summary"} of one document.
void write_document(JsonWriter& w, std::string_view text, const CheckedDocument& checked,
                    const ActionCatalog& catalog, std::optional<std::string_view> path);
void write_block(JsonWriter& w, std::string_view text, const CheckedDocument& checked, size_t b,
                 const ActionCatalog& catalog);
void write_diagnostic(JsonWriter& w, std::string_view text, const CheckedDocument& checked,
                      const Diagnostic& diagnostic);
void write_summary(JsonWriter& w, const Summary& summary);

// {"blocks": [...], "errors": [...], "summary": {...}} for one document. Each command's
// `action` is the canonical action of `catalog` it maps to (null when unknown).
nlohmann::json document_json(std::string_view text, const CheckedDocument& checked,
                             const ActionCatalog& catalog = ActionCatalog::builtin());

// One block object of document_json's `blocks` (`checked.parsed.blocks[b]`).
nlohmann::json block_json(std::string_view text, const CheckedDocument& checked, size_t b,
                          const ActionCatalog& catalog = ActionCatalog::builtin());

// One error object (see docs/output-formats.md).
nlohmann::json diagnostic_json(std::string_view text, const CheckedDocument& checked,
                               const Diagnostic& diagnostic);

// A fix with 1-based edit ranges.
nlohmann::json fix_json(std::string_view text, const LineIndex& lines, const Fix& fix);

// Parameters of a command grouped by name: one value -> string, repeated -> array.
nlohmann::json command_params_json(std::string_view text, const Block& block,
                                   const Command& command);

struct Summary {
  size_t blocks_parsed = 0, blocks_valid = 0, commands_found = 0, commands_valid = 0;
  size_t errors = 0, warnings = 0, infos = 0;
  // Adds another document's counts (a summary over many files, or over a stream's parts).
  Summary& operator+=(const Summary& s) {
    blocks_parsed += s.blocks_parsed;
    blocks_valid += s.blocks_valid;
    commands_found += s.commands_found;
    commands_valid += s.commands_valid;
    errors += s.errors;
    warnings += s.warnings;
    infos += s.infos;
    return *this;
  }
};
Summary summarize(const CheckedDocument& checked);
// document_json's `summary` object.
nlohmann::json summary_json(const Summary& summary);

} // namespace blockls
