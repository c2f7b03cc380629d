// The clada/slupe action cases (tests/data/apply/cases, converted by convert.py; sources in
// tests/data/apply/SOURCES.md) run through the real `blockls apply` in temporary roots:
// resulting files, per-action success, error kinds and result data must match.
#include "apply/apply_test_support.h"
#include "support/process.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace blockls::test;
using nlohmann::json;

namespace {

json rewrite(const json& j, const std::string& root) {
  if (j.is_string()) return rewrite_tmp_paths(j.get<std::string>(), root);
  if (j.is_array() || j.is_object()) {
    json out = j;
    for (auto it = out.begin(); it != out.end(); ++it)
      *it = rewrite(*it, root);
    return out;
  }
  return j;
}

void check_result(const json& expected, const json& actual, const std::string& root) {
  CHECK(actual["success"] == expected["success"]);
  if (expected.contains("code")) CHECK(actual.value("code", "") == expected["code"]);
  if (expected.contains("data")) CHECK(actual["data"] == rewrite(expected["data"], root));
  for (const char* key : {"seq", "blockId", "action"})
    if (expected.contains(key)) CHECK(actual[key] == expected[key]);
  if (expected.contains("params")) CHECK(actual["params"] == rewrite(expected["params"], root));
}

struct Tally {
  int run = 0, skipped = 0;
};

} // namespace

TEST_CASE("clada and slupe action cases through blockls apply", "[apply][cases]") {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(std::string(BLOCKLS_TEST_DATA_DIR) + "/apply/cases"))
    files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 20);
  Tally tally;
  for (const fs::path& file : files) {
    const json doc = json::parse(read_file(file.string()));
    for (const json& c : doc["cases"]) {
      const std::string name = file.filename().string() + "#" + c["name"].get<std::string>();
      if (c.contains("skip")) {
        ++tally.skipped;
        continue;
      }
      ++tally.run;
      DYNAMIC_SECTION(name) {
        const std::string root = make_temp_dir();
        const std::string setup = rewrite_tmp_paths(c["setup"].get<std::string>(), root);
        if (!setup.empty()) {
          const ProcessResult s = run_blockls({"apply", "--root", root, "-"}, setup);
          INFO(s.out << s.err);
          REQUIRE(s.exit_code == 0);
        }
        const std::string input = rewrite_tmp_paths(c["input"].get<std::string>(), root);
        const ProcessResult r =
            run_blockls({"apply", "--root", root, "--allow-exec", "--format", "json", "-"}, input);
        INFO(input << "\n---\n" << r.out << r.err);
        REQUIRE((r.exit_code == 0 || r.exit_code == 1));
        const json out = json::parse(r.out);
        const json& f = out["files"][0];
        const json& expect = c["expect"];
        if (c["kind"] == "orch") {
          CHECK(r.exit_code == (expect["success"].get<bool>() ? 0 : 1));
          CHECK(f["success"] == expect["success"]);
          CHECK(f["totalBlocks"] == expect["totalBlocks"]);
          CHECK(f["executedActions"] == expect["executedActions"]);
          REQUIRE(f["results"].size() == expect["results"].size());
          for (size_t i = 0; i < expect["results"].size(); ++i)
            check_result(expect["results"][i], f["results"][i], root);
          std::vector<std::string> skipped;
          for (const json& s : f["skipped"])
            skipped.push_back(s["blockId"]);
          CHECK(json(skipped) == expect["skippedBlocks"]);
        } else {
          REQUIRE(!f["results"].empty());
          const json& last = f["results"].back();
          check_result(expect, last, root);
          CHECK(r.exit_code == (expect["success"].get<bool>() ? 0 : 1));
          if (expect.contains("file")) {
            const std::string path =
                rewrite_tmp_paths(expect["file"]["path"].get<std::string>(), root);
            CHECK(get_file(path) == expect["file"]["content"].get<std::string>());
          }
        }
        fs::remove_all(root);
      }
    }
  }
  (void)tally;
}

TEST_CASE("every converted case runs", "[apply][cases]") {
  namespace fs = std::filesystem;
  int run = 0, skipped = 0;
  for (const auto& e :
       fs::directory_iterator(std::string(BLOCKLS_TEST_DATA_DIR) + "/apply/cases")) {
    const json doc = json::parse(read_file(e.path().string()));
    for (const json& c : doc["cases"]) {
      INFO(e.path().filename().string() << "#" << c["name"].get<std::string>());
      CHECK(!c.contains("skip"));
      ++(c.contains("skip") ? skipped : run);
    }
  }
  // The line-number actions (file_read_numbered, file_replace_lines, and slupe's
  // read_file_numbered, replace_lines_in_file) are in the catalog: their 56 cases run too.
  CHECK(run == 187);
  CHECK(skipped == 0);
}
