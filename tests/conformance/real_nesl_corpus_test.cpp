// What models wrote in real use, with the verdicts of the tools that ran it (tests/data/real/
// nesl, converted by convert.py; sources and the verdict format in SOURCES.md there): every
// block slupe, loaf or clada ran gives no error diagnostic, and every block one of them
// rejected for its syntax gives at least one. Where the tool itself was wrong, verdicts.json
// says so with the reason (`exception`), and blockls must disagree with the tool.
#include "diagnostics/check.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

using namespace blockls;
using nlohmann::json;

namespace {

const std::string kDir = std::string(BLOCKLS_TEST_DATA_DIR) + "/real/nesl";

struct BlockErrors {
  bool found = false;              // a block starts on the header line
  std::vector<std::string> errors; // "CODE (line N)" of each error-severity diagnostic
};

// The error diagnostics of the block whose header is on `header_line` (1-based); when no block
// starts there (a header blockls rejects), the errors reported on that line.
BlockErrors errors_at(const CheckedDocument& checked, uint32_t header_line) {
  BlockErrors out;
  int block = -1;
  for (size_t b = 0; b < checked.parsed.blocks.size(); ++b)
    if (checked.parsed.blocks[b].start_line + 1 == header_line) block = static_cast<int>(b);
  out.found = block >= 0;
  for (const Diagnostic& d : checked.diagnostics) {
    if (!is_error(d.severity)) continue;
    if (block >= 0 ? d.block == block : d.line + 1 == header_line)
      out.errors.push_back(fmt::format("{} (line {})", d.code, d.line + 1));
  }
  return out;
}

} // namespace

TEST_CASE("real NESL replies: what the tools ran is clean, what they rejected is not",
          "[real][nesl]") {
  const json doc = json::parse(test::read_file(kDir + "/verdicts.json"));
  int ran = 0, rejected = 0, exceptions = 0;
  std::vector<std::string> false_errors, missed_errors;
  for (const json& file : doc["files"]) {
    const std::string path = file["path"];
    const std::string text = test::read_file(kDir + "/files/" + path);
    const CheckedDocument checked = check_document(text);
    for (const json& v : file["verdicts"]) {
      const std::string verdict = v["verdict"];
      if (verdict != "ran" && verdict != "rejected_syntax") continue; // not about syntax
      (verdict == "ran" ? ran : rejected) += 1;
      bool expect_clean = verdict == "ran";
      if (v.contains("exception")) {
        expect_clean = !expect_clean;
        ++exceptions;
      }
      const std::string where =
          fmt::format("{}#{} (line {})", path, v["block_id"].get<std::string>(),
                      v["header_line"].get<uint32_t>());
      const BlockErrors found = errors_at(checked, v["header_line"].get<uint32_t>());
      if (expect_clean && (!found.found || !found.errors.empty()))
        false_errors.push_back(fmt::format("{}: {}", where,
                                           found.found
                                               ? fmt::format("{}", fmt::join(found.errors, ", "))
                                               : std::string("no block there")));
      if (!expect_clean && found.errors.empty()) missed_errors.push_back(where);
    }
  }
  INFO("false errors:\n" << fmt::format("{}", fmt::join(false_errors, "\n")));
  CHECK(false_errors.empty());
  INFO("rejected by the tool for syntax, no error from blockls:\n"
       << fmt::format("{}", fmt::join(missed_errors, "\n")));
  CHECK(missed_errors.empty());
  // The corpus as converted (a change of the data shows here first).
  CHECK(ran == 177);
  CHECK(rejected == 3);
  CHECK(exceptions == 1);
  CHECK(doc["files"].size() == 118);
}

// Every block of the corpus, judged by a tool or not (older verdict sections, replies without
// one): the catalog knows every action and parameter the models wrote, line-number actions
// included, so no block is an error for want of a catalog entry.
TEST_CASE("real NESL replies: every action and parameter is in the built-in catalog",
          "[real][nesl]") {
  const json doc = json::parse(test::read_file(kDir + "/verdicts.json"));
  size_t blocks = 0, line_actions = 0;
  std::vector<std::string> unknown;
  for (const json& file : doc["files"]) {
    const std::string path = file["path"];
    const CheckedDocument checked = check_document(test::read_file(kDir + "/files/" + path));
    for (const Block& b : checked.parsed.blocks) {
      ++blocks;
      for (const Command& c : b.commands)
        for (std::string_view a : {"file_replace_lines", "replace_lines_in_file",
                                   "file_read_numbered", "read_file_numbered"})
          line_actions += c.name == a;
    }
    for (const Diagnostic& d : checked.diagnostics)
      if (d.code == "UNKNOWN_ACTION" || d.code == "UNKNOWN_PARAM")
        unknown.push_back(fmt::format("{}:{}: {} {}", path, d.line + 1, d.code, d.message));
  }
  INFO(fmt::format("{}", fmt::join(unknown, "\n")));
  CHECK(unknown.empty());
  CHECK(blocks == 317); // the corpus as converted: a change of the data shows here first
  CHECK(line_actions == 19);
}
