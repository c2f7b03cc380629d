// The built-in catalog, user schemas, type checks and did-you-mean distances.
#include "diagnostics/action_catalog.h"
#include "diagnostics/catalog_validation.h"
#include "diagnostics/check.h"
#include "diagnostics/suggest.h"
#include "support/test_inputs.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>

using namespace blockls;

TEST_CASE("the built-in catalog has every action of spec/actions.md", "[catalog]") {
  const ActionCatalog& c = ActionCatalog::builtin();
  for (const char* name : {"file_write", "file_append", "file_replace_text", "file_replace_all_text",
                           "file_replace_text_range", "file_delete", "file_move", "file_read", "files_read",
                           "dir_create", "dir_delete", "exec", "file_read_numbered",
                           "file_replace_lines", "files_replace_all_text", "file_patch"}) {
    INFO(name);
    CHECK(c.find_nesl(name) != nullptr);
  }
  // And file_patch (Codex patches), and the seed-002 commands of the sections dialect (command input, never run).
  CHECK(c.actions().size() == 18);
  CHECK(c.find(Dialect::sections, "chatroom task-started")->find_param("TITLE")->required);
  CHECK(!c.find(Dialect::sections, "chatroom task-started")->find_param("TECH_SPECS")->required);
  CHECK(c.find(Dialect::sections, "chatroom handoff")->find_param("MESSAGE")->required);
  // clada's line-number actions, under slupe's names too, and its multi-file replace.
  CHECK(c.find_nesl("read_file_numbered")->name == "file_read_numbered");
  CHECK(c.find_nesl("replace_lines_in_file")->name == "file_replace_lines");
  CHECK(c.find_telt("FILE_READ_NUMBERED")->name == "file_read_numbered");
  CHECK(c.find_nesl("file_replace_lines")->find_param("lines")->required);
  CHECK(!c.find_nesl("file_read_numbered")->find_param("lines")->required);
  CHECK(c.find_telt("REPLACE_LINES")->find_telt_param("NEW_CONTENT")->name == "new_content");
  CHECK(c.find_nesl("create_file")->name == "file_write");
  CHECK(c.find_nesl("replace_text_range_in_file")->name == "file_replace_text_range");
  CHECK(c.find_telt("CREATE_FILE")->name == "file_write");
  CHECK(c.find_telt("create_file") == nullptr); // TELT names are upper case
  CHECK(c.find_telt("CREATE_FILE")->find_telt_param("FILE")->name == "path");
  CHECK(c.find_nesl("exec")->find_param("lang")->values.size() == 3);
}

TEST_CASE("a clada unified-design.yaml merges into the catalog", "[catalog]") {
  ActionCatalog c = ActionCatalog::builtin();
  std::string error;
  REQUIRE(c.merge_schema_yaml(test::read_file(std::string(BLOCKLS_TEST_DATA_DIR) +
                                              "/schemas/clada-unified-design.yaml"),
                              &error));
  // clada declares absolute paths for file_write, and adds tools we do not have.
  CHECK(c.find_nesl("write_file")->find_param("path")->absolute_path);
  REQUIRE(c.find_nesl("file_read_numbered") != nullptr);
  CHECK(c.find_telt("FILE_READ_NUMBERED") != nullptr);
  const std::string text = "#!nesl [@three-char-SHA-256: k7m]\naction = \"file_write\"\npath = \"rel.txt\"\n"
                           "content = \"x\"\n#!end_k7m";
  CheckOptions options;
  options.catalog = &c;
  const CheckedDocument checked = check_document(text, options);
  REQUIRE(checked.diagnostics.size() == 1);
  CHECK(checked.diagnostics[0].code == "INVALID_PARAM_TYPE");
  CHECK(checked.diagnostics[0].message == "Invalid absolute path: rel.txt");
}

TEST_CASE("the catalog lists every accepted name once, in catalog order", "[catalog]") {
  ActionCatalog c = ActionCatalog::builtin();
  const auto expected = [&](bool telt) {
    std::vector<std::string> names;
    for (const ActionSpec& a : c.actions())
      for (const std::string& n : telt ? a.telt_names : a.nesl_names)
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    return names;
  };
  CHECK(c.all_nesl_names() == expected(false));
  CHECK(c.all_telt_names() == expected(true));
  CHECK(std::count(c.all_nesl_names().begin(), c.all_nesl_names().end(), "write_file") == 1);
  // A merged schema's new actions join the lists.
  std::string error;
  REQUIRE(c.merge_schema_yaml(
      test::read_file(std::string(BLOCKLS_TEST_DATA_DIR) + "/schemas/clada-unified-design.yaml"),
      &error));
  CHECK(c.all_nesl_names() == expected(false));
  CHECK(c.all_telt_names() == expected(true));
  CHECK(std::count(c.all_nesl_names().begin(), c.all_nesl_names().end(), "file_read_numbered") ==
        1);
}

