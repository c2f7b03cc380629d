// `blockls apply` and `check --root` end to end: --dry-run writes nothing, exit codes, text and
// JSON output, exec, --git-commit (only the touched paths), --help.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

using namespace blockls::test;
using nlohmann::json;

namespace {

const std::string kMixed =
    "Some prose.\n\n```sh nesl\n#!nesl [@three-char-SHA-256: w01]\naction = \"write_file\"\npath = "
    "\"src/new.txt\"\n"
    "content = \"fresh\"\n#!end_w01\n```\n\n"
    "#!nesl [@three-char-SHA-256: r01]\naction = \"replace_text_in_file\"\npath = "
    "\"a.txt\"\nold_text = \"alpha\"\n"
    "new_text = \"ALPHA\"\n#!end_r01\n\n"
    "#!nesl [@three-char-SHA-256: m01]\naction = \"move_file\"\nold_path = \"b.txt\"\nnew_path = "
    "\"moved/b.txt\"\n#!end_m01\n\n"
    "#!nesl [@three-char-SHA-256: d01]\naction = \"delete_file\"\npath = \"c.txt\"\n#!end_d01\n\n"
    "#!nesl [@three-char-SHA-256: x01]\naction = \"replace_text_in_file\"\npath = "
    "\"a.txt\"\nold_text = \"nothere\"\n"
    "new_text = \"x\"\n#!end_x01\n\n"
    "#!telt [3-char SHA: bad]\n=== CREATE_FILE ===\n--FILE bad--\nz.txt\n--CONTENT bad--\nz\n--END "
    "bax--\n";

std::string fresh_root() {
  const std::string root = make_temp_dir();
  put_file(root + "/a.txt", "alpha\nbeta\n");
  put_file(root + "/b.txt", "bee\n");
  put_file(root + "/c.txt", "sea\n");
  return root;
}

int git(const std::string& root, std::vector<std::string> args, std::string* out = nullptr) {
  std::vector<std::string> argv{"-C", root};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult r = run_process("/usr/bin/git", argv);
  if (out) *out = r.out;
  return r.exit_code;
}

} // namespace

TEST_CASE("apply --dry-run leaves the tree byte-identical and shows every change", "[apply][cli]") {
  const std::string root = fresh_root();
  const TreeSnapshot before = snapshot_tree(root);
  const ProcessResult r = run_blockls({"apply", "--root", root, "--dry-run", "-"}, kMixed);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1); // one block would fail, one is invalid
  CHECK(snapshot_tree(root) == before);
  CHECK(!std::filesystem::exists(root + "/.blockls"));
  CHECK(r.out.find("diff --git a/src/new.txt b/src/new.txt\nnew file mode 100644\n") !=
        std::string::npos);
  CHECK(r.out.find("+++ b/src/new.txt") != std::string::npos);
  CHECK(r.out.find("-alpha\n+ALPHA") != std::string::npos);
  CHECK(r.out.find("rename from b.txt\nrename to moved/b.txt") != std::string::npos);
  CHECK(r.out.find("diff --git a/c.txt b/c.txt\ndeleted file mode 100644\n") != std::string::npos);
  CHECK(r.out.find("block x01: would fail, nothing changed: [SEARCH_NOT_FOUND]") !=
        std::string::npos);
  CHECK(r.out.find("block bad: skipped, invalid: [HASH_MISMATCH]") != std::string::npos);
  const ProcessResult j =
      run_blockls({"apply", "--root", root, "--dry-run", "--format", "json", "-"}, kMixed);
  CHECK(snapshot_tree(root) == before);
  const json doc = json::parse(j.out);
  CHECK(doc["summary"]["wouldApply"] == 4);
  CHECK(doc["summary"]["wouldFail"] == 1);
  CHECK(doc["summary"]["skipped"] == 1);
  std::filesystem::remove_all(root);
}

