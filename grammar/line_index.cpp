// Line starts are collected 64 bytes at a time (newline_masks, a batch of blocks at once); columns
// are computed on demand per line.
#include "grammar/line_index.h"

#include "grammar/byte_search.h"
#include "grammar/unicode.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace blockls {

namespace {

constexpr size_t kBlock = 64;        // bytes tested at once
constexpr size_t kBatchBytes = 2048; // text per resize of the index
constexpr size_t kSmallChunk = 512;  // appends shorter than this take no batch (append_starts)

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
// time; the last bytes (fewer than a block) one by one.
template <typename T>
size_t LineIndex::append_starts(Starts<T>& starts, const char* data, size_t size, size_t base) {
  size_t found_high = std::string_view::npos;
  size_t pos = 0;
  // A streaming parse indexes each read as it arrives: at 64-byte reads, a block or two per
  // call, 25,000 calls per 2 MB. For so few blocks the batch's room (two resizes and the four
  // slots) cost more than the blocks: their starts are pushed one by one (the index has room
  // for them nearly always; a capacity test is cheaper than the batch's set-up).
  if (size < kSmallChunk) {
    for (; size - pos >= kBlock; pos += kBlock) {
      unsigned high = 0;
      uint64_t mask = newline_mask(data + pos, &high);
      if (high != 0 && found_high == std::string_view::npos)
        found_high = pos + first_high_byte(data + pos, kBlock);
      for (const size_t next = base + pos + 1; mask != 0; mask &= mask - 1)
        starts.push_back(static_cast<T>(next + static_cast<size_t>(__builtin_ctzll(mask))));
    }
  }
  while (size - pos >= kBlock) {
    const size_t batch_end = pos + std::min(kBatchBytes, (size - pos) / kBlock * kBlock);
    // Room for a start per byte of the batch and the four slots of a block (uninitialised:
    // see UninitAllocator), given back below.
    const size_t kept = starts.size();
    starts.resize(kept + (batch_end - pos) + 4);
    T* const first = starts.data() + kept;
    T* out = first;
    // The batch's masks first (one SIMD pass, see newline_masks), then their starts.
    uint64_t masks[kBatchBytes / kBlock];
    const size_t blocks = (batch_end - pos) / kBlock;
    if (newline_masks(data + pos, blocks, masks) != 0 && found_high == std::string_view::npos)
      found_high = pos + first_high_byte(data + pos, batch_end - pos);
    for (size_t b = 0; b < blocks; ++b, pos += kBlock) {
      uint64_t mask = masks[b];
      const size_t next = base + pos + 1; // the start after a "\n" at block byte 0
      // Slot i holds the i-th set bit, written whether or not it exists (bit 63 forced on: no
      // test for an empty mask, which std::countr_zero would branch on); the slots' addresses
      // are fixed, and `out` moves once per block by the number of slots kept, so no store
      // waits for the test of the bit before it.
      size_t kept_slots = 0;
      for (int i = 0; i < 4; ++i) {
        out[i] =
            static_cast<T>(next + static_cast<size_t>(__builtin_ctzll(mask | (uint64_t{1} << 63))));
        kept_slots += mask != 0;
        mask &= mask - 1;
      }
      out += kept_slots;
      while (mask != 0) { // more than four line breaks in the block (blank lines)
        *out++ = static_cast<T>(next + static_cast<size_t>(__builtin_ctzll(mask)));
        mask &= mask - 1;
      }
    }
    starts.resize(kept + static_cast<size_t>(out - first));
  }
  if (found_high == std::string_view::npos) {
    const size_t tail_high = pos + first_high_byte(data + pos, size - pos);
    if (tail_high < size) found_high = tail_high;
  }
  for (; pos < size; ++pos)
    if (data[pos] == '\n') starts.push_back(static_cast<T>(base + pos + 1));
  return found_high;
}

void LineIndex::append(std::string_view chunk, size_t base, size_t* first_non_ascii) {
  // The chunk's last start is at most base + chunk.size().
  if (!wide() && base + chunk.size() > UINT32_MAX) widen();
  const size_t high = wide() ? append_starts(wide_, chunk.data(), chunk.size(), base)
                             : append_starts(starts_, chunk.data(), chunk.size(), base);
  if (first_non_ascii && high != std::string_view::npos)
    *first_non_ascii = std::min(*first_non_ascii, base + high);
}

void LineIndex::append_lines(const LineIndex& other, uint32_t first, uint32_t end) {
  if (first >= end) return;
  if (!wide() && other.line_start(end - 1) > UINT32_MAX) widen();
  const auto copy = [&](auto& starts, const auto* from) {
    starts.insert(starts.end(), from + first, from + end);
  };
  if (!wide())
    other.wide() ? copy(starts_, other.wide_starts()) : copy(starts_, other.narrow_starts());
  else
    other.wide() ? copy(wide_, other.wide_starts()) : copy(wide_, other.narrow_starts());
}

void LineIndex::widen() {
  if (wide()) return;
  wide_.assign(starts_.begin(), starts_.end());
  starts_ = Starts<uint32_t>();
}

template <typename T> uint32_t LineIndex::line_of_in(const Starts<T>& starts, size_t offset) const {
  auto it = std::upper_bound(starts.begin(), starts.end(), offset,
                             [](size_t o, T start) { return o < start; });
  return static_cast<uint32_t>((it - starts.begin()) - 1);
}

uint32_t LineIndex::line_of(size_t offset) const {
  return wide() ? line_of_in(wide_, offset) : line_of_in(starts_, offset);
}

size_t LineIndex::line_end(std::string_view text, const LineIndex& index, uint32_t line) {
  if (line + 1 < index.line_count()) {
    size_t end = index.line_start(line + 1) - 1; // at "\n"
    if (end > index.line_start(line) && text[end - 1] == '\r') --end;
    return end;
  }
  return text.size();
}

std::string_view LineIndex::line_text(std::string_view text, uint32_t line) const {
  const size_t begin = line_start(line);
  return text.substr(begin, line_end(text, line) - begin);
}

size_t LineIndex::utf16_column(std::string_view text, size_t offset) const {
  const size_t begin = line_start(line_of(offset));
  return unicode::utf16_length(text.substr(begin, offset - begin));
}

bool LineIndex::offset_of_utf16(std::string_view text, uint32_t line, size_t column,
                                size_t* offset) const {
  if (line >= line_count()) return false;
  const size_t begin = line_start(line);
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
  const size_t begin = line_start(line);
  const size_t end = line_end(text, line);
  const size_t pos = std::min(begin + column, end);
  // Inside a multi-byte character: stay before it (as offset_of_utf16 does inside a surrogate
  // pair), so that an edit there cannot split the character. The character's first byte is at
  // most 3 continuation bytes back; an invalid byte counts as a character of its own.
  size_t lead = pos;
  while (pos < end && lead > begin && pos - lead < 3 &&
         (static_cast<unsigned char>(text[lead]) & 0xC0) == 0x80)
    --lead;
  *offset = lead < pos && lead + unicode::decode(text, lead).length > pos ? lead : pos;
  return true;
}

LineIndex edit_line_index(const LineIndex& old, size_t begin, size_t end,
                          std::string_view inserted) {
  const uint32_t first = old.line_of(begin);             // starts 1..first are <= begin
  const uint32_t last = old.line_of(end);                // starts after `last` are > end
  const size_t moved_by = begin + inserted.size() - end; // modulo 2^64: may "subtract"
  const size_t old_last = old.line_start(old.line_count() - 1);
  // The largest start of the result: the last old one, moved, or one in the inserted text.
  const size_t new_last =
      std::max(old_last > end ? old_last + moved_by : 0, begin + inserted.size());
  LineIndex out;
  if (old.wide() || new_last > UINT32_MAX) out.widen();
  // Bulk copies: a keystroke in a large document keeps hundreds of thousands of starts.
  const auto edit = [&](const auto& from, auto& starts) {
    using Start = typename std::decay_t<decltype(starts)>::value_type;
    starts.reserve(from.size() + std::count(inserted.begin(), inserted.end(), '\n'));
    starts.assign(from.begin(), from.begin() + first + 1);
    for (size_t pos = 0; (pos = inserted.find('\n', pos)) != std::string_view::npos; ++pos)
      starts.push_back(static_cast<Start>(begin + pos + 1));
    const size_t kept = starts.size();
    starts.resize(kept + (from.size() - last - 1));
    std::transform(from.begin() + last + 1, from.end(),
                   starts.begin() + static_cast<ptrdiff_t>(kept),
                   [moved_by](size_t s) { return static_cast<Start>(s + moved_by); });
  };
  if (!out.wide())
    edit(old.starts_, out.starts_);
  else if (old.wide())
    edit(old.wide_, out.wide_);
  else
    edit(old.starts_, out.wide_);
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
