// Replacer edits (<<<FILE>>> … <<<SEARCH>>> … <<<REPLACE>>> … <<<END>>>) against a workspace:
// `blockls apply` on a replacer transcript (two edits of one file in order, OVERWRITE creating
// a file and its folder, CRLF and non-ASCII files, the seed's whitespace-only deletion),
// --dry-run, one failing edit refused while the others apply, and the workspace checks an
// edit gets as a file_replace_text: SEARCH_NOT_FOUND with the closest region as a fix that
// makes the edit apply (written back without a final newline), SEARCH_AMBIGUOUS,
// REPLACE_ALREADY_PRESENT.
#include "apply/apply_test_support.h"
#include "apply/disk_backend.h"
#include "apply/workspace_check.h"
#include "fixits/apply_fixes.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace blockls;
using namespace blockls::apply;
using namespace blockls::test;

namespace {

// One replacer edit of `path`.
std::string edit(std::string_view path, std::string_view search, std::string_view replace) {
  return "<<<EXPLANATION>>>\nwhy\n<<<FILE>>>\n" + std::string(path) + "\n<<<SEARCH>>>\n" +
         std::string(search) + "\n<<<REPLACE>>>\n" + std::string(replace) + "\n<<<END>>>\n";
}

const char* const kTranscript =
    "I'll make two changes to app.py, in order.\n\n"
    "<<<EXPLANATION>>>\nGreet the world\n<<<FILE>>>\nsrc/app.py\n<<<SEARCH>>>\n"
    "    print(\"hello\")\n<<<REPLACE>>>\n    print(\"hello, world\")\n<<<END>>>\n\n"
    "<<<EXPLANATION>>>\nOn the line the first edit wrote\n<<<FILE>>>\nsrc/app.py\n"
    "<<<SEARCH>>>\n    print(\"hello, world\")\n<<<REPLACE>>>\n"
    "    print(\"hello, world!\")\n<<<END>>>\n\n"
    "<<<FILE>>>\ndocs/new/NEW.md\n<<<OVERWRITE>>>\n# New\n<<<END>>>\n\n"
    "<<<FILE>>>\nwin.txt\n<<<SEARCH>>>\nbeta\n<<<REPLACE>>>\ngamma\n<<<END>>>\n\n"
    "<<<FILE>>>\nnames.txt\n<<<SEARCH>>>\nnaïve\n<<<REPLACE>>>\nnaive\n<<<END>>>\n\n"
    "<<<FILE>>>\ndel.txt\n<<<SEARCH>>>\nkeep\ndrop\n<<<REPLACE>>>\n \n<<<END>>>\n";

void put_tree(const std::string& root) {
  put_file(root + "/src/app.py", "def hello():\n    print(\"hello\")\n");
  put_file(root + "/win.txt", "alpha\r\nbeta\r\n");
  put_file(root + "/names.txt", "café\nnaïve\n");
  put_file(root + "/del.txt", "keep\ndrop\nend\n");
}

} // namespace

TEST_CASE("blockls apply runs the edits of a replacer transcript in order", "[apply][replacer]") {
  const std::string root = make_temp_dir();
  put_tree(root);
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, kTranscript);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(get_file(root + "/src/app.py") == "def hello():\n    print(\"hello, world!\")\n");
  CHECK(get_file(root + "/docs/new/NEW.md") == "# New");
  CHECK(get_file(root + "/win.txt") == "alpha\r\ngamma\r\n");
  CHECK(get_file(root + "/names.txt") == "café\nnaive\n");
  CHECK(get_file(root + "/del.txt") == "\nend\n"); // the seed's "blank line and a space"
  std::filesystem::remove_all(root);
}

TEST_CASE("blockls apply --dry-run on replacer edits changes nothing", "[apply][replacer]") {
  const std::string root = make_temp_dir();
  put_tree(root);
  const ProcessResult r = run_blockls({"apply", "--root", root, "--dry-run", "-"}, kTranscript);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("+    print(\"hello, world!\")") != std::string::npos);
  CHECK(get_file(root + "/src/app.py") == "def hello():\n    print(\"hello\")\n");
  CHECK(!std::filesystem::exists(root + "/docs/new/NEW.md"));
  CHECK(get_file(root + "/del.txt") == "keep\ndrop\nend\n");
  std::filesystem::remove_all(root);
}

