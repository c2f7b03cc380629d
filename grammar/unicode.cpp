// UTF-8 decoding shared by the line index and the grammars.
#include "grammar/unicode.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace blockls::unicode {

Decoded decode_multibyte(std::string_view text, size_t pos) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char b0 = byte(pos);
  if (b0 < 0x80) return {b0, 1, true};
  unsigned need;
  char32_t cp;
  char32_t min;
  if ((b0 & 0xE0) == 0xC0) {
    need = 1, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    need = 2, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    need = 3, cp = b0 & 0x07, min = 0x10000;
  } else {
    return {0xFFFD, 1, false};
  }
  if (pos + need >= text.size()) return {0xFFFD, 1, false};
  for (unsigned i = 1; i <= need; ++i) {
    const unsigned char b = byte(pos + i);
    if ((b & 0xC0) != 0x80) return {0xFFFD, 1, false};
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0xFFFD, 1, false};
  return {cp, need + 1, true};
}

size_t utf16_length(std::string_view text) {
  size_t units = 0;
  for (size_t i = 0; i < text.size();) {
    const unsigned char b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      ++units, ++i;
      continue;
    }
    const Decoded d = decode(text, i);
    units += d.codepoint >= 0x10000 ? 2 : 1;
    i += d.length;
  }
  return units;
}

size_t codepoint_count(std::string_view text) {
  size_t count = 0;
  for (size_t i = 0; i < text.size(); ++count)
    i += decode(text, i).length;
  return count;
}

size_t first_invalid_utf8(std::string_view text) {
  // ASCII runs are skipped 32 and then 8 bytes at a time (a word with no high bit set is
  // all ASCII); only the bytes of a non-ASCII word are decoded one sequence at a time.
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  const char* data = text.data();
  const size_t size = text.size();
  const auto word = [data](size_t at) {
    uint64_t w;
    std::memcpy(&w, data + at, sizeof w);
    return w;
  };
  size_t i = 0;
  while (i < size) {
    while (i + 32 <= size && ((word(i) | word(i + 8) | word(i + 16) | word(i + 24)) & kHigh) == 0)
      i += 32;
    while (i + 8 <= size && (word(i) & kHigh) == 0)
      i += 8;
    // Up to the end of the word that has a non-ASCII byte (or of the text).
    const size_t stop = std::min(size, i + 8);
    while (i < stop) {
      if (static_cast<unsigned char>(data[i]) < 0x80) {
        ++i;
        continue;
      }
      const Decoded d = decode_multibyte(text, i);
      if (!d.valid) return i;
      i += d.length;
    }
  }
  return std::string_view::npos;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

} // namespace blockls::unicode
