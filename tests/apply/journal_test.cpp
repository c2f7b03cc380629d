// Recovery from the journal never destroys what blockls did not write: a block is killed
// (its own exec sends SIGKILL to blockls, a crash at an exact point), then the user edits and
// adds files; the next `apply` restores only the paths that still hold what the block left,
// keeps the rest and the journal, and says so. Also: an untouched crash is rolled back exactly,
// a recovery killed midway is finished by the next one, a version-2 journal (no checksums) is
// handled conservatively, and an in-process rollback leaves an exec's files alone.
#include "apply/apply_test_support.h"
#include "apply/journal.h"
#include "support/process.h"
#include "support/progress_watch.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

using namespace blockls::test;

namespace {

struct Box {
  std::string base = make_temp_dir();
  std::string root = base + "/root";
  Box() {
    put_file(root + "/a.txt", "original\n");
    put_file(root + "/b.txt", "bee\n");
    put_file(root + "/c.txt", "cee\n");
    put_file(root + "/keep/k.txt", "kay\n");
  }
  ~Box() {
    std::error_code ec;
    std::filesystem::remove_all(base, ec);
  }
  std::vector<std::string> journals() const { return blockls::apply::pending_journals(root); }
};

// One block that writes, deletes, moves, creates directories, then kills blockls (SIGKILL,
// from its own exec): the crash happens after every file effect, before the commit.
const std::string kCrashingBlock = "#!telt [3-char SHA: k01]\n"
                                   "=== CREATE_FILE ===\n--FILE k01--\na.txt\n--CONTENT k01--\n"
                                   "written by block\n"
                                   "=== CREATE_FILE ===\n--FILE k01--\nnewdir/made.txt\n"
                                   "--CONTENT k01--\nx\n"
                                   "=== DELETE_FILE ===\n--FILE k01--\nb.txt\n"
                                   "=== MOVE_FILE ===\n--OLD_PATH k01--\nc.txt\n"
                                   "--NEW_PATH k01--\nmoved/c.txt\n"
                                   "=== CREATE_DIR ===\n--PATH k01--\nempty/sub\n"
                                   "=== EXEC ===\n--LANG k01--\nbash\n--CODE k01--\n"
                                   "kill -9 $PPID\n--END k01--\n";

const std::string kUnrelated = "#!nesl [@three-char-SHA-256: z01]\naction = \"file_write\"\n"
                               "path = \"other.txt\"\ncontent = \"hi\"\n#!end_z01\n";

void crash(const Box& box) {
  const ProcessResult r =
      run_blockls({"apply", "--allow-exec", "--root", box.root, "-"}, kCrashingBlock);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == -1); // killed
  REQUIRE(box.journals().size() == 1);
  REQUIRE(get_file(box.root + "/a.txt") == "written by block");
  REQUIRE(get_file(box.root + "/newdir/made.txt") == "x");
  REQUIRE(get_file(box.root + "/b.txt") == "<missing>");
  REQUIRE(get_file(box.root + "/moved/c.txt") == "cee\n");
  REQUIRE(std::filesystem::is_directory(box.root + "/empty/sub"));
}

bool has_temp_files(const std::string& root) {
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.path().filename().string().find(".blockls-tmp-") != std::string::npos) return true;
  return false;
}

} // namespace

TEST_CASE("recovery after a crash restores the block's paths exactly", "[apply][journal]") {
  Box box;
  const TreeSnapshot before = snapshot_tree(box.root);
  crash(box);
  const ProcessResult rec = run_blockls({"apply", "--recover", "--root", box.root});
  INFO(rec.out << rec.err);
  CHECK(rec.exit_code == 0);
  CHECK(rec.out.find("rolled back the interrupted block") != std::string::npos);
  CHECK(snapshot_tree(box.root) == before);
  CHECK(box.journals().empty());
}

