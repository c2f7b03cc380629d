// The Catch2 (v2) entry point for blockls_tests. Every blockls run by the tests (in process or
// as a child) keeps its journals in a private temporary state directory, never in the home
// directory of whoever runs the suite.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

int main(int argc, char* argv[]) {
  std::string state;
  if (!std::getenv("BLOCKLS_STATE_DIR")) {
    char tmpl[] = "/tmp/blockls-test-state-XXXXXX";
    if (::mkdtemp(tmpl)) {
      state = tmpl;
      ::setenv("BLOCKLS_STATE_DIR", (state + "/state").c_str(), 1);
    }
  }
  const int result = Catch::Session().run(argc, argv);
  if (!state.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(state, ec);
  }
  return result;
}
