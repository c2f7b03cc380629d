// See text_origin.h.
#include "lsp/text_origin.h"

#include <algorithm>
#include <atomic>

namespace blockls::lsp {

uint64_t TextOrigin::next_id() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

// In b's coordinates the two changed spans are [first.begin, first.new_end) and
// [second.begin, second.old_end); their hull maps back to a (before `first`) and on to c (after
// `second`) by the lengths each change added.
TextChange compose_changes(const TextChange& first, const TextChange& second) {
  const size_t begin = std::min(first.begin, second.begin);
  const size_t end_in_b = std::max(first.new_end, second.old_end);
  return {begin, end_in_b - first.new_end + first.old_end,
          end_in_b - second.old_end + second.new_end};
}

} // namespace blockls::lsp
