// The line-number actions (apply/line_actions.cpp): the `lines` spec, how a file splits into
// lines, and the workspace checks `check --root` and the language server report for them
// (ranges outside the file as earlier actions leave it, malformed ranges), placed on the
// `lines` value. clada's own cases run in source_cases_test.cpp.
#include "apply/apply_test_support.h"
#include "apply/line_actions.h"
#include "apply/workspace_check.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

using namespace blockls;
using namespace blockls::apply;
using namespace blockls::test;

namespace {

std::vector<const Diagnostic*> errors(const CheckedDocument& c) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& d : c.diagnostics)
    if (is_error(d.severity)) out.push_back(&d);
  return out;
}

std::string block(std::string_view id, std::string_view body) {
  return fmt::format("#!nesl [@three-char-SHA-256: {0}]\n{1}#!end_{0}\n", id, body);
}

} // namespace

TEST_CASE("a lines spec is one number or a range from 1, clada's messages otherwise",
          "[apply][lines]") {
  const auto ok = [](std::string_view s, size_t first, size_t last) {
    const LineSpec spec = parse_line_spec(s);
    INFO(s);
    REQUIRE(spec.range);
    CHECK(spec.range->first == first);
    CHECK(spec.range->last == last);
  };
  ok("4", 4, 4);
  ok("23-43", 23, 43);
  ok(" 7-7\r\n", 7, 7);
  ok("2 - 5", 2, 5);
  for (const char* bad : {"abc", "0", "-1", "", "1-", "-", "0-3", "2-x", "1.5", "99999999999999"}) {
    INFO(bad);
    const LineSpec spec = parse_line_spec(bad);
    CHECK(!spec.range);
    CHECK(spec.error == fmt::format("Invalid line specification '{}'", bad));
  }
  CHECK(parse_line_spec("3-1").error == "Invalid line range '3-1' (start must be <= end)");
}

TEST_CASE("a final line break does not start another line", "[apply][lines]") {
  const auto count = [](std::string_view s) { return split_lines(s).lines.size(); };
  CHECK(count("") == 0);
  CHECK(count("a") == 1);
  CHECK(count("a\n") == 1);
  CHECK(count("\n") == 1);
  CHECK(count("a\nb") == 2);
  CHECK(count("a\n\n") == 2);
  const FileLines crlf = split_lines("ab\r\ncd\r\n");
  REQUIRE(crlf.lines.size() == 2);
  CHECK(crlf.lines[0] == std::pair<size_t, size_t>{0, 2}); // the text, without "\r\n"
  CHECK(crlf.lines[1] == std::pair<size_t, size_t>{4, 6});
}

TEST_CASE("workspace checks of the line actions count the lines earlier actions leave",
          "[apply][lines]") {
  TempRoot root;
  put_file(root.dir + "/two.txt", "one\ntwo\n");
  // Block 1 makes the file 3 lines long: line 3 is then fine, 4 is not.
  const std::string text =
      block("a01", "action = \"append_to_file\"\npath = \"two.txt\"\ncontent = \"three\\n\"\n") +
      block("a02", "action = \"replace_lines_in_file\"\npath = \"two.txt\"\nlines = \"3\"\n"
                   "new_content = \"THREE\"\n") +
      block("a03", "action = \"replace_lines_in_file\"\npath = \"two.txt\"\nlines = \"2-4\"\n"
                   "new_content = \"x\"\n") +
      block("a04", "action = \"read_file_numbered\"\npath = \"two.txt\"\nlines = \"3-1\"\n") +
      block("a05", "action = \"read_file_numbered\"\npath = \"two.txt\"\nlines = \"2-9\"\n");
  auto c = check_with_workspace(text, root.config);
  const auto errs = errors(c->checked);
  REQUIRE(errs.size() == 3);
  CHECK(errs[0]->code == "LINE_OUT_OF_RANGE");
  CHECK(errs[0]->message == "lines 2-4 are outside two.txt, which has 3 lines");
  // On the value of `lines`, so the editor underlines the range that is wrong.
  CHECK(c->text.substr(errs[0]->range.begin, errs[0]->range.size()) == "\"2-4\"");
  CHECK(errs[1]->code == "INVALID_LINE_RANGE");
  CHECK(c->text.substr(errs[1]->range.begin, errs[1]->range.size()) == "\"3-1\"");
  CHECK(errs[2]->code == "LINE_OUT_OF_RANGE");
  const auto& blocks = c->ws.simulation.blocks;
  REQUIRE(blocks.size() == 5);
  CHECK(blocks[1].ok);
  CHECK((*blocks[1].actions[0].data)["lines_replaced"] == 1);
  // A read past the end fails but carries the lines that exist, numbered to their width.
  CHECK(!blocks[4].ok);
  CHECK((*blocks[4].actions[0].data)["content"] == "2: two\n3: THREE");
  CHECK(blocks[4].actions[0].error == "file_read_numbered: Requested lines 2-9 but file only has "
                                      "3 lines");
}

TEST_CASE("replace_lines keeps CRLF files CRLF and the line break after the range",
          "[apply][lines]") {
  TempRoot root;
  put_file(root.dir + "/w.txt", "a\r\nb\r\nc\r\nd");
  const std::string text =
      block("c01", "action = \"replace_lines_in_file\"\npath = \"w.txt\"\nlines = \"2-3\"\n"
                   "new_content = <<'EOT_c01'\nB1\nB2\nB3\nEOT_c01\n") +
      block("c02", "action = \"replace_lines_in_file\"\npath = \"w.txt\"\nlines = \"5\"\n"
                   "new_content = \"D\"\n");
  const ProcessResult r = run_blockls({"apply", "--root", root.dir, "-"}, text);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(get_file(root.dir + "/w.txt") == "a\r\nB1\r\nB2\r\nB3\r\nD");
  CHECK(r.out.find("2 lines replaced") != std::string::npos);
}

TEST_CASE("the line actions run from TELT too", "[apply][lines]") {
  TempRoot root;
  put_file(root.dir + "/t.txt", "x\ny\nz\n");
  const std::string text = "#!telt [3-char SHA: t01]\n=== REPLACE_LINES ===\n--FILE t01--\nt.txt\n"
                           "--LINES t01--\n2\n--NEW_CONTENT t01--\nY\n--END t01--\n"
                           "#!telt [3-char SHA: t02]\n=== READ_FILE_NUMBERED ===\n--FILE t02--\n"
                           "t.txt\n--END t02--\n";
  const ProcessResult r = run_blockls({"apply", "--root", root.dir, "--format", "json", "-"}, text);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json out = nlohmann::json::parse(r.out);
  const nlohmann::json& results = out["files"][0]["results"];
  REQUIRE(results.size() == 2);
  CHECK(results[0]["action"] == "file_replace_lines");
  CHECK(results[1]["data"]["content"] == "1: x\n2: Y\n3: z");
  CHECK(get_file(root.dir + "/t.txt") == "x\nY\nz\n");
}
