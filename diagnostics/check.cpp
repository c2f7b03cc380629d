// The engine entry point: parse, validate against the catalog, order, and judge each block.
#include "diagnostics/check.h"

#include "diagnostics/catalog_validation.h"
#include "grammar/document_parser.h"
#include "grammar/unicode.h"

#include <algorithm>

namespace blockls {
namespace {

// Which command of `block` a diagnostic on `line` belongs to (-1: before the first command).
int command_of_line(const Block& block, uint32_t line) {
  int found = -1;
  for (size_t i = 0; i < block.commands.size(); ++i)
    if (block.commands[i].line <= line) found = static_cast<int>(i);
  return found;
}

} // namespace

size_t CheckedDocument::error_count() const {
  return static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                           [](const Diagnostic& d) { return is_error(d.severity); }));
}

CheckedDocument check_parsed(std::string_view text, ParsedDocument parsed,
                             const CheckOptions& options) {
  const ActionCatalog& catalog = options.catalog ? *options.catalog : ActionCatalog::builtin();
  CheckedDocument out;
  out.diagnostics = parsed.diagnostics;
  validate_against_catalog(text, parsed, catalog, &out.diagnostics);

  if (const size_t bad = unicode::first_invalid_utf8(text); bad != std::string_view::npos) {
    Diagnostic d;
    d.code = "INVALID_UTF8";
    d.severity = Severity::parameter_warning;
    d.dialect = Dialect::none;
    d.line = parsed.lines.line_of(bad);
    d.range = {bad, bad + 1};
    d.message = "Invalid UTF-8 byte sequence; invalid bytes are read as U+FFFD";
    d.fix_hint = "Save the transcript as UTF-8";
    out.diagnostics.push_back(std::move(d));
  }

  std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     if (a.line != b.line) return a.line < b.line;
                     return a.range.begin < b.range.begin;
                   });

  out.verdicts.resize(parsed.blocks.size());
  for (size_t b = 0; b < parsed.blocks.size(); ++b)
    out.verdicts[b].command_valid.assign(parsed.blocks[b].commands.size(), true);
  std::vector<bool> block_fatal(parsed.blocks.size(), false);
  for (const Diagnostic& d : out.diagnostics) {
    if (d.block < 0 || static_cast<size_t>(d.block) >= parsed.blocks.size()) continue;
    BlockVerdict& v = out.verdicts[d.block];
    if (!is_error(d.severity)) {
      ++v.warning_count;
      continue;
    }
    ++v.error_count;
    const int command = command_of_line(parsed.blocks[d.block], d.line);
    if (d.severity == Severity::block_fatal || command < 0)
      block_fatal[d.block] = true;
    else
      v.command_valid[command] = false;
  }
  for (size_t b = 0; b < parsed.blocks.size(); ++b) {
    BlockVerdict& v = out.verdicts[b];
    if (block_fatal[b]) std::fill(v.command_valid.begin(), v.command_valid.end(), false);
    v.valid = v.error_count == 0;
  }
  out.parsed = std::move(parsed);
  return out;
}

CheckedDocument check_document(std::string_view text, const CheckOptions& options) {
  return check_parsed(text, parse_document(text, options.parse), options);
}

} // namespace blockls
