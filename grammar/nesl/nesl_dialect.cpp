// NESL's cross-block state check and value encoding for fixes (see nesl_dialect.h).
#include "grammar/nesl/nesl_dialect.h"

#include "grammar/nesl/nesl_syntax.h"
#include "grammar/unicode.h"

#include <utility>

namespace blockls {
namespace {

// The NESL block ids of blocks [begin, end), in order (with their start lines when `lines`).
std::vector<std::pair<std::string_view, uint32_t>> nesl_ids(const std::vector<Block>& blocks,
                                                            size_t begin, size_t end, bool lines) {
  std::vector<std::pair<std::string_view, uint32_t>> ids;
  for (size_t b = begin; b < end; ++b)
    if (blocks[b].dialect == Dialect::nesl)
      ids.emplace_back(blocks[b].id, lines ? blocks[b].start_line : 0);
  return ids;
}

// `value` as a JSON string token, escaped as a JSON serializer does (quote, backslash, the
// named control escapes, other control bytes as \u00xx; UTF-8 kept); nullopt when it is not
// valid UTF-8.
std::optional<std::string> json_string(std::string_view value) {
  if (unicode::first_invalid_utf8(value) != std::string_view::npos) return std::nullopt;
  return '"' + nesl::json_escape(value) + '"';
}

// Every "\n" not already after a "\r" becomes "\r\n".
std::string to_crlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r')) out += '\r';
    out += text[i];
  }
  return out;
}

} // namespace

bool NeslDialect::same_carried_state(std::string_view, const std::vector<Block>& old_blocks,
                                     size_t old_begin, size_t old_end, std::string_view,
                                     const std::vector<Block>& new_blocks, size_t new_begin,
                                     size_t new_end, bool lines) {
  return nesl_ids(old_blocks, old_begin, old_end, lines) ==
         nesl_ids(new_blocks, new_begin, new_end, lines);
}

std::optional<std::string> NeslDialect::encode_value(std::string_view text, const Block& block,
                                                     const Parameter& p, std::string_view value) {
  const std::string_view token = slice(text, p.value_range);
  if (!token.empty() && token.front() == '"') return json_string(value);
  // Heredoc body: verbatim, unless a line would close the heredoc early.
  const std::string delimiter =
      std::string(nesl::era_syntax(block.era).delim_prefix).append(block.id);
  for (size_t pos = 0; pos <= value.size();) {
    const size_t nl = value.find('\n', pos);
    const std::string_view line =
        value.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (line.find(delimiter) != std::string_view::npos || line.starts_with("#!"))
      return std::nullopt;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return p.value_is_slice ? std::string(value) : to_crlf(value);
}

} // namespace blockls