TEST_CASE("close_names finds exactly the names within the distance", "[catalog]") {
  // Random names over a small alphabet (so that many pairs are close), each compared with
  // the full edit distance: the cheap filters before it must never drop a close name.
  uint64_t state = 0x9E3779B97F4A7C15u;
  const auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const std::string alphabet = "abAB_1";
  const auto random_name = [&] {
    std::string s(next() % 9, ' ');
    for (char& c : s)
      c = alphabet[next() % alphabet.size()];
    return s;
  };
  size_t close = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string word = random_name(), candidate = random_name();
    const size_t max = next() % 3;
    const bool expected = candidate != word && edit_distance(word, candidate) <= max;
    INFO(word << " / " << candidate << " within " << max);
    CHECK(close_names(word, {candidate}, max).size() == (expected ? 1u : 0u));
    close += expected;
  }
  CHECK(close > 1000); // the inputs do test the filters
}

TEST_CASE("bad schemas are reported, not thrown", "[catalog]") {
  ActionCatalog c;
  std::string error;
  CHECK_FALSE(c.merge_schema_yaml("tools: [unclosed", &error));
  CHECK(error.find("invalid schema YAML") != std::string::npos);
  CHECK_FALSE(c.merge_schema_yaml("other: 1", &error));
  CHECK(error.find("no 'tools' map") != std::string::npos);
  CHECK_FALSE(ActionCatalog::from_json("{\"actions\": 3", &error).has_value());
  CHECK_FALSE(ActionCatalog::from_json(
                  R"({"actions":[{"name":"x","params":[{"name":"p","type":"float"}]}]})", &error)
                  .has_value());
  CHECK(error.find("unknown type 'float'") != std::string::npos);
}

TEST_CASE("type checks follow nesl's transformToAction", "[catalog]") {
  ParamSpec integer;
  integer.name = "count";
  integer.type = ParamType::integer;
  CHECK(type_error(integer, "2").empty());
  CHECK(type_error(integer, "-17").empty());
  CHECK(type_error(integer, "2.0") == "Invalid integer value: 2.0");
  CHECK(type_error(integer, "02") == "Invalid integer value: 02");
  CHECK(type_error(integer, "") == "Invalid integer value: ");
  ParamSpec boolean;
  boolean.name = "flag";
  boolean.type = ParamType::boolean;
  CHECK(type_error(boolean, "true").empty());
  CHECK(type_error(boolean, "True") == "Invalid boolean value: True");
  ParamSpec lang;
  lang.name = "lang";
  lang.type = ParamType::enumeration;
  lang.values = {"bash", "python"};
  CHECK(type_error(lang, "ruby") == "Invalid enum value: ruby. Allowed: bash, python");
  ParamSpec abs;
  abs.name = "path";
  abs.type = ParamType::string;
  abs.absolute_path = true;
  CHECK(type_error(abs, "/tmp/x").empty());
  CHECK(type_error(abs, "C:\\x").empty());
  CHECK(type_error(abs, "x") == "Invalid absolute path: x");
}

TEST_CASE("edit distance counts a transposition once and ignores case", "[catalog]") {
  CHECK(edit_distance("CRAETE_FILE", "CREATE_FILE") == 1);
  CHECK(edit_distance("write_fil", "write_file") == 1);
  CHECK(edit_distance("Write_File", "write_file") == 0);
  CHECK(edit_distance("abc", "") == 3);
  const auto names = close_names("DELET_FILE", {"DELETE_FILE", "DELETE_DIR", "READ_FILE"});
  REQUIRE(names.size() == 1);
  CHECK(names[0] == "DELETE_FILE");
}

TEST_CASE("invalid UTF-8 is reported once and parsing goes on", "[catalog]") {
  const std::string text = "prose \xFF\xFE\n#!telt [3-char SHA: abc]\n=== DELETE_FILE ===\n--PATH abc--\n"
                           "a\xC3.txt\n--END abc--\n";
  const CheckedDocument checked = check_document(text);
  REQUIRE(checked.diagnostics.size() == 1);
  CHECK(checked.diagnostics[0].code == "INVALID_UTF8");
  CHECK(checked.diagnostics[0].range.begin == 6);
  CHECK(checked.verdicts.at(0).valid);
}
