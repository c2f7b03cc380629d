// The engine entry point: parse, validate against the catalog, order, and judge each block.
#include "diagnostics/check.h"

#include "diagnostics/catalog_validation.h"
#include "diagnostics/codes.h"
#include "grammar/document_parser.h"
#include "grammar/text_edit.h"
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

// Largest window re-checked to verify a syntax fix; fixes in larger windows stay unverified.
constexpr size_t kMaxVerifyWindow = 256 * 1024;

std::map<std::string_view, int> code_counts(const std::vector<Diagnostic>& diagnostics) {
  std::map<std::string_view, int> counts;
  for (const Diagnostic& d : diagnostics)
    ++counts[d.code];
  return counts;
}

// True when `after` has fewer `code` diagnostics than `before` and no more of any code.
bool is_clean_improvement(const std::map<std::string_view, int>& before,
                          const std::map<std::string_view, int>& after, std::string_view code) {
  for (const auto& [c, n] : after) {
    const auto it = before.find(c);
    if (n > (it == before.end() ? 0 : it->second)) return false;
  }
  const auto a = after.find(code), b = before.find(code);
  return (a == after.end() ? 0 : a->second) < (b == before.end() ? 0 : b->second);
}

// The text a syntax diagnostic's fix can affect: from its block's start line (or its own line
// when it has no block) to the start of the next block. Blocks are in start-line order, so the
// next block is found by binary search.
ByteRange verify_window(const ParsedDocument& parsed, const Diagnostic& d, size_t text_size) {
  const uint32_t first_line = d.block >= 0 ? parsed.blocks[d.block].start_line
                                           : std::min(d.line, parsed.lines.line_count() - 1);
  ByteRange window{parsed.lines.line_start(first_line), text_size};
  const auto next =
      std::upper_bound(parsed.blocks.begin(), parsed.blocks.end(), first_line,
                       [](uint32_t line, const Block& b) { return line < b.start_line; });
  if (next != parsed.blocks.end()) window.end = std::max(window.begin, next->range.begin);
  return window;
}

} // namespace

namespace {
// Syntax fixes are built by the grammar, which cannot see the catalog: a repaired header may
// create a block that then lacks an `action`. Each such fix is checked on its window with the
// whole engine and dropped if it would add any diagnostic (the fix property), so every fix the
// engine offers removes its diagnostic and adds none.
void verify_syntax_fixes(std::string_view text, CheckedDocument& checked,
                         const CheckOptions& options) {
  CheckOptions inner = options;
  inner.verify_fixes = false;
  // The diagnostic counts of each window before any fix (a window is identified by its first
  // byte: its end follows from its first line). Several diagnostics often share a window.
  std::unordered_map<size_t, std::map<std::string_view, int>> before_cache;
  std::string fixed;
  for (Diagnostic& d : checked.diagnostics) {
    if (d.fixes.empty() || d.dialect == Dialect::none) continue;
    const CodeInfo* info = find_code(d.code);
    if (!info || info->doc_page == "validation") continue; // built already verified
    const ByteRange window = verify_window(checked.parsed, d, text.size());
    if (window.size() > kMaxVerifyWindow) continue;
    const std::string_view sub = slice(text, window);
    const std::map<std::string_view, int>* before = nullptr;
    size_t kept_count = 0;
    for (size_t f = 0; f < d.fixes.size(); ++f) {
      Fix& fix = d.fixes[f];
      bool keep = true;
      bool inside = true;
      for (const TextEdit& e : fix.edits)
        if (e.range.begin < window.begin || e.range.end > window.end) inside = false;
      // Edits outside the window cannot be verified locally: keep them as the grammar made them.
      if (inside && apply_edits(sub, fix.edits, &fixed, window.begin)) {
        if (!before) {
          auto it = before_cache.find(window.begin);
          if (it == before_cache.end())
            it = before_cache
                     .emplace(window.begin, code_counts(check_document(sub, inner).diagnostics))
                     .first;
          before = &it->second;
        }
        keep = before->count(d.code) == 0 ||
               is_clean_improvement(*before, code_counts(check_document(fixed, inner).diagnostics),
                                    d.code);
      }
      if (keep) {
        if (kept_count != f) d.fixes[kept_count] = std::move(fix);
        ++kept_count;
      }
    }
    const bool dropped = kept_count != d.fixes.size();
    d.fixes.resize(kept_count);
    if (dropped && !d.fixes.empty() &&
        std::none_of(d.fixes.begin(), d.fixes.end(), [](const Fix& f) { return f.preferred; }))
      d.fixes.front().preferred = true;
  }
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
      v.command_valid[command] = false;
  }
  for (size_t b = 0; b < parsed.blocks.size(); ++b) {
    BlockVerdict& v = out.verdicts[b];
    if (block_fatal[b]) std::fill(v.command_valid.begin(), v.command_valid.end(), false);
    v.valid = v.error_count == 0;
  }
  out.parsed = std::move(parsed);
  if (options.verify_fixes) verify_syntax_fixes(text, out, options);
  return out;
}

CheckedDocument check_document(std::string_view text, const CheckOptions& options) {
  return check_parsed(text, parse_document(text, options.parse), options);
}

} // namespace blockls
