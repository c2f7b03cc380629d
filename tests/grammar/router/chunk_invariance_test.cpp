// Streaming parses must equal one-shot parses for any chunking: every split point of every
// test input (two chunks), plus seeded random multi-splits and byte-at-a-time feeding.
#include "grammar/dialects.h"
#include "grammar/router/document_parser.h"
#include "support/model_dump.h"
#include "support/test_inputs.h"

#include <array>
#include <catch2/catch.hpp>
#include <random>

using blockls::DocumentParser;
using blockls::parse_document;
namespace test = blockls::test;

namespace {

nlohmann::json stream_parse(const std::string& text, const std::vector<size_t>& cuts) {
  DocumentParser parser;
  size_t pos = 0;
  for (size_t cut : cuts) {
    parser.feed(std::string_view(text).substr(pos, cut - pos));
    pos = cut;
  }
  parser.feed(std::string_view(text).substr(pos));
  blockls::ParsedDocument doc = parser.finish();
  return test::dump(parser.text(), doc);
}

} // namespace

TEST_CASE("the test corpus is not empty", "[chunks]") {
  // Guards the property tests below against passing vacuously.
  CHECK(test::all_inputs().size() >= 50);
}

TEST_CASE("the test corpus holds blocks of every registered dialect", "[chunks]") {
  // The properties below only cover a dialect whose blocks the inputs contain.
  std::array<size_t, blockls::kDialectCount> blocks{};
  for (const test::NamedInput& input : test::all_inputs())
    for (const blockls::Block& b : parse_document(input.text).blocks)
      ++blocks[static_cast<size_t>(b.dialect)];
  for (const blockls::DialectInfo* info : blockls::kDialectInfos) {
    INFO(info->name);
    CHECK(blocks[static_cast<size_t>(info->id)] >= 10);
  }
}

TEST_CASE("every split point gives the one-shot result", "[chunks]") {
  for (const test::NamedInput& input : test::all_inputs()) {
    const nlohmann::json expected = test::dump(input.text, parse_document(input.text));
    const size_t n = input.text.size();
    const size_t step = n > 6000 ? n / 600 : 1; // large examples: a sample of split points
    for (size_t split = 0; split <= n; split += step) {
      const nlohmann::json got = stream_parse(input.text, {split});
      if (got != expected) {
        INFO(input.name << " split at byte " << split);
        REQUIRE(got.dump(1) == expected.dump(1));
      }
    }
  }
}

TEST_CASE("random multi-splits and byte-at-a-time feeding give the one-shot result", "[chunks]") {
  std::mt19937 rng(20261121);
  for (const test::NamedInput& input : test::all_inputs()) {
    const nlohmann::json expected = test::dump(input.text, parse_document(input.text));
    const size_t n = input.text.size();
    for (int round = 0; round < 20; ++round) {
      std::vector<size_t> cuts;
      const size_t pieces = 1 + rng() % 8;
      for (size_t i = 0; i < pieces && n > 0; ++i)
        cuts.push_back(rng() % (n + 1));
      std::sort(cuts.begin(), cuts.end());
      const nlohmann::json got = stream_parse(input.text, cuts);
      if (got != expected) {
        INFO(input.name << " round " << round);
        REQUIRE(got.dump(1) == expected.dump(1));
      }
    }
    if (n <= 6000) {
      std::vector<size_t> every;
      for (size_t i = 1; i < n; ++i)
        every.push_back(i);
      const nlohmann::json got = stream_parse(input.text, every);
      INFO(input.name << " byte at a time");
      REQUIRE(got.dump(1) == expected.dump(1));
    }
  }
}

TEST_CASE("a wide line index (as past 4 GiB) gives the same parse", "[chunks]") {
  blockls::ParseOptions wide;
  wide.wide_line_index = true;
  for (const test::NamedInput& input : test::all_inputs()) {
    INFO(input.name);
    const nlohmann::json expected = test::dump(input.text, parse_document(input.text));
    const blockls::ParsedDocument one_shot = parse_document(input.text, wide);
    REQUIRE(one_shot.lines.wide());
    REQUIRE(test::dump(input.text, one_shot).dump(1) == expected.dump(1));
    DocumentParser parser(wide);
    const size_t half = input.text.size() / 2;
    parser.feed(std::string_view(input.text).substr(0, half));
    parser.feed(std::string_view(input.text).substr(half));
    const blockls::ParsedDocument streamed = parser.finish();
    REQUIRE(streamed.lines.wide());
    REQUIRE(test::dump(parser.text(), streamed).dump(1) == expected.dump(1));
  }
}