TEST_CASE("apply runs the valid blocks, reports per action, exits 1 when a block failed",
          "[apply][cli]") {
  const std::string root = fresh_root();
  const ProcessResult r = run_blockls({"apply", "--root", root, "--format", "json", "-"}, kMixed);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(get_file(root + "/src/new.txt") == "fresh");
  CHECK(get_file(root + "/a.txt") == "ALPHA\nbeta\n");
  CHECK(get_file(root + "/moved/b.txt") == "bee\n");
  CHECK(get_file(root + "/c.txt") == "<missing>");
  CHECK(get_file(root + "/z.txt") == "<missing>");
  const json f = json::parse(r.out)["files"][0];
  REQUIRE(f["results"].size() == 5);
  CHECK(f["results"][0] == json({{"seq", 1},
                                 {"blockId", "w01"},
                                 {"action", "file_write"},
                                 {"params", {{"path", "src/new.txt"}, {"content", "fresh"}}},
                                 {"success", true},
                                 {"data", {{"path", "src/new.txt"}, {"bytesWritten", 5}}}}));
  CHECK(f["results"][4]["code"] == "SEARCH_NOT_FOUND");
  CHECK(f["skipped"][0]["code"] == "HASH_MISMATCH");
  // Everything valid and applicable: exit 0.
  const ProcessResult ok =
      run_blockls({"apply", "--root", root, "-"},
                  "#!nesl [@three-char-SHA-256: ok1]\naction = \"append_to_file\"\npath = "
                  "\"a.txt\"\ncontent = \"gamma\\n\"\n#!end_ok1\n");
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("1 block: 1 applied, 0 failed, 0 skipped") != std::string::npos);
  CHECK(get_file(root + "/a.txt") == "ALPHA\nbeta\ngamma\n");
  // Usage and I/O errors: 2.
  CHECK(run_blockls({"apply", "-"}, "x").exit_code == 2);
  CHECK(run_blockls({"apply", "--root", root + "/nope", "-"}, "x").exit_code == 2);
  CHECK(run_blockls({"apply", "--root", root, root + "/missing.md"}).exit_code == 2);
  std::filesystem::remove_all(root);
}

TEST_CASE("check --root adds the workspace diagnostics, read-only", "[apply][cli]") {
  const std::string root = fresh_root();
  const TreeSnapshot before = snapshot_tree(root);
  ProcessResult r = run_blockls({"check", "--root", root, "--format", "json", "-"}, kMixed);
  CHECK(r.exit_code == 1);
  CHECK(snapshot_tree(root) == before);
  std::set<std::string> codes;
  const json report = json::parse(r.out);
  for (const json& e : report["files"][0]["errors"])
    codes.insert(e["code"].get<std::string>());
  CHECK(codes.count("SEARCH_NOT_FOUND") == 1);
  CHECK(codes.count("HASH_MISMATCH") == 1);
  r = run_blockls({"check", "--root", root, "-"},
                  "#!nesl [@three-char-SHA-256: e01]\naction = \"exec\"\nlang = \"bash\"\ncode = "
                  "\"ls\"\n#!end_e01\n");
  CHECK(r.exit_code == 0); // EXEC_DISABLED is a warning
  CHECK(r.out.find("[EXEC_DISABLED]") != std::string::npos);
  r = run_blockls({"check", "--root", root, "--allow-exec", "-"},
                  "#!nesl [@three-char-SHA-256: e01]\naction = \"exec\"\nlang = \"bash\"\ncode = "
                  "\"ls\"\n#!end_e01\n");
  CHECK(r.out.find("[EXEC_DISABLED]") == std::string::npos);
  std::filesystem::remove_all(root);
}

TEST_CASE("exec runs only with --allow-exec, in the root, with a timeout", "[apply][cli][exec]") {
  const std::string root = fresh_root();
  const std::string block =
      "#!nesl [@three-char-SHA-256: e02]\naction = \"exec\"\nlang = \"bash\"\n"
      "code = \"pwd; cat a.txt; echo oops >&2\"\n#!end_e02\n";
  ProcessResult r = run_blockls({"apply", "--root", root, "--format", "json", "-"}, block);
  CHECK(r.exit_code == 1);
  CHECK(json::parse(r.out)["files"][0]["results"][0]["code"] == "EXEC_DISABLED");
  r = run_blockls({"apply", "--root", root, "--allow-exec", "--format", "json", "-"}, block);
  CHECK(r.exit_code == 0);
  const json data = json::parse(r.out)["files"][0]["results"][0]["data"];
  CHECK(data["stdout"] == root + "\nalpha\nbeta\n");
  CHECK(data["stderr"] == "oops\n");
  CHECK(data["exit_code"] == 0);
  r = run_blockls(
      {"apply", "--root", root, "--allow-exec", "--exec-timeout", "0.3", "--format", "json", "-"},
      "#!nesl [@three-char-SHA-256: e03]\naction = \"exec\"\nlang = \"bash\"\ncode = \"echo "
      "started; sleep 5\"\n#!end_e03\n");
  CHECK(r.exit_code == 1);
  const json t = json::parse(r.out)["files"][0]["results"][0];
  CHECK(t["code"] == "EXEC_FAILED");
  CHECK(t["error"].get<std::string>().find("timeout") != std::string::npos);
  CHECK(t["data"]["stdout"] == "started\n");
  std::filesystem::remove_all(root);
}

