// UTF-8 decoding and the few Unicode properties the grammars need. Invalid UTF-8 never
// stops a parse: each invalid byte decodes as U+FFFD and counts as one UTF-16 unit, so
// positions stay defined for any input.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace blockls::unicode {

struct Decoded {
  char32_t codepoint; // U+FFFD for an invalid sequence
  unsigned length;    // bytes consumed (>= 1)
  bool valid;
};

// Decodes a multi-byte sequence (or invalid byte) at `text[pos]`: decode()'s slow path.
Decoded decode_multibyte(std::string_view text, size_t pos);

// Decodes the code point that starts at `text[pos]` (pos < text.size()).
inline Decoded decode(std::string_view text, size_t pos) {
  const unsigned char b0 = static_cast<unsigned char>(text[pos]);
  if (b0 < 0x80) return {b0, 1, true};
  return decode_multibyte(text, pos);
}

// Number of UTF-16 code units of `text` (invalid bytes count 1 each).
size_t utf16_length(std::string_view text);

// Number of code points of `text` (invalid bytes count 1 each).
size_t codepoint_count(std::string_view text);

// Byte offset of the first invalid UTF-8 sequence, or npos.
size_t first_invalid_utf8(std::string_view text);

void append_utf8(std::string& out, char32_t cp);

bool is_letter(char32_t cp); // General category L*
bool is_number(char32_t cp); // General category N*

// Terminal cells a code point takes: 2 for East Asian Wide and Fullwidth, 0 for combining marks
// and invisible format characters, 1 otherwise (control characters too: callers escape them).
unsigned display_width(char32_t cp);
// The cells of `text` (invalid bytes: one cell each, as U+FFFD).
size_t display_width(std::string_view text);

} // namespace blockls::unicode
