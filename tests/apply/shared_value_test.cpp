// SharedValue: copies share one value until one of them is edited.
#include "apply/shared_value.h"

#include <catch2/catch.hpp>
#include <map>
#include <memory>
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

TEST_CASE("shared value: values made inside one owner share its count, an edit clones",
          "[apply][shared_value]") {
  struct Both {
    std::map<std::string, int> first, second;
  };
  auto owner = std::make_shared<Both>();
  owner->first["x"] = 1;
  owner->second["y"] = 2;
  SharedValue<std::map<std::string, int>> a(owner, &owner->first), b(owner, &owner->second);
  const std::weak_ptr<Both> alive = owner;
  owner.reset(); // a and b keep it alive
  CHECK(a->at("x") == 1);
  CHECK(b->at("y") == 2);
  CHECK(alive.use_count() == 2);

  SharedValue<std::map<std::string, int>> c = a;
  CHECK(c.shares_with(a));
  CHECK(alive.use_count() == 3); // one count for the three values

  a.edit()["z"] = 3; // the count is shared: a gets its own copy, c is untouched
  CHECK_FALSE(a.shares_with(c));
  CHECK(a->size() == 2);
  CHECK(c->size() == 1);
  CHECK(alive.use_count() == 2);
  b = {};
  c = {};
  CHECK(alive.expired());
  CHECK(b.empty_value());
  CHECK(b->empty());
}
