// The file_patch runner: the hunk locator's comparison passes (exact, trailing blanks, both
// ends, Unicode punctuation), `*** End of File`, not found / ambiguous, CRLF and non-ASCII
// files; and the workspace checks a Codex patch gets (SEARCH_NOT_FOUND with the closest
// region, SEARCH_AMBIGUOUS, a missing file), plus a move through `blockls apply`.
#include "apply/apply_test_support.h"
#include "apply/disk_backend.h"
#include "apply/patch_locate.h"
#include "apply/workspace_check.h"
#include "fixits/apply_fixes.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace blockls;
using namespace blockls::apply;
using namespace blockls::test;

namespace {

// Applies the hunks text `hunks` to `content`.
PatchOutcome run(std::string_view content, std::string_view hunks) {
  std::string error;
  const auto chunks = patch::parse_hunks(hunks, "f.txt", &error);
  INFO(error);
  REQUIRE(chunks);
  return apply_chunks(content, *chunks, "f.txt");
}

std::string applied(std::string_view content, std::string_view hunks) {
  const PatchOutcome r = run(content, hunks);
  INFO(r.message);
  CHECK(r.status == PatchOutcome::Status::applied);
  return r.text;
}

} // namespace

TEST_CASE("the hunk locator matches exactly, then more leniently, in Codex's order",
          "[apply][patch]") {
  // Exact.
  CHECK(applied("a\nb\nc\n", "@@\n a\n-b\n+B\n c\n") == "a\nB\nc\n");
  // Trailing blanks in the file (the matched context lines are written as the patch has
  // them, as Codex does).
  CHECK(applied("a  \nb\t\nc\n", "@@\n a\n-b\n+B\n") == "a\nB\nc\n");
  // Blanks at both ends (indentation differs).
  CHECK(applied("    x = 1\n", "@@\n-x = 1\n+x = 2\n") == "x = 2\n");
  // Unicode punctuation: an en dash, curly quotes and a no-break space read as ASCII.
  CHECK(applied("say \xE2\x80\x9Chi\xE2\x80\x9D \xE2\x80\x93 ok\xC2\xA0now\n",
                "@@\n-say \"hi\" - ok now\n+done\n") == "done\n");
  CHECK(normalise_punctuation("\xE2\x80\x98q\xE2\x80\x99") == "'q'");
  // A pass that finds the lines exactly wins over a later, looser one.
  CHECK(seek_sequence({"x ", "x"}, {"x"}, 0, false) == std::vector<size_t>{1});
}

TEST_CASE("hunks apply in order after their @@ context, End of File pins to the end",
          "[apply][patch]") {
  CHECK(applied("f\nx\ng\nx\n", "@@ g\n-x\n+y\n") == "f\nx\ng\ny\n");
  CHECK(applied("x\nmid\nx\n", "@@\n-x\n+y\n*** End of File\n") == "x\nmid\ny\n");
  // Two chunks, the second found after the first.
  CHECK(applied("1\n2\n3\n4\n", "@@\n-2\n+two\n@@\n-4\n+four\n") == "1\ntwo\n3\nfour\n");
  // A pure addition goes to the end; the result always ends with a line break.
  CHECK(applied("a", "@@\n+b\n") == "a\nb\n");
  // A trailing empty context line stands for the final line break.
  CHECK(applied("a\nb\n", "@@\n-b\n+c\n\n") == "a\nc\n");
}

TEST_CASE("the hunk locator reports lines not found and lines found twice", "[apply][patch]") {
  PatchOutcome r = run("a\nb\n", "@@\n-zzz\n+y\n");
  CHECK(r.status == PatchOutcome::Status::not_found);
  CHECK(r.message == "Failed to find expected lines in f.txt:\nzzz");
  r = run("a\nb\n", "@@ nope\n-a\n+y\n");
  CHECK(r.status == PatchOutcome::Status::not_found);
  CHECK(r.message == "Failed to find context 'nope' in f.txt");
  r = run("x\ny\nx\n", "@@\n-x\n+z\n");
  CHECK(r.status == PatchOutcome::Status::ambiguous);
  CHECK(r.lines == std::vector<size_t>{1, 3});
  // End of File only looks at the end.
  r = run("x\nmid\n", "@@\n-x\n+y\n*** End of File\n");
  CHECK(r.status == PatchOutcome::Status::not_found);
}

