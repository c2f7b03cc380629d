// Incremental re-check (see recheck.h). The ordered diagnostics of a check are in line order,
// so those of the reused parts are contiguous: the ones before the re-parsed window are kept,
// the window's are computed by the same steps as check_parsed, the ones after are shifted.
// Every assumption that makes this equal to a full check is verified; if one fails, the whole
// text is checked again.
#include "diagnostics/recheck.h"

#include "diagnostics/check_steps.h"
#include "grammar/router/incremental_parse.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace blockls {
namespace {

Recheck full_check(std::string_view new_text, const CheckOptions& options) {
  Recheck r;
  r.checked = check_document(new_text, options);
  r.window_end = r.checked.diagnostics.size();
  return r;
}

// True when the diagnostic is about the text of blocks [first, end) or, having no block,
// reported on lines [first_line, end_line).
bool belongs(const Diagnostic& d, size_t first, size_t end, uint32_t first_line,
             uint32_t end_line) {
  if (d.block >= 0)
    return static_cast<size_t>(d.block) >= first && static_cast<size_t>(d.block) < end;
  return d.line >= first_line && d.line < end_line;
}

} // namespace

Recheck recheck_document(std::string_view old_text, const CheckedDocument& old,
                         std::string_view new_text, const CheckOptions& options,
                         const TextChange* change) {
  // The re-parse reuses the old parser's diagnostics: without them, check it all.
  if (!old.parser_diagnostics_kept) return full_check(new_text, options);
  const TextChange found = change ? *change : find_change(old_text, new_text);
  std::optional<Reparse> reparsed = reparse(old_text, old.parsed, new_text, options.parse, &found);
  if (!reparsed) return full_check(new_text, options);
  const ReparseWindow& w = reparsed->window;
  // Lines of the window's end; past every line when it runs to the end of the text.
  const uint32_t old_line_end = w.reaches_end ? UINT32_MAX : w.old_line_end;
  const uint32_t new_line_end = w.reaches_end ? UINT32_MAX : w.new_line_end;
  const ParsedDocument& parsed = reparsed->doc;
  const ActionCatalog& catalog = options.catalog ? *options.catalog : ActionCatalog::builtin();

  std::vector<Diagnostic> fresh =
      check_steps::ordered(new_text, parsed, catalog, w.first_diagnostic, w.new_diagnostic_end,
                           w.first_block, w.new_block_end);
  // The old list, without its document-level diagnostic, splits at the window's lines; every
  // diagnostic on either side must belong to that side (by block, or by line if it has none)
  // and the fresh ones must lie on the window's lines.
  const auto is_document_level = [](const Diagnostic& d) { return d.dialect == Dialect::none; };
  const std::vector<Diagnostic>& before = old.diagnostics;
  const auto line_at_least = [](const Diagnostic& d, uint32_t line) { return d.line < line; };
  const size_t prefix_end = static_cast<size_t>(
      std::lower_bound(before.begin(), before.end(), w.first_line, line_at_least) - before.begin());
  const size_t suffix_begin =
      static_cast<size_t>(std::lower_bound(before.begin() + static_cast<ptrdiff_t>(prefix_end),
                                           before.end(), old_line_end, line_at_least) -
                          before.begin());
  for (size_t i = 0; i < prefix_end; ++i)
    if (!is_document_level(before[i]) && !belongs(before[i], 0, w.first_block, 0, w.first_line))
      return full_check(new_text, options);
  for (size_t i = prefix_end; i < suffix_begin; ++i)
    if (!is_document_level(before[i]) &&
        !belongs(before[i], w.first_block, w.old_block_end, w.first_line, old_line_end))
      return full_check(new_text, options);
  for (size_t i = suffix_begin; i < before.size(); ++i)
    if (!is_document_level(before[i]) &&
        !belongs(before[i], w.old_block_end, SIZE_MAX, old_line_end, UINT32_MAX))
      return full_check(new_text, options);
  for (const Diagnostic& d : fresh)
    if (d.line < w.first_line || d.line >= new_line_end ||
        !belongs(d, w.first_block, w.new_block_end, w.first_line, new_line_end))
      return full_check(new_text, options);

  Recheck r;
  r.incremental = true;
  r.parse_window = w;
  CheckedDocument& out = r.checked;
  out.diagnostics.reserve(before.size() + fresh.size() + 1);
  for (size_t i = 0; i < prefix_end; ++i)
    if (!is_document_level(before[i])) out.diagnostics.push_back(before[i]);
  r.window_begin = out.diagnostics.size();
  std::move(fresh.begin(), fresh.end(), std::back_inserter(out.diagnostics));
  r.window_end = out.diagnostics.size();
  for (size_t i = suffix_begin; i < before.size(); ++i) {
    if (is_document_level(before[i])) continue;
    out.diagnostics.push_back(before[i]);
    shift_diagnostic(out.diagnostics.back(), w.byte_delta(), w.line_delta(), w.block_delta());
  }
  // The old text's first invalid byte: its one document-level diagnostic.
  const auto old_invalid = std::find_if(before.begin(), before.end(), is_document_level);
  const size_t old_bad =
      old_invalid == before.end() ? std::string_view::npos : old_invalid->range.begin;
  if (auto d = check_steps::invalid_utf8_after_change(new_text, parsed.lines, old.parsed.lines,
                                                      old_text.size(), found, old_bad)) {
    const size_t at = check_steps::insert_document_level(out.diagnostics, std::move(*d));
    if (at < r.window_begin) ++r.window_begin;
    if (at <= r.window_end) ++r.window_end;
  }

  // Verdicts are per block: the reused blocks keep theirs.
  out.verdicts.reserve(parsed.blocks.size());
  out.verdicts.assign(old.verdicts.begin(), old.verdicts.begin() + w.first_block);
  check_steps::judge(out.diagnostics, out.verdicts, w.first_block, w.new_block_end,
                     check_steps::CommandLines::of(parsed, w.first_block, w.new_block_end));
  out.verdicts.insert(out.verdicts.end(), old.verdicts.begin() + w.old_block_end,
                      old.verdicts.end());
  out.parsed = std::move(reparsed->doc);
  out.parser_diagnostics_kept = options.keep_parser_diagnostics;
  if (!out.parser_diagnostics_kept) out.parsed.diagnostics.clear();
  return r;
}

} // namespace blockls
