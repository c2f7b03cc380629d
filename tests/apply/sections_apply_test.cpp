// Command input with sections is checked and shown, never run: `blockls apply` skips such a
// block and says so, without failing (exit 0), and runs the other blocks around it; an invalid
// one is skipped as invalid like any block (exit 1).
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace blockls::test;

namespace {

const std::string kTranscript = "```sh\n"
                                "chatroom task-started j1 --role=builder << 'PARAMS_END'\n"
                                "---TITLE---\n"
                                "T\n"
                                "---DESCRIPTION---\n"
                                "rm -rf / is not run\n"
                                "PARAMS_END\n"
                                "```\n"
                                "cat > a.txt << 'EOF'\n"
                                "written\n"
                                "EOF\n"
                                "deploy now << 'EOF'\n"
                                "anything\n"
                                "EOF\n";

} // namespace

TEST_CASE("apply skips command input and says so: the other blocks run", "[apply][sections]") {
  const std::string root = make_temp_dir();
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"}, kTranscript);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(get_file(root + "/a.txt") == "written\n");
  CHECK(r.out.find("<stdin>:2: block 1: not run: command input for 'chatroom "
                   "task-started' (sections): checked, never run\n") != std::string::npos);
  CHECK(r.out.find("block 3: not run: command input for 'deploy now'") != std::string::npos);
  CHECK(r.out.find("2 blocks of command input not run (checked only)\n") != std::string::npos);
  CHECK(r.out.find("1 block: 1 applied, 0 failed, 0 skipped (invalid)") != std::string::npos);
  std::filesystem::remove_all(root);
}

TEST_CASE("apply --format json reports command input as not_run, not as a failure",
          "[apply][sections]") {
  const std::string root = make_temp_dir();
  const ProcessResult r =
      run_blockls({"apply", "--root", root, "--format", "json", "-"}, kTranscript);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["summary"]["notRun"] == 2);
  CHECK(j["summary"]["applied"] == 1);
  CHECK(j["summary"]["skipped"] == 0);
  const nlohmann::json& file = j["files"][0];
  CHECK(file["success"] == true);
  CHECK(file["skipped"].empty());
  CHECK(file["blocks"][0]["status"] == "not_run");
  CHECK(file["blocks"][1]["status"] == "applied");
  std::filesystem::remove_all(root);
}

TEST_CASE("invalid command input is skipped as invalid", "[apply][sections]") {
  const std::string root = make_temp_dir();
  const ProcessResult r = run_blockls({"apply", "--root", root, "-"},
                                      "chatroom task-started x << 'P'\n---TITLE---\nT\nP\n");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("skipped, invalid: [MISSING_PARAM]") != std::string::npos);
  std::filesystem::remove_all(root);
}
