// A file blockls replaces keeps its owner and group where the process may give them: applied as
// root (sudo, a container over a mounted checkout), an edited file must not end up root's.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace blockls;
using namespace blockls::test;

TEST_CASE("a replaced file keeps its owner and group", "[apply][owner][cli]") {
  const std::string root = make_temp_dir();
  const std::string file = root + "/mine.txt";
  put_file(file, "alpha\n");
  // As root the file is given to another user first (what a sudo run finds in a checkout);
  // otherwise it is the process's own, and must stay so.
  const bool as_root = ::geteuid() == 0;
  const uid_t uid = as_root ? 4242 : ::geteuid();
  const gid_t gid = as_root ? 4343 : ::getegid();
  if (as_root)
    REQUIRE(::chown(file.c_str(), uid, gid) == 0);
  else
    WARN("not root: only the process's own file is checked, not another owner's");
  const ProcessResult p = run_blockls(
      {"apply", "--root", root, "-"},
      "#!nesl [@three-char-SHA-256: ow1]\naction = \"file_replace_text\"\npath = \"mine.txt\"\n"
      "old_text = \"alpha\"\nnew_text = \"beta\"\n#!end_ow1\n"
      "#!nesl [@three-char-SHA-256: ow2]\naction = \"file_append\"\npath = \"mine.txt\"\n"
      "content = \"gamma\"\n#!end_ow2\n");
  INFO(p.out << p.err);
  CHECK(p.exit_code == 0);
  CHECK(get_file(file) == "beta\ngamma");
  struct stat st {};
  REQUIRE(::stat(file.c_str(), &st) == 0);
  CHECK(st.st_uid == uid);
  CHECK(st.st_gid == gid);
  std::filesystem::remove_all(root);
}