TEST_CASE("recovery keeps a later edit and a new file in a directory the block created",
          "[apply][journal]") {
  Box box;
  crash(box);
  // Later, the user keeps working.
  put_file(box.root + "/a.txt", "user's later edit\n");
  put_file(box.root + "/newdir/important.txt", "user's important work\n");
  const std::vector<std::string> journal = box.journals();

  // The next apply, of an unrelated transcript, recovers first.
  const ProcessResult r = run_blockls({"apply", "--root", box.root, "-"}, kUnrelated);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2); // as for a journal that fails validation: nothing else runs
  CHECK(get_file(box.root + "/other.txt") == "<missing>");
  // Nothing the user wrote is lost.
  CHECK(get_file(box.root + "/a.txt") == "user's later edit\n");
  CHECK(get_file(box.root + "/newdir/important.txt") == "user's important work\n");
  // Everything that still held what the block left is rolled back.
  CHECK(get_file(box.root + "/newdir/made.txt") == "<missing>");
  CHECK(get_file(box.root + "/b.txt") == "bee\n");
  CHECK(get_file(box.root + "/c.txt") == "cee\n");
  CHECK(!std::filesystem::exists(box.root + "/moved"));
  CHECK(!std::filesystem::exists(box.root + "/empty"));
  CHECK(!has_temp_files(box.root));
  // The journal is kept, and the message says which paths, why, and how to go on.
  CHECK(box.journals() == journal);
  CHECK(r.err.find("the journal " + journal[0] + " was kept") != std::string::npos);
  CHECK(r.err.find(box.root + "/a.txt (changed since the block wrote it)") != std::string::npos);
  CHECK(r.err.find(box.root + "/newdir/important.txt (not the block's, in " + box.root +
                   "/newdir which it created)") != std::string::npos);
  CHECK(r.err.find("2 paths changed after the interrupted block (k01)") != std::string::npos);
  CHECK(r.err.find("apply --recover --root " + box.root) != std::string::npos);
  CHECK(r.err.find("delete the journal") != std::string::npos);

  // Running it again changes nothing and says the same.
  const TreeSnapshot kept = snapshot_tree(box.root);
  const ProcessResult again = run_blockls({"apply", "--recover", "--root", box.root});
  CHECK(again.exit_code == 2);
  CHECK(again.err == r.err);
  CHECK(snapshot_tree(box.root) == kept);

  SECTION("the user puts back what the block left: recovery finishes") {
    put_file(box.root + "/a.txt", "written by block");
    std::filesystem::rename(box.root + "/newdir/important.txt", box.base + "/important.txt");
    const ProcessResult rec = run_blockls({"apply", "--recover", "--root", box.root});
    INFO(rec.out << rec.err);
    CHECK(rec.exit_code == 0);
    CHECK(get_file(box.root + "/a.txt") == "original\n");
    CHECK(!std::filesystem::exists(box.root + "/newdir"));
    CHECK(box.journals().empty());
  }
  SECTION("the user deletes the journal: the files stay as they are") {
    std::filesystem::remove(journal[0]);
    std::filesystem::remove_all(journal[0].substr(0, journal[0].size() - 5));
    const ProcessResult next = run_blockls({"apply", "--root", box.root, "-"}, kUnrelated);
    CHECK(next.exit_code == 0);
    CHECK(get_file(box.root + "/a.txt") == "user's later edit\n");
    CHECK(get_file(box.root + "/newdir/important.txt") == "user's important work\n");
    CHECK(get_file(box.root + "/other.txt") == "hi");
  }
}

TEST_CASE("a user's file replacing what the block deleted or moved away is kept",
          "[apply][journal]") {
  Box box;
  crash(box);
  put_file(box.root + "/b.txt", "a new b\n");                 // the block deleted b.txt
  put_file(box.root + "/moved/c.txt", "edited after move\n"); // the block moved c.txt here
  const ProcessResult r = run_blockls({"apply", "--recover", "--root", box.root});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(get_file(box.root + "/b.txt") == "a new b\n");
  CHECK(get_file(box.root + "/moved/c.txt") == "edited after move\n");
  CHECK(get_file(box.root + "/a.txt") == "original\n");
  // c.txt is restored (it was missing, as the block's move left it), moved/ stays for the edit.
  CHECK(get_file(box.root + "/c.txt") == "cee\n");
  CHECK(r.err.find(box.root + "/b.txt (created again since the block deleted or moved it)") !=
        std::string::npos);
  CHECK(r.err.find(box.root + "/moved/c.txt (changed since the block wrote it)") !=
        std::string::npos);
  CHECK(box.journals().size() == 1);
}

