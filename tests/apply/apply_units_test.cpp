// In-process tests of the apply modules: path policy and globs, the matching rules and the
// closest-region fix, the disk backend's re-check (a file changed between the check and the
// execution). (The WorkspaceEdit backend is tested with lsp/: tests/lsp/workspace_edit_test.cpp.)
#include "apply/apply_test_support.h"
#include "apply/disk_backend.h"
#include "apply/path_policy.h"
#include "apply/text_match.h"
#include "apply/workspace_check.h"
#include "fixits/apply_fixes.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace blockls;
using namespace blockls::apply;
using namespace blockls::test;

namespace {

const Diagnostic* find(const CheckedDocument& c, std::string_view code) {
  for (const Diagnostic& d : c.diagnostics)
    if (d.code == code) return &d;
  return nullptr;
}

} // namespace

TEST_CASE("glob matching", "[apply][path]") {
  CHECK(glob_match("**/.git/**", ".git"));
  CHECK(glob_match("**/.git/**", ".git/config"));
  CHECK(glob_match("**/.git/**", "a/b/.git/hooks/pre-commit"));
  CHECK(!glob_match("**/.git/**", "a/.github/x"));
  CHECK(glob_match("src/*.cpp", "src/a.cpp"));
  CHECK(!glob_match("src/*.cpp", "src/x/a.cpp"));
  CHECK(glob_match("src/?.h", "src/a.h"));
  CHECK(glob_match("**", "anything/at/all"));
}

TEST_CASE("path resolution: trimming, .., symlinks, roots and deny globs", "[apply][path]") {
  TempRoot root;
  const ApplyConfig& c = root.config;
  CHECK(resolve_path(c, "  a/b.txt\r").absolute == root.dir + "/a/b.txt");
  CHECK(resolve_path(c, "a/../b.txt").relative == "b.txt");
  CHECK(resolve_path(c, "../x").verdict == PathVerdict::outside_root);
  CHECK(resolve_path(c, "/etc/passwd").verdict == PathVerdict::outside_root);
  CHECK(resolve_path(c, root.dir + "/in.txt").verdict == PathVerdict::ok);
  CHECK(resolve_path(c, "").verdict == PathVerdict::empty);
  CHECK(resolve_path(c, "x/.git/config").verdict == PathVerdict::denied);
  CHECK(resolve_path(c, ".blockls/lock").verdict == PathVerdict::denied);
  REQUIRE(::symlink("/etc", (root.dir + "/etc-link").c_str()) == 0);
  REQUIRE(::symlink("sub/..", (root.dir + "/self").c_str()) == 0);
  REQUIRE(::symlink("loop2", (root.dir + "/loop1").c_str()) == 0);
  REQUIRE(::symlink("loop1", (root.dir + "/loop2").c_str()) == 0);
  const ResolvedPath via = resolve_path(c, "etc-link/passwd");
  CHECK(via.verdict == PathVerdict::outside_root);
  CHECK(via.reason.find("symbolic link") != std::string::npos);
  CHECK(resolve_path(c, "self/ok.txt").verdict == PathVerdict::ok);
  CHECK(resolve_path(c, "loop1").verdict == PathVerdict::denied);
  ApplyConfig wider = c;
  std::string error;
  REQUIRE(add_allowed_root(&wider, "/etc", &error));
  CHECK(resolve_path(wider, "etc-link/passwd").verdict == PathVerdict::ok);
}

TEST_CASE("matching rules: line endings and the closest region", "[apply][match]") {
  CHECK(uses_crlf("a\r\nb\r\n"));
  CHECK(!uses_crlf("a\r\nb\n"));
  const Occurrences o = find_occurrences("one\r\ntwo\r\nthree\r\n", "one\ntwo\n");
  CHECK(o.offsets == std::vector<size_t>{0});
  CHECK(o.crlf_converted);
  CHECK(line_numbers("a\nb\na\n", find_occurrences("a\nb\na\n", "a").offsets) ==
        std::vector<uint32_t>{1, 3});

  const std::string file = "def f():\n    x = 1  \n    return x\n\ndef g():\n    pass\n";
  auto r = closest_region(file, "    x = 1\n    return x");
  REQUIRE(r);
  CHECK(r->how == "trailing whitespace");
  CHECK(r->text == "    x = 1  \n    return x");
  r = closest_region(file, "x = 1\nreturn x");
  REQUIRE(r);
  CHECK(r->how == "indentation");
  CHECK(r->first_line == 2);
  r = closest_region(file, "def g():\n    passs");
  REQUIRE(r);
  CHECK(r->how.starts_with("fuzzy"));
  CHECK(r->text == "def g():\n    pass");
  CHECK(!closest_region(file, "completely unrelated text here"));
}

