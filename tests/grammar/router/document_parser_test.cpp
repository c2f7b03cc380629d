// The router's handling of the start of a text: a UTF-8 byte order mark before the first line
// is no part of it, so a block that starts right after the mark is recognised, one-shot and
// streamed in any chunking (the mark split across feeds included), with exact byte offsets.
#include "grammar/router/document_parser.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace blockls;

namespace {

const std::string kBom = "\xEF\xBB\xBF";

struct BomCase {
  const char* name;
  std::string text; // without the mark
  Dialect dialect;
  const char* id;
};

const std::vector<BomCase>& bom_cases() {
  static const std::vector<BomCase> cases = {
      {"TELT",
       "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\na.txt\n--CONTENT abc--\nhi\n"
       "--END abc--\n",
       Dialect::telt, "abc"},
      {"NESL",
       "#!nesl [@three-char-SHA-256: k1x]\naction = \"write_file\"\npath = \"a.txt\"\ncontent = "
       "\"hi\"\n#!end_k1x\n",
       Dialect::nesl, "k1x"},
      {"NESL, CRLF, no final break",
       "#!NESL [@three-char-SHA-256: k1x]\r\naction = \"write_file\"\r\npath = \"a.txt\"\r\n"
       "content = \"hi\"\r\n#!END_NESL_k1x",
       Dialect::nesl, "k1x"},
  };
  return cases;
}

// The parse of `text` fed in pieces cut at `cuts` (ascending offsets).
ParsedDocument streamed(const std::string& text, const std::vector<size_t>& cuts) {
  DocumentParser parser;
  size_t pos = 0;
  for (size_t cut : cuts) {
    parser.feed(std::string_view(text).substr(pos, cut - pos));
    pos = cut;
  }
  parser.feed(std::string_view(text).substr(pos));
  return parser.finish();
}

// The parse of the mark + `c.text` finds the block of `c.text` right after the mark, with the
// diagnostics of `c.text` alone, each moved by the mark's 3 bytes.
void check_block_after_bom(const BomCase& c, const ParsedDocument& doc) {
  REQUIRE(doc.blocks.size() == 1);
  const Block& b = doc.blocks[0];
  CHECK(b.dialect == c.dialect);
  CHECK(b.id == c.id);
  CHECK(b.start_line == 0);
  CHECK(b.range.begin == 3); // after the mark: the mark is no part of the block
  CHECK(b.end_line);
  REQUIRE(b.commands.size() == 1);
  const ParsedDocument plain = parse_document(c.text);
  REQUIRE(doc.diagnostics.size() == plain.diagnostics.size());
  for (size_t i = 0; i < doc.diagnostics.size(); ++i) {
    CHECK(doc.diagnostics[i].code == plain.diagnostics[i].code);
    CHECK(doc.diagnostics[i].range.begin == plain.diagnostics[i].range.begin + 3);
  }
}

} // namespace

TEST_CASE("a byte order mark before the first block: one-shot parse", "[router][bom]") {
  for (const BomCase& c : bom_cases()) {
    INFO(c.name);
    const std::string text = kBom + c.text;
    const ParsedDocument doc = parse_document(text);
    check_block_after_bom(c, doc);
    // Every offset is the one without the mark, moved by its 3 bytes.
    const ParsedDocument plain = parse_document(c.text);
    REQUIRE(plain.blocks.size() == 1);
    CHECK(doc.blocks[0].range.end == plain.blocks[0].range.end + 3);
    CHECK(doc.blocks[0].id_range.begin == plain.blocks[0].id_range.begin + 3);
    // The line index counts the mark as one UTF-16 unit: the block starts at column 1.
    CHECK(doc.lines.utf16_column(text, doc.blocks[0].range.begin) == 1);
  }
}

TEST_CASE("a byte order mark before the first block: streamed, the mark split across feeds",
          "[router][bom]") {
  for (const BomCase& c : bom_cases()) {
    const std::string text = kBom + c.text;
    for (size_t cut = 0; cut <= 6; ++cut) {
      INFO(c.name << ", cut at " << cut);
      check_block_after_bom(c, streamed(text, {cut}));
    }
    INFO(c.name << ", cut at 1 and 2");
    check_block_after_bom(c, streamed(text, {1, 2}));
    std::vector<size_t> every;
    for (size_t i = 1; i < text.size(); ++i)
      every.push_back(i);
    INFO(c.name << ", byte at a time");
    check_block_after_bom(c, streamed(text, every));
  }
}

TEST_CASE("only a mark at the very start is skipped", "[router][bom]") {
  // On a later line the mark is text: the line is no start line.
  const std::string later = "prose\n" + kBom + bom_cases()[0].text;
  CHECK(parse_document(later).blocks.empty());
  // A mark alone, or before prose, makes no block and no diagnostic.
  for (const std::string& text : {kBom, kBom + "\n", kBom + "just prose\n"}) {
    const ParsedDocument doc = parse_document(text);
    CHECK(doc.blocks.empty());
    CHECK(doc.diagnostics.empty());
  }
}
