// The engine entry point: parse, validate against the catalog, order, and judge each block.
#include "diagnostics/check.h"

#include "diagnostics/catalog_validation.h"
#include "grammar/document_parser.h"
#include "grammar/unicode.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

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
  return static_cast<size_t>(
      std::count_if(diagnostics.begin(), diagnostics.end(),
                    [](const Diagnostic& d) { return is_error(d.severity); }));
}

CheckedDocument check_parsed(std::string_view text, ParsedDocument parsed,
                             const CheckOptions& options) {
  const ActionCatalog& catalog = options.catalog ? *options.catalog : ActionCatalog::builtin();
  CheckedDocument out;
  out.diagnostics.reserve(parsed.diagnostics.size() + parsed.diagnostics.size() / 4 + 8);
  out.diagnostics = parsed.diagnostics;
  const size_t syntax_count = out.diagnostics.size();
  validate_against_catalog(text, parsed, catalog, &out.diagnostics);
  const size_t validation_end = out.diagnostics.size();

  // The parser has seen which prefix of the text is ASCII (always valid UTF-8).
  const size_t ascii = std::min(parsed.lines.ascii_prefix(), text.size());
  size_t bad = unicode::first_invalid_utf8(text.substr(ascii));
  if (bad != std::string_view::npos) bad += ascii;
  if (bad != std::string_view::npos) {
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

  // A stable sort of the whole list, done as stable sorts of its parts (syntax, validation,
  // document-level; each is mostly in order already) and stable merges.
  const auto by_position = [](const Diagnostic& a, const Diagnostic& b) {
    if (a.line != b.line) return a.line < b.line;
    return a.range.begin < b.range.begin;
  };
  const auto sort_part = [&](size_t begin, size_t end) {
    const auto first = out.diagnostics.begin() + static_cast<ptrdiff_t>(begin);
    const auto last = out.diagnostics.begin() + static_cast<ptrdiff_t>(end);
    if (!std::is_sorted(first, last, by_position)) std::stable_sort(first, last, by_position);
  };
  sort_part(0, syntax_count);
  sort_part(syntax_count, validation_end);
  const auto at = [&](size_t i) { return out.diagnostics.begin() + static_cast<ptrdiff_t>(i); };
  if (syntax_count > 0 && validation_end > syntax_count &&
      by_position(*at(syntax_count), *at(syntax_count - 1)))
    std::inplace_merge(at(0), at(syntax_count), at(validation_end), by_position);
  if (validation_end > 0 && out.diagnostics.size() > validation_end &&
      by_position(*at(validation_end), *at(validation_end - 1)))
    std::inplace_merge(at(0), at(validation_end), out.diagnostics.end(), by_position);

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
      v.command_valid.set(static_cast<size_t>(command), false);
  }
  for (size_t b = 0; b < parsed.blocks.size(); ++b) {
    BlockVerdict& v = out.verdicts[b];
    if (block_fatal[b]) v.command_valid.assign(v.command_valid.size(), false);
    v.valid = v.error_count == 0;
  }
  out.parsed = std::move(parsed);
  return out;
}

CheckedDocument check_document(std::string_view text, const CheckOptions& options) {
  return check_parsed(text, parse_document(text, options.parse), options);
}

} // namespace blockls