TEST_CASE("a CRLF file keeps CRLF, non-ASCII lines match byte for byte", "[apply][patch]") {
  CHECK(applied("one\r\ntwo\r\n", "@@\n-two\n+2\n") == "one\r\n2\r\n");
  CHECK(applied("caf\xC3\xA9\nna\xC3\xAFve\n",
                "@@\n caf\xC3\xA9\n-na\xC3\xAFve\n+naive \xE2\x9C\x85\n") ==
        "caf\xC3\xA9\nnaive \xE2\x9C\x85\n");
}

TEST_CASE("a patch against the workspace: not found, ambiguous, missing file", "[apply][patch]") {
  ApplyConfig config;
  std::string error;
  REQUIRE(make_config(make_temp_dir(), &config, &error));
  const std::string root = config.root;
  put_file(root + "/a.py", "def f():\n    return 1\n\n\ndef g():\n    return 1\n");
  const auto check = [&](const std::string& text) {
    CheckedDocument checked = check_document(text);
    DiskSource disk;
    check_workspace(text, &checked, config, ActionCatalog::builtin(), disk);
    return checked.diagnostics;
  };
  std::vector<Diagnostic> ds =
      check("*** Begin Patch\n*** Update File: a.py\n@@\n def g():\n-    return  2\n+    return 3\n"
            "*** End Patch\n");
  const Diagnostic* d = find_code(ds, "SEARCH_NOT_FOUND");
  REQUIRE(d);
  CHECK(d->line == 2); // the hunks (0-based: the first hunk line)
  CHECK(d->fix_hint.find("closest text is at lines 5-6") != std::string::npos);
  // The fix rewrites the hunk's context and removed lines as the file has them.
  REQUIRE(!d->fixes.empty());
  std::string fixed;
  REQUIRE(apply_fix("*** Begin Patch\n*** Update File: a.py\n@@\n def g():\n-    return  2\n+    "
                    "return 3\n*** End Patch\n",
                    d->fixes[0], &fixed));
  CHECK(fixed == "*** Begin Patch\n*** Update File: a.py\n@@\n def g():\n-    return 1\n+    "
                 "return 3\n*** End Patch\n");
  for (const Diagnostic& e : check(fixed))
    CHECK(!is_error(e.severity));
  ds = check("*** Begin Patch\n*** Update File: a.py\n@@\n-    return 1\n+    return 2\n"
             "*** End Patch\n");
  d = find_code(ds, "SEARCH_AMBIGUOUS");
  REQUIRE(d);
  CHECK(d->message.find("at lines 2, 6") != std::string::npos);
  ds = check("*** Begin Patch\n*** Update File: gone.py\n@@\n-x\n+y\n*** End Patch\n");
  CHECK(find_code(ds, "FILE_NOT_FOUND"));
  ds = check("*** Begin Patch\n*** Update File: a.py\n@@ def g():\n-    return 1\n+    return 2\n"
             "*** End Patch\n");
  for (const Diagnostic& e : ds)
    CHECK(!is_error(e.severity));
  std::filesystem::remove_all(root);
}

TEST_CASE("blockls apply moves an updated file and rolls back a failing block", "[apply][patch]") {
  const std::string root = make_temp_dir();
  put_file(root + "/src/a.txt", "one\ntwo\n");
  ProcessResult r = run_blockls({"apply", "--root", root, "-"},
                                "```\n*** Begin Patch\n*** Update File: src/a.txt\n*** Move to: "
                                "lib/b.txt\n@@\n one\n-two\n+2\n*** End Patch\n```\n");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(get_file(root + "/src/a.txt") == "<missing>");
  CHECK(get_file(root + "/lib/b.txt") == "one\n2\n");
  // The second operation fails: the first (an add) is not kept.
  r = run_blockls({"apply", "--root", root, "-"},
                  "*** Begin Patch\n*** Add File: c.txt\n+c\n*** Update File: lib/b.txt\n@@\n-zzz\n"
                  "+y\n*** End Patch\n");
  CHECK(r.exit_code == 1);
  CHECK(get_file(root + "/c.txt") == "<missing>");
  CHECK(get_file(root + "/lib/b.txt") == "one\n2\n");
  std::filesystem::remove_all(root);
}
