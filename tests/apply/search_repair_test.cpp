// Aider's repairs of a SEARCH text that misses the file (SEARCH_NOT_EXACT: uniformly
// re-indented, or with a leading blank line the file lacks) and edits of one file that overlap
// (EDIT_OVERLAP): the text rules alone, then through check --root and `blockls apply`.
#include "apply/apply_test_support.h"
#include "apply/search_repair.h"
#include "apply/workspace_check.h"
#include "fixits/apply_fixes.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace blockls;
using namespace blockls::apply;
using namespace blockls::test;

namespace {

const std::string kMethod =
    "class A:\n    def run(self):\n        return 1\n\n    def stop(self):\n"
    "        return 0\n";

} // namespace

TEST_CASE("repair_search: a SEARCH text indented less than the file", "[apply][repair]") {
  const auto r =
      repair_search(kMethod, "def run(self):\n    return 1\n", "def run(self):\n\n    return 2\n");
  REQUIRE(r);
  CHECK(r->old_text == "    def run(self):\n        return 1\n");
  CHECK(r->new_text == "    def run(self):\n\n        return 2\n"); // blank line kept blank
  CHECK(r->first_line == 2);
  CHECK(r->last_line == 3);
  CHECK(kMethod.substr(r->begin, r->end - r->begin) == r->old_text);
  CHECK(r->how == "re-indented");
}

TEST_CASE("repair_search: indented more than the file, tabs, CRLF", "[apply][repair]") {
  const auto deeper =
      repair_search("if x:\n  y()\n", "        if x:\n          y()\n", "        z()\n");
  REQUIRE(deeper);
  CHECK(deeper->old_text == "if x:\n  y()\n");
  CHECK(deeper->new_text == "z()\n"); // the common indentation of both texts goes
  const std::string crlf = "\tif x:\r\n\t\ty()\r\n";
  const auto tabs = repair_search(crlf, "if x:\n\ty()\n", "if x:\n\tz()\n");
  REQUIRE(tabs);
  CHECK(tabs->old_text == "\tif x:\n\t\ty()\n"); // LF, as a fix writes it
  CHECK(tabs->new_text == "\tif x:\n\t\tz()\n");
  CHECK(tabs->end == crlf.size());
}

TEST_CASE("repair_search: a leading blank line the file lacks", "[apply][repair]") {
  const std::string file = "a = 1\nb = 2\nc = 3\n";
  const auto r = repair_search(file, "\nb = 2\nc = 3\n", "b = 20\nc = 3\n");
  REQUIRE(r);
  CHECK(r->old_text == "b = 2\nc = 3\n");
  CHECK(r->new_text == "b = 20\nc = 3\n");
  CHECK(r->first_line == 2);
  CHECK(r->how == "without its leading blank line");
  // Only for texts of more than two lines (Aider's rule).
  CHECK_FALSE(repair_search(file, "\nb = 2\n", "b = 20\n"));
}

TEST_CASE("repair_search: no repair when two regions match, when nothing matches, or when the "
          "indentation is already right",
          "[apply][repair]") {
  CHECK_FALSE(repair_search("  x()\n  y()\n    x()\n    y()\n", "x()\ny()\n", "z()\n"));
  CHECK_FALSE(repair_search(kMethod, "def walk(self):\n", "def run(self):\n"));
  // Mixed shifts: one line needs four spaces, the other eight — not a uniform re-indent.
  CHECK_FALSE(repair_search(kMethod, "def run(self):\nreturn 1\n", "x\n"));
  // Same lines, same indentation: the exact search's business (final newline, line endings).
  CHECK_FALSE(repair_search("x = 1", "x = 1\n", "x = 2\n"));
}

TEST_CASE("SEARCH_NOT_EXACT: an Aider edit indented wrong applies, with a fix to the exact text",
          "[apply][repair][editblock]") {
  TempRoot root;
  put_file(root.dir + "/a.py", kMethod);
  const std::string text = "a.py\n```python\n<<<<<<< SEARCH\ndef run(self):\n    return 1\n"
                           "=======\ndef run(self):\n    return 2\n>>>>>>> REPLACE\n```\n";
  const std::vector<Diagnostic> ds = check_in(text, root);
  const Diagnostic* d = find_code(ds, "SEARCH_NOT_EXACT");
  REQUIRE(d);
  CHECK(d->severity == Severity::parameter_warning);
  CHECK(d->line == 3); // on the SEARCH text
  CHECK(d->message == "old_text matches lines 2-3 of a.py only re-indented");
  CHECK(find_code(ds, "SEARCH_NOT_FOUND") == nullptr);
  for (const Diagnostic& e : ds)
    CHECK(!is_error(e.severity));

  REQUIRE(d->fixes.size() == 1);
  CHECK(d->fixes[0].title == "Use the exact text of lines 2-3");
  std::string fixed;
  REQUIRE(apply_fix(text, d->fixes[0], &fixed));
  CHECK(fixed == "a.py\n```python\n<<<<<<< SEARCH\n    def run(self):\n        return 1\n"
                 "=======\n    def run(self):\n        return 2\n>>>>>>> REPLACE\n```\n");
  CHECK(check_in(fixed, root).empty());

  // `blockls apply` writes what Aider would: the REPLACE text at the file's indentation.
  const ProcessResult r = run_blockls({"apply", "--root", root.dir, "-"}, text);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(get_file(root.dir + "/a.py") == "class A:\n    def run(self):\n        return 2\n\n"
                                        "    def stop(self):\n        return 0\n");
}

