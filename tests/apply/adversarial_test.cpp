// Attacks and failures through the real `blockls apply`: every case checks that a sentinel
// directory beside the root is byte-identical afterwards, that the right code is reported,
// and (for failed blocks) that the root itself did not change.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace blockls::test;
using nlohmann::json;

namespace {

struct Sandbox {
  std::string base = make_temp_dir();
  std::string root = base + "/root";
  std::string sentinel = base + "/sentinel";
  Sandbox() {
    put_file(sentinel + "/secret.txt", "do not touch\n");
    put_file(sentinel + "/sub/inner.txt", "inner\n");
    put_file(root + "/keep.txt", "alpha\nbeta\nalpha\n");
    put_file(root + "/b.txt", "bravo\n");
    put_file(root + "/.git/config", "[core]\n");
  }
  ~Sandbox() { std::filesystem::remove_all(base); }
};

struct Outcome {
  int exit_code;
  json report;
  std::set<std::string> codes; // diagnostics + result codes + skipped codes
};

Outcome apply_json(const Sandbox& box, const std::string& transcript,
                   std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"apply", "--root", box.root, "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("-");
  const ProcessResult r = run_blockls(args, transcript);
  INFO(r.out << r.err);
  REQUIRE(!r.out.empty());
  Outcome o{r.exit_code, json::parse(r.out), {}};
  for (const json& f : o.report["files"]) {
    for (const json& d : f["diagnostics"])
      o.codes.insert(d["code"].get<std::string>());
    for (const json& x : f["results"])
      if (x.contains("code")) o.codes.insert(x["code"].get<std::string>());
    for (const json& s : f["skipped"])
      o.codes.insert(s["code"].get<std::string>());
  }
  return o;
}

std::string nesl(const std::string& id, const std::string& body) {
  return "#!nesl [@three-char-SHA-256: " + id + "]\n" + body + "#!end_" + id + "\n";
}

// Runs `transcript`, expects exit 1 and `code`, and an unchanged sentinel and root.
void expect_rejected(Sandbox& box, const std::string& transcript, const std::string& code,
                     std::vector<std::string> extra = {}) {
  const TreeSnapshot sentinel = snapshot_tree(box.sentinel);
  const auto without_state = [](TreeSnapshot t) { // blockls's own state directory
    for (auto it = t.begin(); it != t.end();)
      it = it->first.starts_with(".blockls") ? t.erase(it) : std::next(it);
    return t;
  };
  const TreeSnapshot root = without_state(snapshot_tree(box.root));
  const Outcome o = apply_json(box, transcript, extra);
  INFO(o.report.dump(1));
  CHECK(o.exit_code == 1);
  CHECK(o.codes.count(code) == 1);
  CHECK(snapshot_tree(box.sentinel) == sentinel);
  CHECK(without_state(snapshot_tree(box.root)) == root);
}

} // namespace

TEST_CASE("../ traversal and absolute paths outside the root", "[apply][adversarial]") {
  Sandbox box;
  expect_rejected(
      box,
      nesl("t01", "action = \"write_file\"\npath = \"../sentinel/secret.txt\"\ncontent = \"x\"\n"),
      "PATH_OUTSIDE_ROOT");
  expect_rejected(
      box,
      nesl("t02",
           "action = \"write_file\"\npath = \"sub/../../sentinel/new.txt\"\ncontent = \"x\"\n"),
      "PATH_OUTSIDE_ROOT");
  expect_rejected(box,
                  nesl("t03", "action = \"write_file\"\npath = \"" + box.sentinel +
                                  "/secret.txt\"\ncontent = \"x\"\n"),
                  "PATH_OUTSIDE_ROOT");
  expect_rejected(
      box, nesl("t04", "action = \"delete_file\"\npath = \"" + box.sentinel + "/secret.txt\"\n"),
      "PATH_OUTSIDE_ROOT");
  expect_rejected(
      box,
      nesl("t05",
           "action = \"move_file\"\nold_path = \"keep.txt\"\nnew_path = \"../sentinel/k.txt\"\n"),
      "PATH_OUTSIDE_ROOT");
  expect_rejected(box, nesl("t06", "action = \"delete_dir\"\npath = \"..\"\n"),
                  "PATH_OUTSIDE_ROOT");
  expect_rejected(box, nesl("t07", "action = \"delete_dir\"\npath = \".\"\n"), "PATH_DENIED");
}

