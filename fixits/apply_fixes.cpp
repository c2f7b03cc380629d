// Fix application: edits are sorted, checked for overlap, then spliced in one pass.
#include "fixits/apply_fixes.h"

#include "grammar/text_edit.h"

#include <algorithm>

namespace blockls {
namespace {

bool overlaps(const TextEdit& a, const TextEdit& b) {
  // Two insertions at the same point conflict too (their order would be arbitrary).
  if (a.range.begin == b.range.begin) return true;
  return a.range.begin < b.range.end && b.range.begin < a.range.end;
}

} // namespace

bool apply_fix(std::string_view text, const Fix& fix, std::string* out) {
  return apply_edits(text, fix.edits, out);
}

size_t apply_preferred_fixes(std::string_view text, const std::vector<Diagnostic>& diagnostics,
                             std::string* out) {
  std::vector<TextEdit> chosen;
  std::vector<const Fix*> seen;
  size_t applied = 0;
  for (const Diagnostic& d : diagnostics) {
    const Fix* fix = nullptr;
    for (const Fix& f : d.fixes)
      if (f.preferred) {
        fix = &f;
        break;
      }
    if (!fix || fix->edits.empty()) continue;
    // The same fix reached through two diagnostics is applied once.
    if (std::any_of(seen.begin(), seen.end(), [&](const Fix* s) { return *s == *fix; })) continue;
    bool clash = false;
    for (const TextEdit& e : fix->edits) {
      if (e.range.end > text.size()) clash = true;
      for (const TextEdit& c : chosen)
        if (overlaps(e, c)) clash = true;
    }
    if (clash) continue;
    chosen.insert(chosen.end(), fix->edits.begin(), fix->edits.end());
    seen.push_back(fix);
    ++applied;
  }
  if (!apply_edits(text, chosen, out)) {
    *out = std::string(text);
    return 0;
  }
  return applied;
}

} // namespace blockls
