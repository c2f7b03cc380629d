// `blockls fix --in-place` against what `apply` does with the files it replaces: the owner
// and group are kept.
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using blockls::test::make_temp_dir;
using blockls::test::ProcessResult;
using blockls::test::run_blockls;
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

} // namespace

TEST_CASE("fix --in-place keeps the file's owner and group", "[cli][fix][owner]") {
  // As root (sudo, a container over a mounted checkout) the rewritten file used to become
  // root's: its owner could no longer read a 0600 file.
  const std::string dir = make_temp_dir();
  const std::string file = dir + "/own.txt", link = dir + "/link.txt";
  write_text(file, kBroken);
  REQUIRE(::chmod(file.c_str(), 0600) == 0);
  REQUIRE(::symlink("own.txt", link.c_str()) == 0);
  const bool as_root = ::geteuid() == 0;
  const uid_t uid = as_root ? 4242 : ::geteuid();
  const gid_t gid = as_root ? 4343 : ::getegid();
  if (as_root)
    REQUIRE(::chown(file.c_str(), uid, gid) == 0);
  else
    WARN("not root: only the process's own file is checked, not another owner's");
  for (const std::string& path : {file, link}) {
    INFO(path);
    write_text(file, kBroken); // keeps the inode, its owner and its mode
    const ProcessResult r = run_blockls({"fix", "--in-place", path});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(read_all(file) == kFixed);
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK(st.st_uid == uid);
    CHECK(st.st_gid == gid);
    CHECK((st.st_mode & 07777) == 0600);
  }
  fs::remove_all(dir);
}
