// Line breaks of values (see line_breaks.h).
#include "grammar/line_breaks.h"

namespace blockls {

// Copies the runs between "\r\n" pairs whole (found with find, i.e. memchr): values are
// mostly LF text, which is then one copy, not a push_back per byte.
void append_crlf_to_lf(std::string* out, std::string_view text) {
  size_t run = 0; // the start of the bytes not yet copied
  for (size_t cr = text.find('\r'); cr != std::string_view::npos; cr = text.find('\r', cr + 1)) {
    if (cr + 1 < text.size() && text[cr + 1] == '\n') {
      out->append(text.data() + run, cr - run);
      run = cr + 1; // the '\n' is copied with the next run
    }
  }
  out->append(text.data() + run, text.size() - run);
}

std::string crlf_to_lf(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_crlf_to_lf(&out, text);
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

ByteRange without_break_cr(std::string_view text, ByteRange range) {
  if (range.end > range.begin && range.end < text.size() && text[range.end - 1] == '\r' &&
      text[range.end] == '\n')
    --range.end;
  return range;
}

} // namespace blockls
