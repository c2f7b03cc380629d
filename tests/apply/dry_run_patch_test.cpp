// `apply --dry-run` prints a patch that GNU patch and git apply accept and that, applied, leaves
// the files exactly as the real apply does: new, deleted, empty, unterminated, renamed and
// overwritten files, and two blocks changing one file.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace blockls::test;

namespace {

std::string nesl(const std::string& id, const std::string& body) {
  return "#!nesl [@three-char-SHA-256: " + id + "]\n" + body + "#!end_" + id + "\n\n";
}

const std::string kTranscript =
    nesl("e01", "action = \"file_write\"\npath = \"new.txt\"\ncontent = \"hello\\nworld\\n\"\n") +
    nesl("e02", "action = \"file_delete\"\npath = \"x.txt\"\n") +
    nesl("e03", "action = \"file_replace_text\"\npath = \"n.txt\"\nold_text = \"noeol\"\n"
                "new_text = \"yes eol\"\n") +
    nesl("e04", "action = \"file_write\"\npath = \"empty.txt\"\ncontent = \"\"\n") +
    nesl("e05", "action = \"file_move\"\nold_path = \"a.txt\"\nnew_path = \"b.txt\"\n") +
    nesl("e06", "action = \"file_move\"\nold_path = \"c.txt\"\nnew_path = \"sub/c2.txt\"\n") +
    nesl("e07", "action = \"file_append\"\npath = \"new.txt\"\ncontent = \"again\\n\"\n") +
    nesl("e08", "action = \"dir_delete\"\npath = \"d\"\n") +
    nesl("e09", "action = \"file_delete\"\npath = \"run.sh\"\n");

std::string fresh_root() {
  const std::string root = make_temp_dir();
  put_file(root + "/n.txt", "noeol");
  put_file(root + "/x.txt", "a\nb\nc\n");
  put_file(root + "/a.txt", "a\n");
  put_file(root + "/b.txt", "b\n");
  put_file(root + "/c.txt", "c\n");
  put_file(root + "/d/e/y.txt", "y\n");
  put_file(root + "/run.sh", "#!/bin/sh\n");
  std::filesystem::permissions(root + "/run.sh", std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  return root;
}

// The regular files under `dir` and their contents (directories and modes aside: patch tools
// neither create empty directories nor share blockls's mode for new files).
TreeSnapshot files_of(const std::string& dir) {
  TreeSnapshot files;
  for (const auto& [path, entry] : snapshot_tree(dir))
    if (entry.starts_with("file:")) files[path] = entry.substr(entry.find(':', 5) + 1);
  return files;
}

bool have(const char* tool) {
  return std::filesystem::exists(tool);
}

} // namespace

TEST_CASE("apply --dry-run: empty ranges start at line 0, as diff(1) writes them",
          "[apply][cli][diff]") {
  const std::string root = fresh_root();
  const ProcessResult r = run_blockls({"apply", "--root", root, "--dry-run", "-"}, kTranscript);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ "
                   "b/new.txt\n@@ -0,0 +1,2 @@\n") != std::string::npos);
  CHECK(r.out.find("diff --git a/x.txt b/x.txt\ndeleted file mode 100644\n--- a/x.txt\n+++ "
                   "/dev/null\n@@ -1,3 +0,0 @@\n") != std::string::npos);
  CHECK(r.out.find("deleted file mode 100755\n--- a/run.sh") != std::string::npos);
  CHECK(r.out.find("diff --git a/empty.txt b/empty.txt\nnew file mode 100644\n") !=
        std::string::npos);
  CHECK(r.out.find("diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\n"
                   "rename to b.txt\n") != std::string::npos);
  std::filesystem::remove_all(root);
}

TEST_CASE("apply --dry-run: patch -p1 and git apply give the files the real apply gives",
          "[apply][cli][diff]") {
  if (!have("/usr/bin/patch") || !have("/usr/bin/git")) {
    WARN("skipped: needs /usr/bin/patch and /usr/bin/git");
    return;
  }
  const std::string root = fresh_root();
  const ProcessResult dry = run_blockls({"apply", "--root", root, "--dry-run", "-"}, kTranscript);
  REQUIRE(dry.exit_code == 0);

  const std::string by_patch = fresh_root(), by_git = fresh_root();
  // The whole text output, as a user would pipe it: the block lines before the first patch
  // and the summary after the last are skipped by both tools.
  const ProcessResult p = run_process("/usr/bin/patch", {"-p1", "--batch"}, dry.out, by_patch);
  INFO(dry.out << "patch: " << p.out << p.err);
  CHECK(p.exit_code == 0);
  const ProcessResult check = run_process("/usr/bin/git", {"apply", "--check"}, dry.out, by_git);
  INFO("git apply --check: " << check.err);
  CHECK(check.exit_code == 0);
  const ProcessResult g = run_process("/usr/bin/git", {"apply"}, dry.out, by_git);
  INFO("git apply: " << g.err);
  CHECK(g.exit_code == 0);

  REQUIRE(run_blockls({"apply", "--root", root, "-"}, kTranscript).exit_code == 0);
  CHECK(files_of(by_patch) == files_of(root));
  CHECK(files_of(by_git) == files_of(root));
  for (const std::string& dir : {root, by_patch, by_git})
    std::filesystem::remove_all(dir);
}
