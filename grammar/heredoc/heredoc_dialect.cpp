// The heredoc dialect's carried state and value encoding (see heredoc_dialect.h).
#include "grammar/heredoc/heredoc_dialect.h"

#include <utility>

namespace blockls {
namespace {

// The paths of the file writes among blocks [begin, end) (which index `text`), in order (with
// start lines when `lines`).
std::vector<std::pair<std::string_view, uint32_t>> writes(std::string_view text,
                                                          const std::vector<Block>& blocks,
                                                          size_t begin, size_t end, bool lines) {
  std::vector<std::pair<std::string_view, uint32_t>> out;
  for (size_t b = begin; b < end; ++b) {
    const Block& block = blocks[b];
    if (block.dialect != Dialect::heredoc || block.commands.empty() ||
        block.commands[0].name != "file_write" || block.commands[0].params.empty())
      continue;
    out.emplace_back(block.commands[0].params[0].value(text), lines ? block.start_line : 0);
  }
  return out;
}

std::string_view trim_blanks(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t'))
    ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
    --e;
  return s.substr(b, e - b);
}

} // namespace

bool HeredocDialect::same_carried_state(std::string_view old_text,
                                        const std::vector<Block>& old_blocks, size_t old_begin,
                                        size_t old_end, std::string_view new_text,
                                        const std::vector<Block>& new_blocks, size_t new_begin,
                                        size_t new_end, bool lines) {
  return writes(old_text, old_blocks, old_begin, old_end, lines) ==
         writes(new_text, new_blocks, new_begin, new_end, lines);
}

std::optional<std::string> HeredocDialect::encode_value(std::string_view, const Block& block,
                                                        const Parameter& p,
                                                        std::string_view value) {
  if (p.name != "content") return std::nullopt;
  if (value.ends_with('\n')) value.remove_suffix(1);
  for (size_t pos = 0; pos <= value.size();) {
    const size_t nl = value.find('\n', pos);
    const std::string_view line =
        value.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (trim_blanks(line) == block.id) return std::nullopt;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return std::string(value);
}

} // namespace blockls
