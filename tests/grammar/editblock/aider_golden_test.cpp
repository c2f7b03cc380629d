// Aider's golden SEARCH/REPLACE suite (tests/data/editblock/aider_golden.json, converted from
// Aider's chat-history fixture and its gold parse; see SOURCES.md there): for every section of
// the transcript, the edit blocks blockls finds (path, SEARCH text, REPLACE text) equal Aider's,
// shell fences give none, and every section Aider rejects gives an error on its last edit with
// Aider's wording ("Expected `=======`", "Expected `>>>>>>> REPLACE` or `=======`").
#include "diagnostics/check.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

// The edits of the editblock blocks of `checked` as the gold writes them.
json edits_of(std::string_view text, const blockls::CheckedDocument& checked) {
  json edits = json::array();
  for (const blockls::Block& b : checked.parsed.blocks) {
    if (b.dialect != blockls::Dialect::editblock) continue;
    json e = {{"path", nullptr}, {"search", ""}, {"replace", ""}};
    for (const blockls::Parameter& p : b.commands[0].params) {
      const std::string value(p.value(text));
      if (p.name == "path") e["path"] = value;
      if (p.name == "old_text") e["search"] = value;
      if (p.name == "new_text" || p.name == "content") e["replace"] = value;
    }
    edits.push_back(e);
  }
  return edits;
}

} // namespace

TEST_CASE("Aider's golden suite: every section parses as Aider parses it", "[editblock][aider]") {
  const json data = json::parse(blockls::test::read_file(std::string(BLOCKLS_TEST_DATA_DIR) +
                                                         "/editblock/aider_golden.json"));
  blockls::CheckOptions options;
  options.parse.dialects = blockls::DialectSet::none();
  options.parse.dialects.insert(blockls::Dialect::editblock);

  size_t sections = 0, edits = 0, shells = 0, error_sections = 0;
  size_t edit_mismatches = 0, stray_errors = 0, missed_errors = 0;
  std::ostringstream report;
  for (const json& s : data.at("sections")) {
    ++sections;
    const std::string input = s.at("input");
    const blockls::CheckedDocument checked = blockls::check_document(input, options);
    const std::string header = s.at("header");
    shells += s.at("shell").get<size_t>();
    if (s.at("error").is_null()) {
      const json got = edits_of(input, checked);
      edits += s.at("edits").size();
      if (got != s.at("edits")) {
        if (++edit_mismatches <= 5)
          report << "edits differ in " << header << "\n got: " << got.dump(1)
                 << "\nwant: " << s.at("edits").dump(1) << "\n";
      }
      for (const blockls::Diagnostic& d : checked.diagnostics) {
        if (!blockls::is_error(d.severity)) continue;
        if (++stray_errors <= 5)
          report << "unexpected " << d.code << " in " << header << " line " << d.line + 1 << ": "
                 << d.message << "\n";
      }
      continue;
    }
    ++error_sections;
    // Aider stops at the first edit it cannot finish: the section's last one.
    const std::string want = s.at("error");
    const int last = static_cast<int>(checked.parsed.blocks.size()) - 1;
    bool found = false;
    for (const blockls::Diagnostic& d : checked.diagnostics)
      found = found || (blockls::is_error(d.severity) && d.block == last && last >= 0 &&
                        d.message.find(want) != std::string::npos);
    if (!found && ++missed_errors <= 5) report << "no '" << want << "' error in " << header << "\n";
  }
  INFO(report.str());
  // The counts of the converted suite (SOURCES.md): the comparison walked all of it.
  CHECK(sections == 8944);
  CHECK(edits == 577);
  CHECK(shells == 22);
  CHECK(error_sections == 33);
  CHECK(edit_mismatches == 0);
  CHECK(stray_errors == 0);
  CHECK(missed_errors == 0);
}
