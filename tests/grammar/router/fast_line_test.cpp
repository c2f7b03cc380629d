// The open block's lines that the router's fast path takes beside the runs: TELT value lines
// that begin with `-` (but are no delimiter), blank and `//` lines before a TELT parameter,
// blank NESL lines and NESL heredoc lines that begin with `#`. Each must have exactly the
// effect of the full rules: the values, ranges, diagnostics and fixes checked here are those
// of the general route, inside a Markdown fence (the fence's closer is watched) and without.
#include "grammar/router/document_parser.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

using namespace blockls;

namespace {

std::string fenced(const std::string& block, bool fence) {
  return fence ? "Some prose.\n\n```\n" + block + "```\n\nMore prose.\n"
               : "Some prose.\n\n" + block + "\nMore prose.\n";
}

const Parameter* param(const Block& b, size_t command, std::string_view name) {
  if (command >= b.commands.size()) return nullptr;
  for (const Parameter& p : b.commands[command].params)
    if (p.name == name) return &p;
  return nullptr;
}

} // namespace

TEST_CASE("TELT value lines that begin with '-' are the value's, near misses are not",
          "[router][fast]") {
  const bool fence = GENERATE(false, true);
  const std::string block = "#!telt [3-char SHA: k7m]\n"
                            "=== CREATE_FILE ===\n"
                            "\n"
                            "// the file\n"
                            "--PATH k7m--\n"
                            "a.yaml\n"
                            "--CONTENT k7m--\n"
                            "---\n"
                            "- item\n"
                            "  - nested\n"
                            "-- SELECT 1;\n"
                            "--END k7m--\n";
  const std::string text = fenced(block, fence);
  const ParsedDocument doc = parse_document(text);
  REQUIRE(doc.blocks.size() == 1);
  CHECK(doc.diagnostics.empty());
  const Block& b = doc.blocks[0];
  CHECK(b.end_line);
  CHECK(b.range.end == text.find("--END k7m--") + 11);
  const Parameter* content = param(b, 0, "CONTENT");
  REQUIRE(content);
  CHECK(content->value(text).starts_with("---\n- item\n  - nested\n-- SELECT 1;"));
  const Parameter* path = param(b, 0, "PATH");
  REQUIRE(path);
  CHECK(path->value(text).starts_with("a.yaml"));

  // A near miss of a delimiter among such lines (a dash short) is still reported.
  std::string broken = block;
  broken.replace(broken.find("-- SELECT 1;"), 12, "--CONTENT k7m-");
  const std::string broken_text = fenced(broken, fence);
  const ParsedDocument broken_doc = parse_document(broken_text);
  bool malformed = false;
  for (const Diagnostic& d : broken_doc.diagnostics)
    malformed = malformed || d.code == "MALFORMED_DELIMITER";
  CHECK(malformed);
}

TEST_CASE("TELT text between a command and its parameter is still reported unless blank or //",
          "[router][fast]") {
  const bool fence = GENERATE(false, true);
  const std::string block = "#!telt [3-char SHA: k7m]\n"
                            "=== DELETE_FILE ===\n"
                            "// a comment\n"
                            "stray words\n"
                            "--PATH k7m--\n"
                            "a.txt\n"
                            "--END k7m--\n";
  const std::string text = fenced(block, fence);
  const ParsedDocument doc = parse_document(text);
  REQUIRE(doc.blocks.size() == 1);
  REQUIRE(doc.diagnostics.size() == 1);
  CHECK(doc.diagnostics[0].code == "STRAY_TEXT");
  // On "stray words": the comment before it is ignored.
  const size_t stray = text.find("stray words");
  CHECK(doc.diagnostics[0].line == std::count(text.begin(), text.begin() + stray, '\n'));
  CHECK(doc.diagnostics[0].range.begin == stray);
}

TEST_CASE("NESL blank lines in a block and heredoc lines that begin with '#'", "[router][fast]") {
  const bool fence = GENERATE(false, true);
  const std::string block = "#!nesl [@three-char-SHA-256: k1x]\n"
                            "\n"
                            "action = \"write_file\"\n"
                            "  \t\n"
                            "path = \"/tmp/a.sh\"\n"
                            "content = <<'EOT_k1x'\n"
                            "#!/bin/sh\n"
                            "# a comment\n"
                            "echo hi\n"
                            "EOT_k1x\n"
                            "#!end_k1x\n";
  const std::string text = fenced(block, fence);
  const ParsedDocument doc = parse_document(text);
  REQUIRE(doc.blocks.size() == 1);
  CHECK(doc.diagnostics.empty());
  const Block& b = doc.blocks[0];
  CHECK(b.range.end == text.find("#!end_k1x") + 9);
  const Parameter* content = param(b, 0, "content");
  REQUIRE(content);
  CHECK(content->value(text) == "#!/bin/sh\n# a comment\necho hi");
  REQUIRE(param(b, 0, "path"));
  CHECK(param(b, 0, "path")->value(text) == "/tmp/a.sh");
}

TEST_CASE("an unclosed NESL heredoc is closed by its fix before the end marker it swallowed",
          "[router][fast]") {
  // The end marker is a heredoc line that begins with '#': the fix must still find it.
  const std::string text = "#!nesl [@three-char-SHA-256: k1x]\n"
                           "action = \"write_file\"\n"
                           "path = \"/tmp/a.sh\"\n"
                           "content = <<'EOT_k1x'\n"
                           "# a comment\n"
                           "echo hi\n"
                           "#!end_k1x\n"
                           "\n"
                           "Prose after it.\n";
  const ParsedDocument doc = parse_document(text);
  const Diagnostic* unclosed = nullptr;
  for (const Diagnostic& d : doc.diagnostics)
    if (d.code == "UNCLOSED_HEREDOC") unclosed = &d;
  REQUIRE(unclosed);
  REQUIRE(!unclosed->fixes.empty());
  REQUIRE(unclosed->fixes[0].edits.size() == 1);
  const TextEdit& edit = unclosed->fixes[0].edits[0];
  CHECK(edit.range.begin == text.find("#!end_k1x"));
  CHECK(edit.range.end == edit.range.begin);
  CHECK(edit.new_text == "EOT_k1x\n");
}
