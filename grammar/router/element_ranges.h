// The byte ranges a parsed element refers to, and whether they all lie in a span: what the
// incremental re-parse checks before reusing an element outside its window, and what the
// router checks before recording a resume point at a line that ended a block.
#pragma once

#include "grammar/model.h"

#include <cstddef>

namespace blockls {

// Calls `f` on every byte range a block refers to.
template <typename F> void for_each_range(const Block& block, F&& f) {
  f(block.range);
  f(block.id_range);
  for (const Command& c : block.commands) {
    f(c.name_range);
    for (const Parameter& p : c.params) {
      f(p.name_range);
      f(p.value_range);
    }
  }
}
// The same for a diagnostic: its range and its fixes' edits.
template <typename F> void for_each_range(const Diagnostic& d, F&& f) {
  f(d.range);
  for (const Fix& fix : d.fixes)
    for (const TextEdit& e : fix.edits)
      f(e.range);
}

// True when every byte range the element (a Block or a Diagnostic) refers to lies within
// [first, last].
template <typename Element> bool refers_within(const Element& element, size_t first, size_t last) {
  bool ok = true;
  for_each_range(element,
                 [&](const ByteRange& r) { ok = ok && r.begin >= first && r.end <= last; });
  return ok;
}

} // namespace blockls