TEST_CASE("closest_region gives no hint past its limits", "[apply][match]") {
  // The hint's search is bounded: a 1 GiB file of one line once took 98 s and 14 GB.
  const std::string file = "alpha\ndef g():\n    pass\nomega\n";
  const std::string_view needle = "def g():\n    passs";
  REQUIRE(closest_region(file, needle)); // within the default limits: fuzzy
  ClosestRegionLimits small;
  small.max_content_bytes = file.size() - 1;
  CHECK(!closest_region(file, needle, small));
  CHECK(!closest_region(file, "def g():\n    pass", small)); // not even the exact tiers
  // 4 windows of 2 lines (the file's last line is the empty one after its last break): 8
  // pairs. One fewer, and the fuzzy tier does not run...
  small = {};
  small.max_fuzzy_pairs = 7;
  CHECK(!closest_region(file, needle, small));
  // ...while the tiers before it still do.
  const auto indented = closest_region(file, "def g():\npass", small);
  REQUIRE(indented);
  CHECK(indented->how == "indentation");
  small.max_fuzzy_pairs = 8;
  CHECK(closest_region(file, needle, small));
  // A line longer than the limit is similar only when equal: "passs" (5 bytes) then counts
  // as unlike "pass", and the window is 50% similar.
  small = {};
  small.max_fuzzy_line_bytes = 4;
  CHECK(!closest_region(file, needle, small));
  small.max_fuzzy_line_bytes = 5;
  CHECK(closest_region(file, needle, small));
}

TEST_CASE("closest_region weighs a changed non-ASCII letter as a changed ASCII one",
          "[apply][match]") {
  // Similarity counts character bigrams: the two bytes of 'ö' are one character, so the
  // file's 'wörld' is as near 'world' as 'wxrld' is (byte bigrams made it 6% further).
  const std::string_view needle = "the world map is here";
  const auto accented = closest_region("alpha beta\nthe wörld map is here\ngamma\n", needle);
  const auto ascii = closest_region("alpha beta\nthe wxrld map is here\ngamma\n", needle);
  REQUIRE(accented);
  REQUIRE(ascii);
  CHECK(accented->how == ascii->how);
  CHECK(accented->how == "fuzzy, 90% similar");
  CHECK(accented->text == "the wörld map is here");
  // Two different invalid bytes are two different characters, as before.
  const auto invalid =
      closest_region("the w\xff\xferld map is here\n", "the w\xfe\xffrld map is here");
  REQUIRE(invalid);
  CHECK(invalid->how != "fuzzy, 100% similar");
}

TEST_CASE("SEARCH_NOT_FOUND offers a fix that makes the block apply", "[apply][match]") {
  TempRoot root;
  put_file(root.dir + "/a.py", "def f():\n    x = 1  \n    return x\n");
  const std::string nesl =
      "#!nesl [@three-char-SHA-256: fx1]\naction = \"replace_text_in_file\"\npath = \"a.py\"\n"
      "old_text = <<'EOT_fx1'\n    x = 1\n    return x\nEOT_fx1\nnew_text = \"    return "
      "2\"\n#!end_fx1\n";
  const std::string quoted =
      "#!nesl [@three-char-SHA-256: fx2]\naction = \"replace_text_in_file\"\npath = \"a.py\"\n"
      "old_text = \"x = 1\\nreturn x\"\nnew_text = \"    return 2\"\n#!end_fx2\n";
  const std::string telt =
      "#!telt [3-char SHA: fx3]\n=== REPLACE_TEXT ===\n--FILE fx3--\na.py\n--OLD_TEXT fx3--\n"
      "    x = 1\n    return x\n--NEW_TEXT fx3--\n    return 2\n--END fx3--\n";
  for (const std::string& text : {nesl, quoted, telt}) {
    INFO(text);
    auto c = check_with_workspace(text, root.config);
    const Diagnostic* d = find(c->checked, "SEARCH_NOT_FOUND");
    REQUIRE(d);
    CHECK(d->severity == Severity::command_error);
    CHECK(!c->checked.verdicts[0].valid);
    REQUIRE(!d->fixes.empty());
    std::string fixed;
    REQUIRE(apply_fix(text, d->fixes[0], &fixed));
    auto again = check_with_workspace(fixed, root.config);
    CHECK(find(again->checked, "SEARCH_NOT_FOUND") == nullptr);
    CHECK(again->checked.verdicts[0].valid);
  }
}