TEST_CASE("SEARCH_NOT_EXACT keeps a CRLF file's line endings", "[apply][repair][editblock]") {
  TempRoot root;
  put_file(root.dir + "/w.txt", "top\r\n  inner\r\n  more\r\n");
  const ProcessResult r =
      run_blockls({"apply", "--root", root.dir, "-"},
                  "w.txt\n<<<<<<< SEARCH\ninner\nmore\n=======\nnew\nmore\n>>>>>>> REPLACE\n");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(get_file(root.dir + "/w.txt") == "top\r\n  new\r\n  more\r\n");
}

TEST_CASE("an Aider edit of a file's last line matches when the file has no final newline, as "
          "Aider's does",
          "[apply][repair][editblock]") {
  TempRoot root;
  put_file(root.dir + "/f.txt", "alpha\nbeta"); // no final line break
  put_file(root.dir + "/w.txt", "top\r\nbeta"); // CRLF, none either
  const std::string text = "f.txt\n```\n<<<<<<< SEARCH\nbeta\n=======\ngamma\n>>>>>>> REPLACE\n"
                           "```\n\nw.txt\n```\n<<<<<<< SEARCH\ntop\nbeta\n=======\ntop\ngamma\n"
                           ">>>>>>> REPLACE\n```\n";
  CHECK(check_in(text, root).empty()); // no SEARCH_NOT_FOUND, no warning
  const ProcessResult r = run_blockls({"apply", "--root", root.dir, "-"}, text);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  // Aider writes the file with the final newline its match added.
  CHECK(get_file(root.dir + "/f.txt") == "alpha\ngamma\n");
  CHECK(get_file(root.dir + "/w.txt") == "top\r\ngamma\r\n");
  // Only at the end of the file: the same text elsewhere without its break is not a match.
  TempRoot other;
  put_file(other.dir + "/g.txt", "betax\n");
  CHECK(find_code(check_in("g.txt\n<<<<<<< SEARCH\nbeta\n=======\ngamma\n>>>>>>> REPLACE\n", other),
                  "SEARCH_NOT_FOUND") != nullptr);
}

TEST_CASE("formats whose tools match exactly get no repair (NESL stays SEARCH_NOT_FOUND)",
          "[apply][repair]") {
  TempRoot root;
  put_file(root.dir + "/a.py", kMethod);
  const std::string nesl = "#!nesl [@three-char-SHA-256: k7m]\naction = \"file_replace_text\"\n"
                           "path = \"a.py\"\nold_text = <<'EOT_k7m'\ndef run(self):\n"
                           "    return 1\nEOT_k7m\nnew_text = <<'EOT_k7m'\nx\nEOT_k7m\n"
                           "#!end_k7m\n";
  const std::vector<Diagnostic> ds = check_in(nesl, root);
  CHECK(find_code(ds, "SEARCH_NOT_EXACT") == nullptr);
  CHECK(find_code(ds, "SEARCH_NOT_FOUND") != nullptr);
}

TEST_CASE("EDIT_OVERLAP: a later edit looks for lines an earlier edit of the transcript changed",
          "[apply][overlap][editblock]") {
  TempRoot root;
  put_file(root.dir + "/a.txt", "one\ntwo\nthree\nfour\n");
  const std::string text = "a.txt\n<<<<<<< SEARCH\ntwo\nthree\n=======\n2\n3\n>>>>>>> REPLACE\n\n"
                           "a.txt\n<<<<<<< SEARCH\nthree\nfour\n=======\n3\n4\n>>>>>>> REPLACE\n";
  const std::vector<Diagnostic> ds = check_in(text, root);
  const Diagnostic* d = find_code(ds, "EDIT_OVERLAP");
  REQUIRE(d);
  CHECK(is_error(d->severity));
  CHECK(d->line == 11); // the second edit's SEARCH text
  CHECK(d->message == "old_text is in a.txt on disk (line 3), but the edit at line 2 of this "
                      "transcript changes it first: the two edits overlap");
  CHECK(find_code(ds, "SEARCH_NOT_FOUND") == nullptr);

  // Nothing is written for the failing block; the first edit still applies.
  const ProcessResult r = run_blockls({"apply", "--root", root.dir, "-"}, text);
  CHECK(r.exit_code == 1);
  CHECK(get_file(root.dir + "/a.txt") == "one\n2\n3\nfour\n");
}

TEST_CASE("a text that is in no version of the file is SEARCH_NOT_FOUND, not EDIT_OVERLAP",
          "[apply][overlap][editblock]") {
  TempRoot root;
  put_file(root.dir + "/a.txt", "one\ntwo\n");
  const std::vector<Diagnostic> ds =
      check_in("a.txt\n<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE\n\n"
               "a.txt\n<<<<<<< SEARCH\nfive\n=======\n5\n>>>>>>> REPLACE\n",
               root);
  CHECK(find_code(ds, "EDIT_OVERLAP") == nullptr);
  CHECK(find_code(ds, "SEARCH_NOT_FOUND") != nullptr);
}