namespace {

// A fresh root (fresh_root()) as a repository with one commit.
std::string git_repo() {
  const std::string root = fresh_root();
  REQUIRE(git(root, {"init", "-q"}) == 0);
  git(root, {"config", "user.email", "t@example.com"});
  git(root, {"config", "user.name", "t"});
  REQUIRE(git(root, {"add", "-A"}) == 0);
  REQUIRE(git(root, {"commit", "-q", "-m", "init"}) == 0);
  return root;
}

} // namespace

TEST_CASE("apply with --git-commit commits exactly the touched paths", "[apply][cli][git]") {
  const std::string root = git_repo();
  // An unrelated staged change and an unrelated unstaged change must stay out of the commit.
  put_file(root + "/staged.txt", "mine\n");
  git(root, {"add", "staged.txt"});
  put_file(root + "/b.txt", "bee (edited by the user)\n");
  const std::string t = "#!nesl [@three-char-SHA-256: g01]\naction = "
                        "\"replace_text_in_file\"\npath = \"a.txt\"\nold_text = \"beta\"\n"
                        "new_text = \"BETA\"\n#!end_g01\n#!nesl [@three-char-SHA-256: g02]\naction "
                        "= \"move_file\"\nold_path = \"c.txt\"\n"
                        "new_path = \"d/c.txt\"\n#!end_g02\n";
  const ProcessResult r = run_blockls({"apply", "--root", root, "--git-commit", "-"}, t);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("git: committed") != std::string::npos);
  std::string out;
  git(root, {"show", "--name-status", "--format=%B", "HEAD"}, &out);
  CHECK(out.find("blockls apply: 2 blocks") != std::string::npos);
  CHECK(out.find("- block g01") != std::string::npos);
  CHECK(out.find("M\ta.txt") != std::string::npos);
  CHECK(out.find("c.txt") != std::string::npos);
  CHECK(out.find("d/c.txt") != std::string::npos);
  CHECK(out.find("staged.txt") == std::string::npos);
  CHECK(out.find("b.txt") == std::string::npos);
  git(root, {"status", "--porcelain"}, &out);
  CHECK(out.find("A  staged.txt") != std::string::npos); // still staged, not committed
  CHECK(out.find(" M b.txt") != std::string::npos);
  CHECK(out.find(".blockls") == std::string::npos);
  std::filesystem::remove_all(root);
}

namespace {

// An executable script that creates `marker` when it runs.
void put_marker_script(const std::string& path, const std::string& marker) {
  put_file(path, "#!/bin/sh\ntouch '" + marker + "'\ncat\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all |
                                         std::filesystem::perms::group_read |
                                         std::filesystem::perms::others_read);
}

const std::string kReplaceBeta = "#!nesl [@three-char-SHA-256: g01]\naction = "
                                 "\"replace_text_in_file\"\npath = \"a.txt\"\nold_text = "
                                 "\"beta\"\nnew_text = \"BETA\"\n#!end_g01\n";

} // namespace

