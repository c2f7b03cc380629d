// Read-only files (chmod a-w / u-w): blockls writes through a temporary file and a rename,
// which only the directory's permission governs, so without FILE_READ_ONLY it would replace a
// file the user protected. Every action that changes, replaces, moves or removes a file
// refuses a read-only one, in `apply`, `apply --dry-run`, `check --root`, `stream --apply` and
// the re-check just before the write. The tests may run as root: the rule reads mode bits.
#include "apply/apply_test_support.h"
#include "apply/disk_backend.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

using namespace blockls;
using namespace blockls::test;
using nlohmann::json;

namespace {

// A root with two read-only files (locked.txt 0444, dir/inner.txt 0555) and a writable one.
struct LockedRoot {
  std::string root = make_temp_dir();
  LockedRoot() {
    put_file(root + "/locked.txt", "alpha\nbeta\n");
    put_file(root + "/dir/inner.txt", "inner\n");
    put_file(root + "/free.txt", "alpha\n");
    REQUIRE(::chmod((root + "/locked.txt").c_str(), 0444) == 0);
    REQUIRE(::chmod((root + "/dir/inner.txt").c_str(), 0555) == 0);
  }
  ~LockedRoot() { std::filesystem::remove_all(root); }
  LockedRoot(const LockedRoot&) = delete;
  LockedRoot& operator=(const LockedRoot&) = delete;
};

// A TELT block whose first action creates new.txt and whose next ones are `commands`: a block
// is all or nothing, so new.txt must not appear when a later action is refused.
std::string telt_block(const std::string& id, const std::string& commands) {
  return "#!telt [3-char SHA: " + id + "]\n=== CREATE_FILE ===\n--FILE " + id +
         "--\nnew.txt\n--CONTENT " + id + "--\nfresh\n" + commands + "--END " + id + "--\n";
}

// A TELT command with its parameters (name, value), for the block `id`.
std::string command(const std::string& id, const std::string& name,
                    const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out = "=== " + name + " ===\n";
  for (const auto& [param, value] : params)
    out += "--" + param + " " + id + "--\n" + value + "\n";
  return out;
}

// The messages of the FILE_READ_ONLY diagnostics of an `apply --format json` report.
std::vector<std::string> read_only_messages(const json& report) {
  std::vector<std::string> out;
  for (const json& f : report["files"])
    for (const json& d : f["diagnostics"])
      if (d["code"] == "FILE_READ_ONLY") out.push_back(d["message"].get<std::string>());
  return out;
}

// Applies `transcript` (and, before that, a dry run of it): both exit 1, report FILE_READ_ONLY
// with `message` in it, and leave the root as it was: contents and modes, and no new.txt.
void expect_refused(const LockedRoot& r, const std::string& transcript,
                    const std::string& message) {
  INFO(transcript);
  const TreeSnapshot before = snapshot_tree(r.root);
  for (const bool dry_run : {true, false}) {
    std::vector<std::string> args{"apply", "--root", r.root, "--format", "json"};
    if (dry_run) args.push_back("--dry-run");
    args.push_back("-");
    const ProcessResult p = run_blockls(args, transcript);
    INFO(p.out << p.err);
    CHECK(p.exit_code == 1);
    REQUIRE(!p.out.empty());
    const json report = json::parse(p.out);
    const std::vector<std::string> messages = read_only_messages(report);
    CHECK(messages.size() == 1); // not REQUIRE: every case of a test runs and reports
    if (!messages.empty()) CHECK(messages[0].find(message) != std::string::npos);
    bool failed_with_code = false;
    for (const json& f : report["files"])
      for (const json& x : f["results"])
        failed_with_code |= x.value("code", "") == "FILE_READ_ONLY";
    CHECK(failed_with_code);
    auto after = snapshot_tree(r.root);
    after.erase(".blockls"); // blockls's own state directory, if any
    for (auto it = after.begin(); it != after.end();)
      it = it->first.starts_with(".blockls/") ? after.erase(it) : std::next(it);
    CHECK(after == before);
  }
}

} // namespace

