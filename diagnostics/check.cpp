// The engine entry point: parse, validate against the catalog, order, and judge each block.
#include "diagnostics/check.h"

#include "diagnostics/catalog_validation.h"
#include "diagnostics/codes.h"
#include "grammar/text_edit.h"
#include "grammar/document_parser.h"
#include "grammar/unicode.h"

#include <algorithm>
#include <map>
#include <optional>

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
  for (const Diagnostic& d : diagnostics) ++counts[d.code];
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
// when it has no block) to the start of the next block.
ByteRange verify_window(const ParsedDocument& parsed, const Diagnostic& d, size_t text_size) {
  const uint32_t first_line =
      d.block >= 0 ? parsed.blocks[d.block].start_line : std::min(d.line, parsed.lines.line_count() - 1);
  ByteRange window{parsed.lines.line_start(first_line), text_size};
  for (const Block& b : parsed.blocks)
    if (b.start_line > first_line && (d.block < 0 || &b != &parsed.blocks[d.block])) {
      window.end = std::max(window.begin, b.range.begin);
      break;
    }
  return window;
}

} // namespace

namespace {
// Syntax fixes are built by the grammar, which cannot see the catalog: a repaired header may
// create a block that then lacks an `action`. Each such fix is checked on its window with the
// whole engine and dropped if it would add any diagnostic (the fix property), so every fix the
// engine offers removes its diagnostic and adds none.
void verify_syntax_fixes(std::string_view text, CheckedDocument& checked, const CheckOptions& options) {
  for (Diagnostic& d : checked.diagnostics) {
    if (d.fixes.empty() || d.dialect == Dialect::none) continue;
    const CodeInfo* info = find_code(d.code);
    if (!info || info->doc_page == "validation") continue; // built already verified
    const ByteRange window = verify_window(checked.parsed, d, text.size());
    if (window.size() > kMaxVerifyWindow) continue;
    const std::string_view sub = slice(text, window);
    CheckOptions inner = options;
    inner.verify_fixes = false;
    std::optional<std::map<std::string_view, int>> before;
    std::vector<Fix> kept;
    for (Fix& fix : d.fixes) {
      Fix shifted = fix;
      bool inside = true;
      for (TextEdit& e : shifted.edits) {
        if (e.range.begin < window.begin || e.range.end > window.end) inside = false;
        e.range.begin -= std::min(e.range.begin, window.begin);
        e.range.end -= std::min(e.range.end, window.begin);
      }
      std::string fixed;
      if (!inside || !apply_edits(sub, shifted.edits, &fixed)) {
        kept.push_back(std::move(fix)); // cannot verify locally: keep as the grammar made it
        continue;
      }
      if (!before) before = code_counts(check_document(sub, inner).diagnostics);
      if (before->count(d.code) == 0 ||
          is_clean_improvement(*before, code_counts(check_document(fixed, inner).diagnostics), d.code))
        kept.push_back(std::move(fix));
    }
    const bool dropped = kept.size() != d.fixes.size();
    if (dropped && !kept.empty() &&
        std::none_of(kept.begin(), kept.end(), [](const Fix& f) { return f.preferred; }))
      kept.front().preferred = true;
    d.fixes = std::move(kept);
  }
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
  if (options.verify_fixes) verify_syntax_fixes(text, out, options);
  return out;
}

CheckedDocument check_document(std::string_view text, const CheckOptions& options) {
  return check_parsed(text, parse_document(text, options.parse), options);
}

} // namespace blockls
