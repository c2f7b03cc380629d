// `blockls fix --in-place` and `--diff` against what `apply` does with the files it replaces:
// read-only files and files of mode 0000 are refused (the file untouched, the other files
// still fixed, exit 2), the owner and group are kept, one file named by aliased paths is
// fixed as `-j 1` fixes it whatever -j, and a diff of an absolute path has git's headers.
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using blockls::test::FileOwner;
using blockls::test::give_to_another_owner;
using blockls::test::make_temp_dir;
using blockls::test::ProcessResult;
using blockls::test::run_blockls;
using blockls::test::run_process;
using blockls::test::write_text;
namespace fs = std::filesystem;

namespace {

// One preferred fix (the END marker's id), as in /tmp/qa-fix/repro/7_base.txt.
const std::string kBroken =
    "#!telt [3-char SHA: abc]\n=== DELETE_FILE ===\n--FILE abc--\na.txt\n--END abx--\n";
const std::string kFixed =
    "#!telt [3-char SHA: abc]\n=== DELETE_FILE ===\n--FILE abc--\na.txt\n--END abc--\n";

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

unsigned mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("fix --in-place refuses a read-only file and still fixes the others",
          "[cli][fix][read-only]") {
  // By the mode bits, as apply: the same answer as root (who could write it) and as its owner.
  const std::string dir = make_temp_dir();
  const std::string ro = dir + "/ro.txt", rx = dir + "/rx.txt", ok = dir + "/ok.txt",
                    clean = dir + "/clean.txt";
  write_text(ro, kBroken);
  write_text(rx, kBroken);
  write_text(ok, kBroken);
  write_text(clean, kFixed);
  REQUIRE(::chmod(ro.c_str(), 0444) == 0);
  REQUIRE(::chmod(rx.c_str(), 0575) == 0); // group and other may write: the owner may not
  REQUIRE(::chmod(clean.c_str(), 0444) == 0);
  const ProcessResult r = run_blockls({"fix", "--in-place", ro, ok, rx, clean});
  INFO(r.err);
  CHECK(r.exit_code == 2); // `fix --help`: 2 usage or I/O error
  CHECK(contains(r.err, "blockls: " + ro + ": read-only (mode 0444)"));
  CHECK(contains(r.err, "chmod u+w '" + ro + "'"));
  CHECK(contains(r.err, "blockls: " + rx + ": read-only (mode 0575)"));
  CHECK(read_all(ro) == kBroken);
  CHECK(read_all(rx) == kBroken);
  CHECK(mode_of(ro) == 0444);
  CHECK(mode_of(rx) == 0575);
  CHECK(contains(r.err, ok + ": 1 fix applied, 0 errors left"));
  CHECK(read_all(ok) == kFixed);
  // A read-only file that needs no fix is not written, so not refused either (as apply only
  // refuses what it would change).
  CHECK(contains(r.err, clean + ": 0 fixes applied, 0 errors left"));
  CHECK(mode_of(clean) == 0444);
  fs::remove_all(dir);
}

TEST_CASE("fix --in-place refuses a file of mode 0000, as root too", "[cli][fix][read-only]") {
  // As apply: no one may open it. Root could, and used to rewrite it; an ordinary user got
  // "cannot open"; both now get the same refusal, before the file is read.
  const std::string dir = make_temp_dir();
  const std::string none = dir + "/none.txt", ok = dir + "/ok.txt";
  write_text(none, kBroken);
  write_text(ok, kBroken);
  REQUIRE(::chmod(none.c_str(), 0) == 0);
  const ProcessResult r = run_blockls({"fix", "--in-place", none, ok});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "blockls: " + none + ": mode 0000"));
  CHECK(contains(r.err, "chmod u+rw '" + none + "'"));
  CHECK(mode_of(none) == 0);
  REQUIRE(::chmod(none.c_str(), 0600) == 0);
  CHECK(read_all(none) == kBroken);
  CHECK(read_all(ok) == kFixed);
  fs::remove_all(dir);
}

TEST_CASE("fix --in-place keeps the file's owner and group", "[cli][fix][owner]") {
  // As root (sudo, a container over a mounted checkout) the rewritten file used to become
  // root's: its owner could no longer read a 0600 file.
  const std::string dir = make_temp_dir();
  const std::string file = dir + "/own.txt", link = dir + "/link.txt";
  write_text(file, kBroken);
  REQUIRE(::chmod(file.c_str(), 0600) == 0);
  REQUIRE(::symlink("own.txt", link.c_str()) == 0);
  const FileOwner owner = give_to_another_owner(file);
  for (const std::string& path : {file, link}) {
    INFO(path);
    write_text(file, kBroken); // keeps the inode, its owner and its mode
    const ProcessResult r = run_blockls({"fix", "--in-place", path});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(read_all(file) == kFixed);
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK(st.st_uid == owner.uid);
    CHECK(st.st_gid == owner.gid);
    CHECK((st.st_mode & 07777) == 0600);
  }
  fs::remove_all(dir);
}

