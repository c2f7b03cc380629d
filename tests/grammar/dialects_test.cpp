// The registry (grammar/dialects.h) feeds every outward list: a registered dialect missing from
// `--dialects`, the LSP `dialects` setting, `blockls codes`, the JSON `metadata.dialect`, the
// docs index or the editors' language lists makes one of these tests fail.
#include "diagnostics/action_catalog.h"
#include "diagnostics/check.h"
#include "diagnostics/codes.h"
#include "diagnostics/json_report.h"
#include "grammar/dialect_set.h"
#include "grammar/dialects.h"
#include "lsp/analysis.h"
#include "support/process.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

using namespace blockls;

namespace {

std::string source_file(const std::string& relative) {
  return test::read_file(std::string(BLOCKLS_SOURCE_DIR) + "/" + relative);
}

bool contains(const nlohmann::json& array, std::string_view value) {
  for (const nlohmann::json& v : array)
    if (v.is_string() && v.get<std::string>() == value) return true;
  return false;
}

} // namespace

TEST_CASE("dialect sets are parsed from the registered names and aliases", "[dialects]") {
  std::string error;
  for (const DialectInfo* info : kDialectInfos) {
    INFO(info->name);
    const auto one = parse_dialect_set(info->name, &error);
    REQUIRE(one);
    CHECK(one->contains(info->id));
    for (std::string_view alias : info->aliases) {
      const auto aliased = parse_dialect_set(alias, &error);
      REQUIRE(aliased);
      CHECK(*aliased == *one);
    }
    CHECK(DialectSet::all().contains(info->id)); // on by default
    CHECK(lsp::Settings{}.dialects.contains(info->id));
    CHECK(dialect_names(",").find(info->name) != std::string::npos);
  }
  const auto all = parse_dialect_set(dialect_names(","), &error);
  REQUIRE(all);
  CHECK(*all == DialectSet::all());
  CHECK_FALSE(parse_dialect_set("telt,klingon", &error));
  CHECK(error == "unknown dialect 'klingon' (known: " + dialect_names(", ") + ")");
  // The LSP setting's reading: the known names count, each unknown one is reported.
  std::vector<std::string> unknown;
  const std::vector<std::string> names = {"telt", "klingon", "sham", "vulcan"};
  const DialectSet some = read_dialect_names(names, &unknown);
  CHECK(some.contains(Dialect::telt));
  CHECK(some.contains(*find_dialect("sham")));
  CHECK_FALSE(some.contains(Dialect::xml));
  REQUIRE(unknown.size() == 2);
  CHECK(unknown[1] == "unknown dialect 'vulcan' (known: " + dialect_names(", ") + ")");
}

TEST_CASE("the check command's --dialects accepts every registered dialect and alias",
          "[dialects]") {
  for (const DialectInfo* info : kDialectInfos) {
    std::vector<std::string_view> names{info->name};
    names.insert(names.end(), info->aliases.begin(), info->aliases.end());
    for (std::string_view name : names) {
      INFO(name);
      const auto r = test::run_blockls({"check", "--dialects", std::string(name), "-"},
                                       std::string(info->example));
      CHECK(r.exit_code == 0);
    }
  }
  CHECK(test::run_blockls({"check", "--dialects", "klingon", "-"}, "").exit_code == 2);
}

TEST_CASE("each dialect's example checks clean and names its dialect and action in JSON",
          "[dialects]") {
  for (const DialectInfo* info : kDialectInfos) {
    INFO(info->name);
    const CheckedDocument checked = check_document(info->example);
    CHECK(checked.diagnostics.empty());
    const nlohmann::json j = document_json(info->example, checked);
    REQUIRE(j["blocks"].size() == 1);
    CHECK(j["blocks"][0]["metadata"]["dialect"] == info->name);
    CHECK(j["blocks"][0]["metadata"]["valid"] == true);
    REQUIRE(j["blocks"][0]["commands"].size() == 1);
    // A file write; a dialect without one creates the file by appending (Aider's empty
    // SEARCH); command input (never run) names a command of the built-in catalog.
    const nlohmann::json action = j["blocks"][0]["commands"][0]["action"];
    CHECK((action == "file_write" || (info->id == Dialect::editblock && action == "file_append") ||
           (info->catalog.never_run && action.is_string())));
    // With the dialect off, the same text is prose: no block and no diagnostic.
    CheckOptions off;
    off.parse.dialects.erase(info->id);
    const CheckedDocument prose = check_document(info->example, off);
    CHECK(prose.parsed.blocks.empty());
    CHECK(prose.diagnostics.empty());
  }
}

