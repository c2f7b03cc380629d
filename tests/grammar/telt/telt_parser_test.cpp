// TeltParser and its line classifier (grammar/telt/telt_line.h): shapes, near misses, exact byte
// ranges of the model and of diagnostics, and the text of fixes. The behaviour over whole
// documents is pinned by the golden cases in tests/data/telt (conformance/telt_cases_test.cpp).
#include "fixits/apply_fixes.h"
#include "grammar/router/document_parser.h"
#include "grammar/telt/telt_line.h"
#include "grammar/telt/telt_parser.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace blockls;

namespace {

ParsedDocument parse(std::string_view text) {
  ParseOptions options;
  options.dialects = DialectSet::none();
  options.dialects.insert(Dialect::telt);
  return parse_document(text, options);
}

std::string_view hash_of(std::string_view line) {
  const auto start = telt::parse_start(line);
  REQUIRE(start);
  return line.substr(start->hash_begin, start->hash_end - start->hash_begin);
}

const Diagnostic& only(const ParsedDocument& doc, std::string_view code) {
  const Diagnostic* found = nullptr;
  for (const auto& d : doc.diagnostics)
    if (d.code == code) {
      REQUIRE(found == nullptr);
      found = &d;
    }
  REQUIRE(found != nullptr);
  return *found;
}

std::string apply_one(std::string_view text, const Fix& fix) {
  std::string out;
  REQUIRE(apply_fix(text, fix, &out));
  return out;
}

} // namespace

TEST_CASE("start lines: canonical, bad hash, near misses", "[telt]") {
  using telt::StartForm;
  CHECK(telt::parse_start("#!telt [3-char SHA: x9z]")->form == StartForm::canonical);
  CHECK(hash_of("#!telt [3-char SHA: x9z]") == "x9z");
  CHECK(hash_of("#!telt [3-char SHA: x9z] // comment here") == "x9z");
  CHECK(telt::parse_start("#!telt [3-char SHA: x9z]\t \r")->form == StartForm::canonical);
  CHECK(telt::parse_start("#!telt [3-char SHA: abcd]")->form == StartForm::bad_hash);
  CHECK(telt::parse_start("#!telt [3-char SHA: ]")->form == StartForm::bad_hash);
  CHECK(hash_of("#!telt [3-char SHA: ]").empty());

  for (std::string_view line :
       {"#!TELT [3-char SHA: abc]", "#!telt [SHA: abc]", "#!telt abc", "#! telt [3-char SHA: abc]",
        "#!Telt [abc]", "#!telt: abc", "#!telt  [3-char SHA: abc]", "#!telt [3-char SHA abc]"}) {
    INFO(line);
    REQUIRE(telt::parse_start(line));
    CHECK(telt::parse_start(line)->form == StartForm::near_miss);
    CHECK(hash_of(line) == "abc");
  }
  CHECK(hash_of("#!telt").empty());
  CHECK(hash_of("#!telt [3-char SHA: [x]]").empty()); // brackets never make a hash

  for (std::string_view line : {"#!/bin/sh", "#!", "#!tel", "#!teltx [3-char SHA: abc]",
                                "#!nesl [@three-char-SHA-256: abc]", " #!telt [3-char SHA: abc]",
                                "# !telt abc", "telt abc"}) {
    INFO(line);
    CHECK_FALSE(telt::parse_start(line));
    CHECK_FALSE(TeltParser::is_start_line(line));
  }
  CHECK(TeltParser::is_start_line("#!telt [3-char SHA: abc]"));
  CHECK(TeltParser::is_start_line("#!TELT abc"));
}

TEST_CASE("command lines", "[telt]") {
  const auto c = telt::parse_command("=== CREATE_FILE === // why");
  REQUIRE(c);
  CHECK(c->name_begin == 4);
  CHECK(c->name_end == 15);
  CHECK(telt::parse_command("=== A1_B ===\r"));
  for (std::string_view line : {"=== create_file ===", "===CREATE_FILE===", "== X ==", "=== X",
                                " === X ===", "=== 1X ===", "=== X  ===", "=== ==="}) {
    INFO(line);
    CHECK_FALSE(telt::parse_command(line));
  }
}

