// Real Codex patch envelopes (tests/data/patch/real, see tests/data/patch/SOURCES.md): the 42
// `apply_patch` inputs a Codex VS Code session logged (abcdmku/stellcon-g52) each parse as one
// patch block without any diagnostic; in the transcript a Codex IDE agent kept of its turns
// (krea424/MarkPdfPublisher), the three envelopes with unprefixed hunk lines are flagged on
// exactly those lines and the fourth, well-formed one is valid.
#include "diagnostics/check.h"
#include "support/test_inputs.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

using namespace blockls;
namespace fs = std::filesystem;

namespace {
const std::string kReal = std::string(BLOCKLS_TEST_DATA_DIR) + "/patch/real";
}

TEST_CASE("every real Codex apply_patch input parses as one clean patch block", "[patch][real]") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kReal + "/abcdmku__stellcon-g52"))
    if (e.path().extension() == ".patch") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 42);
  std::map<std::string, size_t> actions;
  for (const fs::path& f : files) {
    INFO(f.filename().string());
    const std::string text = test::read_file(f.string());
    const CheckedDocument checked = check_document(text);
    CHECK(checked.diagnostics.empty());
    REQUIRE(checked.parsed.blocks.size() == 1);
    const Block& b = checked.parsed.blocks[0];
    CHECK(b.dialect == Dialect::patch);
    CHECK(b.end_line.has_value());
    for (const Command& c : b.commands)
      ++actions[std::string(c.name)];
  }
  CHECK(actions == std::map<std::string, size_t>{{"file_patch", 41}, {"file_write", 3}});
}

TEST_CASE("the malformed envelopes of a real Codex transcript are flagged on their lines",
          "[patch][real]") {
  const std::string text = test::read_file(kReal + "/CODEX_TRANSCRIPTS__2025-09-06.backup.md");
  const CheckedDocument checked = check_document(text);
  REQUIRE(checked.parsed.blocks.size() == 4);
  std::vector<uint32_t> lines; // 1-based
  std::vector<int32_t> blocks;
  for (const Diagnostic& d : checked.diagnostics) {
    INFO(d.message);
    CHECK(d.code == "MALFORMED_EDIT");
    CHECK(d.message.starts_with("Expected update hunk to start with a @@ context marker, got: '"));
    lines.push_back(d.line + 1);
    if (std::find(blocks.begin(), blocks.end(), d.block) == blocks.end()) blocks.push_back(d.block);
  }
  CHECK(lines == std::vector<uint32_t>{38, 46, 47, 49, 50, 108});
  CHECK(blocks == std::vector<int32_t>{0, 1, 2}); // the fourth envelope is well-formed
  for (const Block& b : checked.parsed.blocks)
    CHECK(b.dialect == Dialect::patch);
}
