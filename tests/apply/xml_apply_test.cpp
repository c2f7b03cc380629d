// XML directives (Cline/Roo tool calls) against a workspace: `blockls apply` runs a
// write_to_file (a new file in a new folder) and a replace_in_file of two SEARCH/REPLACE blocks
// (one file_replace_text each, in order), and refuses a replace_in_file whose SEARCH text is not
// in the file, leaving the file as it was.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace blockls::test;

namespace {

const std::string kTranscript = "I'll add a note and fix the greeting.\n\n"
                                "<write_to_file>\n"
                                "<path>docs/NOTE.md</path>\n"
                                "<content>\n"
                                "# Note\n"
                                "Say hello.\n"
                                "</content>\n"
                                "</write_to_file>\n\n"
                                "<replace_in_file>\n"
                                "<path>src/app.py</path>\n"
                                "<diff>\n"
                                "------- SEARCH\n"
                                "    print(\"hello\")\n"
                                "=======\n"
                                "    print(\"hello, world\")\n"
                                "+++++++ REPLACE\n"
                                "------- SEARCH\n"
                                "x = 1\n"
                                "=======\n"
                                "x = 2\n"
                                "+++++++ REPLACE\n"
                                "</diff>\n"
                                "</replace_in_file>\n";

} // namespace

TEST_CASE("blockls apply runs an xml write_to_file and replace_in_file", "[apply][xml]") {
  const std::string root = make_temp_dir();
  put_file(root + "/src/app.py", "def hello():\n    print(\"hello\")\nx = 1\n");
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, kTranscript);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  // A content's first and last line break are not part of it (as Cline reads it).
  CHECK(get_file(root + "/docs/NOTE.md") == "# Note\nSay hello.");
  CHECK(get_file(root + "/src/app.py") == "def hello():\n    print(\"hello, world\")\nx = 2\n");
  std::filesystem::remove_all(root);
}

TEST_CASE("an xml replace_in_file whose SEARCH is not in the file changes nothing",
          "[apply][xml]") {
  const std::string root = make_temp_dir();
  put_file(root + "/src/app.py", "def hello():\n    print(\"hi\")\nx = 1\n");
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, kTranscript);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(get_file(root + "/src/app.py") == "def hello():\n    print(\"hi\")\nx = 1\n");
  CHECK(get_file(root + "/docs/NOTE.md") == "# Note\nSay hello."); // the other block runs
  std::filesystem::remove_all(root);
}
