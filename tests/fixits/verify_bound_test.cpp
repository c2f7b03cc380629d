// Fix verification re-checks a diagnostic's window with the fix applied, so a window with an
// error on every line once cost its size times its line count: a fuzz input (an unclosed NESL
// block swallowing an Aider chat history, 1,473 errors) took 30 s under ASan and grew 4× with
// every doubling. The work is now bounded per window; these tests count the bytes re-checked
// (no timing) and keep the bound from breaking what verification promises.
#include "fixits/verify_fixes.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

using namespace blockls;

namespace {

// An unclosed NESL block followed by `lines` lines that each read as a broken assignment
// inside it (text after the closing quote, as in the fuzz input): one window, one
// TRAILING_CONTENT error with a fix per line.
std::string unclosed_block_then_prose(size_t lines) {
  std::string text = "#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\n";
  for (size_t i = 0; i < lines; ++i)
    text += "key_" + std::to_string(i) + " = \"a value\"with text after the quote\n";
  return text;
}

size_t errors_with_code(const CheckedDocument& c, std::string_view code) {
  size_t n = 0;
  for (const Diagnostic& d : c.diagnostics)
    n += d.code == code;
  return n;
}

} // namespace

TEST_CASE("verifying the fixes of a window with an error on every line is bounded") {
  for (size_t lines : {1000u, 4000u}) {
    const std::string text = unclosed_block_then_prose(lines);
    CheckedDocument checked = check_document(text);
    REQUIRE(errors_with_code(checked, "TRAILING_CONTENT") == lines);
    const size_t rechecked = verify_fixes(text, checked);
    INFO(lines << " lines, " << text.size() << " bytes, " << rechecked << " bytes re-checked");
    // Something really was verified (the window's diagnostic counts and at least one fix)...
    CHECK(rechecked >= 2 * text.size());
    // ...and no more than the per-window bound: max(16, 2 MiB / size) re-checks plus the
    // window's own check before any fix. Unbounded, this is `lines` re-checks of the window.
    const size_t bound = (std::max<size_t>(16, 2 * 1024 * 1024 / text.size()) + 1) * text.size();
    CHECK(rechecked <= bound + bound / 8);
    // Every diagnostic keeps a fix: beyond the bound they stay as the grammar built them.
    for (const Diagnostic& d : checked.diagnostics)
      if (d.code == "TRAILING_CONTENT") CHECK_FALSE(d.fixes.empty());
  }
}

TEST_CASE("a small window dense with diagnostics is bounded by its diagnostics, not its size") {
  // A TELT block whose 280 lines before its first parameter are each a STRAY_TEXT warning with
  // fixes: 8 KB, so its size alone allowed 256 of them to be verified (each re-check building
  // 280 diagnostics: ~50 ms per block, 6.7 s for 1 MB of such blocks). A re-check's cost now
  // counts its diagnostics, which leaves the minimum of 16.
  std::string text = "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n";
  for (int i = 0; i < 280; ++i)
    text += "  stray text line " + std::to_string(i) + " here\n";
  text += "--FILE abc--\na.txt\n--END abc--\n";
  CheckedDocument checked = check_document(text);
  REQUIRE(errors_with_code(checked, "STRAY_TEXT") == 280);
  size_t most_fixes = 0;
  for (const Diagnostic& d : checked.diagnostics)
    most_fixes = std::max(most_fixes, d.fixes.size());
  REQUIRE(most_fixes >= 1);
  const size_t rechecked = verify_fixes(text, checked);
  INFO(text.size() << " bytes, " << rechecked << " bytes re-checked");
  CHECK(rechecked >= 2 * text.size());
  // The window's own check, then 16 diagnostics' fixes (by size alone: 256 diagnostics').
  CHECK(rechecked <= (16 * most_fixes + 1) * text.size() + text.size() / 8);
  for (const Diagnostic& d : checked.diagnostics)
    if (d.code == "STRAY_TEXT") CHECK_FALSE(d.fixes.empty());
}

