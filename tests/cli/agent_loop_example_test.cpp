// examples/agent-loop.sh, the agent loop the README shows, run as a user would run it on its
// recorded answer: the valid block is applied, the broken one skipped, and its feedback (with
// the corrected block) is what the script prints for the model. Keeps the example from rotting.
#include "apply/apply_test_support.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

using namespace blockls::test;

namespace {

// Runs examples/agent-loop.sh on the recorded answer `answer` with the scratch root `root`, as
// its user would, with this build's blockls.
ProcessResult run_agent_loop(const std::string& answer, const std::string& root) {
  ::setenv("BLOCKLS", BLOCKLS_BINARY, 1);
  ProcessResult r = run_process(
      "/bin/sh", {std::string(BLOCKLS_SOURCE_DIR) + "/examples/agent-loop.sh", answer, root});
  ::unsetenv("BLOCKLS");
  return r;
}

} // namespace

TEST_CASE("examples/agent-loop.sh applies the valid block and prints the feedback",
          "[cli][stream][apply][examples]") {
  const std::string root = make_temp_dir();
  const ProcessResult r =
      run_agent_loop(std::string(BLOCKLS_SOURCE_DIR) + "/examples/agent-answer.md", root);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("applied block 1 (line 6): greeting.py\n") != std::string::npos);
  CHECK(r.out.find("skipped block 2 (line 15): invalid [") != std::string::npos);
  const size_t to_model = r.out.find("--- to send back to the model ---\n");
  REQUIRE(to_model != std::string::npos);
  const std::string feedback = r.out.substr(to_model);
  CHECK(feedback.find("block 2 (telt, settings.toml") != std::string::npos);
  CHECK(feedback.find("--END s4v--") != std::string::npos); // the corrected block
  CHECK(feedback.find("greeting.py") == std::string::npos); // the valid block is not resent
  CHECK(r.out.find("blockls stream exited with 1") != std::string::npos);
  CHECK(get_file(root + "/greeting.py") ==
        "def greet(name: str) -> str:\n    return f\"Hello, {name}!\"\n");
  CHECK(get_file(root + "/settings.toml") == "<missing>");
  std::filesystem::remove_all(root);
}

TEST_CASE("examples/agent-loop.sh forwards the feedback of a valid block the files refuse",
          "[cli][stream][apply][examples]") {
  // The QA repro: the second block writes outside the root. It is valid (no feedback on its
  // block_end), so the model hears of it through its skipped event only.
  const std::string base = make_temp_dir(), root = base + "/root";
  std::filesystem::create_directories(root);
  write_text(base + "/answer.md",
             "#!nesl [@three-char-SHA-256: h01]\naction = \"file_write\"\npath = \"a.txt\"\n"
             "content = \"hi\"\n#!end_h01\n#!nesl [@three-char-SHA-256: h02]\n"
             "action = \"file_write\"\npath = \"../escape.txt\"\ncontent = \"x\"\n#!end_h02\n");
  const ProcessResult r = run_agent_loop(base + "/answer.md", root);
  INFO(r.out << r.err);
  CHECK(r.out.find("skipped block 2 (line 6): failed [PATH_OUTSIDE_ROOT]") != std::string::npos);
  const size_t to_model = r.out.find("--- to send back to the model ---\n");
  REQUIRE(to_model != std::string::npos);
  const std::string feedback = r.out.substr(to_model);
  CHECK(feedback.find("block 2 (nesl, ../escape.txt, lines 6-10) is valid but could not be "
                      "applied") != std::string::npos);
  CHECK(feedback.find("[PATH_OUTSIDE_ROOT]") != std::string::npos);
  CHECK(feedback.find("Every block was applied.") == std::string::npos);
  CHECK(get_file(root + "/a.txt") == "hi");
  CHECK(get_file(base + "/escape.txt") == "<missing>");
  std::filesystem::remove_all(base);
}

TEST_CASE("examples/agent-loop.sh forwards the feedback of a malformed header's error event",
          "[cli][stream][apply][examples]") {
  // The QA repro: the header lacks its '@', so no block is read; the stream writes an error
  // event only. The model must hear of it (with the corrected lines), not "Every block was
  // applied".
  const std::string base = make_temp_dir(), root = base + "/root";
  std::filesystem::create_directories(root);
  write_text(base + "/answer.md", "#!nesl [three-char-SHA-256: k1w]\naction = \"file_write\"\n"
                                  "path = \"a.txt\"\ncontent = \"x\"\n#!end_k1w\n");
  const ProcessResult r = run_agent_loop(base + "/answer.md", root);
  INFO(r.out << r.err);
  CHECK(r.out.find("error (line 1): Invalid NESL header format [MALFORMED_HEADER]") !=
        std::string::npos);
  const size_t to_model = r.out.find("--- to send back to the model ---\n");
  REQUIRE(to_model != std::string::npos);
  const std::string feedback = r.out.substr(to_model);
  CHECK(feedback.find("Every block was applied.") == std::string::npos);
  CHECK(feedback.find("line 1: Invalid NESL header format [MALFORMED_HEADER]") !=
        std::string::npos);
  CHECK(feedback.find("#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\npath = "
                      "\"a.txt\"\ncontent = \"x\"\n#!end_k1w\n") != std::string::npos);
  CHECK(get_file(root + "/a.txt") == "<missing>");
  std::filesystem::remove_all(base);
}
