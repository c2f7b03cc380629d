// Verifying the grammar's fixes against the whole engine (see verify_fixes.h).
#include "fixits/verify_fixes.h"

#include "diagnostics/codes.h"
#include "diagnostics/recheck.h"
#include "grammar/syntax_code.h"
#include "grammar/text_edit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace blockls {
namespace {

// Work per window (in bytes re-checked, see recheck_cost), beyond which its later diagnostics'
// fixes stay unverified (but at least kMinVerifiedPerWindow diagnostics are always verified).
// Each verification re-checks the whole window, so a window with one error per line (an
// unclosed block swallowing a chat history) would otherwise cost its size times its line count.
// The limit depends only on the window's own text, so an incremental re-check verifies exactly
// what a full check does.
constexpr size_t kVerifyBytesPerWindow = 2 * 1024 * 1024;
constexpr size_t kMinVerifiedPerWindow = 16;
// What one diagnostic of a re-check costs, in bytes of plain text checked in the same time: its
// message, fixes and edits are built, moved and freed (~0.3 us each, against ~1 GB/s for text
// without diagnostics). A TELT block of 280 stray lines (8 KB) re-checks 35 times slower than
// its size says; counted by size alone, each such block took ~50 ms to verify.
constexpr size_t kRecheckBytesPerDiagnostic = 512;

// What re-checking a window of `size` bytes costs, `diagnostics` being how many its check finds.
size_t recheck_cost(size_t size, size_t diagnostics) {
  return std::max<size_t>(size + kRecheckBytesPerDiagnostic * diagnostics, 1);
}

// How many diagnostics with fixes a window verifies when re-checking it costs `cost`.
size_t verified_per_window(size_t cost) {
  return std::max(kMinVerifiedPerWindow, kVerifyBytesPerWindow / cost);
}

size_t total(const std::map<std::string_view, int>& counts) {
  size_t n = 0;
  for (const auto& [code, count] : counts)
    n += static_cast<size_t>(count);
  return n;
}

std::map<std::string_view, int> code_counts(const std::vector<Diagnostic>& diagnostics) {
  std::map<std::string_view, int> counts;
  for (const Diagnostic& d : diagnostics)
    ++counts[d.code];
  return counts;
}

// True when `after` has no more diagnostics of any code than `before`, save code `ignored`.
bool adds_no_diagnostic(const std::map<std::string_view, int>& before,
                        const std::map<std::string_view, int>& after,
                        std::string_view ignored = {}) {
  return std::all_of(after.begin(), after.end(), [&](const auto& entry) {
    const auto it = before.find(entry.first);
    return entry.first == ignored || entry.second <= (it == before.end() ? 0 : it->second);
  });
}

// True when `after` has fewer `code` diagnostics than `before` and no more of any code, save
// DUPLICATE_BLOCK_ID: no fix writes a used id, so a new one is a block the fix brought back
// into view (a heredoc or block closed before the end marker it had swallowed, the lines after
// it read as blocks again), whose id the text already repeated. The fix is the right repair
// all the same; the warning comes with its own rename.
bool is_clean_improvement(const std::map<std::string_view, int>& before,
                          const std::map<std::string_view, int>& after, std::string_view code) {
  if (!adds_no_diagnostic(before, after, code::DUPLICATE_BLOCK_ID.name)) return false;
  const auto a = after.find(code), b = before.find(code);
  return (a == after.end() ? 0 : a->second) < (b == before.end() ? 0 : b->second);
}

// Where a diagnostic's fix is verified (see fix_window in verify_fixes.h). A block's window
// and a loose diagnostic's window can share their first byte (a malformed header on a block's
// start line) yet differ in their end, so a window is told by both ends and its kind.
struct WindowKey {
  size_t begin = 0, end = 0;
  bool loose = false;
  bool operator==(const WindowKey&) const = default;
};
struct WindowKeyHash {
  size_t operator()(const WindowKey& k) const {
    return std::hash<size_t>()(k.begin * 31 + k.end) ^ static_cast<size_t>(k.loose);
  }
};

} // namespace

// The text a diagnostic's fix is verified on (see verify_fixes.h).
ByteRange fix_window(const ParsedDocument& parsed, const Diagnostic& d, size_t text_size) {
  if (d.block >= 0) {
    const Block& block = parsed.blocks[d.block];
    const size_t begin = parsed.lines.line_start(block.start_line);
    return {begin, std::max(begin, std::min<size_t>(block.range.end, text_size))};
  }
  return loose_fix_window(parsed, d, text_size);
}