TEST_CASE("a run of diagnostics outside blocks is verified in linear work") {
  // Stray TELT end lines, each a diagnostic outside every block with a fix and a window of its
  // own to the end of the text: each window was re-checked with all the later ones in it (64 KB
  // took 16 s). A window whose check finds more than kMaxLooseWindowDiagnostics is not
  // verified, and its check stops there; the last ones, before the end, still are.
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += "--END abc--\n";
  CheckedDocument checked = check_document(text);
  REQUIRE(checked.diagnostics.size() == 3000);
  REQUIRE(std::all_of(checked.diagnostics.begin(), checked.diagnostics.end(),
                      [](const Diagnostic& d) { return d.block < 0 && fix_needs_verifying(d); }));
  const size_t rechecked = verify_fixes(text, checked);
  INFO(text.size() << " bytes, " << rechecked << " bytes re-checked");
  CHECK(rechecked <= 32 * text.size()); // all windows in full: ~1500 times the text
  // The last 16 windows (1 to 16 lines) were checked in full and their fixes re-checked.
  CheckedDocument last = check_document(text);
  const size_t tail = verify_fixes(text, last, {}, 3000 - kMaxLooseWindowDiagnostics, 3000);
  const size_t windows = 12 * kMaxLooseWindowDiagnostics * (kMaxLooseWindowDiagnostics + 1) / 2;
  CHECK(tail > windows); // the windows' checks, then the re-checks with a line removed
  // The first (3000 diagnostics in its window) was not: its check stopped after 17 lines.
  CheckedDocument first = check_document(text);
  const size_t head = verify_fixes(text, first, {}, 0, 1);
  CHECK(head <= (kMaxLooseWindowDiagnostics + 1) * 12);
  CHECK(first.diagnostics[0].fixes == checked.diagnostics[0].fixes);
  for (const Diagnostic& d : checked.diagnostics)
    CHECK_FALSE(d.fixes.empty());
}

TEST_CASE("windows with few diagnostics verify every fix, as before the bound") {
  // Small blocks: each window is verified in full, so the verified check of a document with one
  // error per block re-checks each block about twice (before, and with the fix).
  std::string text;
  for (int i = 0; i < 50; ++i)
    text += "#!nesl [@three-char-SHA-256: a" + std::to_string(10 + i) +
            "]\naction = \"file_write\"\npath = /tmp/x\n#!end_a" + std::to_string(10 + i) + "\n\n";
  CheckedDocument checked = check_document(text);
  const size_t fixable = std::count_if(checked.diagnostics.begin(), checked.diagnostics.end(),
                                       [](const Diagnostic& d) { return !d.fixes.empty(); });
  REQUIRE(fixable >= 50);
  const size_t rechecked = verify_fixes(text, checked);
  CHECK(rechecked >= text.size());
}

TEST_CASE("a duplicate id's fixes are kept without re-checking its block, as the re-check did") {
  // Blocks with valid content, every id used twice: each second block has a DUPLICATE_BLOCK_ID
  // warning with a rename fix. Its block alone cannot show the warning, so the re-check kept
  // the fix every time; the verifier now keeps it without the re-check.
  std::string text;
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 40; ++i)
      text += "#!nesl [@three-char-SHA-256: d" + std::to_string(10 + i) +
              "]\naction = \"file_write\"\npath = \"/tmp/x" + std::to_string(round) +
              "\"\ncontent = \"hi\"\n#!end_d" + std::to_string(10 + i) + "\n\n";
  CheckedDocument checked = check_document(text);
  REQUIRE(errors_with_code(checked, "DUPLICATE_BLOCK_ID") == 40);
  // The same diagnostics, marked as found within their block: the verifier re-checks them.
  CheckedDocument rechecking = checked;
  for (Diagnostic& d : rechecking.diagnostics) {
    if (d.code == "DUPLICATE_BLOCK_ID") {
      CHECK(d.across_blocks);
      REQUIRE_FALSE(d.fixes.empty());
    }
    d.across_blocks = false;
  }
  const size_t skipped = verify_fixes(text, checked);
  const size_t rechecked = verify_fixes(text, rechecking);
  CHECK(skipped == 0);
  CHECK(rechecked >= 40 * 60); // each duplicate's block (about 90 bytes) once
  REQUIRE(checked.diagnostics.size() == rechecking.diagnostics.size());
  for (size_t i = 0; i < checked.diagnostics.size(); ++i)
    CHECK(checked.diagnostics[i].fixes == rechecking.diagnostics[i].fixes);
}
