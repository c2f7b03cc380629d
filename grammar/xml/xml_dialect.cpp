// The xml dialect's value encoding (see xml_dialect.h).
#include "grammar/xml/xml_dialect.h"

#include "grammar/line_breaks.h"
#include "grammar/xml/xml_diff.h"

namespace blockls {

std::optional<std::string> XmlDialect::encode_value(std::string_view text, const Block& block,
                                                    const Parameter& p, std::string_view value) {
  if (p.name != "content" && p.name != "old_text" && p.name != "new_text") return std::nullopt;
  // A value that begins or ends with a line break would lose it (the first and last break
  // of a content are not part of it); `</` could close a tag.
  if (value.starts_with('\n') || value.ends_with('\n') || value.find("</") != std::string::npos)
    return std::nullopt;
  for (size_t pos = 0; pos <= value.size();) {
    size_t nl = value.find('\n', pos);
    if (nl == std::string_view::npos) nl = value.size();
    if (xml::is_diff_marker(value.substr(pos, nl - pos))) return std::nullopt;
    pos = nl + 1;
  }
  const size_t at = p.value_range.begin;
  // A SEARCH or REPLACE section without a line sits right before the next marker line.
  const bool no_line = p.name != "content" && p.value_range.size() == 0 && at < text.size() &&
                       (text[at] == '=' || text[at] == '+' || text[at] == '>');
  if (no_line && value.empty()) return std::string();
  return in_block_line_breaks(text, block, value, no_line);
}

} // namespace blockls
