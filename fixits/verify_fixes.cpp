// Verifying the grammar's fixes against the whole engine (see verify_fixes.h).
#include "fixits/verify_fixes.h"

#include "diagnostics/codes.h"
#include "diagnostics/recheck.h"
#include "grammar/text_edit.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace blockls {
namespace {

// Largest window re-checked to verify a syntax fix; fixes in larger windows stay unverified.
constexpr size_t kMaxVerifyWindow = 256 * 1024;

// Bytes re-checked per window, beyond which its later diagnostics' fixes stay unverified (but
// at least kMinVerifiedPerWindow diagnostics are always verified). Each verification re-checks
// the whole window, so a window with one error per line (an unclosed block swallowing a chat
// history) would otherwise cost its size times its line count. The limit depends only on the
// window's own text, so an incremental re-check verifies exactly what a full check does.
constexpr size_t kVerifyBytesPerWindow = 2 * 1024 * 1024;
constexpr size_t kMinVerifiedPerWindow = 16;

// How many diagnostics with fixes a window of `size` bytes verifies.
size_t verified_per_window(size_t size) {
  return std::max(kMinVerifiedPerWindow, kVerifyBytesPerWindow / std::max<size_t>(size, 1));
}

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

// Syntax fixes are built by the grammar, which cannot see the catalog: a repaired header may
// create a block that then lacks an `action`. Each such fix is checked on its window with the
// whole engine and dropped if it would add any diagnostic (the fix property), so every fix the
// engine offers removes its diagnostic and adds none.
size_t verify_fixes(std::string_view text, CheckedDocument& checked, const CheckOptions& options,
                    size_t first, size_t end) {
  size_t rechecked = 0;
  const CheckOptions& inner = options;
  // The diagnostic counts of each window before any fix (a window is identified by its first
  // byte: its end follows from its first line). Several diagnostics often share a window.
  std::unordered_map<size_t, std::map<std::string_view, int>> before_cache;
  // How many diagnostics each window (keyed as above) has verified, for verified_per_window.
  std::unordered_map<size_t, size_t> verified_count;
  std::string fixed;
  end = std::min(end, checked.diagnostics.size());
  for (size_t i = first; i < end; ++i) {
    Diagnostic& d = checked.diagnostics[i];
    if (d.fixes.empty() || d.dialect == Dialect::none) continue;
    const CodeInfo* info = find_code(d.code);
    if (!info || info->doc_page == "validation") continue; // built already verified
    const ByteRange window = verify_window(checked.parsed, d, text.size());
    if (window.size() > kMaxVerifyWindow) continue;
    if (verified_count[window.begin]++ >= verified_per_window(window.size())) continue;
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
          if (it == before_cache.end()) {
            rechecked += sub.size();
            it = before_cache
                     .emplace(window.begin, code_counts(check_document(sub, inner).diagnostics))
                     .first;
          }
          before = &it->second;
        }
        rechecked += before->count(d.code) ? fixed.size() : 0;
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
  return rechecked;
}

CheckedDocument check_with_verified_fixes(std::string_view text, const CheckOptions& options) {
  CheckedDocument checked = check_document(text, options);
  verify_fixes(text, checked, options);
  return checked;
}

CheckedDocument recheck_with_verified_fixes(std::string_view old_text, const CheckedDocument& old,
                                            std::string_view new_text, const CheckOptions& options,
                                            bool* incremental, const TextChange* change) {
  // A reused diagnostic's fixes were verified on its verification window, which lies wholly
  // before or after the re-checked window (recheck keeps the blocks before the change's
  // block apart from it), so its text, and so the verdict, is unchanged.
  Recheck r = recheck_document(old_text, old, new_text, options, change);
  verify_fixes(new_text, r.checked, options, r.window_begin, r.window_end);
  if (incremental) *incremental = r.incremental;
  return std::move(r.checked);
}

} // namespace blockls
