// NESL fixes applied together, as `blockls fix` applies them (every preferred fix once): an
// unclosed heredoc is closed before the first end marker it swallowed, and a duplicate id's
// rename carries the block's other repairs, written with the new id.
#include "fixits/apply_fixes.h"
#include "fixits/verify_fixes.h"

#include <catch2/catch.hpp>
#include <string>

using namespace blockls;

namespace {

// The text after one `blockls fix` pass.
std::string fixed_once(const std::string& text) {
  const CheckedDocument checked = check_with_verified_fixes(text);
  std::string out;
  apply_preferred_fixes(text, checked.diagnostics, &out);
  return out;
}

// Every diagnostic of `text`'s check, as "CODE " lines (a readable CHECK).
std::string codes(const std::string& text) {
  std::string out;
  for (const Diagnostic& d : check_with_verified_fixes(text).diagnostics)
    out += std::string(d.code) + " ";
  return out;
}

// The second block of the QA repros: it reuses the first block's id `k7m`.
const std::string kFirst = "#!nesl [@three-char-SHA-256: k7m]\naction = \"write_file\"\n"
                           "path = \"a.txt\"\ncontent = \"x\"\n#!end_k7m\n\n";
const std::string kSecondHead = "#!nesl [@three-char-SHA-256: k7m]\naction = \"write_file\"\n"
                                "path = \"b.txt\"\n";
// The second block as one fix pass should leave it: renamed to the fresh id `sab`, valid.
const std::string kSecondFixed =
    "#!nesl [@three-char-SHA-256: sab]\naction = \"write_file\"\n"
    "path = \"b.txt\"\ncontent = <<'EOT_sab'\nhi\nEOT_sab\n#!end_sab\n";

} // namespace

TEST_CASE("an unclosed heredoc is closed before the first end marker, not a later block's",
          "[fixits][nesl]") {
  // Two blocks with one id; the first heredoc lacks its delimiter. The fix closed it before the
  // second block's end marker: the second block (a delete) became content of a.txt.
  const std::string head = "#!nesl [@three-char-SHA-256: k7m]\naction = \"write_file\"\n"
                           "path = \"a.txt\"\ncontent = <<'EOT_k7m'\nx\n";
  const std::string rest = "#!end_k7m\n\nMore text.\n#!nesl [@three-char-SHA-256: k7m]\n"
                           "action = \"delete_file\"\npath = \"b.txt\"\n#!end_k7m\n";
  const std::string fixed = fixed_once(head + rest);
  CHECK(fixed == head + "EOT_k7m\n" + rest);
  const CheckedDocument again = check_with_verified_fixes(fixed);
  REQUIRE(again.parsed.blocks.size() == 2);
  // The block brought back into view repeats the id: a warning, whose rename the next pass does.
  CHECK(codes(fixed) == "DUPLICATE_BLOCK_ID ");
  CHECK(codes(fixed_once(fixed)).empty());
}

TEST_CASE("a duplicate id's rename carries the block's repairs that write the id",
          "[fixits][nesl]") {
  const std::string closed = "content = <<'EOT_k7m'\nhi\nEOT_k7m\n";
  const char* name = nullptr;
  std::string second;
  SECTION("unclosed heredoc") {
    name = "unclosed heredoc";
    second = "content = <<'EOT_k7m'\nhi\n";
  }
  SECTION("indented end marker") {
    name = "indented end marker";
    second = closed + "  #!end_k7m\n";
  }
  SECTION("heredoc delimiter without the id") {
    name = "heredoc delimiter without the id";
    second = "content = <<'EOT'\nhi\nEOT\n#!end_k7m\n";
  }
  SECTION("mismatched end marker") {
    name = "mismatched end marker";
    second = closed + "#!end_k7x\n";
  }
  SECTION("unclosed block") {
    name = "unclosed block";
    second = closed;
  }
  INFO(name);
  const std::string text = kFirst + kSecondHead + second;
  // One pass: every repair, renamed with the block; nothing left, nothing to do again.
  const std::string fixed = fixed_once(text);
  CHECK(fixed == kFirst + kSecondFixed);
  CHECK(codes(fixed).empty());
  CHECK(fixed_once(fixed) == fixed);
}

TEST_CASE("a duplicate id's rename is dropped with a carried repair that adds a diagnostic",
          "[fixits][nesl]") {
  // Closing the heredoc before its end marker turns the lines after it into an unclosed block:
  // the heredoc's fix is dropped, and the rename that carries it too.
  const std::string text = kFirst + kSecondHead +
                           "content = <<'EOT_k7m'\nhi\n#!end_k7m\n"
                           "#!nesl [@three-char-SHA-256: zzz]\npath = \"c\"\n";
  for (const Diagnostic& d : check_with_verified_fixes(text).diagnostics) {
    INFO(d.code);
    if (d.code == "DUPLICATE_BLOCK_ID" || d.code == "UNCLOSED_HEREDOC") CHECK(d.fixes.empty());
  }
  CHECK(fixed_once(text) == text);
}