TEST_CASE("delimiter lines and their near misses", "[telt]") {
  auto d = telt::parse_delimiter("--CONTENT x9z-- // c");
  REQUIRE(d);
  CHECK(d->indent == 0);
  CHECK(d->name_begin == 2);
  CHECK(d->name_end == 9);
  CHECK(d->hash_begin == 10);
  CHECK(d->hash_end == 13);
  CHECK(d->body_end == 15);
  d = telt::parse_delimiter(" \t--END abcd--");
  REQUIRE(d);
  CHECK(d->indent == 2);
  CHECK(d->hash_end - d->hash_begin == 4);
  for (std::string_view line :
       {"--content abc--", "-- CONTENT abc--", "--CONTENT abc-", "--CONTENT  abc--",
        "--CONTENT: abc--", "--X abc--x", "---", "-- sql comment", "--END--", "----"}) {
    INFO(line);
    CHECK_FALSE(telt::parse_delimiter(line));
  }

  for (std::string_view line :
       {"-- CONTENT abc--", "--content abc--", "--CONTENT abc-", "---CONTENT abc---",
        "--CONTENT: abc--", "--CONTENT abc", "-CONTENT abc-", "  -- CONTENT abc --"}) {
    INFO(line);
    const auto n = telt::parse_near_miss(line, "abc");
    REQUIRE(n);
    CHECK(telt::to_upper(line.substr(n->name_begin, n->name_end - n->name_begin)) == "CONTENT");
    CHECK(line.substr(n->hash_begin, 3) == "abc");
  }
  for (std::string_view line : {"-- sql comment", "---", "-- CONTENT xyz--", "-CONTENT abc",
                                "-- see abcdef", "--CONTENTabc--", "CONTENT abc--"}) {
    INFO(line);
    CHECK_FALSE(telt::parse_near_miss(line, "abc"));
  }
  CHECK_FALSE(telt::parse_near_miss("-- CONTENT abc--", ""));
}

TEST_CASE("syntax_end strips trailing blanks, CR and a comment after a blank", "[telt]") {
  CHECK(telt::syntax_end("--END abc--  \t\r") == 11);
  CHECK(telt::syntax_end("--END abc-- // done") == 11);
  CHECK(telt::syntax_end("--END abc--\t//x") == 11);
  CHECK(telt::syntax_end("--END abc--//x") == 14); // no blank before `//`: not a comment
  CHECK(telt::is_valid_hash("a9Z"));
  CHECK_FALSE(telt::is_valid_hash("a9"));
  CHECK_FALSE(telt::is_valid_hash("a-9"));
  CHECK(telt::canonical_delimiter("END", "abc") == "--END abc--");
  CHECK(telt::canonical_start("abc") == "#!telt [3-char SHA: abc]");
}

TEST_CASE("the model keeps exact byte ranges", "[telt]") {
  const std::string text = "intro\n"
                           "#!telt [3-char SHA: x9z]\n"
                           "=== CREATE_FILE ===\n"
                           "--FILE x9z--\n"
                           "a.txt\n"
                           "--CONTENT x9z--\n"
                           "one\n"
                           "\n"
                           "two\n"
                           "--END x9z--\n"
                           "outro\n";
  const ParsedDocument doc = parse(text);
  REQUIRE(doc.diagnostics.empty());
  REQUIRE(doc.blocks.size() == 1);
  const Block& b = doc.blocks[0];
  CHECK(b.dialect == Dialect::telt);
  CHECK(b.era == Era::telt);
  CHECK(b.id == "x9z");
  CHECK(slice(text, b.id_range) == "x9z");
  CHECK(b.id_range.begin == text.find("x9z]"));
  CHECK(b.start_line == 1);
  CHECK(b.end_line == 9u);
  CHECK(b.range.begin == 6);
  CHECK(b.range.end == text.find("\noutro"));
  REQUIRE(b.commands.size() == 1);
  const Command& c = b.commands[0];
  CHECK(c.name == "CREATE_FILE");
  CHECK(slice(text, c.name_range) == "CREATE_FILE");
  CHECK(c.line == 2);
  REQUIRE(c.params.size() == 2);
  CHECK(c.params[0].name == "FILE");
  CHECK(slice(text, c.params[0].name_range) == "FILE");
  CHECK(c.params[0].line == 3);
  CHECK(c.params[0].value_is_slice);
  CHECK(c.params[0].value(text) == "a.txt");
  CHECK(c.params[1].value(text) == "one\n\ntwo");
  CHECK(c.params[1].value_range.begin == text.find("one"));
}

