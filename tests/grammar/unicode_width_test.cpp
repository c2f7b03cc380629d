// display_width: the terminal cells text output pads and underlines with.
#include "grammar/unicode.h"

#include <catch2/catch.hpp>

using blockls::unicode::display_width;

TEST_CASE("display_width: wide 2, combining and invisible 0, the rest 1", "[unicode][width]") {
  CHECK(display_width(U'a') == 1);
  CHECK(display_width(U'é') == 1);
  CHECK(display_width(U'\u00AD') == 1); // the soft hyphen shows
  CHECK(display_width(U'日') == 2);     // CJK, East Asian Wide
  CHECK(display_width(U'\uFF21') == 2); // fullwidth A
  CHECK(display_width(U'\U0001F600') == 2);
  CHECK(display_width(U'\u0301') == 0); // combining acute accent (Mn)
  CHECK(display_width(U'\u20DD') == 0); // combining enclosing circle (Me)
  CHECK(display_width(U'\u200B') == 0); // zero width space (Cf)
  CHECK(display_width(U'\u0378') == 1); // unassigned: not wide
  CHECK(display_width("path = \"日本語.txt\"") == 19);
  CHECK(display_width("e\xcc\x81") == 1);
  CHECK(display_width("\xff") == 1); // invalid: one U+FFFD
}
