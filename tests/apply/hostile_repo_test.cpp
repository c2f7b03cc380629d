// A hostile repository against the real `blockls apply`: journals planted in the root or
// forged in the state directory, a parent directory swapped for a symlink while apply writes,
// paths made of control characters or thousands of components, an exec that never stops
// talking. Every case checks that nothing outside the root changed.
#include "apply/apply_test_support.h"
#include "apply/journal.h"
#include "support/process.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace blockls::test;
using nlohmann::json;

namespace {

struct Box {
  std::string base = make_temp_dir();
  std::string root = base + "/root";
  std::string outside = base + "/outside";
  Box() {
    put_file(outside + "/secret.txt", "do not touch\n");
    put_file(outside + "/victim.txt", "victim\n");
    put_file(root + "/a.txt", "alpha\n");
  }
  ~Box() {
    std::error_code ec;
    std::filesystem::remove_all(base, ec);
  }
};

std::string nesl(const std::string& id, const std::string& body) {
  return "#!nesl [@three-char-SHA-256: " + id + "]\n" + body + "#!end_" + id + "\n";
}

const std::string kWriteB =
    nesl("w01", "action = \"write_file\"\npath = \"b.txt\"\ncontent = \"bravo\"\n");

// The journal a hostile repository ships: absolute paths outside the root, a setuid mode, a
// "missing" entry aimed at the root itself and a saved copy that climbs out of the journal.
void plant_journal(const std::string& dir, const Box& box) {
  const json journal = {
      {"version", 2},
      {"root", box.root},
      {"roots", {box.root}},
      {"block", "x"},
      {"entries",
       {{{"path", box.outside + "/secret.txt"}, {"kind", "file"}, {"mode", 2541}, {"saved", "0"}},
        {{"path", box.outside + "/victim.txt"}, {"kind", "missing"}},
        {{"path", box.root}, {"kind", "missing"}},
        {{"path", box.root + "/stolen.txt"},
         {"kind", "file"},
         {"mode", 420},
         {"saved", "../../../outside/secret.txt"}}}}};
  put_file(dir + "/journal-1-1.json", journal.dump());
  put_file(dir + "/journal-1-1/0", "pwned\n");
}

void expect_outside_untouched(const Box& box, const TreeSnapshot& before) {
  CHECK(snapshot_tree(box.outside) == before);
  struct stat st {};
  REQUIRE(::stat((box.outside + "/secret.txt").c_str(), &st) == 0);
  CHECK((st.st_mode & 07000) == 0);
}

} // namespace

TEST_CASE("a journal shipped inside the root is never read, only reported",
          "[apply][adversarial][journal]") {
  Box box;
  plant_journal(box.root + "/.blockls", box);
  const TreeSnapshot outside = snapshot_tree(box.outside);
  const ProcessResult r = run_blockls({"apply", "--root", box.root, "-"}, kWriteB);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  expect_outside_untouched(box, outside);
  CHECK(get_file(box.root + "/b.txt") == "bravo");
  CHECK(get_file(box.root + "/a.txt") == "alpha\n");
  CHECK(get_file(box.root + "/stolen.txt") == "<missing>");
  // Left where it was, and mentioned.
  CHECK(std::filesystem::exists(box.root + "/.blockls/journal-1-1.json"));
  CHECK(r.err.find(".blockls/journal-1-1.json is inside the workspace") != std::string::npos);
  // --recover ignores it too; `check --root` mentions it.
  const ProcessResult rec = run_blockls({"apply", "--recover", "--root", box.root});
  CHECK(rec.exit_code == 0);
  CHECK(rec.out.find("0 interrupted blocks rolled back") != std::string::npos);
  expect_outside_untouched(box, outside);
  const ProcessResult chk = run_blockls({"check", "--root", box.root, "-"}, kWriteB);
  CHECK(chk.err.find("never trusts a journal found there") != std::string::npos);
}

TEST_CASE("a forged journal in the state directory is refused whole and left alone",
          "[apply][adversarial][journal]") {
  Box box;
  std::string error;
  const std::optional<std::string> dir = blockls::apply::state_dir_of(box.root, &error);
  REQUIRE(dir);
  // A first run creates the root's state directory with the right owner and mode.
  REQUIRE(run_blockls({"apply", "--recover", "--root", box.root}).exit_code == 0);
  struct stat st {};
  REQUIRE(::stat(dir->c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);

  const TreeSnapshot outside = snapshot_tree(box.outside);
  SECTION("paths outside the roots") {
    plant_journal(*dir, box);
  }
  SECTION("not an object") {
    put_file(*dir + "/journal-1-1.json", "[]");
  }
  SECTION("wrong types") {
    put_file(
        *dir + "/journal-1-1.json",
        json({{"version", 2}, {"root", box.root}, {"roots", box.root}, {"entries", 7}}).dump());
  }
  SECTION("another root") {
    put_file(*dir + "/journal-1-1.json",
             json({{"version", 2},
                   {"root", box.outside},
                   {"roots", {box.outside}},
                   {"entries", {{{"path", box.outside + "/victim.txt"}, {"kind", "missing"}}}}})
                 .dump());
  }
  const ProcessResult r = run_blockls({"apply", "--root", box.root, "-"}, kWriteB);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("journal-1-1") != std::string::npos);
  expect_outside_untouched(box, outside);
  CHECK(get_file(box.root + "/b.txt") == "<missing>"); // nothing ran on top of it
  CHECK(get_file(box.root + "/a.txt") == "alpha\n");
  CHECK(std::filesystem::exists(*dir + "/journal-1-1.json")); // left for the user to inspect
}

