// The docs stay in step with the built-in catalog: docs/apply.md has a table row
// (`| \`name\``) for every action that names each of its parameters, and no row for an action
// the catalog lacks; docs/codes/validation.md names every TELT command.
#include "diagnostics/action_catalog.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <set>
#include <sstream>

using namespace blockls;

namespace {

// The first cell's canonical name of every table row that starts with "| `".
std::set<std::string> documented_actions(const std::string& page) {
  std::set<std::string> out;
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("| `")) continue;
    const size_t end = line.find('`', 3);
    if (end != std::string::npos) out.insert(line.substr(3, end - 3));
  }
  return out;
}

// The table row of `action` ("" when there is none).
std::string row_of(const std::string& page, const std::string& action) {
  const std::string start = "| `" + action + "`";
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(start)) return line;
  return {};
}

} // namespace

TEST_CASE("docs/apply.md lists every built-in action with its parameters", "[catalog][docs]") {
  const std::string page = test::read_file(std::string(BLOCKLS_SOURCE_DIR) + "/docs/apply.md");
  const ActionCatalog& catalog = ActionCatalog::builtin();
  std::set<std::string> names;
  for (const ActionSpec& a : catalog.actions()) {
    INFO(a.name);
    names.insert(a.name);
    const std::string row = row_of(page, a.name);
    REQUIRE(!row.empty());
    // The parameters cell is the second one.
    const size_t first = row.find('|', 1);
    const size_t second = row.find('|', first + 1);
    REQUIRE(second != std::string::npos);
    const std::string params = row.substr(first + 1, second - first - 1);
    for (const ParamSpec& p : a.params) {
      INFO(p.name);
      CHECK(params.find(p.name) != std::string::npos);
    }
  }
  CHECK(documented_actions(page) == names);
}

TEST_CASE("docs/codes/validation.md names every built-in TELT command", "[catalog][docs]") {
  const std::string page =
      test::read_file(std::string(BLOCKLS_SOURCE_DIR) + "/docs/codes/validation.md");
  for (const ActionSpec& a : ActionCatalog::builtin().actions())
    for (const std::string& telt : a.telt_names) {
      INFO(a.name << ": " << telt);
      CHECK(page.find("`" + telt + "`") != std::string::npos);
    }
}
