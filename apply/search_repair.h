// Aider's repairs of an edit whose SEARCH text misses the file: the same lines indented
// uniformly deeper or shallower than the file has them, or the same text once a leading blank
// line is dropped. Models get indentation wrong far more often than content, and Aider applies
// such edits; blockls applies them too, with a SEARCH_NOT_EXACT warning whose fix writes the
// file's exact text into the edit, so the reviewer sees what really matched.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace blockls::apply {

struct RepairedSearch {
  size_t begin = 0, end = 0;              // bytes of the matched region in the content
  std::string old_text;                   // the region, as the SEARCH text should say it (LF)
  std::string new_text;                   // the REPLACE text, re-indented the same way (LF)
  uint32_t first_line = 0, last_line = 0; // 1-based lines of the region
  std::string how;                        // "re-indented", "without its leading blank line", ...
};

// The one region of `content` that `old_text` (LF line breaks, with or without a final
// newline) means after Aider's repairs, with `new_text` adjusted alike. nullopt when no repair
// matches, or when a repair matches more than one region (a reviewer needs the one, where Aider
// would take the first). Call it only when the exact search found nothing.
std::optional<RepairedSearch> repair_search(std::string_view content, std::string_view old_text,
                                            std::string_view new_text);

} // namespace blockls::apply
