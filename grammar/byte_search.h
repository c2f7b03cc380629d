// Substring search over large buffers (heredoc bodies, whole documents): the first and last
// bytes of the needle are compared 16 positions at a time and only candidates are verified,
// which skips ordinary text far faster than a byte-by-byte or memchr-per-line search.
#pragma once

#include <cstddef>
#include <string_view>

namespace blockls {

// Offset of the first occurrence of `needle` in `text` at or after `from`, or npos.
// An empty needle is found at `from` (when from <= text.size()).
size_t find_bytes(std::string_view text, std::string_view needle, size_t from = 0);

} // namespace blockls
