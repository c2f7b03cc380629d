// Edits are sorted by position, checked, then spliced in one pass.
#include "grammar/text_edit.h"

#include <algorithm>
#include <vector>

namespace blockls {

bool apply_edits(std::string_view text, std::span<const TextEdit> edits, std::string* out,
                 size_t base) {
  std::vector<const TextEdit*> sorted;
  sorted.reserve(edits.size());
  for (const TextEdit& e : edits)
    sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(),
            [](const TextEdit* a, const TextEdit* b) { return a->range.begin < b->range.begin; });
  for (size_t i = 0; i < sorted.size(); ++i) {
    const ByteRange r = sorted[i]->range;
    if (r.begin < base || r.begin > r.end || r.end - base > text.size()) return false;
    if (i > 0) {
      const ByteRange p = sorted[i - 1]->range;
      if (p.begin == r.begin || r.begin < p.end) return false;
    }
  }
  std::string result;
  result.reserve(text.size() + 64);
  size_t pos = 0;
  for (const TextEdit* e : sorted) {
    result.append(text.substr(pos, e->range.begin - base - pos));
    result.append(e->new_text);
    pos = e->range.end - base;
  }
  result.append(text.substr(pos));
  *out = std::move(result);
  return true;
}

ByteRange differing_span(std::string_view before, std::string_view after) {
  const auto continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  size_t prefix = 0;
  while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix])
    ++prefix;
  // A boundary inside a "\r\n" of `before` is a position no editor can show (it sees one line
  // break): such a span grows to take the whole break.
  const auto splits_crlf = [&](size_t at) {
    return at > 0 && at < before.size() && before[at - 1] == '\r' && before[at] == '\n';
  };
  while (prefix > 0 && prefix < before.size() && continuation(before[prefix]))
    --prefix;
  if (splits_crlf(prefix)) --prefix;
  size_t suffix = 0;
  while (suffix < before.size() - prefix && suffix < after.size() - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
    ++suffix;
  while (suffix > 0 && continuation(before[before.size() - suffix]))
    --suffix;
  if (suffix > 0 && splits_crlf(before.size() - suffix)) --suffix;
  return {prefix, before.size() - suffix};
}

} // namespace blockls
