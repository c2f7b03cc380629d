// Tracks Markdown code fences (``` or ~~~, any info string) in prose, so that a fix which
// closes a block opened inside a fence can put the end marker before the fence's closing line.
#pragma once

#include "grammar/bytes.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace blockls {

class MarkdownFence {
public:
  // Feeds one prose line (a line outside every block).
  void observe(std::string_view line);
  bool open() const { return open_; }
  char marker() const { return marker_; }
  size_t length() const { return length_; }
  // Restores a state read from open() / marker() / length() (to resume parsing mid-text).
  void restore(bool open, char marker, size_t length) {
    open_ = open;
    marker_ = marker;
    length_ = length;
  }
  // True when `line` would close the currently open fence.
  bool closes(std::string_view line) const {
    // A closer has the fence's marker after at most 3 spaces of indentation (checked here
    // first: indented code inside a fenced block is common). Lines of four bytes or more are
    // tested without a branch per byte, as their indentation varies from line to line.
    if (!open_) return false;
    if (line.size() < 4) return closes_short(line);
    uint32_t x;
    std::memcpy(&x, line.data(), 4);
    if constexpr (std::endian::native != std::endian::little) x = __builtin_bswap32(x);
    const uint32_t spaces = zero_byte_flags(x ^ 0x20202020u);
    const uint32_t marks = zero_byte_flags(x ^ (0x01010101u * static_cast<unsigned char>(marker_)));
    // The first byte that is not a space, byte 3 at the latest.
    const unsigned lead =
        static_cast<unsigned>(__builtin_ctz((~spaces & 0x80808080u) | 0x80000000u));
    return ((marks >> lead) & 1u) != 0 && closes_run(line);
  }

private:
  bool closes_run(std::string_view line) const;
  // closes() for a line of fewer than four bytes.
  bool closes_short(std::string_view line) const {
    size_t i = 0;
    while (i < line.size() && line[i] == ' ')
      ++i;
    return i < line.size() && line[i] == marker_ && closes_run(line);
  }

  bool open_ = false;
  char marker_ = '`';
  size_t length_ = 0;
};

} // namespace blockls
