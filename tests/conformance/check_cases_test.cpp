// Golden cases for the whole engine (parse + catalog validation): tests/data/check/*.json.
// Each case lists every expected diagnostic (code, 1-based line, 1-based UTF-16 column,
// severity, optionally the message, the fix hint and the titles of the fixes offered), the
// number of valid blocks, and optionally the text after applying all preferred fixes.
#include "diagnostics/check.h"
#include "diagnostics/source_view.h"
#include "fixits/apply_fixes.h"
#include "fixits/verify_fixes.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace blockls;

TEST_CASE("engine golden cases (tests/data/check)", "[check]") {
  namespace fs = std::filesystem;
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(BLOCKLS_TEST_DATA_DIR) / "check")) {
    if (entry.path().extension() != ".json") continue;
    const auto doc = nlohmann::json::parse(test::read_file(entry.path().string()));
    for (const auto& c : doc["cases"]) {
      const std::string name = c["name"];
      const std::string text = c["input"];
      INFO(entry.path().filename().string() << "#" << name);
      const CheckedDocument checked = check_with_verified_fixes(text);
      const SourceView view{text, checked.parsed.lines};
      nlohmann::json got = nlohmann::json::array();
      for (const Diagnostic& d : checked.diagnostics) {
        const OutwardPosition p = view.start_of(d);
        nlohmann::json j = {{"code", d.code},
                            {"line", p.line},
                            {"column", p.column},
                            {"severity", severity_name(d.severity)}};
        got.push_back(j);
      }
      nlohmann::json want = nlohmann::json::array();
      for (const auto& e : c["errors"]) {
        nlohmann::json j = e;
        j.erase("message");
        j.erase("fix_hint");
        j.erase("fix_titles");
        want.push_back(j);
      }
      CHECK(got.dump(1) == want.dump(1));
      for (size_t i = 0; i < c["errors"].size() && i < checked.diagnostics.size(); ++i) {
        const nlohmann::json& e = c["errors"][i];
        const Diagnostic& d = checked.diagnostics[i];
        if (e.contains("message")) CHECK(d.message == e["message"].get<std::string>());
        if (e.contains("fix_hint")) CHECK(d.fix_hint == e["fix_hint"].get<std::string>());
        if (e.contains("fix_titles")) { // the verified fixes offered, in order
          std::vector<std::string> titles;
          for (const Fix& f : d.fixes)
            titles.push_back(f.title);
          CHECK(titles == e["fix_titles"].get<std::vector<std::string>>());
        }
      }
      size_t valid = 0;
      for (const BlockVerdict& v : checked.verdicts)
        valid += v.valid;
      CHECK(valid == c["blocks_valid"].get<size_t>());
      if (c.contains("fixed")) {
        std::string fixed;
        apply_preferred_fixes(text, checked.diagnostics, &fixed);
        CHECK(fixed == c["fixed"].get<std::string>());
      }
      ++count;
    }
  }
  CHECK(count >= 20);
}
