// files_replace_all_text (apply/actions/files_replace_all_text.cpp): every listed file
// replaced, all or nothing, with its workspace checks on the line of `paths` that names the
// file.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

using namespace blockls::test;
using nlohmann::json;

namespace {

std::string replace_in(std::string_view paths, std::string_view old_text = "old") {
  return fmt::format("#!nesl [@three-char-SHA-256: m01]\naction = \"files_replace_all_text\"\n"
                     "paths = <<'EOT_m01'\n{}\nEOT_m01\nold_text = \"{}\"\nnew_text = \"new\"\n"
                     "#!end_m01\n",
                     paths, old_text);
}

// The tree without blockls's own `.blockls/` (its lock and journals).
TreeSnapshot user_files(const std::string& root) {
  TreeSnapshot t = snapshot_tree(root);
  std::erase_if(t, [](const auto& e) { return e.first.starts_with(".blockls"); });
  return t;
}

json apply_json(const std::string& root, const std::string& text, int* exit_code) {
  const ProcessResult r = run_blockls({"apply", "--root", root, "--format", "json", "-"}, text);
  INFO(r.out << r.err);
  *exit_code = r.exit_code;
  return json::parse(r.out)["files"][0];
}

} // namespace

TEST_CASE("files_replace_all_text replaces in every listed file", "[apply][multi]") {
  const std::string root = make_temp_dir();
  put_file(root + "/a.txt", "old old\n");
  put_file(root + "/d/b.txt", "x old\r\ny\r\n");
  put_file(root + "/c.txt", "nothing here\n");
  int exit_code = -1;
  const json f = apply_json(root, replace_in("a.txt\n\n  d/b.txt  \nc.txt"), &exit_code);
  CHECK(exit_code == 0);
  REQUIRE(f["results"].size() == 1);
  CHECK(f["results"][0]["action"] == "files_replace_all_text");
  CHECK(f["results"][0]["data"] ==
        json::parse(R"({"results":[{"path":"a.txt","replacements_made":2},)"
                    R"({"path":"d/b.txt","replacements_made":1},)"
                    R"({"path":"c.txt","replacements_made":0}]})"));
  CHECK(get_file(root + "/a.txt") == "new new\n");
  CHECK(get_file(root + "/d/b.txt") == "x new\r\ny\r\n");
  CHECK(get_file(root + "/c.txt") == "nothing here\n");
  std::filesystem::remove_all(root);
}

TEST_CASE("files_replace_all_text changes nothing when a listed file is wrong", "[apply][multi]") {
  const std::string root = make_temp_dir();
  put_file(root + "/a.txt", "old\n");
  std::filesystem::create_directories(root + "/dir");
  const TreeSnapshot before = user_files(root);
  int exit_code = -1;
  json f = apply_json(root, replace_in("a.txt\nmissing.txt\ndir"), &exit_code);
  CHECK(exit_code == 1);
  CHECK(f["results"][0]["code"] == "FILE_NOT_FOUND");
  CHECK(user_files(root) == before);
  // check --root: one diagnostic per wrong line, on that line of the heredoc.
  const ProcessResult r = run_blockls({"check", "--root", root, "--format", "json", "-"},
                                      replace_in("a.txt\nmissing.txt\ndir"));
  CHECK(r.exit_code == 1);
  const json errors = json::parse(r.out)["files"][0]["errors"];
  REQUIRE(errors.size() == 2);
  CHECK(errors[0]["code"] == "FILE_NOT_FOUND");
  CHECK(errors[0]["line_number"] == 5);
  CHECK(errors[0]["length"] == 11); // "missing.txt"
  CHECK(errors[1]["code"] == "NOT_A_FILE");
  CHECK(errors[1]["line_number"] == 6);
  f = apply_json(root, replace_in("a.txt", ""), &exit_code);
  CHECK(f["results"][0]["code"] == "EMPTY_SEARCH");
  f = apply_json(root, replace_in("  \n"), &exit_code);
  CHECK(f["results"][0]["code"] == "EMPTY_PATH");
  f = apply_json(root, replace_in("a.txt\n../outside.txt"), &exit_code);
  CHECK(f["results"][0]["code"] == "PATH_OUTSIDE_ROOT");
  CHECK(user_files(root) == before);
  std::filesystem::remove_all(root);
}

TEST_CASE("files_replace_all_text in apply's text report", "[apply][multi]") {
  const std::string root = make_temp_dir();
  put_file(root + "/a.txt", "old old\n");
  put_file(root + "/b.txt", "old\n");
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, replace_in("a.txt\nb.txt"));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("files_replace_all_text 2 paths: 3 replacements in 2 files") !=
        std::string::npos);
  std::filesystem::remove_all(root);
}