TEST_CASE("a recovery killed midway is finished by the next one", "[apply][journal][crash]") {
  Box box;
  const TreeSnapshot before = snapshot_tree(box.root);
  // Count the filesystem events of one whole recovery.
  crash(box);
  size_t full_events = 0;
  {
    ProgressWatch watch(box.root);
    const pid_t pid = spawn_blockls({"apply", "--recover", "--root", box.root});
    full_events = watch.wait_for(SIZE_MAX, pid);
    ::waitpid(pid, nullptr, 0);
  }
  REQUIRE(snapshot_tree(box.root) == before);
  REQUIRE(full_events > 5);
  const bool with_user_file = GENERATE(false, true);
  for (size_t k = 0; k <= full_events; ++k) {
    INFO("kill after event " << k << " of " << full_events << ", user file " << with_user_file);
    std::filesystem::remove_all(box.root);
    put_file(box.root + "/a.txt", "original\n");
    put_file(box.root + "/b.txt", "bee\n");
    put_file(box.root + "/c.txt", "cee\n");
    put_file(box.root + "/keep/k.txt", "kay\n");
    crash(box);
    if (with_user_file) put_file(box.root + "/newdir/important.txt", "mine\n");
    ProgressWatch watch(box.root);
    const pid_t pid = spawn_blockls({"apply", "--recover", "--root", box.root});
    watch.wait_for(k, pid);
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    const ProcessResult rec = run_blockls({"apply", "--recover", "--root", box.root});
    INFO(rec.out << rec.err);
    CHECK(!has_temp_files(box.root));
    if (!with_user_file) {
      CHECK(rec.exit_code == 0);
      CHECK(snapshot_tree(box.root) == before);
      CHECK(box.journals().empty());
    } else {
      CHECK(rec.exit_code == 2);
      CHECK(get_file(box.root + "/newdir/important.txt") == "mine\n");
      // Everything else is as before the block: the directory it made stays for the file.
      TreeSnapshot now = snapshot_tree(box.root);
      now.erase("newdir");
      now.erase("newdir/important.txt");
      CHECK(now == before);
      CHECK(box.journals().size() == 1);
    }
    // Clean up a kept journal for the next round.
    for (const std::string& j : box.journals()) {
      std::filesystem::remove(j);
      std::filesystem::remove_all(j.substr(0, j.size() - 5));
    }
  }
}

TEST_CASE("a version-2 journal (no checksums) restores only what holds its original",
          "[apply][journal]") {
  Box box;
  std::string error;
  const std::optional<std::string> dir = blockls::apply::state_dir_of(box.root, &error);
  REQUIRE(dir);
  REQUIRE(run_blockls({"apply", "--recover", "--root", box.root}).exit_code == 0);
  const nlohmann::json journal = {
      {"version", 2},
      {"root", box.root},
      {"roots", {box.root}},
      {"block", "old"},
      {"entries",
       {{{"path", box.root + "/a.txt"}, {"kind", "file"}, {"mode", 0644}, {"saved", "0"}},
        {{"path", box.root + "/newdir"}, {"kind", "missing"}},
        {{"path", box.root + "/newdir/made.txt"}, {"kind", "missing"}}}}};
  put_file(*dir + "/journal-1-1/0", "original\n");
  put_file(*dir + "/journal-1-1.json", journal.dump());

  SECTION("killed before it wrote anything: rolled back (nothing to do)") {
    const ProcessResult r = run_blockls({"apply", "--recover", "--root", box.root});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(get_file(box.root + "/a.txt") == "original\n");
    CHECK(blockls::apply::pending_journals(box.root).empty());
  }
  SECTION("killed after writes: the block's writes cannot be told from edits, so all stay") {
    put_file(box.root + "/a.txt", "written by block or by the user\n");
    put_file(box.root + "/newdir/made.txt", "x");
    const ProcessResult r = run_blockls({"apply", "--recover", "--root", box.root});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(get_file(box.root + "/a.txt") == "written by block or by the user\n");
    CHECK(get_file(box.root + "/newdir/made.txt") == "x");
    CHECK(r.err.find("does not record what the block wrote") != std::string::npos);
    CHECK(blockls::apply::pending_journals(box.root).size() == 1);
  }
}

TEST_CASE("a failed block's rollback leaves what its exec made in a directory it created",
          "[apply][journal]") {
  Box box;
  const std::string block = "#!telt [3-char SHA: e01]\n"
                            "=== CREATE_FILE ===\n--FILE e01--\nnewdir/made.txt\n"
                            "--CONTENT e01--\nx\n"
                            "=== CREATE_FILE ===\n--FILE e01--\na.txt\n--CONTENT e01--\nnew a\n"
                            "=== EXEC ===\n--LANG e01--\nbash\n--CODE e01--\n"
                            "echo log > newdir/log.txt; exit 3\n--END e01--\n";
  const ProcessResult r = run_blockls({"apply", "--allow-exec", "--root", box.root, "-"}, block);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(get_file(box.root + "/a.txt") == "original\n");
  CHECK(get_file(box.root + "/newdir/made.txt") == "<missing>");
  CHECK(get_file(box.root + "/newdir/log.txt") == "log\n"); // the command's own file stays
  CHECK(r.out.find("left as they are") != std::string::npos);
  CHECK(r.out.find(box.root + "/newdir/log.txt") != std::string::npos);
  CHECK(box.journals().empty());
}
