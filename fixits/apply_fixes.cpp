// Fix application: edits are sorted, checked for overlap, then spliced in one pass.
#include "fixits/apply_fixes.h"

#include <algorithm>

namespace blockls {
namespace {

bool overlaps(const TextEdit& a, const TextEdit& b) {
  // Two insertions at the same point conflict too (their order would be arbitrary).
  if (a.range.begin == b.range.begin) return true;
  return a.range.begin < b.range.end && b.range.begin < a.range.end;
}

bool splice(std::string_view text, std::vector<const TextEdit*> edits, std::string* out) {
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit* a, const TextEdit* b) { return a->range.begin < b->range.begin; });
  for (size_t i = 0; i < edits.size(); ++i) {
    if (edits[i]->range.end > text.size() || edits[i]->range.begin > edits[i]->range.end)
      return false;
    if (i > 0 && overlaps(*edits[i - 1], *edits[i])) return false;
  }
  std::string result;
  result.reserve(text.size() + 64);
  size_t pos = 0;
  for (const TextEdit* e : edits) {
    result.append(text.substr(pos, e->range.begin - pos));
    result.append(e->new_text);
    pos = e->range.end;
  }
  result.append(text.substr(pos));
  *out = std::move(result);
  return true;
}

} // namespace

bool apply_fix(std::string_view text, const Fix& fix, std::string* out) {
  std::vector<const TextEdit*> edits;
  for (const TextEdit& e : fix.edits) edits.push_back(&e);
  return splice(text, std::move(edits), out);
}

size_t apply_preferred_fixes(std::string_view text, const std::vector<Diagnostic>& diagnostics,
                             std::string* out) {
  std::vector<const TextEdit*> chosen;
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
      for (const TextEdit* c : chosen)
        if (overlaps(e, *c)) clash = true;
    }
    if (clash) continue;
    for (const TextEdit& e : fix->edits) chosen.push_back(&e);
    seen.push_back(fix);
    ++applied;
  }
  if (!splice(text, chosen, out)) {
    *out = std::string(text);
    return 0;
  }
  return applied;
}

} // namespace blockls
