// `blockls lsp` accepts the flags language clients pass on its command line: `--stdio`
// (vscode-languageclient adds it to every stdio server) and `--clientProcessId N`.
#include "support/process.h"

#include <catch2/catch.hpp>
#include <string>
#include <unistd.h>

using blockls::test::run_blockls;

TEST_CASE("lsp accepts --stdio and --clientProcessId in both spellings", "[cli][lsp]") {
  const std::string self = std::to_string(getpid()); // alive while the server runs
  // Empty input: the server starts, sees the end of its input without shutdown, and exits 1;
  // a rejected flag would exit 2 with a usage message instead.
  for (const auto& args : {std::vector<std::string>{"lsp", "--stdio"},
                           {"lsp", "--stdio", "--clientProcessId=" + self},
                           {"lsp", "--clientProcessId", self, "--stdio"}}) {
    const auto r = run_blockls(args);
    INFO(args.back() << ": " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("not expected") == std::string::npos);
  }
  const auto help = run_blockls({"lsp", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--stdio") != std::string::npos);
  CHECK(help.out.find("--clientProcessId") != std::string::npos);
}

TEST_CASE("lsp refuses a --clientProcessId that is not a positive number", "[cli][lsp]") {
  for (const std::string bad : {"0", "-3", "abc"}) {
    const auto r = run_blockls({"lsp", "--clientProcessId=" + bad});
    INFO(bad << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("clientProcessId") != std::string::npos);
  }
}
