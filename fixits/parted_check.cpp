// Checking a text in parts (see parted_check.h).
#include "fixits/parted_check.h"

#include "fixits/verify_fixes.h"
#include "grammar/router/document_parser.h"

#include <algorithm>
#include <deque>

namespace blockls {

// A part is checked as soon as it is parsed, but its fixes can only be verified once the start
// of the next block is known: the fix of a diagnostic outside every block is verified on the
// text from its line to the start of the next block (fixits/verify_fixes.h, loose_fix_window),
// and after a part's last block that block is in a later part. So each part waits, checked,
// until a later part with a block has been parsed — usually the next one — and is then
// verified on the text up to that block's start, which gives every window of the part exactly
// the bounds the whole check gives it. (A block's own window ends with the block.)
size_t check_in_parts(std::string_view text, LineIndex& lines, const CheckOptions& options,
                      size_t part_bytes,
                      const std::function<bool(const CheckedDocument& part)>& on_part) {
  PartParser parser(text, lines, options.parse);
  std::deque<CheckedDocument> waiting; // checked, fixes not verified yet
  bool utf8_found = false;             // the document's INVALID_UTF8 was reported
  bool stopped = false;
  size_t handed = 0;
  // Verifies and hands over the waiting parts; `window_end`: the start of the first block
  // after them (the text's end when there is none).
  const auto hand_over = [&](size_t window_end) {
    while (!waiting.empty() && !stopped) {
      CheckedDocument& part = waiting.front();
      part.parsed.lines = std::move(lines);
      verify_fixes(text.substr(0, window_end), part, options);
      stopped = !on_part(part);
      ++handed;
      lines = std::move(part.parsed.lines);
      waiting.pop_front(); // its model is let go here
    }
  };
  while (!parser.done() && !stopped) {
    const size_t begin = parser.offset();
    ParsedDocument part = parser.next(begin + std::max<size_t>(part_bytes, 1));
    const size_t end = parser.offset();
    part.lines = std::move(lines);
    // (On the text up to the part's end: INVALID_UTF8 is looked for in the part alone.)
    CheckedDocument checked =
        check_part(text.substr(0, end), std::move(part), begin, !utf8_found, options);
    lines = std::move(checked.parsed.lines);
    utf8_found =
        utf8_found || std::any_of(checked.diagnostics.begin(), checked.diagnostics.end(),
                                  [](const Diagnostic& d) { return d.dialect == Dialect::none; });
    if (!checked.parsed.blocks.empty()) hand_over(checked.parsed.blocks.front().range.begin);
    waiting.push_back(std::move(checked));
  }
  hand_over(text.size());
  return handed;
}

} // namespace blockls
