// The replacer dialect's value encoding (see replacer_dialect.h).
#include "grammar/replacer/replacer_dialect.h"

#include "grammar/line_breaks.h"
#include "grammar/replacer/replacer_line.h"

namespace blockls {

std::optional<std::string> ReplacerDialect::encode_value(std::string_view text, const Block& block,
                                                         const Parameter& p,
                                                         std::string_view value) {
  if (p.name == "path") return std::nullopt;
  for (size_t pos = 0; pos <= value.size();) {
    size_t nl = value.find('\n', pos);
    if (nl == std::string_view::npos) nl = value.size();
    std::string_view line = value.substr(pos, nl - pos);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (replacer::classify(line) != replacer::Marker::none) return std::nullopt; // ends the part
    pos = nl + 1;
  }
  // A section without any line sits right before the next marker (or at the end of input):
  // the value needs a line of its own there. A section of lines is replaced line for line.
  const size_t at = p.value_range.begin;
  const bool no_line = p.value_range.size() == 0 && (at >= text.size() || text[at] == '<');
  if (no_line && value.empty()) return std::string();
  return in_block_line_breaks(text, block, value, no_line);
}

} // namespace blockls