TEST_CASE("a read-only file is not written nor appended to", "[apply][read-only]") {
  LockedRoot r;
  expect_refused(r,
                 telt_block("rw1", command("rw1", "FILE_WRITE",
                                           {{"FILE", "locked.txt"}, {"CONTENT", "replaced"}})),
                 "'locked.txt' is read-only (mode 0444)");
  expect_refused(r,
                 telt_block("rw2", command("rw2", "FILE_APPEND",
                                           {{"FILE", "locked.txt"}, {"CONTENT", "more"}})),
                 "'locked.txt' is read-only (mode 0444)");
  // A heredoc writes too (a block of one action).
  expect_refused(r, "cat > dir/inner.txt << 'EOF'\nx\nEOF\n",
                 "'dir/inner.txt' is read-only (mode 0555)");
}

TEST_CASE("a read-only file is not edited by a replace, a line edit or a patch",
          "[apply][read-only]") {
  LockedRoot r;
  const std::string shown = "'locked.txt' is read-only (mode 0444)";
  expect_refused(
      r,
      telt_block("re1",
                 command("re1", "REPLACE_TEXT",
                         {{"FILE", "locked.txt"}, {"OLD_TEXT", "alpha"}, {"NEW_TEXT", "ALPHA"}})),
      shown);
  expect_refused(
      r,
      telt_block("re2", command("re2", "REPLACE_ALL_TEXT",
                                {{"FILE", "locked.txt"}, {"OLD_TEXT", "a"}, {"NEW_TEXT", "A"}})),
      shown);
  expect_refused(r,
                 telt_block("re3", command("re3", "REPLACE_TEXT_RANGE",
                                           {{"FILE", "locked.txt"},
                                            {"OLD_TEXT_BEGINNING", "alpha"},
                                            {"OLD_TEXT_END", "beta"},
                                            {"NEW_TEXT", "gamma"}})),
                 shown);
  expect_refused(
      r,
      telt_block("re4",
                 command("re4", "REPLACE_LINES",
                         {{"FILE", "locked.txt"}, {"LINES", "1"}, {"NEW_CONTENT", "ALPHA"}})),
      shown);
  // Every listed file is checked; free.txt alone would be replaced.
  expect_refused(r,
                 telt_block("re5", command("re5", "FILES_REPLACE_ALL_TEXT",
                                           {{"PATHS", "free.txt\nlocked.txt"},
                                            {"OLD_TEXT", "alpha"},
                                            {"NEW_TEXT", "ALPHA"}})),
                 shown);
  // A Codex patch: the file it adds first is not kept either.
  expect_refused(r,
                 "*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** Update File: locked.txt\n"
                 "@@\n-alpha\n+ALPHA\n beta\n*** End Patch\n",
                 shown);
}

TEST_CASE("a read-only file is not deleted, alone or in a directory", "[apply][read-only]") {
  LockedRoot r;
  expect_refused(r, telt_block("rd1", command("rd1", "DELETE_FILE", {{"FILE", "locked.txt"}})),
                 "'locked.txt' is read-only (mode 0444)");
  expect_refused(r, telt_block("rd2", command("rd2", "DELETE_DIR", {{"PATH", "dir"}})),
                 "'dir/inner.txt' is read-only (mode 0555)");
  expect_refused(r,
                 "*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** Delete File: locked.txt\n"
                 "*** End Patch\n",
                 "'locked.txt' is read-only (mode 0444)");
}