TEST_CASE("a parent directory swapped for a symlink while apply writes stays inside the root",
          "[apply][adversarial][race]") {
  Box box;
  std::filesystem::create_directories(box.root + "/dir");
  const TreeSnapshot outside = snapshot_tree(box.outside);
  std::string transcript;
  for (int i = 0; i < 40; ++i)
    transcript +=
        nesl("r" + std::to_string(10 + i), "action = \"write_file\"\npath = \"dir/x" +
                                               std::to_string(i) + ".txt\"\ncontent = \"x\"\n");
  // Flip root/dir between a real directory and a symlink to `outside`, as fast as possible,
  // for a fixed number of apply runs (bounded by runs, not by time).
  std::atomic<bool> stop{false};
  std::thread flipper([&] {
    const std::string dir = box.root + "/dir", real = box.root + "/dir.real",
                      link = box.root + "/dir.link";
    std::filesystem::create_directories(real);
    ::symlink(box.outside.c_str(), link.c_str());
    while (!stop) {
      ::rename(real.c_str(), dir.c_str()); // dir is real
      ::rename(dir.c_str(), real.c_str()); // dir is gone
      ::rename(link.c_str(), dir.c_str()); // dir -> outside
      ::rename(dir.c_str(), link.c_str()); // dir is gone
    }
  });
  for (int run = 0; run < 15; ++run)
    run_blockls({"apply", "--root", box.root, "-"}, transcript);
  stop = true;
  flipper.join();
  // Whatever each run reported, nothing landed outside, not even a temporary file.
  CHECK(snapshot_tree(box.outside) == outside);
}

TEST_CASE("paths with control characters, invalid UTF-8 or too many components are refused",
          "[apply][adversarial][paths]") {
  Box box;
  const TreeSnapshot outside = snapshot_tree(box.outside);
  const auto refused = [&](const std::string& path) {
    // TELT: the path is the raw line, whatever bytes it holds.
    const std::string t = "#!telt [3-char SHA: p01]\n=== CREATE_FILE ===\n--FILE p01--\n" + path +
                          "\n--CONTENT p01--\nx\n--END p01--\n";
    const ProcessResult r = run_blockls({"apply", "--root", box.root, "-"}, t);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("INVALID_PATH") != std::string::npos);
    // Echoed escaped: no raw control byte reaches the terminal.
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.err.find('\x1b') == std::string::npos);
  };
  refused("evil\x1b]0;title\x07.txt");
  refused("bad\xff\xfe.txt");
  std::string deep;
  for (int i = 0; i < 5000; ++i)
    deep += "a/";
  refused(deep + "x.txt");
  refused(std::string(300, 'n') + ".txt"); // one component longer than NAME_MAX
  CHECK(snapshot_tree(box.outside) == outside);
  CHECK(!std::filesystem::exists(box.root + "/a/a"));
}

TEST_CASE("deny globs match case-insensitively and ignore trailing dots and spaces",
          "[apply][adversarial][paths]") {
  Box box;
  put_file(box.root + "/.git/config", "[core]\n");
  for (const std::string path : {".GIT/config", ".git /x", ".git./hooks/pre-commit"}) {
    const std::string t =
        nesl("g01", "action = \"write_file\"\npath = \"" + path + "\"\ncontent = \"x\"\n");
    const ProcessResult r = run_blockls({"apply", "--root", box.root, "-"}, t);
    INFO(path << "\n" << r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("PATH_DENIED") != std::string::npos);
  }
  CHECK(get_file(box.root + "/.git/config") == "[core]\n");
}

TEST_CASE("exec output is capped, and a block that ran a command and then failed says so",
          "[apply][adversarial][exec]") {
  Box box;
  // 3 MiB on stdout: captured up to the cap, with a note, and the run ends normally.
  const std::string loud =
      nesl("e01", "action = \"exec\"\nlang = \"bash\"\ncode = \"head -c 3145728 /dev/zero | tr "
                  "'\\\\0' y\"\n");
  const ProcessResult r =
      run_blockls({"apply", "--allow-exec", "--format", "json", "--root", box.root, "-"}, loud);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const json report = json::parse(r.out);
  const json& data = report["files"][0]["results"][0]["data"];
  const std::string stdout_text = data["stdout"].get<std::string>();
  CHECK(stdout_text.size() < 2 * 1024 * 1024);
  CHECK(stdout_text.size() >= 1024 * 1024);
  CHECK(stdout_text.find("truncated") != std::string::npos);

  // An exec that ran (and put a file where the next action needs a directory), then a write
  // that fails: the write is rolled back, the command's effects
  // cannot be, and the report says a command ran.
  const std::string mixed =
      "#!telt [3-char SHA: e02]\n=== EXEC ===\n--LANG e02--\nbash\n--CODE e02--\ntouch "
      "ran.txt; echo > blocker\n=== CREATE_FILE ===\n--FILE e02--\nblocker/x.txt\n--CONTENT "
      "e02--\nx\n--END "
      "e02--\n";
  const ProcessResult m = run_blockls({"apply", "--allow-exec", "--root", box.root, "-"}, mixed);
  INFO(m.out << m.err);
  CHECK(m.exit_code == 2); // an I/O error, not a rejected block
  CHECK(m.out.find("a command of it ran") != std::string::npos);
  CHECK(get_file(box.root + "/ran.txt") == ""); // the command's own effect stays
  // A failed block leaves no journal behind.
  CHECK(blockls::apply::pending_journals(box.root).empty());
  std::string error;
  const std::optional<std::string> dir = blockls::apply::state_dir_of(box.root, &error);
  REQUIRE(dir);
  for (const auto& e : std::filesystem::directory_iterator(*dir))
    CHECK(!e.path().filename().string().starts_with("journal-"));
}
