// check_in_parts: the parts of a check, put together, are check_with_verified_fixes's result —
// blocks, verdicts, diagnostics with their verified fixes, in order — for every part size
// (1 byte: a part ends at every resume point), over every test input.
#include "diagnostics/json_report.h"
#include "fixits/parted_check.h"
#include "fixits/verify_fixes.h"
#include "grammar/router/document_parser.h"
#include "support/model_dump.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <random>
#include <stdexcept>

using namespace blockls;
namespace test = blockls::test;

namespace {

// The blocks (as the JSON report writes them, verdicts included) and the diagnostics (every
// field, block indices counted in the whole document) of a check given part by part.
struct Joined {
  std::string blocks;
  nlohmann::json diagnostics = nlohmann::json::array();
  size_t parts = 0;
};

void add_part(std::string_view text, const CheckedDocument& part, size_t* blocks_before,
              Joined* out) {
  JsonWriter w(&out->blocks);
  for (size_t b = 0; b < part.parsed.blocks.size(); ++b)
    write_block(w, text, part, b, ActionCatalog::builtin());
  for (const Diagnostic& d : part.diagnostics) {
    nlohmann::json j = test::dump_diagnostic(d);
    if (d.block >= 0) j["block"] = d.block + static_cast<int32_t>(*blocks_before);
    out->diagnostics.push_back(std::move(j));
  }
  *blocks_before += part.parsed.blocks.size();
  ++out->parts;
}

} // namespace

TEST_CASE("check in parts: the parts put together are the whole check", "[fixes][parts]") {
  std::mt19937 rng(20261126);
  size_t several = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    const std::string_view text = input.text;
    const CheckedDocument whole = check_with_verified_fixes(text);
    Joined expected;
    size_t count = 0;
    add_part(text, whole, &count, &expected);
    for (const size_t fixed : {size_t{1}, size_t{60}, size_t{500}, size_t{0}})
      for (const bool pipelined : {false, true}) {
        Joined got;
        size_t before = 0;
        LineIndex lines = index_document_lines(text);
        const LineIndex lines_before = lines;
        const size_t parts = check_in_parts(
            text, lines, {}, fixed ? fixed : 1 + rng() % 3000,
            [&](const CheckedDocument& part) {
              add_part(text, part, &before, &got);
              return true;
            },
            pipelined);
        CHECK(parts == got.parts);
        if (fixed == 1 && parts > 2 && !pipelined) ++several;
        INFO(input.name << " in parts of " << fixed << " bytes (" << parts << " parts)"
                        << (pipelined ? ", parsed on a second thread" : ""));
        // The caller's index is back (or, pipelined, was only read).
        REQUIRE(lines.line_count() == lines_before.line_count());
        REQUIRE(lines.line_start(lines.line_count() - 1) ==
                lines_before.line_start(lines.line_count() - 1));
        REQUIRE(got.blocks == expected.blocks);
        if (got.diagnostics != expected.diagnostics)
          REQUIRE(got.diagnostics.dump(1) == expected.diagnostics.dump(1));
      }
  }
  CHECK(several >= 20); // the property is not vacuous
}

TEST_CASE("check in parts: on_part returning false stops the check", "[fixes][parts]") {
  const std::string text = "#!nesl [@three-char-SHA-256: aaa]\naction = \"x\"\n#!end_aaa\n\n"
                           "#!nesl [@three-char-SHA-256: bbb]\naction = \"y\"\n#!end_bbb\n";
  for (const bool pipelined : {false, true}) {
    size_t calls = 0;
    LineIndex lines = index_document_lines(text);
    CHECK(check_in_parts(
              text, lines, {}, 1, [&](const CheckedDocument&) { return ++calls < 1; }, pipelined) ==
          1);
    CHECK(calls == 1);
  }
}

TEST_CASE("check in parts, pipelined: a stop with many parts still to parse ends the parser "
          "thread",
          "[fixes][parts]") {
  // Thousands of parts: the parser thread is parked on a full queue (or still parsing) when
  // the caller stops after the third; the check must return, and the thread end, at once.
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += "#!nesl [@three-char-SHA-256: b" + std::to_string(10 + i % 90) +
            "]\naction = \"file_write\"\npath = \"p\"\ncontent = \"c\"\n#!end_b" +
            std::to_string(10 + i % 90) + "\n\n";
  size_t calls = 0;
  LineIndex lines = index_document_lines(text);
  CHECK(check_in_parts(
            text, lines, {}, 1, [&](const CheckedDocument&) { return ++calls < 3; }, true) == 3);
  CHECK(calls == 3);
}

TEST_CASE("check in parts, pipelined: a failure on the parser thread reaches the caller",
          "[fixes][parts]") {
  // The parse tells an observer of each block, on the parser thread; one that throws there
  // makes check_in_parts throw on the caller's, after the parts before it were handed over.
  struct Throwing : BlockObserver {
    size_t seen = 0;
    void block_closed(std::string_view, const ParsedDocument&, const LineIndex&, size_t) override {
      if (++seen == 40) throw std::runtime_error("observer failed");
    }
  } observer;
  std::string text;
  for (int i = 0; i < 100; ++i)
    text += "#!nesl [@three-char-SHA-256: c" + std::to_string(10 + i) +
            "]\naction = \"file_write\"\npath = \"p\"\ncontent = \"c\"\n#!end_c" +
            std::to_string(10 + i) + "\n\n";
  CheckOptions options;
  options.parse.observer = &observer;
  LineIndex lines = index_document_lines(text);
  size_t calls = 0;
  CHECK_THROWS_WITH(check_in_parts(
                        text, lines, options, 1,
                        [&](const CheckedDocument&) {
                          ++calls;
                          return true;
                        },
                        true),
                    "observer failed");
  CHECK(calls < 40);
}

TEST_CASE("check in parts: a fix's verification window runs to the next block, in a later part",
          "[fixes][parts]") {
  // A malformed header (no block; its fix, when verified, is dropped: the repaired header opens
  // a block with no action), then over 256 KiB of prose before the next block: the whole check
  // leaves the fix unverified (its window is too large), and so must a check whose part ends
  // right after the header, well before that window's end.
  std::string text = "#!nesl [three-char-SHA-256: abc]\nk = \"v\"\n#!end_abc\n";
  while (text.size() < 300 * 1024)
    text += "Some prose between the blocks, line after line.\n";
  text += "#!nesl [@three-char-SHA-256: k7m]\naction = \"file_write\"\npath = \"a\"\n"
          "content = \"b\"\n#!end_k7m\n";
  const CheckedDocument whole = check_with_verified_fixes(text);
  REQUIRE(!whole.diagnostics.empty());
  REQUIRE(whole.diagnostics.front().code == "MALFORMED_HEADER");
  REQUIRE(!whole.diagnostics.front().fixes.empty());
  std::vector<size_t> fixes;
  LineIndex lines = index_document_lines(text);
  const size_t parts = check_in_parts(text, lines, {}, 1, [&](const CheckedDocument& part) {
    for (const Diagnostic& d : part.diagnostics)
      if (d.code == "MALFORMED_HEADER") fixes.push_back(d.fixes.size());
    return true;
  });
  CHECK(parts >= 2);
  CHECK(fixes == std::vector<size_t>{whole.diagnostics.front().fixes.size()});
}