TEST_CASE("apply --git-commit runs no git hook, with or without --allow-exec",
          "[apply][cli][git]") {
  const std::string markers = make_temp_dir();
  const std::string root = git_repo();
  const std::string marker = markers + "/hook-ran";
  std::string t = kReplaceBeta;
  SECTION("hooks the repository ships in .git/hooks") {
    for (const char* hook : {"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit",
                             "post-index-change", "reference-transaction", "pre-auto-gc"})
      put_marker_script(root + "/.git/hooks/" + hook, marker);
  }
  SECTION("a block turns an executable into a hook of core.hooksPath") {
    git(root, {"config", "core.hooksPath", ".githooks"});
    put_marker_script(root + "/build.sh", markers + "/unused");
    REQUIRE(git(root, {"add", "build.sh"}) == 0);
    REQUIRE(git(root, {"commit", "-q", "-m", "script"}) == 0);
    t += "#!nesl [@three-char-SHA-256: h01]\naction = \"file_write\"\npath = \"build.sh\"\n"
         "content = \"#!/bin/sh\\ntouch '" +
         marker +
         "'\\n\"\n#!end_h01\n"
         "#!nesl [@three-char-SHA-256: h02]\naction = \"file_move\"\nold_path = \"build.sh\"\n"
         "new_path = \".githooks/pre-commit\"\n#!end_h02\n";
  }
  SECTION("an fsmonitor hook in the repository's config") {
    put_marker_script(markers + "/fsmonitor.sh", marker);
    git(root, {"config", "core.fsmonitor", markers + "/fsmonitor.sh"});
  }
  for (const bool allow_exec : {false, true}) {
    INFO("allow-exec " << allow_exec);
    std::vector<std::string> args{"apply", "--root", root, "--git-commit", "-"};
    if (allow_exec) args.insert(args.begin() + 3, "--allow-exec");
    const ProcessResult r = run_blockls(args, t);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("git: committed") != std::string::npos);
    CHECK(!std::filesystem::exists(marker));
    std::string out;
    git(root, {"log", "-1", "--format=%s"}, &out);
    CHECK(out == (t == kReplaceBeta ? "blockls apply: 1 block\n" : "blockls apply: 3 blocks\n"));
    // The second round applies the same transcript again: undo the commit (hooks off).
    git(root, {"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "reset", "-q",
               "--hard", "HEAD~1"});
  }
  std::filesystem::remove_all(root);
  std::filesystem::remove_all(markers);
}

TEST_CASE("apply --git-commit runs no filter driver of the repository's own config",
          "[apply][cli][git]") {
  const std::string markers = make_temp_dir();
  const std::string root = git_repo();
  const std::string marker = markers + "/filter-ran";
  put_marker_script(markers + "/clean.sh", marker);
  git(root, {"config", "filter.evil.clean", markers + "/clean.sh"});
  git(root, {"config", "filter.evil.smudge", markers + "/clean.sh"});
  put_file(root + "/.gitattributes", "*.x filter=evil\n");
  REQUIRE(git(root, {"add", ".gitattributes"}) == 0);
  REQUIRE(git(root, {"-c", "filter.evil.clean=", "commit", "-q", "-m", "attributes"}) == 0);
  REQUIRE(!std::filesystem::exists(marker));
  SECTION("a path the filter does not apply to is committed") {
    const ProcessResult r =
        run_blockls({"apply", "--root", root, "--git-commit", "-"}, kReplaceBeta);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("git: committed") != std::string::npos);
    CHECK(!std::filesystem::exists(marker));
  }
  SECTION("a path it applies to is applied, not committed") {
    const ProcessResult r =
        run_blockls({"apply", "--root", root, "--git-commit", "-"},
                    "#!nesl [@three-char-SHA-256: f01]\naction = \"file_write\"\npath = \"new.x\"\n"
                    "content = \"x\\n\"\n#!end_f01\n");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("block f01: applied") != std::string::npos);
    CHECK(r.err.find("git: git add failed") != std::string::npos);
    CHECK(r.err.find("evil") != std::string::npos);
    CHECK(!std::filesystem::exists(marker));
    std::string out;
    git(root, {"log", "-1", "--format=%s"}, &out);
    CHECK(out == "attributes\n");
  }
  std::filesystem::remove_all(root);
  std::filesystem::remove_all(markers);
}

TEST_CASE("apply --help documents every option", "[apply][cli]") {
  const ProcessResult r = run_blockls({"apply", "--help"});
  CHECK(r.exit_code == 0);
  for (const char* opt : {"--root", "--dry-run", "--format", "--allow-exec", "--exec-timeout",
                          "--git-commit", "--recover", "--deny", "--allow-root", "--schema"})
    CHECK(r.out.find(opt) != std::string::npos);
  CHECK(run_blockls({"check", "--help"}).out.find("--root") != std::string::npos);
}

