// `check --format feedback`: the text an agent sends back to the model. Golden files per
// dialect's common mistakes (tests/data/cli/feedback/*.md → *.feedback.txt; rewrite with
// BLOCKLS_UPDATE_GOLDEN=1 and review the diff), and the promise behind "Send this corrected
// block instead": put in place of the broken block, it has fewer errors and no new kind of
// error — over every test input of every dialect.
#include "cli/feedback_report.h"
#include "fixits/verify_fixes.h"
#include "support/process.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

using namespace blockls;
namespace fs = std::filesystem;

TEST_CASE("feedback: golden text for each dialect's common mistakes", "[cli][feedback]") {
  const fs::path dir = fs::path(BLOCKLS_SOURCE_DIR) / "tests/data/cli/feedback";
  size_t cases = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".md") continue;
    const std::string name = entry.path().filename().string();
    const test::ProcessResult r = test::run_process(
        BLOCKLS_BINARY, {"check", "--format", "feedback", name}, "", dir.string());
    INFO(name << "\n" << r.err);
    CHECK(r.exit_code == 1); // every case has a mistake
    fs::path golden = entry.path();
    golden.replace_extension(".feedback.txt");
    if (const char* update = std::getenv("BLOCKLS_UPDATE_GOLDEN"); update && *update == '1') {
      std::ofstream(golden, std::ios::binary) << r.out;
      WARN("rewrote " << golden.string());
    } else {
      CHECK(r.out == test::read_file(golden.string()));
    }
    ++cases;
  }
  CHECK(cases >= 7);
}

namespace {

std::map<std::string, int> error_codes(const CheckedDocument& c) {
  std::map<std::string, int> codes;
  for (const Diagnostic& d : c.diagnostics)
    if (is_error(d.severity)) ++codes[std::string(d.code)];
  return codes;
}

} // namespace

TEST_CASE("feedback: a corrected block, put in place, removes errors and adds none",
          "[cli][feedback]") {
  size_t corrected = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    const CheckedDocument checked = check_with_verified_fixes(input.text);
    const std::map<std::string, int> before = error_codes(checked);
    for (size_t b = 0; b < checked.parsed.blocks.size(); ++b) {
      if (checked.verdicts[b].valid) continue;
      const std::optional<std::string> fixed = cli::corrected_block(input.text, checked, b);
      if (!fixed) continue;
      // Where the block's text was: find it by the span the correction replaced, i.e. the
      // text that differs. The corrected block starts at the block's first line.
      const std::string feedback = cli::block_feedback(input.text, checked, b, b + 1);
      REQUIRE(feedback.find(*fixed) != std::string::npos);
      const std::string whole = cli::corrected_document(input.text, checked, b);
      const std::map<std::string, int> after = error_codes(check_document(whole));
      INFO(input.name << " block " << b + 1 << "\n" << *fixed);
      int total_before = 0, total_after = 0;
      for (const auto& [code, n] : before)
        total_before += n;
      for (const auto& [code, n] : after) {
        total_after += n;
        CHECK(n <= (before.count(code) ? before.at(code) : 0));
      }
      CHECK(total_after < total_before);
      ++corrected;
    }
  }
  CHECK(corrected > 50);
}

TEST_CASE("feedback: a block's path is shown trimmed as apply reads it, CRLF or not",
          "[cli][feedback]") {
  // The QA repro: a TELT value keeps its CRLF break, so the path's value ends in "\r"; the
  // header must name the file without it.
  const std::string crlf = "#!telt [3-char SHA: k7m]\r\n=== CREATE_FILE ===\r\n--PATH k7m--\r\n"
                           "src/\xc3\xa9\xf0\x9f\x98\x80.txt\r\n--CONTENT k7m--\r\nhello\r\n"
                           "--END k7x--\r\n";
  const CheckedDocument checked = check_with_verified_fixes(crlf);
  REQUIRE(checked.parsed.blocks.size() == 1);
  const std::string feedback = cli::block_feedback(crlf, checked, 0, 1);
  CHECK(feedback.starts_with("block 1 (telt, src/\xc3\xa9\xf0\x9f\x98\x80.txt, lines 1-7) has "));
  // Every test input with CRLF breaks: no block header (up to its line numbers) holds a "\r".
  size_t headers = 0;
  for (const test::NamedInput& input : test::all_inputs()) {
    std::string text;
    for (char c : input.text) {
      if (c == '\n' && (text.empty() || text.back() != '\r')) text += '\r';
      text += c;
    }
    const std::string all = cli::feedback_text(text, check_with_verified_fixes(text));
    static const std::regex header("block [0-9]+ \\(([^\n]*?), lines? [0-9]");
    for (auto m = std::sregex_iterator(all.begin(), all.end(), header); m != std::sregex_iterator();
         ++m) {
      INFO(input.name << ": " << m->str());
      CHECK(m->str(1).find('\r') == std::string::npos);
      ++headers;
    }
  }
  CHECK(headers > 50);
}

TEST_CASE("feedback: the diagnostics by block are each block's own, in check's order",
          "[cli][feedback]") {
  // feedback_text and the stream group a check's diagnostics by block once (reading them all
  // for each of thousands of unclosed blocks took seconds); the groups are what a filter gives.
  for (const test::NamedInput& input : test::all_inputs()) {
    INFO(input.name);
    const CheckedDocument checked = check_with_verified_fixes(input.text);
    const cli::DiagnosticsByBlock by_block(checked);
    for (size_t b = 0; b < checked.parsed.blocks.size(); ++b) {
      std::vector<const Diagnostic*> expected;
      for (const Diagnostic& d : checked.diagnostics)
        if (d.block == static_cast<int32_t>(b)) expected.push_back(&d);
      CHECK(by_block.of(b) == expected);
      CHECK(cli::block_feedback(input.text, checked, b, b + 1, by_block) ==
            cli::block_feedback(input.text, checked, b, b + 1));
    }
  }
}