TEST_CASE("empty values are empty slices right after the PARAM line", "[telt]") {
  const std::string text = "#!telt [3-char SHA: abc]\n=== W ===\n--A abc--\n--B abc--\n\n"
                           "--C abc--\n\n\n--END abc--";
  const ParsedDocument doc = parse(text);
  REQUIRE(doc.blocks.size() == 1);
  const auto& params = doc.blocks[0].commands.at(0).params;
  REQUIRE(params.size() == 3);
  CHECK(params[0].value(text) == "");
  CHECK(params[0].value_range.begin == text.find("--B"));
  CHECK(params[1].value(text) == "");
  CHECK(params[2].value(text) == "\n");
}

TEST_CASE("a value runs to the end of input in an unclosed block", "[telt]") {
  const std::string text = "#!telt [3-char SHA: abc]\n=== W ===\n--A abc--\nx\r\ny\r";
  const ParsedDocument doc = parse(text);
  REQUIRE(doc.blocks.size() == 1);
  CHECK(doc.blocks[0].commands.at(0).params.at(0).value(text) == "x\r\ny\r");
  CHECK_FALSE(doc.blocks[0].end_line);
  CHECK(doc.blocks[0].range.end == text.size());
  // The line after a final newline is not a line of the block.
  const std::string with_newline = "#!telt [3-char SHA: abc]\n=== W ===\n--A abc--\nx\n";
  const ParsedDocument doc2 = parse(with_newline);
  CHECK(doc2.blocks[0].commands.at(0).params.at(0).value(with_newline) == "x");
  CHECK(doc2.blocks[0].range.end == with_newline.size() - 1);
}

TEST_CASE("a lone CR at the end of the last line is ignored on syntax lines", "[telt]") {
  const std::string text = "#!telt [3-char SHA: abc]\n=== W ===\n--A abc--\nx\n--END abc--\r";
  const ParsedDocument doc = parse(text);
  CHECK(doc.diagnostics.empty());
  REQUIRE(doc.blocks.size() == 1);
  CHECK(doc.blocks[0].end_line == 4u);
}

TEST_CASE("diagnostic ranges are the most precise span", "[telt]") {
  const std::string text = "#!telt [3-char SHA: abc]\n"
                           "=== W ===\n"
                           "--A abd--\n"
                           "v\n"
                           "-- B abc--\n"
                           "w\n"
                           "\t  --END abc--\n";
  const ParsedDocument doc = parse(text);
  const Diagnostic& mismatch = only(doc, "HASH_MISMATCH");
  CHECK(slice(text, mismatch.range) == "abd");
  CHECK(mismatch.block == 0);
  CHECK(mismatch.line == 2);
  CHECK(mismatch.fix_hint == "Change delimiter to '--A abc--' to match block hash");
  CHECK(apply_one(text, mismatch.fixes.at(0)).find("--A abc--\nv") != std::string::npos);
  const Diagnostic& malformed = only(doc, "MALFORMED_DELIMITER");
  CHECK(slice(text, malformed.range) == "-- B abc--");
  CHECK(malformed.fixes.at(0).edits.at(0).new_text == "--B abc--");
  const Diagnostic& indented = only(doc, "INDENTED_DELIMITER");
  CHECK(slice(text, indented.range) == "\t  ");
  CHECK(indented.fixes.at(0).preferred);
  CHECK(apply_one(text, indented.fixes.at(0)).ends_with("w\n--END abc--\n"));
  REQUIRE(doc.blocks.size() == 1);
  CHECK(doc.blocks[0].end_line == 6u);
  const auto& params = doc.blocks[0].commands.at(0).params;
  REQUIRE(params.size() == 2);
  CHECK(params[1].name == "B");
  CHECK(slice(text, params[1].name_range) == "B");
}