TEST_CASE("a symlink inside the root pointing outside (write, move, delete)",
          "[apply][adversarial]") {
  Sandbox box;
  REQUIRE(::symlink(box.sentinel.c_str(), (box.root + "/link").c_str()) == 0);
  REQUIRE(::symlink((box.sentinel + "/not-yet.txt").c_str(), (box.root + "/dangling").c_str()) ==
          0);
  expect_rejected(
      box, nesl("s01", "action = \"write_file\"\npath = \"link/secret.txt\"\ncontent = \"x\"\n"),
      "PATH_OUTSIDE_ROOT");
  expect_rejected(box,
                  nesl("s02", "action = \"write_file\"\npath = \"dangling\"\ncontent = \"x\"\n"),
                  "PATH_OUTSIDE_ROOT");
  expect_rejected(
      box,
      nesl("s03",
           "action = \"move_file\"\nold_path = \"link/secret.txt\"\nnew_path = \"stolen.txt\"\n"),
      "PATH_OUTSIDE_ROOT");
  expect_rejected(
      box, nesl("s04", "action = \"move_file\"\nold_path = \"b.txt\"\nnew_path = \"link/b.txt\"\n"),
      "PATH_OUTSIDE_ROOT");
  expect_rejected(box, nesl("s05", "action = \"delete_file\"\npath = \"link/secret.txt\"\n"),
                  "PATH_OUTSIDE_ROOT");
  expect_rejected(box, nesl("s06", "action = \"delete_dir\"\npath = \"link/sub\"\n"),
                  "PATH_OUTSIDE_ROOT");
  expect_rejected(
      box,
      nesl("s07", "action = \"append_to_file\"\npath = \"link/secret.txt\"\ncontent = \"x\"\n"),
      "PATH_OUTSIDE_ROOT");
}

TEST_CASE("denied paths: deny globs and the journal directory", "[apply][adversarial]") {
  Sandbox box;
  expect_rejected(box,
                  nesl("d01", "action = \"write_file\"\npath = \".git/config\"\ncontent = \"x\"\n"),
                  "PATH_DENIED");
  expect_rejected(
      box,
      nesl("d02", "action = \"write_file\"\npath = \"a/node_modules/x.js\"\ncontent = \"x\"\n"),
      "PATH_DENIED");
  expect_rejected(box, nesl("d03", "action = \"delete_dir\"\npath = \".git\"\n"), "PATH_DENIED");
  expect_rejected(
      box,
      nesl("d04",
           "action = \"write_file\"\npath = \".blockls/journal-1-1.json\"\ncontent = \"{}\"\n"),
      "PATH_DENIED");
  expect_rejected(
      box, nesl("d05", "action = \"write_file\"\npath = \"secrets/key.pem\"\ncontent = \"x\"\n"),
      "PATH_DENIED", {"--deny", "secrets/**"});
}

TEST_CASE("invalid blocks never run", "[apply][adversarial]") {
  Sandbox box;
  expect_rejected(
      box,
      "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\nnew.txt\n--CONTENT abc--\nhi\n"
      "--END abx--\n",
      "HASH_MISMATCH");
  expect_rejected(
      box,
      nesl("i01",
           "action = \"write_file\"\npath = \"new.txt\"\npath = \"other.txt\"\ncontent = \"x\"\n"),
      "DUPLICATE_KEY");
  expect_rejected(box,
                  nesl("i02", "action = \"write_fiel\"\npath = \"new.txt\"\ncontent = \"x\"\n"),
                  "UNKNOWN_ACTION");
  expect_rejected(box, nesl("i03", "action = \"write_file\"\npath = \"new.txt\"\n"),
                  "MISSING_PARAM");
}

TEST_CASE("replace with an absent or ambiguous old text leaves the file unchanged",
          "[apply][adversarial]") {
  Sandbox box;
  expect_rejected(box,
                  nesl("r01", "action = \"replace_text_in_file\"\npath = \"keep.txt\"\nold_text = "
                              "\"gamma\"\nnew_text = \"x\"\n"),
                  "SEARCH_NOT_FOUND");
  expect_rejected(box,
                  nesl("r02", "action = \"replace_text_in_file\"\npath = \"keep.txt\"\nold_text = "
                              "\"alpha\"\nnew_text = \"x\"\n"),
                  "SEARCH_AMBIGUOUS");
  const Outcome o =
      apply_json(box, nesl("r03", "action = \"replace_text_in_file\"\npath = "
                                  "\"keep.txt\"\nold_text = \"alpha\"\nnew_text = \"x\"\n"));
  bool named = false;
  for (const json& d : o.report["files"][0]["diagnostics"])
    named = named || d["message"].get<std::string>().find("at lines 1, 3") != std::string::npos;
  CHECK(named);
  expect_rejected(box,
                  nesl("r04",
                       "action = \"replace_all_text_in_file\"\npath = \"keep.txt\"\nold_text = "
                       "\"alpha\"\nnew_text = \"x\"\ncount = \"3\"\n"),
                  "COUNT_MISMATCH");
  expect_rejected(box,
                  nesl("r05", "action = \"replace_text_in_file\"\npath = \"nope.txt\"\nold_text = "
                              "\"a\"\nnew_text = \"x\"\n"),
                  "FILE_NOT_FOUND");
}