// A loose diagnostic's window: from its line to the start of the next block. Blocks are in
// start-line order, so that block is found by binary search.
ByteRange loose_fix_window(const ParsedDocument& parsed, const Diagnostic& d, size_t text_size) {
  const uint32_t first_line = std::min(d.line, parsed.lines.line_count() - 1);
  ByteRange window{parsed.lines.line_start(first_line), text_size};
  const auto next =
      std::upper_bound(parsed.blocks.begin(), parsed.blocks.end(), first_line,
                       [](uint32_t line, const Block& b) { return line < b.start_line; });
  if (next != parsed.blocks.end()) window.end = std::max(window.begin, next->range.begin);
  return window;
}

bool fix_needs_verifying(const Diagnostic& d) {
  if (d.fixes.empty() || d.dialect == Dialect::none || d.across_blocks) return false;
  const CodeInfo* info = find_code(d.code);
  return info && info->doc_page != "validation"; // validation fixes are built verified
}

// The diagnostic counts of `text`'s check, or nullopt when its parse finds more than `limit`
// syntax diagnostics (it then stops early: see ParseOptions::max_diagnostics). Adds the bytes
// it checked to `*checked`.
std::optional<std::map<std::string_view, int>>
limited_counts(std::string_view text, const CheckOptions& options, size_t limit, size_t* checked) {
  if (limit == SIZE_MAX) {
    *checked += text.size();
    return code_counts(check_document(text, options).diagnostics);
  }
  CheckOptions limited = options;
  limited.parse.max_diagnostics = limit;
  try {
    std::optional<std::map<std::string_view, int>> counts =
        code_counts(check_document(text, limited).diagnostics);
    *checked += text.size();
    return counts;
  } catch (const DiagnosticLimitReached& stop) {
    *checked += std::min(stop.stopped_at, text.size());
    return std::nullopt;
  }
}

// Verifies diagnostics one at a time, each on its window, keeping per window the diagnostic
// counts before any fix (several diagnostics often share a window) and how many of its
// diagnostics it has verified (for verified_per_window).
class FixVerifier {
public:
  FixVerifier(std::string_view text, const CheckOptions& options)
      : text_(text), options_(options) {}

