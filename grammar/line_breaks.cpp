// Line breaks of values (see line_breaks.h).
#include "grammar/line_breaks.h"

namespace blockls {

std::string crlf_to_lf(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i)
    if (!(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) out += text[i];
  return out;
}

bool block_uses_crlf(std::string_view text, const Block& block) {
  const size_t head_end = text.find('\n', block.range.begin);
  return head_end != std::string_view::npos && head_end > block.range.begin &&
         text[head_end - 1] == '\r';
}

std::string in_block_line_breaks(std::string_view text, const Block& block, std::string_view value,
                                 bool own_line) {
  const bool crlf = block_uses_crlf(text, block);
  std::string out;
  out.reserve(value.size() + value.size() / 16 + 2);
  for (const char c : value) {
    if (c == '\n' && crlf) out += '\r';
    out += c;
  }
  if (own_line) out += crlf ? "\r\n" : "\n";
  return out;
}

} // namespace blockls