TEST_CASE("a command the catalog does not know has a null action in JSON", "[dialects]") {
  const std::string text = "#!telt [3-char SHA: k7m]\n=== FROBNICATE ===\n--PATH k7m--\nx\n"
                           "--END k7m--\n";
  const nlohmann::json j = document_json(text, check_document(text));
  REQUIRE(j["blocks"][0]["commands"].size() == 1);
  CHECK(j["blocks"][0]["commands"][0]["action"].is_null());
}

TEST_CASE("blockls codes and the docs index list every registered dialect", "[dialects]") {
  const std::string index = source_file("docs/codes/README.md");
  for (const DialectInfo* info : kDialectInfos) {
    INFO(info->name);
    bool listed = false;
    for (const CodeInfo& c : all_codes())
      listed = listed || (c.doc_page == info->docs_page && c.dialect == info->id);
    CHECK(listed);
    const std::string page = std::string(info->docs_page) + ".md";
    CHECK(std::filesystem::exists(std::string(BLOCKLS_SOURCE_DIR) + "/docs/codes/" + page));
    CHECK(index.find("[" + page + "](" + page + ")") != std::string::npos);
  }
  const auto r = test::run_blockls({"codes", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json codes = nlohmann::json::parse(r.out);
  for (const DialectInfo* info : kDialectInfos) {
    bool found = false;
    for (const nlohmann::json& c : codes)
      found = found || c["dialect"] == info->name;
    CHECK(found);
  }
}

TEST_CASE("the editors list every registered dialect", "[dialects]") {
  const nlohmann::json package = nlohmann::json::parse(source_file("editors/vscode/package.json"));
  const nlohmann::json& setting =
      package["contributes"]["configuration"]["properties"]["blockls.dialects"];
  const nlohmann::json& languages = package["contributes"]["languages"];
  const std::string nvim = source_file("editors/nvim/lua/blockls/init.lua");
  for (const DialectInfo* info : kDialectInfos) {
    INFO(info->name);
    CHECK(contains(setting["items"]["enum"], info->name));
    CHECK(contains(setting["default"], info->name));
    for (std::string_view alias : info->aliases)
      CHECK(contains(setting["items"]["enum"], alias));
    for (std::string_view ext : info->file_extensions) {
      INFO(ext);
      bool attached = false;
      for (const nlohmann::json& l : languages)
        attached = attached ||
                   contains(l.value("extensions", nlohmann::json::array()), "." + std::string(ext));
      CHECK(attached);
      CHECK(nvim.find("'*." + std::string(ext) + "'") != std::string::npos);
    }
  }
}

TEST_CASE("blockls instructions prints every dialect's rules and an example that checks clean",
          "[dialects][cli]") {
  for (const DialectInfo* info : kDialectInfos) {
    std::vector<std::string_view> names{info->name};
    names.insert(names.end(), info->aliases.begin(), info->aliases.end());
    for (std::string_view name : names) {
      INFO(name);
      const auto r = test::run_blockls({"instructions", std::string(name)});
      REQUIRE(r.exit_code == 0);
      CHECK(r.out.starts_with(info->instructions));
      const std::string_view kMarker = "\nExample:\n\n";
      const size_t marker = r.out.find(kMarker);
      REQUIRE(marker != std::string::npos);
      // The example as printed, fed to `blockls check`: one valid block, no diagnostic.
      const std::string example = r.out.substr(marker + kMarker.size());
      CHECK(example == info->example);
      const auto checked = test::run_blockls({"check", "--format", "json", "-"}, example);
      CHECK(checked.exit_code == 0);
      const nlohmann::json j = nlohmann::json::parse(checked.out);
      CHECK(j["files"][0]["errors"].empty());
      CHECK(j["files"][0]["blocks"].size() == 1);
      // The whole text as pasted into a system prompt, which transcripts often include: its
      // syntax lines are no block and no near miss (an error there failed every CI check of
      // such a transcript, and XML's one-line tool calls were blocks `apply` would run).
      const auto whole = test::run_blockls({"check", "--format", "json", "-"}, r.out);
      CHECK(whole.exit_code == 0);
      const nlohmann::json w = nlohmann::json::parse(whole.out);
      CHECK(w["files"][0]["errors"].empty());
      CHECK(w["files"][0]["blocks"].size() == 1);
    }
  }
  const auto unknown = test::run_blockls({"instructions", "klingon"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find(dialect_names(", ")) != std::string::npos);
}
