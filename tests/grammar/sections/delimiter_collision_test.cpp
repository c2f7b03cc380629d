// DELIMITER_COLLISION in bodies with many repeated delimiters: every collision is reported as
// before, but the block's UUID fix (which rewrites every other delimiter) is not copied onto
// each of them: a body of n delimiters would hold ~n² edits (gigabytes at 128 KB).
#include "diagnostics/check.h"
#include "fixits/apply_fixes.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace blockls;

namespace {

// A delimiter name of letters only: P then two letters from `i` (676 names).
std::string name_of(size_t i) {
  return std::string("P") + static_cast<char>('A' + i / 26 % 26) + static_cast<char>('A' + i % 26);
}

// A sections block of `names` distinct delimiters, then `rounds` more runs of the same names:
// every delimiter of those runs collides with the first run's.
std::string colliding_block(size_t names, size_t rounds) {
  std::string text = "chatroom task-started << 'EOF'\n";
  for (size_t r = 0; r <= rounds; ++r)
    for (size_t i = 0; i < names; ++i)
      text += "---" + name_of(i) + "---\nvalue " + std::to_string(r) + "\n";
  return text + "EOF\n";
}

std::vector<const Diagnostic*> collisions(const CheckedDocument& checked) {
  std::vector<const Diagnostic*> found;
  for (const Diagnostic& d : checked.diagnostics)
    if (d.code == "DELIMITER_COLLISION") found.push_back(&d);
  return found;
}

} // namespace

TEST_CASE("a block's collisions share its UUID fix within a bounded number of edits",
          "[sections]") {
  // A body of 3,300 delimiters, 3,000 of them repeats.
  constexpr size_t kNames = 300, kRounds = 10;
  const std::string text = colliding_block(kNames, kRounds);
  const CheckedDocument checked = check_document(text);
  const std::vector<const Diagnostic*> found = collisions(checked);
  REQUIRE(found.size() == kNames * kRounds); // every repeat is still reported, in order

  size_t edits = 0, with_fix = 0;
  for (size_t k = 0; k < found.size(); ++k) {
    const Diagnostic& d = *found[k];
    // Line 0 is the start line; the first run's delimiter of name i is on line 1 + 2i.
    const std::string first_line = std::to_string(2 + 2 * (k % kNames));
    INFO("collision " << k << ": " << d.message);
    CHECK(d.message.find("begins at line " + first_line + ")") != std::string::npos);
    for (const Fix& f : d.fixes)
      edits += f.edits.size();
    if (!d.fixes.empty()) {
      ++with_fix;
      CHECK(d.fixes[0].edits.size() == kNames); // the first run's delimiters, rewritten
      CHECK(d.fixes[0].preferred == (k == 0));
    } else {
      CHECK(d.fix_hint.find("the fix of the collision at line " +
                            std::to_string(found[0]->line + 1)) != std::string::npos);
    }
  }
  // Before: each of the 3,000 collisions held all 300 edits (900,000 in all).
  const size_t delimiters = kNames * (kRounds + 1);
  INFO("edits in all collisions' fixes: " << edits << ", collisions with a fix: " << with_fix);
  CHECK(edits <= 2 * delimiters);
  CHECK(with_fix >= 1);

  // The one fix still removes every collision.
  std::string fixed;
  REQUIRE(apply_fix(text, found[0]->fixes[0], &fixed));
  CHECK(collisions(check_document(fixed)).empty());

  // A normal block: every collision keeps the fix, as before.
  const CheckedDocument small = check_document(colliding_block(4, 2));
  const std::vector<const Diagnostic*> small_found = collisions(small);
  REQUIRE(small_found.size() == 8);
  for (const Diagnostic* d : small_found) {
    REQUIRE(d->fixes.size() == 1);
    CHECK(d->fixes[0].edits.size() == 4);
    CHECK(d->fix_hint.find("the fix of the collision") == std::string::npos);
  }
}