TEST_CASE("a read-only file is not moved away nor overwritten by a move", "[apply][read-only]") {
  LockedRoot r;
  const std::string shown = "'locked.txt' is read-only (mode 0444)";
  expect_refused(
      r,
      telt_block("rm1", command("rm1", "MOVE_FILE",
                                {{"OLD_PATH", "locked.txt"}, {"NEW_PATH", "moved.txt"}})),
      shown);
  expect_refused(r,
                 telt_block("rm2", command("rm2", "MOVE_FILE",
                                           {{"OLD_PATH", "free.txt"}, {"NEW_PATH", "locked.txt"}})),
                 shown);
  // A patch's move: away from a read-only file, and onto one.
  expect_refused(r,
                 "*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** Update File: locked.txt\n"
                 "*** Move to: moved.txt\n@@\n-alpha\n+ALPHA\n beta\n*** End Patch\n",
                 shown);
  expect_refused(r,
                 "*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** Update File: free.txt\n"
                 "*** Move to: locked.txt\n@@\n-alpha\n+ALPHA\n*** End Patch\n",
                 shown);
}

TEST_CASE("a read-only file may be read, and a file written earlier in the block stays writable",
          "[apply][read-only]") {
  LockedRoot r;
  const std::string text = telt_block(
      "ok1", command("ok1", "READ_FILE", {{"FILE", "locked.txt"}}) +
                 command("ok1", "REPLACE_TEXT",
                         {{"FILE", "new.txt"}, {"OLD_TEXT", "fresh"}, {"NEW_TEXT", "F"}}));
  const ProcessResult p = run_blockls({"apply", "--root", r.root, "-"}, text);
  INFO(p.out << p.err);
  CHECK(p.exit_code == 0);
  CHECK(get_file(r.root + "/new.txt") == "F");
}

TEST_CASE("check --root reports a read-only file on its path, with a hint and no fix",
          "[apply][read-only][cli]") {
  LockedRoot r;
  const std::string text =
      "#!nesl [@three-char-SHA-256: ck1]\naction = \"write_file\"\npath = \"locked.txt\"\n"
      "content = \"x\"\n#!end_ck1\n";
  const ProcessResult p = run_blockls({"check", "--root", r.root, "--format", "json", "-"}, text);
  INFO(p.out << p.err);
  CHECK(p.exit_code == 1);
  const json report = json::parse(p.out);
  const json* found = nullptr;
  for (const json& f : report["files"])
    for (const json& d : f["errors"])
      if (d["code"] == "FILE_READ_ONLY") found = &d;
  REQUIRE(found);
  CHECK((*found)["message"].get<std::string>().find("'locked.txt' is read-only (mode 0444)") !=
        std::string::npos);
  CHECK((*found)["line_number"] == 3); // the path's line
  CHECK((*found).value("fix_hint", "").find("chmod u+w 'locked.txt'") != std::string::npos);
  CHECK((*found).value("fixes", json::array()).empty());
  CHECK(get_file(r.root + "/locked.txt") == "alpha\nbeta\n");
}

TEST_CASE("stream --apply skips a block that changes a read-only file", "[apply][read-only][cli]") {
  LockedRoot r;
  const std::string text =
      telt_block("st1", command("st1", "REPLACE_TEXT",
                                {{"FILE", "locked.txt"}, {"OLD_TEXT", "beta"}, {"NEW_TEXT", "B"}}));
  const TreeSnapshot before = snapshot_tree(r.root);
  const ProcessResult p = run_blockls({"stream", "--apply", "--root", r.root}, text);
  INFO(p.out << p.err);
  CHECK(p.exit_code == 1);
  const size_t at = p.out.find("\"event\":\"skipped\"");
  REQUIRE(at != std::string::npos);
  const size_t line = p.out.rfind('\n', at) + 1;
  const json e = json::parse(p.out.substr(line, p.out.find('\n', at) - line));
  CHECK(e["code"] == "FILE_READ_ONLY");
  CHECK(e.value("feedback", "").find("[FILE_READ_ONLY]") != std::string::npos);
  auto after = snapshot_tree(r.root);
  for (auto it = after.begin(); it != after.end();)
    it = it->first.starts_with(".blockls") ? after.erase(it) : std::next(it);
  CHECK(after == before);
}

