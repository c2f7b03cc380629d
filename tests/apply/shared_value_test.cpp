// SharedValue: copies share one value until one of them is edited.
#include "apply/shared_value.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

using blockls::apply::SharedValue;

TEST_CASE("shared value: empty until edited, copies share, an edit clones a shared value",
          "[apply][shared_value]") {
  SharedValue<std::map<std::string, int>> a;
  CHECK(a->empty());
  a.edit()["x"] = 1;
  SharedValue<std::map<std::string, int>> b = a;
  CHECK(b.shares_with(a));
  CHECK(b->at("x") == 1);

  b.edit()["y"] = 2; // b was shared: it gets its own copy, a is untouched
  CHECK_FALSE(b.shares_with(a));
  CHECK(a->size() == 1);
  CHECK(b->size() == 2);

  SharedValue<std::map<std::string, int>> c = b;
  c = {}; // reset: c is empty again, b keeps its value
  CHECK(c->empty());
  CHECK(b->size() == 2);

  auto* before = &*b;
  b.edit()["z"] = 3; // b is no longer shared: edited in place
  CHECK(&*b == before);
}