TEST_CASE("complete_lines counts the lines a feed completes: a feed without a break adds none",
          "[router]") {
  // `blockls stream` skips its per-feed work when a feed completes no line: nothing the parse
  // found can have changed then.
  DocumentParser parser;
  CHECK(parser.complete_lines() == 0);
  parser.feed("cat > a.txt << 'E");
  CHECK(parser.complete_lines() == 0);
  const size_t blocks = parser.blocks_so_far().size();
  parser.feed("OF'\nbo");
  CHECK(parser.complete_lines() == 1);
  CHECK(parser.blocks_so_far().size() == blocks + 1);
  parser.feed("dy");
  CHECK(parser.complete_lines() == 1);
  parser.feed("\r");
  CHECK(parser.complete_lines() == 1); // a CR alone ends no line
  parser.feed("\n\n\nEOF");
  CHECK(parser.complete_lines() == 4);
  parser.feed("\n");
  CHECK(parser.complete_lines() == 5);
  CHECK(parser.resume_points_so_far().size() == 1);
}

TEST_CASE("a feed without a line break is indexed with the feed that ends its line", "[router]") {
  // (DocumentParser::feed leaves such a chunk to the next one that completes a line: the ASCII
  // prefix it reports must not count the bytes not looked at yet.)
  DocumentParser parser;
  parser.feed("ab\n");
  CHECK(parser.lines_so_far().ascii_prefix() == 3);
  parser.feed("c\xC3\xA9"); // no break: stored only
  CHECK(parser.complete_lines() == 1);
  CHECK(parser.lines_so_far().line_count() == 2);
  CHECK(parser.lines_so_far().ascii_prefix() <= 4);
  parser.feed("d\ne");
  CHECK(parser.complete_lines() == 2);
  CHECK(parser.lines_so_far().line_count() == 3);
  CHECK(parser.lines_so_far().line_start(2) == 8);
  CHECK(parser.lines_so_far().ascii_prefix() == 4); // the first byte of "é"
  parser.feed("\xE2\x82\xAC");                      // the last line, unbroken: indexed by finish()
  const blockls::ParsedDocument doc = parser.finish();
  CHECK(doc.lines.line_count() == 3);
  CHECK(doc.lines.ascii_prefix() == 4);

  DocumentParser tail;
  tail.feed("one\n");
  tail.feed("tw\xC3\xB6"); // the non-ASCII byte only in the unbroken last line
  CHECK(tail.finish().lines.ascii_prefix() == 6);
}

TEST_CASE("blocks taken from the parse as they settle equal the one-shot parse's", "[router]") {
  // `blockls stream` moves each settled part's blocks out of the parse (take_blocks) rather
  // than copying them: the parse must go on as if they were still there.
  std::mt19937 rng(20261127);
  for (const test::NamedInput& input : test::all_inputs()) {
    INFO(input.name);
    const nlohmann::json expected = test::dump(input.text, parse_document(input.text));
    DocumentParser parser;
    std::vector<blockls::Block> taken;
    const std::string& text = input.text;
    for (size_t pos = 0; pos < text.size();) {
      const size_t n = std::uniform_int_distribution<size_t>(1, 80)(rng);
      parser.feed(std::string_view(text).substr(pos, n));
      pos += n;
      const std::vector<blockls::ResumePoint>& points = parser.resume_points_so_far();
      // Past the last resume point: take_blocks keeps the blocks a grammar may still end.
      parser.take_blocks(taken.size(), parser.blocks_so_far().size(), &taken);
      CHECK(taken.size() == (points.empty() ? 0 : points.back().blocks));
    }
    blockls::ParsedDocument doc = parser.finish();
    REQUIRE(doc.blocks.size() >= taken.size());
    for (size_t b = 0; b < taken.size(); ++b)
      doc.blocks[b] = std::move(taken[b]);
    REQUIRE(test::dump(parser.text(), doc).dump(1) == expected.dump(1));
  }
}
