// Golden CLI tests: the real binary's whole output for the bundled mixed transcript
// (examples/mixed.transcript.md: every dialect, prose, fences, deliberate mistakes), in text and
// JSON, byte for byte against tests/data/cli/. Any change to a message, a position, a fix or
// the report's layout shows up here as a diff to review.
// To accept a deliberate change: BLOCKLS_UPDATE_GOLDEN=1 ctest -R golden, then review the diff.
#include "grammar/dialects.h"
#include "support/process.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

using namespace blockls::test;

namespace {

const std::string kSource = BLOCKLS_SOURCE_DIR;

// Runs `blockls args…` from the source tree (so the report names the example by its relative
// path) and compares standard output with the golden file, or rewrites the golden file.
void check_golden(const std::vector<std::string>& args, const std::string& golden, int status) {
  const ProcessResult r = run_process(BLOCKLS_BINARY, args, "", kSource);
  INFO(r.err);
  CHECK(r.exit_code == status);
  const std::string path = kSource + "/tests/data/cli/" + golden;
  if (const char* update = std::getenv("BLOCKLS_UPDATE_GOLDEN"); update && *update == '1') {
    std::ofstream(path, std::ios::binary) << r.out;
    WARN("rewrote " << path);
    return;
  }
  const std::string want = read_file(path);
  REQUIRE(!want.empty());
  CHECK(r.out == want);
}

} // namespace

TEST_CASE("golden: check of the mixed example, text report", "[cli][golden]") {
  check_golden({"check", "--color", "never", "examples/mixed.transcript.md"}, "mixed.check.txt", 1);
}

TEST_CASE("golden: check of the mixed example, JSON report", "[cli][golden]") {
  check_golden({"check", "--format", "json", "examples/mixed.transcript.md"}, "mixed.check.json",
               1);
}

TEST_CASE("the mixed example holds a block of every registered dialect", "[cli][golden]") {
  const ProcessResult r = run_process(
      BLOCKLS_BINARY, {"check", "--format", "json", "examples/mixed.transcript.md"}, "", kSource);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::set<std::string> seen;
  for (const auto& b : j["files"][0]["blocks"])
    seen.insert(b["metadata"]["dialect"].get<std::string>());
  for (const blockls::DialectInfo* info : blockls::kDialectInfos)
    CHECK(seen.count(std::string(info->name)) == 1);
}
