// Runs the golden cases of the newer dialects (tests/data/<dialect>/*.json with a "cases"
// list: heredoc, editblock, replacer, sections, patch, xml): for each case,
// `blockls check`'s view of the whole document (every dialect on) — blocks with their dialect,
// lines, commands (type, canonical action, parameters) and the diagnostics (code, severity,
// 1-based line) — and the text after every preferred fix. The chunk-invariance, incremental
// re-check and fix properties run over the same inputs (tests/support/test_inputs.h).
#include "diagnostics/check.h"
#include "diagnostics/json_report.h"
#include "fixits/apply_fixes.h"
#include "support/test_inputs.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

struct GoldenCase {
  std::string file;
  json data;
};

std::vector<GoldenCase> load_cases(const std::string& dialect) {
  std::vector<GoldenCase> cases;
  std::vector<std::filesystem::path> files;
  const std::string dir = std::string(BLOCKLS_TEST_DATA_DIR) + "/" + dialect;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    const json file = json::parse(blockls::test::read_file(path.string())); // kept alive
    if (!file.contains("cases")) continue; // another suite (editblock/aider_golden.json)
    for (const json& c : file.at("cases"))
      cases.push_back({path.filename().string(), c});
  }
  return cases;
}

// The case format's view of a checked document.
json blocks_json(const std::string& input, const blockls::CheckedDocument& checked) {
  const json doc = blockls::document_json(input, checked);
  json blocks = json::array();
  for (const json& b : doc["blocks"]) {
    json commands = json::array();
    for (const json& c : b["commands"])
      commands.push_back({{"type", c["type"]}, {"action", c["action"]}, {"params", c["params"]}});
    blocks.push_back({{"dialect", b["metadata"]["dialect"]},
                      {"start_line", b["metadata"]["start_line"]},
                      {"end_line", b["metadata"]["end_line"]},
                      {"commands", commands}});
  }
  return blocks;
}

json errors_json(const blockls::CheckedDocument& checked) {
  json errors = json::array();
  for (const blockls::Diagnostic& d : checked.diagnostics)
    errors.push_back(
        {{"code", d.code}, {"severity", blockls::severity_name(d.severity)}, {"line", d.line + 1}});
  return errors;
}

void run_cases(const std::string& dialect) {
  const std::vector<GoldenCase> cases = load_cases(dialect);
  REQUIRE(!cases.empty());
  for (const GoldenCase& c : cases) {
    const std::string input = c.data.at("input");
    INFO(c.file << ": " << c.data.at("name").get<std::string>() << "\n" << input);
    const blockls::CheckedDocument checked = blockls::check_document(input);
    CHECK(blocks_json(input, checked).dump(1) == c.data.at("blocks").dump(1));
    CHECK(errors_json(checked).dump(1) == c.data.at("errors").dump(1));
    std::string fixed;
    blockls::apply_preferred_fixes(input, checked.diagnostics, &fixed);
    CHECK(json(fixed).dump() == json(c.data.value("fixed", input)).dump());
  }
}

} // namespace

TEST_CASE("heredoc golden cases", "[heredoc][conformance]") {
  run_cases("heredoc");
}

TEST_CASE("editblock golden cases", "[editblock][conformance]") {
  run_cases("editblock");
}

TEST_CASE("replacer golden cases", "[replacer][conformance]") {
  run_cases("replacer");
}

TEST_CASE("sections golden cases", "[sections][conformance]") {
  run_cases("sections");
}

TEST_CASE("patch golden cases", "[patch][conformance]") {
  run_cases("patch");
}

TEST_CASE("xml golden cases", "[xml][conformance]") {
  run_cases("xml");
}
