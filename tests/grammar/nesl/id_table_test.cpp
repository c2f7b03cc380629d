// The NESL id table against a plain map: first lines kept, short ids (bitmap and queue) and
// other ids (hash table) alike, lookups between inserts (which flush the queue).
#include "grammar/nesl/id_table.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>

using blockls::IdTable;

TEST_CASE("the id table keeps the first line of every id", "[id_table]") {
  IdTable table;
  CHECK(table.find("abc") == nullptr);
  table.emplace("abc", 7);
  table.emplace("abc", 9); // a duplicate: the first line stays
  table.emplace("k7m9", 3);
  table.emplace("k7m9", 4);
  REQUIRE(table.find("abc") != nullptr);
  CHECK(*table.find("abc") == 7);
  REQUIRE(table.find("k7m9") != nullptr);
  CHECK(*table.find("k7m9") == 3);
  CHECK(table.count("abd") == 0);
  CHECK(table.count("ab") == 0);
  // Never recorded: empty, longer than 8 bytes, with a NUL byte.
  table.emplace("", 1);
  table.emplace("abcdefghi", 1);
  table.emplace(std::string_view("a\0c", 3), 1);
  CHECK(table.count("") == 0);
  CHECK(table.count("abcdefghi") == 0);
  CHECK(table.count(std::string_view("a\0c", 3)) == 0);
  // Three bytes that are not all letters or digits take the hash table's path.
  table.emplace("a-c", 5);
  REQUIRE(table.find("a-c") != nullptr);
  CHECK(*table.find("a-c") == 5);
  CHECK(table.count("a_c") == 0);
}

TEST_CASE("find_or_emplace answers the first line of a seen id and records a new one",
          "[id_table]") {
  IdTable table;
  CHECK(table.find_or_emplace("abc", 7) == nullptr); // new: recorded
  REQUIRE(table.find_or_emplace("abc", 9) != nullptr);
  CHECK(*table.find_or_emplace("abc", 11) == 7);      // the first line stays
  CHECK(table.find_or_emplace("k7m9", 3) == nullptr); // the hash table's path
  REQUIRE(table.find_or_emplace("k7m9", 4) != nullptr);
  CHECK(*table.find("k7m9") == 3);
  CHECK(table.find_or_emplace("abcdefghi", 1) == nullptr); // never recorded
  CHECK(table.find_or_emplace("abcdefghi", 2) == nullptr);
  CHECK(table.count("abcdefghi") == 0);
}

TEST_CASE("the id table agrees with a map over many random ids", "[id_table]") {
  std::mt19937 rng(20261122);
  const std::string alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
  const auto random_id = [&] {
    // Mostly three letters or digits (the bitmap path), sometimes 2-8 characters with a `-`
    // or `_` (the hash table's path).
    const size_t length = rng() % 4 == 0 ? 2 + rng() % 7 : 3;
    const size_t letters = rng() % 8 == 0 ? alphabet.size() : 62;
    std::string id;
    for (size_t i = 0; i < length; ++i)
      id += alphabet[rng() % letters];
    return id;
  };
  for (int round = 0; round < 4; ++round) {
    IdTable table;
    if (round % 2 == 0) table.reserve(1000);
    std::map<std::string, uint32_t> model;
    for (uint32_t line = 0; line < 30000; ++line) {
      const std::string id = random_id();
      if (rng() % 3 == 0) { // a lookup of a random id
        const std::string probe = random_id();
        const uint32_t* got = table.find(probe);
        const auto want = model.find(probe);
        REQUIRE((got != nullptr) == (want != model.end()));
        if (got) REQUIRE(*got == want->second);
      }
      if (rng() % 2 == 0) {
        table.emplace(id, line);
      } else { // find_or_emplace: what was there before, then recorded like emplace()
        const uint32_t* got = table.find_or_emplace(id, line);
        const auto want = model.find(id);
        REQUIRE((got != nullptr) == (want != model.end()));
        if (got) REQUIRE(*got == want->second);
      }
      model.emplace(id, line); // keeps the first
    }
    for (const auto& [id, line] : model) {
      const uint32_t* got = table.find(id);
      REQUIRE(got != nullptr);
      REQUIRE(*got == line);
    }
  }
}

TEST_CASE("the id table gives the same answers before and after it grows a bitmap", "[id_table]") {
  // A few hundred ids stay in the hash table; past that the short ids move to the bitmap. Every
  // id recorded before the move is still found with its first line after it.
  IdTable table;
  std::map<std::string, uint32_t> model;
  const std::string digits = "0123456789abcdefghijklmnopqrstuvwxyz";
  for (uint32_t line = 0; line < 3000; ++line) {
    std::string id = {digits[line % 36], digits[(line / 36) % 36], digits[(line * 7) % 36]};
    if (line % 5 == 0) id += "xy"; // a longer id: always the hash table's
    const uint32_t* seen = table.find_or_emplace(id, line);
    const auto want = model.find(id);
    REQUIRE((seen != nullptr) == (want != model.end()));
    if (seen) REQUIRE(*seen == want->second);
    model.emplace(id, line);
    if (line % 97 == 0)
      for (const auto& [known, first] : model) {
        const uint32_t* got = table.find(known);
        REQUIRE(got != nullptr);
        REQUIRE(*got == first);
      }
  }
}
