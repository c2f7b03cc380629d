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
  const FileOwner owner = give_to_another_owner(file);
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
  CHECK(st.st_uid == owner.uid);
  CHECK(st.st_gid == owner.gid);
  std::filesystem::remove_all(root);
}