TEST_CASE("BAD_HASH offers a whole-block rehash that avoids the block's text", "[telt]") {
  const std::string text = "#!telt [3-char SHA: abcd]\n=== W ===\n--A abcd--\nabc\n"
                           "--B abx--\nv\n--END abcd--\n";
  const ParsedDocument doc = parse(text);
  const Diagnostic& bad = only(doc, "BAD_HASH");
  CHECK(slice(text, bad.range) == "abcd");
  REQUIRE(bad.fixes.size() == 1);
  CHECK_FALSE(bad.fixes[0].preferred); // would clash with HASH_MISMATCH fixes applied together
  const std::string fixed = apply_one(text, bad.fixes[0]);
  // "abc" occurs in a value, so another hash is chosen.
  CHECK(fixed ==
        "#!telt [3-char SHA: a00]\n=== W ===\n--A a00--\nabc\n--B a00--\nv\n--END a00--\n");
  CHECK(parse(fixed).diagnostics.empty());

  const std::string plain = "#!telt [3-char SHA: abcd]\n=== W ===\n--A abcd--\nv\n--END abcd--\n";
  const ParsedDocument doc2 = parse(plain);
  CHECK(apply_one(plain, only(doc2, "BAD_HASH").fixes.at(0)) ==
        "#!telt [3-char SHA: abc]\n=== W ===\n--A abc--\nv\n--END abc--\n");
}

TEST_CASE("UNCLOSED_BLOCK is reported on the START line with an END-inserting fix", "[telt]") {
  const std::string text = "#!telt [3-char SHA: abc]\n=== W ===\n--A abc--\nv\n"
                           "#!telt [3-char SHA: def]\n--END def--\n";
  const ParsedDocument doc = parse(text);
  const Diagnostic& unclosed = only(doc, "UNCLOSED_BLOCK");
  CHECK(unclosed.line == 0);
  CHECK(unclosed.block == 0);
  CHECK(slice(text, unclosed.range) == "#!telt [3-char SHA: abc]");
  REQUIRE(doc.blocks.size() == 2);
  CHECK_FALSE(doc.blocks[0].end_line);
  CHECK(slice(text, doc.blocks[0].range).ends_with("\nv"));
  CHECK(apply_one(text, unclosed.fixes.at(0)) ==
        "#!telt [3-char SHA: abc]\n=== W ===\n--A abc--\nv\n--END abc--\n"
        "#!telt [3-char SHA: def]\n--END def--\n");

  const std::string at_end = "#!telt [3-char SHA: abc]\n=== W ===\n";
  const ParsedDocument doc2 = parse(at_end);
  CHECK(apply_one(at_end, only(doc2, "UNCLOSED_BLOCK").fixes.at(0)) == at_end + "--END abc--\n");
}

TEST_CASE("a START without any hash gets no fix when no delimiter names one", "[telt]") {
  const std::string text = "#!telt\n=== W ===\nstray\n";
  const ParsedDocument doc = parse(text);
  CHECK(only(doc, "MALFORMED_START").fixes.empty());
  CHECK(only(doc, "UNCLOSED_BLOCK").fixes.empty());
  REQUIRE(doc.blocks.size() == 1);
  CHECK(doc.blocks[0].id.empty());
}

TEST_CASE("an adopted hash is not written into the start when earlier lines carry it", "[telt]") {
  // `-- A q7r--` would become a MALFORMED_DELIMITER once the start names q7r.
  const std::string text = "#!telt\n=== W ===\n-- A q7r--\n--B q7r--\nv\n--END q7r--\n";
  const ParsedDocument doc = parse(text);
  CHECK(only(doc, "MALFORMED_START").fixes.empty());
  CHECK(doc.blocks.at(0).id == "q7r");
}

TEST_CASE("STRAY_END has no block and only a non-preferred fix", "[telt]") {
  const std::string text = "prose\n--END abc--\n";
  const ParsedDocument doc = parse(text);
  const Diagnostic& stray = only(doc, "STRAY_END");
  CHECK(stray.block == -1);
  CHECK(stray.severity == Severity::syntax_info);
  REQUIRE(stray.fixes.size() == 1);
  CHECK_FALSE(stray.fixes[0].preferred);
  CHECK(apply_one(text, stray.fixes[0]) == "prose\n");
  CHECK(doc.blocks.empty());
}

TEST_CASE("telt parser is silent when nothing is TELT", "[telt]") {
  const ParsedDocument doc = parse("# Title\n\n```sh\n--FILE abc--\n=== X ===\n```\n");
  CHECK(doc.blocks.empty());
  CHECK(doc.diagnostics.empty());
}

