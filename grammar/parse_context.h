// What a dialect parser sees: one complete line at a time, plus the document so far.
// Parsers keep only byte offsets between calls, so the buffer behind `text` may grow
// (streaming) without invalidating anything they stored.
#pragma once

#include "grammar/model.h"

#include <string_view>

namespace blockls {

struct LineRef {
  uint32_t number = 0;  // 0-based
  size_t begin = 0;     // first byte of the line
  size_t end = 0;       // end of the line's text, before "\r\n" / "\n"
  size_t next = 0;      // first byte of the next line (== end for the last line)
  std::string_view text; // [begin, end): no "\n", no "\r" of a "\r\n"
  bool has_newline = false; // the line is followed by "\n" (false only for the last line)
};

struct ParseContext {
  std::string_view text;  // the whole document fed so far (valid only during the call)
  ParsedDocument* out = nullptr;
  // Markdown fence state at the current line (only tracked outside blocks).
  bool inside_fence = false;
};

// Options shared by all dialect parsers.
struct ParseOptions {
  bool telt = true;
  bool nesl = true;
};

} // namespace blockls
