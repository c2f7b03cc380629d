// SmallMap behaves as the std::map it replaces in the plan: sorted by name, names unique,
// emplace keeps the first value, operator[] inserts a default.
#include "apply/small_map.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>

namespace blockls {

TEST_CASE("SmallMap orders, finds and inserts as std::map does", "[apply][small_map]") {
  std::mt19937 rng(7);
  const char* const names[] = {"path", "content", "old_text", "new_text", "a", "", "path2"};
  for (int round = 0; round < 200; ++round) {
    apply::SmallMap<std::string> small;
    std::map<std::string, std::string> reference;
    // Up to seven names: more than the three held inline, so the map also spills to the heap.
    for (int i = 0; i < 8; ++i) {
      const std::string_view name = names[rng() % std::size(names)]; // outlives the map
      const std::string value = std::to_string(rng() % 100);
      if (rng() % 3 == 0) {
        small[name] += value;
        reference[std::string(name)] += value;
      } else {
        CHECK(small.emplace(name, value).second ==
              reference.emplace(std::string(name), value).second);
      }
    }
    REQUIRE(small.size() == reference.size());
    CHECK(std::equal(
        small.begin(), small.end(), reference.begin(), reference.end(),
        [](const auto& a, const auto& b) { return a.first == b.first && a.second == b.second; }));
    for (const char* n : names) {
      const auto it = small.find(n);
      CHECK((it == small.end()) == (reference.find(n) == reference.end()));
      if (it != small.end()) CHECK(it->second == reference.at(n));
    }
  }
}

} // namespace blockls
