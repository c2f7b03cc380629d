// `check -j N` checks files on N threads; its output (text, JSON, SARIF, standard error, exit
// status) must not depend on N. Run over every test input, each written to its own file, with
// an unreadable path in the middle (its error must stay in its place).
#include "support/process.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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

TEST_CASE("check -j rejects 0 and non-numbers with a clear error", "[cli][parallel]") {
  for (const std::string bad : {"0", "-3", "two", ""}) {
    const ProcessResult r = run_process(BLOCKLS_BINARY, {"check", "-j", bad, "-"}, "");
    INFO("-j '" << bad << "': " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("-j") != std::string::npos);
  }
}
