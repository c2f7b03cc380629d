// LineIndex: byte offsets to lines and UTF-16 / UTF-8 columns, CRLF-aware.
#include "grammar/line_index.h"

#include <catch2/catch.hpp>
#include <iterator>
#include <string>

using blockls::edit_line_index;
using blockls::LineIndex;

TEST_CASE("line index counts lines like nesl-js: N newlines give N+1 lines", "[line_index]") {
  CHECK(LineIndex("").line_count() == 1);
  CHECK(LineIndex("a").line_count() == 1);
  CHECK(LineIndex("a\n").line_count() == 2);
  CHECK(LineIndex("a\r\nb\nc").line_count() == 3);
}

TEST_CASE("line ends exclude LF and the CR of CRLF but keep a lone CR", "[line_index]") {
  const std::string text = "ab\r\ncd\re\n\nlast";
  LineIndex idx(text);
  REQUIRE(idx.line_count() == 4);
  CHECK(idx.line_text(text, 0) == "ab");
  CHECK(idx.line_text(text, 1) == "cd\re");
  CHECK(idx.line_text(text, 2) == "");
  CHECK(idx.line_text(text, 3) == "last");
  CHECK(idx.line_of(0) == 0);
  CHECK(idx.line_of(3) == 0); // the "\n" of "\r\n"
  CHECK(idx.line_of(4) == 1);
  CHECK(idx.line_of(text.size()) == 3);
}

TEST_CASE("UTF-16 columns count astral characters as two units", "[line_index]") {
  const std::string text = "x\n\xC3\xA9\xF0\x9F\x98\x80z"; // "é😀z" on line 1
  LineIndex idx(text);
  const size_t z = text.find('z');
  CHECK(idx.utf16_column(text, z) == 3); // é = 1, 😀 = 2
  CHECK(idx.utf8_column(z) == 6);
  size_t offset = 0;
  REQUIRE(idx.offset_of_utf16(text, 1, 3, &offset));
  CHECK(offset == z);
  REQUIRE(idx.offset_of_utf16(text, 1, 2, &offset)); // inside the surrogate pair
  CHECK(offset == text.find('\xF0'));
  REQUIRE(idx.offset_of_utf16(text, 1, 99, &offset)); // clamps to the line end
  CHECK(offset == text.size());
  CHECK_FALSE(idx.offset_of_utf16(text, 2, 0, &offset));
}

TEST_CASE("a UTF-8 column inside a character snaps to the character's start", "[line_index]") {
  // a é(2 bytes) 😀(4 bytes) b, then an invalid run: a lone continuation byte and a cut-off
  // lead byte, each a character of its own.
  const std::string text = "a\xC3\xA9\xF0\x9F\x98\x80"
                           "b\x80\xE2\x82z\nx";
  LineIndex idx(text);
  const size_t expected[] = {0, 1, 1, 3, 3, 3, 3, 7, 8, 9, 10, 11, 12};
  for (size_t column = 0; column < std::size(expected); ++column) {
    size_t offset = 99;
    REQUIRE(idx.offset_of_utf8(text, 0, column, &offset));
    INFO("column " << column);
    CHECK(offset == expected[column]);
  }
  size_t offset = 0;
  REQUIRE(idx.offset_of_utf8(text, 0, 99, &offset)); // clamps to the line end
  CHECK(offset == 12);
  REQUIRE(idx.offset_of_utf8(text, 1, 1, &offset)); // the last line, to the text's end
  CHECK(offset == text.size());
}

TEST_CASE("invalid UTF-8 bytes count as one unit each", "[line_index]") {
  const std::string text = "a\xFF\xC3z";
  LineIndex idx(text);
  CHECK(idx.utf16_column(text, 3) == 3);
}

TEST_CASE("appending chunks builds the same index as one pass", "[line_index]") {
  const std::string text = "one\r\ntwo\n\nthree\nfour";
  LineIndex whole(text);
  for (size_t split = 0; split <= text.size(); ++split) {
    LineIndex parts;
    parts.append(std::string_view(text).substr(0, split), 0);
    parts.append(std::string_view(text).substr(split), split);
    REQUIRE(parts.line_count() == whole.line_count());
    for (uint32_t l = 0; l < whole.line_count(); ++l)
      CHECK(parts.line_start(l) == whole.line_start(l));
  }
}

TEST_CASE("the line index after an edit equals a fresh index of the new text", "[line_index]") {
  const std::string texts[] = {
      "", "a", "\n", "ab\ncd\r\nef\n", "\n\n\nx\n", "one\ntwo", "h\xC3\xA9\nx\n"};
  const std::string inserts[] = {"", "x", "\n", "a\nb", "\r\n", "\n\n", "\xC3\xA9"};
  const auto ascii_prefix = [](const std::string& s) {
    size_t n = 0;
    while (n < s.size() && static_cast<unsigned char>(s[n]) < 0x80)
      ++n;
    return n;
  };
  for (const std::string& text : texts) {
    LineIndex old(text);
    old.set_ascii_prefix(ascii_prefix(text));
    for (size_t begin = 0; begin <= text.size(); ++begin)
      for (size_t end = begin; end <= text.size(); ++end)
        for (const std::string& inserted : inserts) {
          const std::string next = text.substr(0, begin) + inserted + text.substr(end);
          const LineIndex fresh(next), edited = edit_line_index(old, begin, end, inserted);
          INFO("text '" << text << "' [" << begin << ", " << end << ") <- '" << inserted << "'");
          REQUIRE(edited.line_count() == fresh.line_count());
          // The hint may be short of the truth, never past it; for ASCII edits of ASCII
          // texts it is exact.
          REQUIRE(edited.ascii_prefix() <= ascii_prefix(next));
          if (ascii_prefix(next) == next.size() && ascii_prefix(text) == text.size())
            CHECK(edited.ascii_prefix() == next.size());
          for (uint32_t l = 0; l < fresh.line_count(); ++l)
            REQUIRE(edited.line_start(l) == fresh.line_start(l));
        }
  }
}

