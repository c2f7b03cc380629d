// Heredoc file creation runs through `blockls apply` like every action: `cat >` writes the
// body with its final newline (file_write), `cat >>` appends (file_append), an empty body
// writes an empty file, a later write of the same path wins, and lines of other dialects in
// a body are written as content.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace blockls::test;

TEST_CASE("heredoc blocks write, append and overwrite files through apply", "[apply][heredoc]") {
  const std::string root = make_temp_dir();
  put_file(root + "/old.txt", "old\n");
  const std::string text = "Some prose.\n\n```sh\n"
                           "cat > out/a.txt << 'EOF'\n"
                           "line one\n"
                           "#!telt [3-char SHA: abc]\n"
                           "```\n"
                           "EOF\n"
                           "```\n\n"
                           "cat >> out/a.txt <<EOF\n" // a variant: a note, still applied
                           "more\n"
                           "EOF\n"
                           "cat > out/empty.txt << 'EOF'\n"
                           "EOF\n"
                           "cat >> old.txt << 'EOF'\n"
                           "appended\n"
                           "EOF\n"
                           "cat > out/twice.txt << 'EOF'\n"
                           "first\n"
                           "EOF\n"
                           "cat > out/twice.txt << 'EOF'\n"
                           "second\n"
                           "EOF\n";
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, text);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(get_file(root + "/out/a.txt") == "line one\n#!telt [3-char SHA: abc]\n```\nmore\n");
  CHECK(get_file(root + "/out/empty.txt").empty());
  CHECK(get_file(root + "/old.txt") == "old\nappended\n");
  CHECK(get_file(root + "/out/twice.txt") == "second\n");
  // Blocks are named by their number: the marker (`EOF` in all of them) tells none apart.
  CHECK(r.out.find("<stdin>:4: block 1: applied\n") != std::string::npos);
  CHECK(r.out.find("<stdin>:22: block 6: applied\n") != std::string::npos);
  CHECK(r.out.find("block EOF") == std::string::npos);
  std::filesystem::remove_all(root);
}

TEST_CASE("an unclosed heredoc is not applied", "[apply][heredoc]") {
  const std::string root = make_temp_dir();
  const ProcessResult r =
      run_blockls({"apply", "--root", root, "-"}, "cat > a.txt << 'EOF'\nnever closed\n");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(get_file(root + "/a.txt") == "<missing>");
  std::filesystem::remove_all(root);
}
