// Line numbers of a `<diff>`'s problems and blocks: the reader numbers each marker's line as
// it reads it, so the XML parser does not count line breaks from the block's start again for
// each problem (quadratic in a diff of thousands of unfinished SEARCH blocks).
#include "diagnostics/check.h"
#include "grammar/xml/xml_diff.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

using namespace blockls;

namespace {

uint32_t breaks_between(std::string_view text, size_t begin, size_t end) {
  return static_cast<uint32_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(begin),
                                          text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
}

// `n` unfinished SEARCH blocks, with a REPLACE marker missing its divider every fifth one (its
// problem comes before the one of its block's SEARCH marker, found at the next SEARCH) and a
// complete block every seventh.
std::string malformed_diff(size_t n) {
  std::string diff;
  for (size_t i = 0; i < n; ++i) {
    diff += "<<<<<<< SEARCH\nold " + std::to_string(i) + "\n";
    if (i % 5 == 0) diff += ">>>>>>> REPLACE\n";
    if (i % 7 == 0) diff += "=======\nnew\n>>>>>>> REPLACE\n";
  }
  return diff;
}

// A replace_in_file block of `diff` after three lines of prose: each MALFORMED_EDIT and each
// command is on its marker's line.
void check_parser_lines(const std::string& diff) {
  const std::string text = "Some prose.\n\nMore.\n<replace_in_file>\n<path>a.py</path>\n<diff>\n" +
                           diff + "</diff>\n</replace_in_file>\n";
  const CheckedDocument checked = check_document(text);
  size_t malformed = 0;
  for (const Diagnostic& d : checked.diagnostics) {
    if (d.code != "MALFORMED_EDIT") continue;
    ++malformed;
    INFO(d.message);
    CHECK(d.line == breaks_between(text, 0, d.range.begin));
  }
  CHECK(malformed > 1000);
  REQUIRE(checked.parsed.blocks.size() == 1);
  for (const Command& c : checked.parsed.blocks[0].commands)
    CHECK(c.line == breaks_between(text, 0, c.name_range.begin));
}

} // namespace

TEST_CASE("a diff's problems and blocks carry their marker's line", "[xml]") {
  const std::string text = "prose\n\n" + malformed_diff(2000);
  const ByteRange range{7, text.size()};
  const xml::ParsedDiff parsed = xml::parse_diff(text, range);
  REQUIRE(parsed.problems.size() > 2000);
  REQUIRE(parsed.blocks.size() == 2000);
  bool out_of_order = false;
  for (size_t k = 0; k < parsed.problems.size(); ++k) {
    const xml::DiffProblem& p = parsed.problems[k];
    INFO("problem " << k << ": " << p.message);
    CHECK(p.line == breaks_between(text, range.begin, p.at.begin));
    out_of_order |= k > 0 && p.at.begin < parsed.problems[k - 1].at.begin;
  }
  CHECK(out_of_order); // the numbering does not rely on the problems' order
  for (const xml::DiffBlock& b : parsed.blocks)
    CHECK(b.line == breaks_between(text, range.begin, b.marker.begin));

  // The parser adds the diff's first line: MALFORMED_EDIT and the commands on their lines.
  check_parser_lines(malformed_diff(1000));
}