TEST_CASE("fix --in-place -j N reports one file named by aliased paths as -j 1 does",
          "[cli][fix][parallel]") {
  // t.txt, ./t.txt and a link to it are one file (one device and inode): the second and third
  // are read after the first rewrite, so they have nothing left to fix.
  std::string one_err;
  for (const std::string jobs : {"1", "2", "3"}) {
    INFO("-j " << jobs);
    const std::string dir = make_temp_dir();
    write_text(dir + "/t.txt", kBroken);
    REQUIRE(::symlink("t.txt", (dir + "/l.txt").c_str()) == 0);
    const ProcessResult r = run_process(
        BLOCKLS_BINARY, {"fix", "--in-place", "-j", jobs, "t.txt", "./t.txt", "l.txt"}, "", dir);
    CHECK(r.exit_code == 0);
    CHECK(r.err == "t.txt: 1 fix applied, 0 errors left\n"
                   "./t.txt: 0 fixes applied, 0 errors left\n"
                   "l.txt: 0 fixes applied, 0 errors left\n");
    CHECK(read_all(dir + "/t.txt") == kFixed);
    CHECK(fs::is_symlink(fs::symlink_status(dir + "/l.txt")));
    fs::remove_all(dir);
  }
}

TEST_CASE("fix --diff names an absolute path as git does", "[cli][fix]") {
  const std::string dir = make_temp_dir(); // absolute
  REQUIRE(dir.front() == '/');
  const std::string file = dir + "/abs.txt";
  write_text(file, kBroken);
  const ProcessResult r = run_blockls({"fix", "--diff", file});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  const std::string name = file.substr(1);
  CHECK(contains(r.out, "--- a/" + name + "\n"));
  CHECK(contains(r.out, "+++ b/" + name + "\n"));
  CHECK(!contains(r.out, "a//"));
  // A relative path is unchanged.
  const ProcessResult rel = run_process(BLOCKLS_BINARY, {"fix", "--diff", "abs.txt"}, "", dir);
  CHECK(contains(rel.out, "--- a/abs.txt\n+++ b/abs.txt\n"));
  // "./" steps are left out, as git names the file.
  const ProcessResult dot = run_process(BLOCKLS_BINARY, {"fix", "--diff", "./abs.txt"}, "", dir);
  CHECK(contains(dot.out, "--- a/abs.txt\n+++ b/abs.txt\n"));
  const ProcessResult inner = run_blockls({"fix", "--diff", dir + "/./abs.txt"});
  CHECK(contains(inner.out, "--- a/" + name + "\n+++ b/" + name + "\n"));
  fs::remove_all(dir);
}

TEST_CASE("fix --diff and apply's dry-run diff apply with patch -p1 when a name has a space",
          "[cli][fix]") {
  // git writes a TAB after a header's name that holds a blank, and patch reads the name up to
  // it; without it, patch -p1 took `a/sp ace.txt` for a file named `sp`.
  REQUIRE(::access("/usr/bin/patch", X_OK) == 0); // scripts/install-deps.sh installs it
  const std::string dir = make_temp_dir();
  write_text(dir + "/sp ace.txt", kBroken);
  const ProcessResult diff = run_process(BLOCKLS_BINARY, {"fix", "--diff", "sp ace.txt"}, "", dir);
  INFO(diff.out << diff.err);
  CHECK(contains(diff.out, "--- a/sp ace.txt\t\n+++ b/sp ace.txt\t\n"));
  write_text(dir + "/change.diff", diff.out);
  const ProcessResult patched = run_process("/bin/sh", {"-c", "patch -p1 < change.diff"}, "", dir);
  INFO(patched.out << patched.err);
  CHECK(patched.exit_code == 0);
  CHECK(read_all(dir + "/sp ace.txt") == kFixed);

  // The dry-run of apply: a file with a space created, then patched into a copy of the root.
  const std::string root = dir + "/root", copy = dir + "/copy";
  fs::create_directories(root);
  fs::create_directories(copy);
  write_text(dir + "/t.md", "cat > 'new file.txt' << 'EOF'\nhello\nEOF\n");
  const ProcessResult dry =
      run_process(BLOCKLS_BINARY, {"apply", "--dry-run", "--root", root, dir + "/t.md"});
  INFO(dry.out << dry.err);
  write_text(dir + "/apply.diff", dry.out);
  const ProcessResult applied =
      run_process("/bin/sh", {"-c", "patch -p1 < ../apply.diff"}, "", copy);
  INFO(applied.out << applied.err);
  CHECK(applied.exit_code == 0);
  CHECK(read_all(copy + "/new file.txt") == "hello\n");
  fs::remove_all(dir);
}
