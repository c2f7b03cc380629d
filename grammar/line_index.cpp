// Line starts are collected 64 bytes at a time (newline_mask); columns are computed on demand
// per line.
#include "grammar/line_index.h"

#include "grammar/byte_search.h"
#include "grammar/unicode.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

namespace blockls {

namespace {

constexpr size_t kBlock = 64;        // bytes tested at once
constexpr size_t kBatchBytes = 2048; // text per resize of the index

// Offset of the first byte >= 0x80 among the `n` at `p` (n when there is none).
size_t first_high_byte(const char* p, size_t n) {
  size_t i = 0;
  while (i < n && static_cast<unsigned char>(p[i]) < 0x80)
    ++i;
  return i;
}

} // namespace

// Line starts are found 64 bytes at a time: a block becomes a bit mask of its "\n" bytes, and
// the mask's first four set bits are written out whether or not they exist (a block of
// transcript text holds about two line breaks, so a branch per line break would be
// mispredicted at every block). Starts are written straight into the index, a batch at a
// time.
void LineIndex::append(std::string_view chunk, size_t base, size_t* first_non_ascii) {
  const char* data = chunk.data();
  const size_t size = chunk.size();
  size_t found_high = std::string_view::npos;
  size_t pos = 0;
  while (size - pos >= kBlock) {
    const size_t batch_end = pos + std::min(kBatchBytes, (size - pos) / kBlock * kBlock);
    // Room for a start per byte of the batch and the four slots of a block (uninitialised:
    // see UninitAllocator), given back below.
    const size_t kept = starts_.size();
    starts_.resize(kept + (batch_end - pos) + 4);
    size_t* const first = starts_.data() + kept;
    size_t* out = first;
    for (; pos < batch_end; pos += kBlock) {
      __builtin_prefetch(data + pos + 2048); // the text is read once, from memory
      unsigned high = 0;
      uint64_t mask = newline_mask(data + pos, &high);
      if (high != 0 && found_high == std::string_view::npos)
        found_high = pos + first_high_byte(data + pos, kBlock);
      const size_t next = base + pos + 1; // the start after a "\n" at block byte 0
      for (int i = 0; i < 4; ++i) {       // a slot is kept only when its bit exists
        // (bit 63 forced on: no test for an empty mask, which std::countr_zero would branch on)
        *out = next + static_cast<size_t>(__builtin_ctzll(mask | (uint64_t{1} << 63)));
        out += mask != 0;
        mask &= mask - 1;
      }
      while (mask != 0) { // more than four line breaks in the block (blank lines)
        *out++ = next + static_cast<size_t>(__builtin_ctzll(mask));
        mask &= mask - 1;
      }
    }
    starts_.resize(kept + static_cast<size_t>(out - first));
  }
  for (; pos < size; ++pos) {
    if (data[pos] == '\n') starts_.push_back(base + pos + 1);
    if (static_cast<unsigned char>(data[pos]) >= 0x80 && found_high == std::string_view::npos)
      found_high = pos;
  }
  if (first_non_ascii && found_high != std::string_view::npos)
    *first_non_ascii = std::min(*first_non_ascii, base + found_high);
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
  const auto& from = old.starts_;
  LineIndex out;
  auto& starts = out.starts_;
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
