// Reading one tag of a line: `<name>` or `</name>` (names of letters, digits, `_` and `-`; no
// attributes, as tool calls have none). Hand-written, no regular expressions.
#pragma once

#include <cstddef>
#include <string_view>

namespace blockls::xml {

struct Tag {
  bool closing = false;
  std::string_view name; // a view into the line
  size_t end = 0;        // the offset after `>` in the line
};

inline bool is_name_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// The tag at `pos` of `line` (where `line[pos]` is '<'); false when none is there.
inline bool read_tag(std::string_view line, size_t pos, Tag& out) {
  size_t i = pos + 1;
  out.closing = i < line.size() && line[i] == '/';
  if (out.closing) ++i;
  const size_t name_begin = i;
  while (i < line.size() && is_name_byte(line[i]))
    ++i;
  if (i == name_begin || i >= line.size() || line[i] != '>') return false;
  out.name = line.substr(name_begin, i - name_begin);
  out.end = i + 1;
  return true;
}

// A directive may begin after text only on a line whose last byte before trailing blanks is
// '>' (`We need the file.<read_file>`, or a whole call on one line): one byte to test, so that
// the router's prose filter keeps every other prose line on its fast path.
inline bool may_open_mid_line(std::string_view line) {
  size_t n = line.size();
  while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
    --n;
  return n > 0 && line[n - 1] == '>';
}

} // namespace blockls::xml
