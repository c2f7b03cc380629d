// PartParser: the parts of a parse, put together, are parse_document's result, for every part
// size (1 byte: a part ends at every resume point), over every test input.
#include "grammar/router/document_parser.h"
#include "support/model_dump.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <random>

using namespace blockls;
namespace test = blockls::test;

namespace {

// A parse put together from parts: the parts' arenas (declared first, destroyed last) and
// the joined document whose blocks use them.
struct Joined {
  std::vector<std::unique_ptr<Arena>> arenas;
  ParsedDocument doc;
};

// The parts of `text`, each asked to reach `step()` bytes past the last, joined into one
// document (block indices renumbered); `*parts` gets how many there were.
void parse_in_parts(std::string_view text, const std::function<size_t()>& step, Joined* out,
                    size_t* parts) {
  ParsedDocument& whole = out->doc;
  whole.lines = index_document_lines(text);
  PartParser parser(text, whole.lines);
  *parts = 0;
  while (!parser.done()) {
    const size_t blocks_before = whole.blocks.size();
    ParsedDocument part = parser.next(parser.offset() + step());
    ++*parts;
    for (Block& b : part.blocks)
      whole.blocks.push_back(std::move(b));
    for (Diagnostic& d : part.diagnostics) {
      if (d.block >= 0) d.block += static_cast<int32_t>(blocks_before);
      whole.diagnostics.push_back(std::move(d));
    }
    CHECK(part.resume_points.empty());
    part.blocks.clear();
    out->arenas.push_back(std::move(part.arena)); // the moved blocks still use it
  }
}

nlohmann::json model_of(std::string_view text, const ParsedDocument& doc) {
  nlohmann::json j = test::dump(text, doc);
  j.erase("resume_points");
  return j;
}

} // namespace

TEST_CASE("part parser: the parts put together are the one-shot parse", "[chunks][parts]") {
  std::mt19937 rng(20261126);
  size_t inputs_in_several_parts = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    const nlohmann::json expected = model_of(input.text, parse_document(input.text));
    for (const size_t fixed : {size_t{1}, size_t{40}, size_t{400}, size_t{0}}) {
      size_t parts = 0;
      const auto step = [&] { return fixed ? fixed : 1 + rng() % 2000; };
      Joined got;
      parse_in_parts(input.text, step, &got, &parts);
      if (fixed == 1 && parts > 2) ++inputs_in_several_parts;
      const nlohmann::json dumped = model_of(input.text, got.doc);
      if (dumped != expected) {
        INFO(input.name << " in parts of " << fixed << " bytes (" << parts << " parts)");
        REQUIRE(dumped.dump(1) == expected.dump(1));
      }
    }
  }
  CHECK(inputs_in_several_parts >= 20); // the property is not vacuous
}

TEST_CASE("part parser: a start line after a handed-out part looks back only to its last block",
          "[chunks][parts]") {
  // (Found by the fuzzer.) An Aider edit inside a shell fence's text, after an earlier edit
  // there: its SEARCH marker looks back for the fence it is in, but no further than the end of
  // the block before it — which, in a parse in parts, may already have been handed out with
  // the part before. Looking past it found the "```bash" line, made the marker a command's
  // text, and the edit was missing from the parts (and from `blockls check` of a large input).
  const std::string text = "```bash\n"
                           "a.py\n"
                           "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
                           "Then the same file again:\n\n"
                           "<<<<<<< SEARCH\nz\n=======\nw\n>>>>>>> REPLACE\n"
                           "```\n";
  const ParsedDocument whole = parse_document(text);
  REQUIRE(whole.blocks.size() == 2);
  Joined got;
  size_t parts = 0;
  parse_in_parts(
      text, [] { return size_t{1}; }, &got, &parts);
  CHECK(parts >= 2);
  CHECK(model_of(text, got.doc) == model_of(text, whole));
}
