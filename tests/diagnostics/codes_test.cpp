// The code table and the user documentation stay in step: every code has a `## CODE` section
// in its docs/codes page, and every code the engine emits on the test data is in the table.
#include "diagnostics/check.h"
#include "diagnostics/codes.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace blockls;

TEST_CASE("every code has a documented section", "[codes]") {
  for (const CodeInfo& c : all_codes()) {
    const std::string page = std::string(BLOCKLS_SOURCE_DIR) + "/docs/codes/" + std::string(c.doc_page) + ".md";
    INFO(c.name << " in " << page);
    REQUIRE(std::filesystem::exists(page));
    const std::string text = test::read_file(page);
    CHECK(text.find("\n## " + std::string(c.name) + "\n") != std::string::npos);
  }
}

TEST_CASE("every emitted code is in the table with its severity", "[codes]") {
  for (const test::NamedInput& input : test::all_inputs()) {
    const CheckedDocument checked = check_document(input.text);
    for (const Diagnostic& d : checked.diagnostics) {
      INFO(input.name << ": " << d.code);
      const CodeInfo* info = find_code(d.code);
      REQUIRE(info != nullptr);
      CHECK(info->severity == d.severity);
    }
  }
}
