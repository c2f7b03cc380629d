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
#include <unistd.h>

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
      // (quoted with "\n" line breaks, as the feedback's own lines)
      const std::string shown = std::regex_replace(*fixed, std::regex("\r\n"), "\n");
      REQUIRE(feedback.find(shown) != std::string::npos);
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
      // The QA's mutations: a proposed correction re-checks valid on its own (it used to hold
      // the next block's start line, or keep an error the fixes did not correct).
      const CheckedDocument alone = check_document(*fixed);
      CHECK(alone.error_count() == 0);
      CHECK(alone.parsed.blocks.size() >= 1);
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

namespace {

std::string write_temp(const fs::path& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name, std::ios::binary) << text;
  return (dir / name).string();
}

// The `feedback` of the first event of kind `kind` in the stream's output (empty when none).
std::string event_feedback(const std::string& events, const std::string& kind) {
  size_t at = 0;
  while (at < events.size()) {
    const size_t nl = events.find('\n', at);
    const std::string line = events.substr(at, nl == std::string::npos ? nl : nl - at);
    at = nl == std::string::npos ? events.size() : nl + 1;
    if (line.find("\"event\":\"" + kind + "\"") == std::string::npos) continue;
    static const std::regex feedback("\"feedback\":\"((?:[^\"\\\\]|\\\\.)*)\"");
    std::smatch m;
    if (std::regex_search(line, m, feedback)) return m.str(1);
  }
  return "";
}

} // namespace

TEST_CASE("feedback: a malformed header's error gets feedback with the corrected lines",
          "[cli][feedback][stream]") {
  // The QA repro: the '@' is missing, so no block is read. check's feedback said "No blocks
  // found." and the stream's error event had no feedback: the agent said every block applied.
  const std::string answer = "#!nesl [three-char-SHA-256: k1w]\naction = \"file_write\"\n"
                             "path = \"a.txt\"\ncontent = \"x\"\n#!end_k1w\n";
  const test::ProcessResult check =
      test::run_blockls({"check", "--format", "feedback", "-"}, answer);
  CHECK(check.exit_code == 1);
  CHECK(check.out.find("No blocks found.") == std::string::npos);
  CHECK(check.out.find("line 1: Invalid NESL header format [MALFORMED_HEADER]\n  A header is") !=
        std::string::npos);
  CHECK(check.out.find("Send these corrected lines instead:\n```\n#!nesl [@three-char-SHA-256: "
                       "k1w]\naction = \"file_write\"\npath = \"a.txt\"\ncontent = \"x\"\n"
                       "#!end_k1w\n```\n") != std::string::npos);
  const test::ProcessResult stream = test::run_blockls({"stream"}, answer);
  const std::string feedback = event_feedback(stream.out, "error");
  INFO(stream.out);
  CHECK(feedback.find("[MALFORMED_HEADER]") != std::string::npos);
  CHECK(feedback.find("Send these corrected lines instead:") != std::string::npos);
}

TEST_CASE("feedback: with --root, an Aider correction closes its fence and an edit already "
          "applied gets no correction",
          "[cli][feedback]") {
  const fs::path dir =
      fs::temp_directory_path() / fs::path("blockls-feedback-" + std::to_string(::getpid()));
  fs::create_directories(dir / "root");
  write_temp(dir / "root", "app.py", "def greet(name):\n    return \"Hello, \" + name\n");
  const std::string edit = "app.py\n```python\n<<<<<<< SEARCH\n    return \"Helo, \" + name\n"
                           "=======\n    return f\"Hello, {name}\"\n>>>>>>> REPLACE\n```\n";
  const std::string typo = write_temp(dir, "typo.md", edit);
  const test::ProcessResult r =
      test::run_blockls({"check", "--format", "feedback", "--root", (dir / "root").string(), typo});
  INFO(r.out << r.err);
  // The corrected block opens the fence after the file name, and closes it.
  CHECK(r.out.find("(editblock, app.py, lines 1-8)") != std::string::npos);
  CHECK(r.out.find(">>>>>>> REPLACE\n```\n````\n") != std::string::npos);
  // The same edit twice: the second finds its new text in the file (as the first leaves it).
  write_temp(dir / "root", "app.py", "def greet(name):\n    return f\"Hello, {name}\"\n");
  const std::string done = write_temp(dir, "done.md",
                                      "app.py\n```python\n<<<<<<< SEARCH\n    return \"Hello, \" + "
                                      "name\n=======\n    return f\"Hello, {name}\"\n>>>>>>> "
                                      "REPLACE\n```\n");
  const test::ProcessResult again =
      test::run_blockls({"check", "--format", "feedback", "--root", (dir / "root").string(), done});
  INFO(again.out << again.err);
  CHECK(again.out.find("[REPLACE_ALREADY_PRESENT] (warning)") != std::string::npos);
  CHECK(again.out.find("appears to be applied already") != std::string::npos);
  CHECK(again.out.find("Send this corrected block instead") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("feedback: a failed exec's feedback quotes the end of what the command wrote",
          "[cli][feedback][stream]") {
  const fs::path dir =
      fs::temp_directory_path() / fs::path("blockls-feedback-exec-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string answer = "#!nesl [@three-char-SHA-256: x02]\naction = \"exec\"\n"
                             "lang = \"bash\"\ncode = \"echo said-on-stdout; echo no-such-file "
                             ">&2; exit 3\"\n#!end_x02\n";
  const test::ProcessResult r =
      test::run_blockls({"stream", "--apply", "--allow-exec", "--root", dir.string()}, answer);
  INFO(r.out << r.err);
  const std::string feedback = event_feedback(r.out, "skipped");
  CHECK(feedback.find("[EXEC_FAILED]") != std::string::npos);
  CHECK(feedback.find("its stderr:\\nno-such-file\\n") != std::string::npos);
  CHECK(feedback.find("its stdout:\\nsaid-on-stdout\\n") != std::string::npos);
  fs::remove_all(dir);
}