namespace {

// Every answer of `a` equals `b`'s over `text`.
void require_same_index(const std::string& text, const LineIndex& a, const LineIndex& b) {
  REQUIRE(a.line_count() == b.line_count());
  for (uint32_t l = 0; l < a.line_count(); ++l) {
    REQUIRE(a.line_start(l) == b.line_start(l));
    REQUIRE(a.line_text(text, l) == b.line_text(text, l));
    size_t x = 0, y = 0;
    REQUIRE(a.offset_of_utf16(text, l, 2, &x));
    REQUIRE(b.offset_of_utf16(text, l, 2, &y));
    REQUIRE(x == y);
  }
  for (size_t offset = 0; offset <= text.size(); ++offset) {
    REQUIRE(a.line_of(offset) == b.line_of(offset));
    REQUIRE(a.utf16_column(text, offset) == b.utf16_column(text, offset));
    REQUIRE(a.utf8_column(offset) == b.utf8_column(offset));
  }
}

} // namespace

TEST_CASE("a wide index (64-bit starts) answers like the narrow one", "[line_index]") {
  std::string long_text;
  for (int i = 0; i < 300; ++i) // several 64-byte blocks, blank lines, CRLF, non-ASCII
    long_text += (i % 7 == 0 ? "\n\n\n\n\n\n" : "") + std::string(i % 90, 'x') +
                 (i % 3 ? "h\xC3\xA9\xF0\x9F\x98\x80" : "") + (i % 2 ? "\r\n" : "\n");
  const std::string texts[] = {"", "a", "ab\r\ncd\re\n\nlast", long_text};
  for (const std::string& text : texts) {
    const LineIndex narrow(text);
    REQUIRE_FALSE(narrow.wide());
    LineIndex wide;
    wide.widen();
    wide.append(text, 0);
    REQUIRE(wide.wide());
    require_same_index(text, wide, narrow);
    // Widening midway keeps the starts found so far.
    for (size_t split : {size_t{0}, text.size() / 3, text.size()}) {
      LineIndex parts;
      parts.append(std::string_view(text).substr(0, split), 0);
      parts.widen();
      parts.append(std::string_view(text).substr(split), split);
      require_same_index(text, parts, narrow);
    }
    // Edits of a wide index stay wide and exact.
    const std::string next = "\xC3\xA9\n" + text;
    const LineIndex edited = edit_line_index(wide, 0, 0, "\xC3\xA9\n");
    REQUIRE(edited.wide());
    require_same_index(next, edited, LineIndex(next));
  }
}

TEST_CASE("line starts past 4 GiB switch the index to 64-bit starts", "[line_index]") {
  constexpr size_t k4G = size_t{1} << 32;
  // A chunk that starts just before 4 GiB (as in a text that large), without the text.
  LineIndex idx;
  idx.append("ab\n", 0);
  REQUIRE_FALSE(idx.wide());
  idx.append("x\ny\nz", k4G - 3);
  REQUIRE(idx.wide());
  REQUIRE(idx.line_count() == 4);
  CHECK(idx.line_start(1) == 3);
  CHECK(idx.line_start(2) == k4G - 1);
  CHECK(idx.line_start(3) == k4G + 1);
  CHECK(idx.line_of(k4G + 1) == 3);
  CHECK(idx.line_of(k4G) == 2);
  CHECK(idx.line_of(k4G - 2) == 1);

  // An edit that moves the last start past 4 GiB widens the result.
  LineIndex narrow;
  narrow.append("ab\n", 0);
  narrow.append("cd\n", k4G - 4); // its last start is exactly 2^32 - 1: still narrow
  REQUIRE_FALSE(narrow.wide());
  REQUIRE(narrow.line_start(2) == k4G - 1);
  const LineIndex moved = edit_line_index(narrow, 0, 0, "xy");
  REQUIRE(moved.wide());
  CHECK(moved.line_start(1) == 5);
  CHECK(moved.line_start(2) == k4G + 1);
}

// `blockls stream` indexes each settled part by copying the streaming parser's line starts
// (append_lines) instead of reading the part's bytes again: in any pieces and with either width
// on either side, that builds the index a pass over the bytes builds.
TEST_CASE("appending another index's lines builds the same index as one pass", "[line_index]") {
  const std::string text = "a\n\nbb\r\nccc\n\nd\ne\n\n\nf";
  const LineIndex whole(text);
  const uint32_t count = whole.line_count();
  for (const bool wide_source : {false, true})
    for (const bool wide_target : {false, true})
      for (uint32_t step = 1; step < count; ++step) {
        LineIndex source(text);
        if (wide_source) source.widen();
        LineIndex built;
        if (wide_target) built.widen();
        for (uint32_t first = 1; first < count; first += step)
          built.append_lines(source, first, std::min(count, first + step));
        built.append_lines(source, count, count); // nothing
        REQUIRE(built.line_count() == count);
        for (uint32_t line = 0; line < count; ++line)
          REQUIRE(built.line_start(line) == whole.line_start(line));
        CHECK(built.wide() == wide_target);
      }
}