TEST_CASE("a SEARCH_NOT_FOUND fix writes a heredoc body with its block era's delimiter in mind",
          "[apply][match]") {
  // The file's closest region holds the SHAM heredoc delimiter of the block: written into
  // the body it would end the heredoc early. The block's dialect encodes the value (its
  // delimiter is EOT_SHAM_<id>, not EOT_<id>) and declines; a current-era block, whose
  // delimiter is EOT_<id>, takes the same text.
  TempRoot root;
  put_file(root.dir + "/a.txt", "start\nEOT_SHAM_t5b\nend\n");
  const std::string sham =
      "#!SHAM [@three-char-SHA-256: t5b]\naction = \"replace_text_in_file\"\npath = \"a.txt\"\n"
      "old_text = <<'EOT_SHAM_t5b'\nstart\nEOT_SHAM_t5c\nend\nEOT_SHAM_t5b\n"
      "new_text = \"x\"\n#!END_SHAM_t5b\n";
  auto c = check_with_workspace(sham, root.config);
  const Diagnostic* d = find(c->checked, "SEARCH_NOT_FOUND");
  REQUIRE(d);
  CHECK(d->fix_hint.find("closest text is at lines 1-3") != std::string::npos);
  for (const Fix& fix : d->fixes) {
    INFO(fix.title);
    std::string fixed;
    REQUIRE(apply_fix(sham, fix, &fixed));
    auto again = check_with_workspace(fixed, root.config);
    CHECK(find(again->checked, "MALFORMED_ASSIGNMENT") == nullptr);
  }

  const std::string nesl =
      "#!nesl [@three-char-SHA-256: t5b]\naction = \"replace_text_in_file\"\npath = \"a.txt\"\n"
      "old_text = <<'EOT_t5b'\nstart\nEOT_SHAM_t5c\nend\nEOT_t5b\nnew_text = \"x\"\n#!end_t5b\n";
  c = check_with_workspace(nesl, root.config);
  d = find(c->checked, "SEARCH_NOT_FOUND");
  REQUIRE(d);
  REQUIRE(!d->fixes.empty());
  std::string fixed;
  REQUIRE(apply_fix(nesl, d->fixes[0], &fixed));
  auto again = check_with_workspace(fixed, root.config);
  CHECK(again->checked.diagnostics.empty());
  CHECK(again->checked.verdicts[0].valid);
}

TEST_CASE("the disk backend re-checks: a file changed after the check is not overwritten",
          "[apply][disk]") {
  TempRoot root;
  put_file(root.dir + "/a.txt", "hello world\n");
  put_file(root.dir + "/b.txt", "bee\n");
  const std::string text =
      "#!telt [3-char SHA: chg]\n=== REPLACE_TEXT ===\n--FILE chg--\na.txt\n--OLD_TEXT chg--\n"
      "hello\n--NEW_TEXT chg--\nbye\n=== FILE_WRITE ===\n--FILE chg--\nb.txt\n--CONTENT chg--\nB\n"
      "--END chg--\n";
  auto c = check_with_workspace(text, root.config);
  REQUIRE(c->ws.simulation.blocks.size() == 1);
  REQUIRE(c->ws.simulation.blocks[0].ok);
  // Someone edits a.txt after the check; the old text is still there, but the file changed.
  put_file(root.dir + "/a.txt", "hello world\nand more\n");
  std::vector<Diagnostic> diags;
  const BlockRun run = run_checked_block_on_disk(*c, root.config, &diags);
  CHECK(!run.applied);
  CHECK(run.code == "FILE_CHANGED");
  CHECK(run.changed_files == std::vector<std::string>{root.dir + "/a.txt"});
  CHECK(get_file(root.dir + "/a.txt") == "hello world\nand more\n");
  CHECK(get_file(root.dir + "/b.txt") == "bee\n");
  // Checked again, it applies; CRLF and the mode of the replaced file are kept.
  put_file(root.dir + "/a.txt", "hello\r\nworld\r\n");
  REQUIRE(::chmod((root.dir + "/a.txt").c_str(), 0751) == 0);
  auto c2 = check_with_workspace(text, root.config);
  const BlockRun ok = run_checked_block_on_disk(*c2, root.config, &diags);
  CHECK(ok.applied);
  CHECK(get_file(root.dir + "/a.txt") == "bye\r\nworld\r\n");
  struct stat st {};
  ::stat((root.dir + "/a.txt").c_str(), &st);
  CHECK((st.st_mode & 07777) == 0751);
  CHECK(get_file(root.dir + "/b.txt") == "B");
}

TEST_CASE("a block sees what earlier actions of the document did", "[apply][simulate]") {
  TempRoot root;
  const std::string text =
      "#!nesl [@three-char-SHA-256: s01]\naction = \"write_file\"\npath = \"a.txt\"\ncontent = "
      "\"one\"\n#!end_s01\n"
      "#!nesl [@three-char-SHA-256: s02]\naction = \"move_file\"\nold_path = \"a.txt\"\nnew_path = "
      "\"d/b.txt\"\n#!end_s02\n"
      "#!nesl [@three-char-SHA-256: s03]\naction = \"replace_text_in_file\"\npath = "
      "\"d/b.txt\"\nold_text = \"one\"\nnew_text = \"two\"\n#!end_s03\n"
      "#!nesl [@three-char-SHA-256: s04]\naction = \"read_file\"\npath = \"d/b.txt\"\n#!end_s04\n"
      "#!nesl [@three-char-SHA-256: s05]\naction = \"delete_file\"\npath = \"a.txt\"\n#!end_s05\n";
  auto c = check_with_workspace(text, root.config);
  const auto& blocks = c->ws.simulation.blocks;
  REQUIRE(blocks.size() == 5);
  CHECK((*blocks[3].actions[0].data)["content"] == "two");
  CHECK(!blocks[4].ok);
  CHECK(blocks[4].actions[0].code == "FILE_NOT_FOUND");
  CHECK(find(c->checked, "FILE_NOT_FOUND") != nullptr);
}
