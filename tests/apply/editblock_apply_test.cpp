// Aider edit blocks against a workspace: `blockls apply` on an Aider-style transcript (edits
// of one file simulated in order, an append that creates a file, CRLF and non-ASCII files),
// and the workspace checks an edit gets as a file_replace_text: SEARCH_NOT_FOUND with the
// closest region as a fix that makes the edit apply, SEARCH_AMBIGUOUS naming every line.
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

namespace {} // namespace

TEST_CASE("blockls apply runs the edits of an Aider transcript in order", "[apply][editblock]") {
  const std::string root = make_temp_dir();
  put_file(root + "/src/app.py", "def hello():\n    print(\"hello\")\n");
  put_file(root + "/win.txt", "alpha\r\nbeta\r\n");
  put_file(root + "/names.txt", "café\nnaïve\n");
  const std::string text =
      "#### make it greet the world\n\n"
      "src/app.py\n```python\n<<<<<<< SEARCH\n"
      "    print(\"hello\")\n=======\n    print(\"hello, world\")\n"
      ">>>>>>> REPLACE\n```\n\n"
      "Then, on the line the first edit wrote:\n\n```python\n"
      "<<<<<<< SEARCH\n    print(\"hello, world\")\n=======\n"
      "    print(\"hello, world!\")\n>>>>>>> REPLACE\n```\n\n"
      "docs/NEW.md\n```\n<<<<<<< SEARCH\n=======\n# New\n>>>>>>> REPLACE\n```\n\n"
      "win.txt\n```\n<<<<<<< SEARCH\nbeta\n=======\ngamma\n>>>>>>> REPLACE\n```\n\n"
      "names.txt\n```\n<<<<<<< SEARCH\nnaïve\n=======\nnaive\n>>>>>>> REPLACE\n```\n";
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, text);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(get_file(root + "/src/app.py") == "def hello():\n    print(\"hello, world!\")\n");
  CHECK(get_file(root + "/docs/NEW.md") == "# New\n");
  CHECK(get_file(root + "/win.txt") == "alpha\r\ngamma\r\n");
  CHECK(get_file(root + "/names.txt") == "café\nnaive\n");
  std::filesystem::remove_all(root);
}

TEST_CASE("an edit whose SEARCH is not in the file is not applied", "[apply][editblock]") {
  const std::string root = make_temp_dir();
  put_file(root + "/a.py", "x = 1\n");
  const ProcessResult r =
      run_blockls({"apply", "--root", root, "-"},
                  "a.py\n<<<<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(get_file(root + "/a.py") == "x = 1\n");
  std::filesystem::remove_all(root);
}

TEST_CASE("SEARCH_NOT_FOUND on an edit: the closest region as a fix makes it apply",
          "[apply][editblock]") {
  TempRoot root;
  put_file(root.dir + "/a.py", "def f():\n    return 1\n\n\ndef g():\n    return 2\n");
  const std::string text = "a.py\n```python\n<<<<<<< SEARCH\ndef g():\n    return  2\n=======\n"
                           "def g():\n    return 3\n>>>>>>> REPLACE\n```\n";
  const std::vector<Diagnostic> ds = check_in(text, root);
  const Diagnostic* d = find_code(ds, "SEARCH_NOT_FOUND");
  REQUIRE(d);
  CHECK(d->line == 3);                                  // on the edit's SEARCH text (0-based)
  CHECK(d->message == "SEARCH text not found in a.py"); // Aider's words, not the catalog's
  REQUIRE(!d->fixes.empty());
  std::string fixed;
  REQUIRE(apply_fix(text, d->fixes[0], &fixed));
  CHECK(fixed.find("<<<<<<< SEARCH\ndef g():\n    return 2\n=======\n") != std::string::npos);
  const std::vector<Diagnostic> again = check_in(fixed, root);
  CHECK(find_code(again, "SEARCH_NOT_FOUND") == nullptr);
  for (const Diagnostic& e : again)
    CHECK(!is_error(e.severity));
}

TEST_CASE("an edit already applied: SEARCH_NOT_FOUND and REPLACE_ALREADY_PRESENT",
          "[apply][editblock]") {
  TempRoot root;
  put_file(root.dir + "/a.py", "x = 2\n");
  const std::string edit = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n";
  const std::vector<Diagnostic> ds = check_in(edit, root);
  REQUIRE(find_code(ds, "SEARCH_NOT_FOUND"));
  const Diagnostic* d = find_code(ds, "REPLACE_ALREADY_PRESENT");
  REQUIRE(d);
  CHECK(d->severity == Severity::parameter_warning);
  CHECK(d->line == 4); // on the REPLACE text
  // A REPLACE text that is not in the file: no such warning.
  put_file(root.dir + "/a.py", "x = 3\n");
  CHECK(find_code(check_in(edit, root), "REPLACE_ALREADY_PRESENT") == nullptr);
}

TEST_CASE("SEARCH_AMBIGUOUS on an edit names every line", "[apply][editblock]") {
  TempRoot root;
  put_file(root.dir + "/a.txt", "x\ny\nx\n");
  const std::vector<Diagnostic> ds =
      check_in("a.txt\n<<<<<<< SEARCH\nx\n=======\nz\n>>>>>>> REPLACE\n", root);
  const Diagnostic* d = find_code(ds, "SEARCH_AMBIGUOUS");
  REQUIRE(d);
  CHECK(d->message.find("lines 1, 3") != std::string::npos);
}
