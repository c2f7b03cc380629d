// apply_fix / apply_preferred_fixes: splicing, overlap refusal, de-duplication.
#include "fixits/apply_fixes.h"

#include <catch2/catch.hpp>

using namespace blockls;

TEST_CASE("a fix's edits are applied in any order", "[fixits]") {
  std::string out;
  const Fix fix{"t", true, {{{6, 7}, "X"}, {{0, 1}, "Y"}, {{3, 3}, "++"}}};
  REQUIRE(apply_fix("abcdefgh", fix, &out));
  CHECK(out == "Ybc++defXh");
}

TEST_CASE("overlapping or out-of-range edits are refused", "[fixits]") {
  std::string out = "unchanged";
  CHECK_FALSE(apply_fix("abcdef", Fix{"t", true, {{{0, 3}, "x"}, {{2, 4}, "y"}}}, &out));
  CHECK_FALSE(apply_fix("abc", Fix{"t", true, {{{2, 9}, "x"}}}, &out));
  CHECK(out == "unchanged");
}

TEST_CASE("preferred fixes: once each, overlapping ones skipped, non-preferred ignored", "[fixits]") {
  Diagnostic a(Dialect::none), b(Dialect::none), c(Dialect::none), d(Dialect::none);
  a.fixes = {Fix{"a", true, {{{0, 1}, "A"}}}};
  b.fixes = {Fix{"b", true, {{{0, 2}, "B"}}}};   // overlaps a: skipped
  c.fixes = {Fix{"c", false, {{{4, 5}, "C"}}}};  // not preferred
  d.fixes = {Fix{"a", true, {{{0, 1}, "A"}}}};   // same fix as a: applied once
  std::string out;
  CHECK(apply_preferred_fixes("abcdef", {a, b, c, d}, &out) == 1);
  CHECK(out == "Abcdef");
}
