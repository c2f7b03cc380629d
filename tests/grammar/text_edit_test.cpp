// apply_edits and differing_span: the text-edit primitives every fix and edit goes through.
#include "grammar/text_edit.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace blockls;

TEST_CASE("apply_edits splices sorted edits and refuses overlaps", "[text_edit]") {
  std::string out;
  const std::vector<TextEdit> edits{{{6, 7}, "X"}, {{0, 1}, "Y"}};
  REQUIRE(apply_edits("abcdefgh", edits, &out));
  CHECK(out == "YbcdefXh");
  const std::vector<TextEdit> overlapping{{{0, 3}, "x"}, {{2, 4}, "y"}};
  CHECK_FALSE(apply_edits("abcdef", overlapping, &out));
  const std::vector<TextEdit> based{{{12, 13}, "Z"}}; // text starts at offset 10
  REQUIRE(apply_edits("abcd", based, &out, 10));
  CHECK(out == "abZd");
}

TEST_CASE("differing_span finds the smallest span and keeps UTF-8 whole", "[text_edit]") {
  const auto check = [](std::string before, std::string after) {
    const ByteRange span = differing_span(before, after);
    const size_t suffix = before.size() - span.end;
    const std::string replaced = before.substr(0, span.begin) +
                                 after.substr(span.begin, after.size() - suffix - span.begin) +
                                 before.substr(span.end);
    CHECK(replaced == after);
    return span;
  };
  CHECK(check("hello world", "hello World") == ByteRange{6, 7});
  CHECK(check("same", "same") == ByteRange{4, 4});
  CHECK(check("", "new") == ByteRange{0, 0});
  CHECK(check("abc", "") == ByteRange{0, 3});
  // é (C3 A9) vs è (C3 A8): the common lead byte is not split off.
  CHECK(check("x\xC3\xA9y", "x\xC3\xA8y") == ByteRange{1, 3});
  check("aaa", "aaaa");
  check("\xF0\x9F\x98\x80", "\xF0\x9F\x98\x81");
}

TEST_CASE("differing_span never ends or begins inside a CRLF of the text before", "[text_edit]") {
  const auto check = [](std::string before, std::string after) {
    const ByteRange span = differing_span(before, after);
    const size_t suffix = before.size() - span.end;
    CHECK(before.substr(0, span.begin) +
              after.substr(span.begin, after.size() - suffix - span.begin) +
              before.substr(span.end) ==
          after);
    for (const size_t at : {span.begin, span.end})
      CHECK_FALSE((at > 0 && at < before.size() && before[at - 1] == '\r' && before[at] == '\n'));
    return span;
  };
  CHECK(check("a\r\nb", "a\nb") == ByteRange{1, 3});       // CRLF -> LF: the whole break
  CHECK(check("x\r\ny", "x\r\r\ny") == ByteRange{1, 1});   // a \r before the break
  CHECK(check("p\r\nq", "p\r\nXq") == ByteRange{3, 3});    // after the break: untouched
  CHECK(check("a\r\n\r\nb", "a\r\nb") == ByteRange{3, 5}); // one of two breaks removed
  check("\r\n", "\n");
  check("\r\n", "\r");
  check("a\r\n", "a\r");
}
