// cli/sarif_report.cpp writes the SARIF log straight to text with the JSON writer, giving each
// object's keys in sorted order so that the text is exactly what a dump of the same value
// (nlohmann sorts keys) was before: parsing the text and dumping it again must give it back.
#include "cli/sarif_report.h"
#include "diagnostics/json_text.h"
#include "fixits/verify_fixes.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

TEST_CASE("the SARIF log is written in the layout and key order of a dump", "[cli][sarif]") {
  const std::string mixed =
      read_file(std::string(BLOCKLS_SOURCE_DIR) + "/examples/mixed.transcript.md");
  REQUIRE(!mixed.empty());
  const std::string odd = "a\x01\xff\n#!nesl [@three-char-SHA-256: k7m]\npath = \"\xc3\"\n"
                          "#!end_k7x\n";
  const std::vector<std::string> texts = {mixed, odd, ""};
  std::vector<blockls::CheckedDocument> checked;
  for (const std::string& t : texts)
    checked.push_back(blockls::check_with_verified_fixes(t));
  const std::vector<blockls::cli::SarifFile> files = {
      {"examples/mixed.transcript.md", texts[0], &checked[0]},
      {"odd name \"\xfe\".md", texts[1], &checked[1]},
      {"-", texts[2], &checked[2]},
  };
  for (int indent : {-1, 2}) {
    std::string text;
    blockls::JsonWriter w(&text, indent);
    blockls::cli::write_sarif_log(w, files, "1.2.3", "https://example.invalid/docs/");
    const nlohmann::json value = nlohmann::json::parse(text);
    CHECK(blockls::dump_json(value, indent) == text);
    CHECK(value["runs"][0]["results"].size() ==
          checked[0].diagnostics.size() + checked[1].diagnostics.size());
    CHECK(value == blockls::cli::sarif_log(files, "1.2.3", "https://example.invalid/docs/"));
  }
}
