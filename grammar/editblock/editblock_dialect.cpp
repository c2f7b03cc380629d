// The edit-block dialect's carried state and value encoding (see editblock_dialect.h).
#include "grammar/editblock/editblock_dialect.h"

#include "grammar/editblock/editblock_line.h"
#include "grammar/line_breaks.h"

namespace blockls {
namespace {

// The path of the last edit among blocks [begin, end) (which index `text`) that has one.
std::optional<std::string_view> last_path(std::string_view text, const std::vector<Block>& blocks,
                                          size_t begin, size_t end) {
  for (size_t b = end; b-- > begin;) {
    const Block& block = blocks[b];
    if (block.dialect != Dialect::editblock || block.commands.empty()) continue;
    for (const Parameter& p : block.commands[0].params)
      if (p.name == "path") return p.value(text);
  }
  return std::nullopt;
}

} // namespace

bool EditBlockDialect::same_carried_state(std::string_view old_text,
                                          const std::vector<Block>& old_blocks, size_t old_begin,
                                          size_t old_end, std::string_view new_text,
                                          const std::vector<Block>& new_blocks, size_t new_begin,
                                          size_t new_end, bool) {
  return last_path(old_text, old_blocks, old_begin, old_end) ==
         last_path(new_text, new_blocks, new_begin, new_end);
}

std::optional<std::string> EditBlockDialect::encode_value(std::string_view text, const Block& block,
                                                          const Parameter& p,
                                                          std::string_view value) {
  if (p.name == "path" || (!value.empty() && !value.ends_with('\n'))) return std::nullopt;
  for (size_t pos = 0; pos < value.size();) {
    const size_t nl = value.find('\n', pos);
    if (editblock::classify(value.substr(pos, nl - pos)).kind != editblock::Marker::none)
      return std::nullopt; // the line would end the part
    pos = nl + 1;
  }
  return in_block_line_breaks(text, block, value);
}

} // namespace blockls