  // `d` is one that fix_needs_verifying (the callers ask, before finding its window), or, with
  // `adds_none`, one found across blocks whose fix is judged by adding no diagnostic to its
  // window alone (see blocks_with_repairs).
  void verify(Diagnostic& d, ByteRange window, bool adds_none = false) {
    if (window.size() > kMaxVerifyWindow) return;
    const WindowKey key{window.begin, window.end, d.block < 0};
    const std::string_view sub = slice(text_, window);
    // A loose window is verified only when it is not crowded (see kMaxLooseWindowDiagnostics).
    if (key.loose && !counts_before(key, sub)) return;
    const size_t verified = verified_count_[key]++;
    // Past the minimum, the limit depends on how many diagnostics the window's check finds.
    if (verified >= kMinVerifiedPerWindow &&
        verified >= verified_per_window(recheck_cost(sub.size(), total(*counts_before(key, sub)))))
      return;
    const std::map<std::string_view, int>* before = nullptr;
    size_t kept_count = 0;
    for (size_t f = 0; f < d.fixes.size(); ++f) {
      Fix& fix = d.fixes[f];
      bool keep = true;
      bool inside = true;
      for (const TextEdit& e : fix.edits)
        if (e.range.begin < window.begin || e.range.end > window.end) inside = false;
      // Edits outside the window cannot be verified locally: keep them as the grammar made them.
      if (inside && apply_edits(sub, fix.edits, &fixed_, window.begin)) {
        if (!before) before = &*counts_before(key, sub);
        keep = adds_none ? adds_nothing(*before)
                         : before->count(d.code) == 0 || improves(*before, d.code);
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

  size_t rechecked() const { return rechecked_; }

private:
  // The diagnostic counts of window `key` (text `sub`) before any fix, checked once per window;
  // nullopt for a loose window whose check finds more than kMaxLooseWindowDiagnostics.
  const std::optional<std::map<std::string_view, int>>& counts_before(const WindowKey& key,
                                                                      std::string_view sub) {
    auto it = before_cache_.find(key);
    if (it == before_cache_.end())
      it = before_cache_
               .emplace(key, limited_counts(sub, options_,
                                            key.loose ? kMaxLooseWindowDiagnostics : SIZE_MAX,
                                            &rechecked_))
               .first;
    return it->second;
  }

  // True when the window with the fix applied (fixed_) has fewer `code` diagnostics than
  // `before` and no more of any code. Such a check has fewer diagnostics in all than `before`,
  // so its parse stops as soon as it has found as many: the fix is dropped without checking
  // the rest (a fix that turns the lines after it into an unclosed block).
  bool improves(const std::map<std::string_view, int>& before, std::string_view code) {
    const std::optional<std::map<std::string_view, int>> after =
        limited_counts(fixed_, options_, total(before) - 1, &rechecked_);
    return after && is_clean_improvement(before, *after, code);
  }

  // True when the window with the fix applied (fixed_) has no more diagnostics of any code
  // than `before`.
  bool adds_nothing(const std::map<std::string_view, int>& before) {
    const std::optional<std::map<std::string_view, int>> after =
        limited_counts(fixed_, options_, total(before), &rechecked_);
    return after && adds_no_diagnostic(before, *after);
  }

  std::string_view text_;
  const CheckOptions& options_;
  std::unordered_map<WindowKey, std::optional<std::map<std::string_view, int>>, WindowKeyHash>
      before_cache_;
  std::unordered_map<WindowKey, size_t, WindowKeyHash> verified_count_;
  std::string fixed_; // a window with a fix applied (its buffer reused)
  size_t rechecked_ = 0;
};

// The blocks (indices) of checked.diagnostics[first, end) that have a diagnostic with fixes
// found within the block. A duplicate id's rename in such a block may carry that block's other
// repairs (the NESL parser's add_rename_fix), which its block's window can judge: the rename
// must add no diagnostic there. A rename alone adds none, so the blocks without other fixes
// (most duplicates) are not re-checked for it.
static std::unordered_set<int32_t> blocks_with_repairs(const std::vector<Diagnostic>& diagnostics,
                                                       size_t first, size_t end) {
  std::unordered_set<int32_t> blocks;
  const bool any_across =
      std::any_of(diagnostics.begin() + static_cast<ptrdiff_t>(first),
                  diagnostics.begin() + static_cast<ptrdiff_t>(end),
                  [](const Diagnostic& d) { return d.across_blocks && !d.fixes.empty(); });
  if (!any_across) return blocks;
  for (size_t i = first; i < end; ++i) {
    const Diagnostic& d = diagnostics[i];
    if (d.block >= 0 && !d.across_blocks && !d.fixes.empty()) blocks.insert(d.block);
  }
  return blocks;
}

// Syntax fixes are built by the grammar, which cannot see the catalog: a repaired header may
// create a block that then lacks an `action`. Each such fix is checked on its window with the
// whole engine and dropped if it would add any diagnostic (the fix property), so every fix the
// engine offers removes its diagnostic and adds none.
size_t verify_fixes(std::string_view text, CheckedDocument& checked, const CheckOptions& options,
                    size_t first, size_t end) {
  FixVerifier verifier(text, options);
  end = std::min(end, checked.diagnostics.size());
  const std::unordered_set<int32_t> repaired = blocks_with_repairs(checked.diagnostics, first, end);
  for (size_t i = first; i < end; ++i) {
    Diagnostic& d = checked.diagnostics[i];
    if (fix_needs_verifying(d))
      verifier.verify(d, fix_window(checked.parsed, d, text.size()));
    else if (d.across_blocks && !d.fixes.empty() && repaired.count(d.block))
      verifier.verify(d, fix_window(checked.parsed, d, text.size()), /*adds_none=*/true);
  }
  return verifier.rechecked();
}

size_t verify_loose_fixes(std::string_view text, std::span<LooseDiagnostic> loose,
                          size_t window_end, const CheckOptions& options) {
  FixVerifier verifier(text, options);
  for (LooseDiagnostic& l : loose)
    if (fix_needs_verifying(l.diagnostic))
      verifier.verify(l.diagnostic, {l.line_begin, std::max(l.line_begin, window_end)});
  return verifier.rechecked();
}

CheckedDocument check_with_verified_fixes(std::string_view text, const CheckOptions& options) {
  CheckedDocument checked = check_document(text, options);
  verify_fixes(text, checked, options);
  return checked;
}

CheckedDocument recheck_with_verified_fixes(std::string_view old_text, const CheckedDocument& old,
                                            std::string_view new_text, const CheckOptions& options,
                                            bool* incremental, const TextChange* change,
                                            ReparseWindow* window) {
  // A reused diagnostic's fixes were verified on its verification window, which lies wholly
  // before or after the re-checked window (recheck keeps the blocks before the change's
  // block apart from it), so its text, and so the verdict, is unchanged.
  Recheck r = recheck_document(old_text, old, new_text, options, change);
  verify_fixes(new_text, r.checked, options, r.window_begin, r.window_end);
  if (incremental) *incremental = r.incremental;
  if (window && r.incremental) *window = r.parse_window;
  return std::move(r.checked);
}

} // namespace blockls