TEST_CASE("a replacer edit whose SEARCH is not in the file is refused, the others apply",
          "[apply][replacer]") {
  const std::string root = make_temp_dir();
  put_file(root + "/a.py", "x = 1\n");
  put_file(root + "/b.py", "b = 1\n");
  const ProcessResult r =
      run_blockls({"apply", "--root", root, "-"},
                  edit("a.py", "y = 1", "y = 2") + edit("b.py", "b = 1", "b = 2"));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(get_file(root + "/a.py") == "x = 1\n");
  CHECK(get_file(root + "/b.py") == "b = 2\n");
  std::filesystem::remove_all(root);
}

TEST_CASE("SEARCH_NOT_FOUND on a replacer edit: the closest region as a fix makes it apply",
          "[apply][replacer]") {
  TempRoot root;
  put_file(root.dir + "/a.py", "def f():\n    return 1\n\n\ndef g():\n    return 2\n");
  const std::string text = "<<<FILE>>>\na.py\n<<<SEARCH>>>\ndef g():\n    return  2\n"
                           "<<<REPLACE>>>\ndef g():\n    return 3\n<<<END>>>\n";
  const std::vector<Diagnostic> ds = check_in(text, root);
  const Diagnostic* d = find_code(ds, "SEARCH_NOT_FOUND");
  REQUIRE(d);
  CHECK(d->line == 3); // on the SEARCH text (0-based)
  REQUIRE(!d->fixes.empty());
  std::string fixed;
  REQUIRE(apply_fix(text, d->fixes[0], &fixed));
  INFO(fixed);
  CHECK(fixed.find("<<<SEARCH>>>\ndef g():\n    return 2\n<<<REPLACE>>>\n") != std::string::npos);
  const std::vector<Diagnostic> again = check_in(fixed, root);
  CHECK(find_code(again, "SEARCH_NOT_FOUND") == nullptr);
  for (const Diagnostic& e : again)
    CHECK(!is_error(e.severity));
}

TEST_CASE("SEARCH_NOT_FOUND on a CRLF transcript: the fix keeps its line breaks",
          "[apply][replacer]") {
  TempRoot root;
  put_file(root.dir + "/a.txt", "one\ntwo\nthree\n");
  const std::string text = "<<<FILE>>>\r\na.txt\r\n<<<SEARCH>>>\r\none\r\ntwoo\r\n"
                           "<<<REPLACE>>>\r\n1\r\n2\r\n<<<END>>>\r\n";
  const std::vector<Diagnostic> ds = check_in(text, root);
  const Diagnostic* d = find_code(ds, "SEARCH_NOT_FOUND");
  REQUIRE(d);
  REQUIRE(!d->fixes.empty());
  std::string fixed;
  REQUIRE(apply_fix(text, d->fixes[0], &fixed));
  INFO(fixed);
  CHECK(fixed.find("<<<SEARCH>>>\r\none\r\ntwo\r\n<<<REPLACE>>>") != std::string::npos);
  CHECK(find_code(check_in(fixed, root), "SEARCH_NOT_FOUND") == nullptr);
}

TEST_CASE("a replacer edit already applied: REPLACE_ALREADY_PRESENT", "[apply][replacer]") {
  TempRoot root;
  put_file(root.dir + "/a.py", "x = 2\n");
  const std::string text = edit("a.py", "x = 1", "x = 2");
  const std::vector<Diagnostic> ds = check_in(text, root);
  REQUIRE(find_code(ds, "SEARCH_NOT_FOUND"));
  const Diagnostic* d = find_code(ds, "REPLACE_ALREADY_PRESENT");
  REQUIRE(d);
  CHECK(d->line == 7); // on the REPLACE text
  put_file(root.dir + "/a.py", "x = 3\n");
  CHECK(find_code(check_in(text, root), "REPLACE_ALREADY_PRESENT") == nullptr);
}

TEST_CASE("SEARCH_AMBIGUOUS on a replacer edit names every line", "[apply][replacer]") {
  TempRoot root;
  put_file(root.dir + "/a.txt", "x\ny\nx\n");
  const std::vector<Diagnostic> ds = check_in(edit("a.txt", "x", "z"), root);
  const Diagnostic* d = find_code(ds, "SEARCH_AMBIGUOUS");
  REQUIRE(d);
  CHECK(d->message.find("lines 1, 3") != std::string::npos);
}

TEST_CASE("two replacer edits of one file are checked in order", "[apply][replacer]") {
  TempRoot root;
  put_file(root.dir + "/a.txt", "alpha\nbeta\n");
  // The second SEARCH is the first edit's REPLACE: found in the simulated file.
  const std::vector<Diagnostic> ds =
      check_in(edit("a.txt", "beta", "gamma") + edit("a.txt", "gamma", "delta"), root);
  for (const Diagnostic& d : ds) {
    INFO(d.code << ": " << d.message);
    CHECK(!is_error(d.severity));
  }
}
