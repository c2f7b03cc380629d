// `check -j N` checks files on N threads; its output (text, JSON, SARIF, standard error, exit
// status) must not depend on N. Run over every test input, each written to its own file, with
// an unreadable path in the middle (its error must stay in its place).
#include "support/process.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace blockls::test;
namespace fs = std::filesystem;

namespace {

// Every test input as a file of its own under a fresh directory, in a stable order, with a
// path that does not exist in the middle.
std::vector<std::string> write_inputs(const fs::path& dir) {
  std::vector<std::string> paths;
  const std::vector<NamedInput>& inputs = all_inputs();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const fs::path p = dir / ("input-" + std::to_string(i) + ".md");
    std::ofstream(p, std::ios::binary) << inputs[i].text;
    paths.push_back(p.string());
    if (i == inputs.size() / 2) paths.push_back((dir / "missing.md").string());
  }
  return paths;
}

ProcessResult check(const std::vector<std::string>& paths, const std::string& format,
                    const std::string& jobs) {
  std::vector<std::string> args = {"check", "--color", "never", "--format", format, "-j", jobs};
  args.insert(args.end(), paths.begin(), paths.end());
  return run_process(BLOCKLS_BINARY, args, "");
}

} // namespace

TEST_CASE("check -j N gives exactly the output of -j 1", "[cli][parallel]") {
  char dir_template[] = "/tmp/blockls-parallel-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  const fs::path dir = dir_template;
  const std::vector<std::string> paths = write_inputs(dir);
  REQUIRE(paths.size() > 100);
  for (const std::string format : {"text", "json", "sarif"}) {
    INFO("format " << format);
    const ProcessResult one = check(paths, format, "1");
    REQUIRE(one.out.size() > 10000);                        // something was checked
    CHECK(one.err.find("missing.md") != std::string::npos); // and the error is reported
    CHECK(one.exit_code == 2);                              // an input could not be read
    for (const std::string jobs : {"2", "7"}) {
      INFO("-j " << jobs);
      const ProcessResult many = check(paths, format, jobs);
      CHECK(many.exit_code == one.exit_code);
      CHECK(many.err == one.err);
      CHECK(many.out == one.out);
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("check's text report of many files is each file's own report, in order",
          "[cli][parallel]") {
  // With several files the report of each is put together by the thread that checked it; with
  // one, by the writer from the whole model. Both must give the same text.
  char dir_template[] = "/tmp/blockls-parallel-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  const fs::path dir = dir_template;
  std::vector<std::string> paths = write_inputs(dir);
  std::erase_if(paths, [](const std::string& p) { return p.find("missing") != std::string::npos; });
  const auto without_summary = [](std::string out) {
    const size_t last = out.rfind(" checked: ");
    REQUIRE(last != std::string::npos);
    out.erase(out.rfind('\n', last) + 1);
    return out;
  };
  std::string each;
  for (const std::string& p : paths)
    each += without_summary(check({p}, "text", "1").out);
  REQUIRE(each.size() > 10000);
  for (const std::string jobs : {"1", "2"}) {
    INFO("-j " << jobs);
    CHECK(without_summary(check(paths, "text", jobs).out) == each);
  }
  fs::remove_all(dir);
}

TEST_CASE("check -j rejects 0 and non-numbers with a clear error", "[cli][parallel]") {
  for (const std::string bad : {"0", "-3", "two", ""}) {
    const ProcessResult r = run_process(BLOCKLS_BINARY, {"check", "-j", bad, "-"}, "");
    INFO("-j '" << bad << "': " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("-j") != std::string::npos);
  }
}

namespace {

ProcessResult run_blockls(std::vector<std::string> args, const std::vector<std::string>& paths) {
  args.insert(args.end(), paths.begin(), paths.end());
  return run_process(BLOCKLS_BINARY, args, "");
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// `text` with every occurrence of `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

} // namespace

TEST_CASE("fix -j N gives exactly the diffs, messages and rewritten files of -j 1",
          "[cli][parallel]") {
  char one_template[] = "/tmp/blockls-parallel-fix-XXXXXX";
  char many_template[] = "/tmp/blockls-parallel-fix-XXXXXX";
  REQUIRE(::mkdtemp(one_template) != nullptr);
  REQUIRE(::mkdtemp(many_template) != nullptr);
  const fs::path one_dir = one_template, many_dir = many_template;
  const std::vector<std::string> one_paths = write_inputs(one_dir);
  const std::vector<std::string> many_paths = write_inputs(many_dir);

  const ProcessResult diff = run_blockls({"fix", "--diff", "-j", "1"}, one_paths);
  REQUIRE(diff.out.find("\n+++ b/") != std::string::npos); // some file had fixes
  CHECK(diff.err.find("missing.md") != std::string::npos);
  for (const std::string jobs : {"2", "7"}) {
    INFO("fix --diff -j " << jobs);
    const ProcessResult many = run_blockls({"fix", "--diff", "-j", jobs}, one_paths);
    CHECK(many.exit_code == diff.exit_code);
    CHECK(many.err == diff.err);
    CHECK(many.out == diff.out);
  }

  const ProcessResult one = run_blockls({"fix", "--in-place", "-j", "1"}, one_paths);
  const ProcessResult many = run_blockls({"fix", "--in-place", "-j", "7"}, many_paths);
  REQUIRE(one.err.find(" fix applied") != std::string::npos);
  CHECK(many.exit_code == one.exit_code);
  CHECK(replace_all(many.err, many_dir.string(), one_dir.string()) == one.err);
  for (size_t i = 0; i < one_paths.size(); ++i) {
    INFO(one_paths[i]);
    CHECK(read_bytes(many_paths[i]) == read_bytes(one_paths[i]));
  }
  fs::remove_all(one_dir);
  fs::remove_all(many_dir);
}

TEST_CASE("apply --dry-run -j N gives exactly the output of -j 1", "[cli][parallel]") {
  char dir_template[] = "/tmp/blockls-parallel-apply-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  const fs::path dir = dir_template;
  fs::create_directories(dir / "in");
  fs::create_directories(dir / "root");
  std::vector<std::string> paths = write_inputs(dir / "in");
  std::erase_if(paths, [](const std::string& p) { return p.ends_with("missing.md"); });
  const std::string root = (dir / "root").string();
  for (const std::string format : {"text", "json"}) {
    INFO("format " << format);
    const ProcessResult one =
        run_blockls({"apply", "--root", root, "--dry-run", "--format", format, "-j", "1"}, paths);
    REQUIRE(one.out.size() > 10000);
    for (const std::string jobs : {"2", "7"}) {
      INFO("-j " << jobs);
      const ProcessResult many = run_blockls(
          {"apply", "--root", root, "--dry-run", "--format", format, "-j", jobs}, paths);
      CHECK(many.exit_code == one.exit_code);
      CHECK(many.err == one.err);
      CHECK(many.out == one.out);
    }
  }
  CHECK(fs::is_empty(dir / "root")); // a dry run writes nothing
  fs::remove_all(dir);
}
