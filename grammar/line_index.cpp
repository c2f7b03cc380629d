// Line starts are collected with memchr; columns are computed on demand per line.
#include "grammar/line_index.h"

#include "grammar/unicode.h"

#include <algorithm>
#include <cstring>

namespace blockls {

void LineIndex::append(std::string_view chunk, size_t base) {
  const char* data = chunk.data();
  size_t pos = 0;
  while (pos < chunk.size()) {
    const void* hit = std::memchr(data + pos, '\n', chunk.size() - pos);
    if (!hit) break;
    const size_t nl = static_cast<const char*>(hit) - data;
    starts_.push_back(base + nl + 1);
    pos = nl + 1;
  }
}

uint32_t LineIndex::line_of(size_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return static_cast<uint32_t>((it - starts_.begin()) - 1);
}

size_t LineIndex::line_end(std::string_view text, const LineIndex& index, uint32_t line) {
  if (line + 1 < index.line_count()) {
    size_t end = index.starts_[line + 1] - 1; // at "\n"
    if (end > index.starts_[line] && text[end - 1] == '\r') --end;
    return end;
  }
  return text.size();
}

std::string_view LineIndex::line_text(std::string_view text, uint32_t line) const {
  const size_t begin = starts_[line];
  return text.substr(begin, line_end(text, line) - begin);
}

size_t LineIndex::utf16_column(std::string_view text, size_t offset) const {
  const size_t begin = starts_[line_of(offset)];
  return unicode::utf16_length(text.substr(begin, offset - begin));
}

bool LineIndex::offset_of_utf16(std::string_view text, uint32_t line, size_t column,
                                size_t* offset) const {
  if (line >= line_count()) return false;
  const size_t begin = starts_[line];
  const size_t end = line_end(text, line);
  size_t pos = begin;
  size_t units = 0;
  while (pos < end && units < column) {
    const unicode::Decoded d = unicode::decode(text, pos);
    const size_t width = d.codepoint >= 0x10000 ? 2 : 1;
    if (units + width > column) break; // inside a surrogate pair: stay before it
    units += width;
    pos += d.length;
  }
  *offset = pos;
  return true;
}

bool LineIndex::offset_of_utf8(std::string_view text, uint32_t line, size_t column,
                               size_t* offset) const {
  if (line >= line_count()) return false;
  const size_t begin = starts_[line];
  *offset = std::min(begin + column, line_end(text, line));
  return true;
}

LineIndex edit_line_index(const LineIndex& old, size_t begin, size_t end,
                          std::string_view inserted) {
  const uint32_t first = old.line_of(begin); // starts 1..first are <= begin
  const uint32_t last = old.line_of(end);    // starts after `last` are > end
  const std::vector<size_t>& from = old.starts_;
  LineIndex out;
  std::vector<size_t>& starts = out.starts_;
  starts.reserve(from.size() + std::count(inserted.begin(), inserted.end(), '\n'));
  // Bulk copies: a keystroke in a large document keeps hundreds of thousands of starts.
  starts.assign(from.begin(), from.begin() + first + 1);
  for (size_t pos = 0; (pos = inserted.find('\n', pos)) != std::string_view::npos; ++pos)
    starts.push_back(begin + pos + 1);
  const size_t moved_by = begin + inserted.size() - end; // modulo 2^64: may "subtract"
  const size_t kept = starts.size();
  starts.resize(kept + (from.size() - last - 1));
  std::transform(from.begin() + last + 1, from.end(), starts.begin() + static_cast<ptrdiff_t>(kept),
                 [moved_by](size_t s) { return s + moved_by; });
  // The ASCII-prefix hint: kept before the edit; moved with the text after it when the edit
  // lies inside the old prefix and inserts only ASCII; else the unchanged text before it.
  const bool ascii_insert = std::all_of(inserted.begin(), inserted.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x80;
  });
  if (old.ascii_prefix_ < begin)
    out.ascii_prefix_ = old.ascii_prefix_;
  else if (old.ascii_prefix_ >= end && ascii_insert)
    out.ascii_prefix_ = old.ascii_prefix_ + moved_by;
  else
    out.ascii_prefix_ = begin;
  return out;
}

} // namespace blockls