namespace {

// Documents made of TELT-ish lines (valid, broken and look-alike), for property checks.
std::string random_document(std::mt19937& rng) {
  static const std::vector<std::string> kLines = {"#!telt [3-char SHA: abc]",
                                                  "#!telt [3-char SHA: def]",
                                                  "#!TELT abc",
                                                  "#!telt",
                                                  "#!telt [3-char SHA: abcd]",
                                                  "#!telt [3-char SHA: ]",
                                                  "=== CREATE_FILE ===",
                                                  "=== DELETE_FILE === // c",
                                                  "--FILE abc--",
                                                  "--CONTENT abc--",
                                                  "--FILE def--",
                                                  "--END abc--",
                                                  "--END def--",
                                                  "--END abd--",
                                                  "  --END abc--",
                                                  "\t--FILE abc--",
                                                  "-- CONTENT abc--",
                                                  "--content def--",
                                                  "--END abcd--",
                                                  "--FILE abcd--",
                                                  "---",
                                                  "-- sql comment",
                                                  "// comment",
                                                  "",
                                                  "   ",
                                                  "text",
                                                  "é😀 text",
                                                  "```",
                                                  "```sh",
                                                  "--END abc-- // done",
                                                  "=== bad ===",
                                                  "--X: abc--",
                                                  "--FILE ab--",
                                                  "abc abc"};
  std::uniform_int_distribution<size_t> pick(0, kLines.size() - 1);
  std::uniform_int_distribution<int> count(0, 14);
  std::uniform_int_distribution<int> coin(0, 9);
  const bool crlf = coin(rng) == 0;
  std::string text;
  const int n = count(rng);
  for (int i = 0; i < n; ++i) {
    text += kLines[pick(rng)];
    if (i + 1 < n || coin(rng) < 5) text += crlf ? "\r\n" : "\n";
  }
  return text;
}

std::map<std::string, size_t> codes_of(const ParsedDocument& doc) {
  std::map<std::string, size_t> counts;
  for (const auto& d : doc.diagnostics)
    ++counts[std::string(d.code)];
  return counts;
}

} // namespace

TEST_CASE("random TELT-ish documents: ranges in bounds, fixes remove only their diagnostic",
          "[telt][fix]") {
  std::mt19937 rng(20240611);
  for (int round = 0; round < 1500; ++round) {
    const std::string text = random_document(rng);
    INFO(text);
    const ParsedDocument doc = parse(text);
    for (const Block& b : doc.blocks) {
      CHECK(b.range.begin <= b.range.end);
      CHECK(b.range.end <= text.size());
      for (const Command& c : b.commands)
        for (const Parameter& p : c.params) {
          CHECK(p.value_range.begin <= p.value_range.end);
          CHECK(p.value_range.end <= text.size());
          CHECK(p.value_range.begin >= b.range.begin);
        }
    }
    const auto before = codes_of(doc);
    for (const Diagnostic& d : doc.diagnostics) {
      CHECK(d.range.end <= text.size());
      for (const Fix& fix : d.fixes) {
        INFO(d.code << ": " << fix.title);
        std::string fixed;
        REQUIRE(apply_fix(text, fix, &fixed));
        const auto after = codes_of(parse(fixed));
        for (const auto& [code, n] : after) {
          INFO("code " << code << " in\n" << fixed);
          CHECK(n <= (before.count(code) ? before.at(code) : 0));
        }
        CHECK((after.count(std::string(d.code)) ? after.at(std::string(d.code)) : 0) <
              before.at(std::string(d.code)));
      }
    }
  }
}

TEST_CASE("a command or parameter name is an upper-case letter, then A-Z, 0-9 or _", "[telt]") {
  using blockls::telt::is_valid_name;
  for (const char* ok : {"A", "END", "CONTENT", "FILE_WRITE", "OLD_TEXT_2", "ABCDEFGHIJKLMNOP",
                         "ABCDEFGHIJKLMNOPQ", "A_VERY_LONG_PARAMETER_NAME_0123456789"})
    CHECK(is_valid_name(ok));
  for (const char* bad : {"", "a", "_A", "1A", "Ab", "AB-C", "ABC ", "ABCDEFGHIJKLMNOp",
                          "ABCDEFGHIJKLMNOPq", "A_VERY_LONG_PARAMETER_NAME_012345678x"})
    CHECK_FALSE(is_valid_name(bad));
  // Every position of a 16-byte name is tested, and none past it.
  for (size_t at = 0; at < 16; ++at) {
    std::string name(16, 'X');
    name[at] = '-';
    CHECK_FALSE(is_valid_name(name));
    CHECK(is_valid_name(std::string_view(name).substr(0, at == 0 ? 1 : at)) == (at != 0));
  }
}
