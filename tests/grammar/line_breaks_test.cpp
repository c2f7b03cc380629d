// crlf_to_lf (grammar/line_breaks.h), which copies runs between CRLF pairs, against the rule
// byte by byte over every short string of '\r', '\n' and a letter.
#include "grammar/line_breaks.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

std::string crlf_to_lf_by_byte(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i)
    if (!(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) out += text[i];
  return out;
}

} // namespace

TEST_CASE("crlf_to_lf makes every CRLF pair LF and keeps lone CRs") {
  CHECK(blockls::crlf_to_lf("") == "");
  CHECK(blockls::crlf_to_lf("a\r\nb\r\n") == "a\nb\n");
  CHECK(blockls::crlf_to_lf("\r\r\n\r") == "\r\n\r");
  constexpr char kAlphabet[] = {'\r', '\n', 'x'};
  for (size_t length = 0; length <= 8; ++length) {
    size_t count = 1;
    for (size_t i = 0; i < length; ++i)
      count *= 3;
    for (size_t n = 0; n < count; ++n) {
      std::string text;
      for (size_t k = 0, m = n; k < length; ++k, m /= 3)
        text += kAlphabet[m % 3];
      REQUIRE(blockls::crlf_to_lf(text) == crlf_to_lf_by_byte(text));
    }
  }
}