TEST_CASE("a file made read-only after the check is caught by the re-check before the write",
          "[apply][read-only][disk]") {
  TempRoot root;
  put_file(root.dir + "/a.txt", "hello\n");
  const std::string text =
      "#!telt [3-char SHA: rc1]\n=== FILE_WRITE ===\n--FILE rc1--\nb.txt\n--CONTENT rc1--\nB\n"
      "=== REPLACE_TEXT ===\n--FILE rc1--\na.txt\n--OLD_TEXT rc1--\nhello\n--NEW_TEXT rc1--\nbye\n"
      "--END rc1--\n";
  auto c = check_with_workspace(text, root.config);
  REQUIRE(c->ws.simulation.blocks.size() == 1);
  REQUIRE(c->ws.simulation.blocks[0].ok);
  REQUIRE(::chmod((root.dir + "/a.txt").c_str(), 0444) == 0);
  std::vector<Diagnostic> diags;
  const apply::BlockRun run = run_checked_block_on_disk(*c, root.config, &diags);
  CHECK(!run.applied);
  CHECK(run.code == "FILE_READ_ONLY");
  CHECK(find_code(diags, "FILE_READ_ONLY") != nullptr);
  CHECK(get_file(root.dir + "/a.txt") == "hello\n");
  CHECK(get_file(root.dir + "/b.txt") == "<missing>");
  struct stat st {};
  REQUIRE(::stat((root.dir + "/a.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0444);
}

TEST_CASE("a file made read-only while its block runs is not written, the block rolled back",
          "[apply][read-only][exec]") {
  // The block's own command makes a.txt read-only after the re-check: the write that follows
  // finds it so and the block is rolled back (b.txt, written before, is removed again). The
  // rollback restores a.txt's journaled mode too, undoing the command's chmod: not checked.
  LockedRoot r;
  put_file(r.root + "/a.txt", "hello\n");
  const std::string text =
      "#!telt [3-char SHA: rx1]\n=== FILE_WRITE ===\n--FILE rx1--\nb.txt\n--CONTENT rx1--\nB\n"
      "=== EXEC ===\n--LANG rx1--\nbash\n--CODE rx1--\nchmod a-w a.txt\n"
      "=== REPLACE_TEXT ===\n--FILE rx1--\na.txt\n--OLD_TEXT rx1--\nhello\n--NEW_TEXT rx1--\nbye\n"
      "--END rx1--\n";
  const ProcessResult p = run_blockls({"apply", "--allow-exec", "--root", r.root, "-"}, text);
  INFO(p.out << p.err);
  CHECK(p.exit_code == 1);
  CHECK(p.out.find("became read-only (mode 0444) while the block was running") !=
        std::string::npos);
  CHECK(get_file(r.root + "/a.txt") == "hello\n");
  CHECK(get_file(r.root + "/b.txt") == "<missing>");
}

TEST_CASE("a file of mode 0000 is not a file blockls reads, whoever runs it",
          "[apply][read-only][cli]") {
  // An ordinary user cannot open it; root can, and used to replace it as a writable file that
  // came back with mode 0644 (a FileState's mode 0 means "new file, default mode").
  const std::string root = make_temp_dir();
  const std::string file = root + "/sealed.txt";
  put_file(file, "secret\n");
  REQUIRE(::chmod(file.c_str(), 0) == 0);
  const std::string text = "#!nesl [@three-char-SHA-256: z01]\naction = \"file_write\"\npath = "
                           "\"sealed.txt\"\ncontent = \"open\"\n#!end_z01\n";
  for (const std::string command : {"apply", "check"}) {
    const ProcessResult p = run_blockls({command, "--root", root, "-"}, text);
    INFO(command << ": " << p.out << p.err);
    CHECK(p.exit_code == 1);
    CHECK(p.out.find("NOT_A_FILE") != std::string::npos);
  }
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0);
  REQUIRE(::chmod(file.c_str(), 0600) == 0);
  CHECK(get_file(file) == "secret\n");
  std::filesystem::remove_all(root);
}