TEST_CASE("a move onto an existing file is reported, journaled and undone with its block",
          "[apply][adversarial]") {
  Sandbox box;
  // Alone it applies (clada semantics: overwrite) with a warning.
  Outcome o = apply_json(
      box, nesl("m01", "action = \"move_file\"\nold_path = \"b.txt\"\nnew_path = \"keep.txt\"\n"));
  CHECK(o.exit_code == 0);
  CHECK(o.codes.count("MOVE_OVERWRITES") == 1);
  CHECK(o.report["files"][0]["results"][0]["data"]["overwrote"] == true);
  CHECK(get_file(box.root + "/keep.txt") == "bravo\n");
  CHECK(get_file(box.root + "/b.txt") == "<missing>");
  // In a block whose later action fails, the overwritten destination comes back.
  put_file(box.root + "/b.txt", "bravo2\n");
  const std::string telt = "#!telt [3-char SHA: mv2]\n=== MOVE_FILE ===\n--OLD_PATH "
                           "mv2--\nb.txt\n--NEW_PATH mv2--\nkeep.txt\n"
                           "=== EXEC ===\n--LANG mv2--\nbash\n--CODE mv2--\nexit 3\n--END mv2--\n";
  expect_rejected(box, telt, "EXEC_FAILED", {"--allow-exec"});
  CHECK(get_file(box.root + "/keep.txt") == "bravo\n");
  CHECK(get_file(box.root + "/b.txt") == "bravo2\n");
}

TEST_CASE("a block whose third action fails changes nothing", "[apply][adversarial]") {
  Sandbox box;
  // Found by the check: nothing runs.
  const std::string checked = "#!telt [3-char SHA: th1]\n=== CREATE_FILE ===\n--FILE "
                              "th1--\nnew/one.txt\n--CONTENT th1--\n1\n"
                              "=== REPLACE_TEXT ===\n--FILE th1--\nb.txt\n--OLD_TEXT "
                              "th1--\nbravo\n--NEW_TEXT th1--\nBRAVO\n"
                              "=== REPLACE_TEXT ===\n--FILE th1--\nkeep.txt\n--OLD_TEXT "
                              "th1--\nzulu\n--NEW_TEXT th1--\nZ\n--END th1--\n";
  expect_rejected(box, checked, "SEARCH_NOT_FOUND");
  // Failing while it runs (exec exits 7): the first two actions are rolled back.
  const std::string running =
      "#!telt [3-char SHA: th2]\n=== CREATE_FILE ===\n--FILE th2--\nnew/deeper/one.txt\n--CONTENT "
      "th2--\n1\n"
      "=== REPLACE_TEXT ===\n--FILE th2--\nb.txt\n--OLD_TEXT th2--\nbravo\n--NEW_TEXT "
      "th2--\nBRAVO\n"
      "=== EXEC ===\n--LANG th2--\nbash\n--CODE th2--\nexit 7\n--END th2--\n";
  expect_rejected(box, running, "EXEC_FAILED", {"--allow-exec"});
  CHECK(get_file(box.root + "/b.txt") == "bravo\n");
  CHECK(!std::filesystem::exists(box.root + "/new"));
  // Without --allow-exec the block does not run at all.
  expect_rejected(box, running, "EXEC_DISABLED");
}

TEST_CASE("a pipe where a file is expected is named for what it is", "[apply][adversarial]") {
  const std::string root = make_temp_dir();
  REQUIRE(::mkfifo((root + "/pipe").c_str(), 0600) == 0);
  put_file(root + "/a.txt", "a\n");
  for (const std::string& transcript :
       {std::string("cat > pipe << 'EOF'\nx\nEOF\n"),
        nesl("p01", "action = \"file_replace_text\"\npath = \"pipe\"\nold_text = \"a\"\n"
                    "new_text = \"b\"\n"),
        nesl("p02", "action = \"file_move\"\nold_path = \"a.txt\"\nnew_path = \"pipe\"\n")}) {
    const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, transcript);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("[NOT_A_FILE]") != std::string::npos);
    CHECK(r.out.find("'pipe' is not a regular file blockls can read") != std::string::npos);
    CHECK(r.out.find("is a directory") == std::string::npos); // it once said so
  }
  CHECK(get_file(root + "/a.txt") == "a\n");
  std::filesystem::remove_all(root);
}