TEST_CASE("apply counts only the actions of the blocks it applied", "[apply][cli][count]") {
  const std::string root = make_temp_dir();
  put_file(root + "/a.txt", "a\n");
  put_file(root + "/sub/inner.txt", "i\n");
  put_file(root + "/u.txt", "hello\n");
  // One applied block of one action, then two failing blocks (the second of two actions, the
  // first of which succeeds alone but is rolled back with its block).
  const std::string t =
      "#!nesl [@three-char-SHA-256: f01]\naction = \"file_write\"\npath = \"a.txt\"\n"
      "content = \"changed\"\n#!end_f01\n\n"
      "#!nesl [@three-char-SHA-256: f02]\naction = \"file_write\"\npath = \"sub\"\n"
      "content = \"x\"\n#!end_f02\n\n"
      "Now u.txt:\n<replace_in_file>\n<path>u.txt</path>\n<diff>\n------- SEARCH\nhello\n"
      "=======\nHELLO\n+++++++ REPLACE\n------- SEARCH\nnothere\n=======\nX\n"
      "+++++++ REPLACE\n</diff>\n</replace_in_file>\n";
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, t);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("3 blocks: 1 applied, 2 failed, 0 skipped (invalid); 1 action applied\n") !=
        std::string::npos);

  empty_dir(root);
  put_file(root + "/a.txt", "a\n");
  put_file(root + "/sub/inner.txt", "i\n");
  put_file(root + "/u.txt", "hello\n");
  const ProcessResult j = run_blockls({"apply", "--root", root, "--format", "json", "-"}, t);
  const json doc = json::parse(j.out);
  CHECK(doc["summary"]["actions"] == 1);
  CHECK(doc["files"][0]["appliedActions"] == 1);
  CHECK(doc["files"][0]["executedActions"] == 3); // clada's: the failing ones attempted

  const ProcessResult d = run_blockls({"apply", "--root", root, "--dry-run", "-"}, t);
  CHECK(d.out.find("; 1 action would be applied\n") != std::string::npos);
  std::filesystem::remove_all(root);
}

TEST_CASE("apply names a block without an id by its number", "[apply][cli][block-name]") {
  const std::string root = make_temp_dir();
  put_file(root + "/u.txt", "hello\n");
  put_file(root + "/v.txt", "one\n");
  // A NESL block (id e01), then two XML edits (blocks 2 and 3, no id); the third fails.
  const std::string t =
      "#!nesl [@three-char-SHA-256: e01]\naction = \"file_write\"\npath = \"w.txt\"\n"
      "content = \"w\"\n#!end_e01\n\n"
      "<replace_in_file>\n<path>v.txt</path>\n<diff>\n------- SEARCH\none\n=======\nONE\n"
      "+++++++ REPLACE\n</diff>\n</replace_in_file>\n\n"
      "<replace_in_file>\n<path>u.txt</path>\n<diff>\n------- SEARCH\nhello\n"
      "=======\nHELLO\n+++++++ REPLACE\n------- SEARCH\nnothere\n=======\nX\n"
      "+++++++ REPLACE\n</diff>\n</replace_in_file>\n";
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, t);
  INFO(r.out << r.err);
  CHECK(r.out.find("<stdin>:1: block e01: applied\n") != std::string::npos);
  CHECK(r.out.find("<stdin>:7: block 2: applied\n") != std::string::npos);
  CHECK(r.out.find("<stdin>:18: block 3: FAILED, nothing changed") != std::string::npos);
  CHECK(r.out.find("not run: action 4 of its block failed, so the block changed nothing\n") !=
        std::string::npos);
  CHECK(r.out.find("block :") == std::string::npos);
  CHECK(r.out.find("of block  ") == std::string::npos);
  std::filesystem::remove_all(root);
}

TEST_CASE("apply --recover --format json answers in JSON", "[apply][cli]") {
  // (It printed its text line, "recovery done: ...", whatever --format.)
  const std::string root = make_temp_dir();
  const ProcessResult r = run_blockls({"apply", "--recover", "--root", root, "--format", "json"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["recovered"] == nlohmann::json::array());
  CHECK(j.contains("root"));
  const ProcessResult text = run_blockls({"apply", "--recover", "--root", root});
  CHECK(text.out == "recovery done: 0 interrupted blocks rolled back\n");
  std::filesystem::remove_all(root);
}
