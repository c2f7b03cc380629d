// The real `blockls` binary: subcommands, formats, exit codes and bad input.
#include "support/process.h"
#include "support/test_inputs.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sys/stat.h>

using blockls::test::run_blockls;
namespace test = blockls::test;

namespace {

const std::string kValidTelt =
    "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\na.txt\n"
    "--CONTENT abc--\nhi\n--END abc--\n";
// One error (a wrong end hash) on line 7, column 7, with a preferred fix.
const std::string kBrokenTelt =
    "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\na.txt\n"
    "--CONTENT abc--\nhi\n--END abx--\n";

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string dir = test::make_temp_dir();
  const std::string path = dir + "/" + name;
  test::write_text(path, text);
  return path;
}

} // namespace

TEST_CASE("the help and version options", "[cli]") {
  auto r = run_blockls({"--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("check") != std::string::npos);
  CHECK(r.out.find("fix") != std::string::npos);
  r = run_blockls({"--version"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("blockls ", 0) == 0);
  r = run_blockls({"check", "--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("--format") != std::string::npos);
}

TEST_CASE("each command's help gives its own exit status", "[cli][wording]") {
  const std::map<std::string, std::string> exit_status = {
      {"check", "Exit status: 0 no error-severity diagnostic, 1 some, 2 usage or I/O error."},
      {"fix", "Exit status: 0 no error-severity diagnostic is left after the fixes"},
      {"apply", "Exit status: 0 every block applied"},
      {"stream", "Exit status: 0 no error-severity diagnostic (and, with --apply"},
      {"lsp", "Exit status: 0 after shutdown and exit"},
      {"codes", "Exit status: 0, or 2 on a usage error."},
      {"instructions", "Exit status: 0, or 2 for an unknown dialect or a usage error."}};
  for (const auto& [command, status] : exit_status) {
    INFO(command);
    const auto r = run_blockls({command, "--help"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find(status) != std::string::npos);
    CHECK(r.out.find("Exit status:") == r.out.rfind("Exit status:")); // only its own
  }
  CHECK(run_blockls({"--help"}).out.find("Each command's --help gives its exit status.") !=
        std::string::npos);
}

TEST_CASE("every option in the help has a description", "[cli][wording]") {
  const auto r = run_blockls({"codes", "--help"});
  CHECK(r.out.find("Output format") != std::string::npos);
}

TEST_CASE("a root that cannot be used is reported by the command that ran", "[cli][wording]") {
  auto r = run_blockls({"check", "--root", "/nonexistent/blockls-root", "-"}, kValidTelt);
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("blockls check: /nonexistent/blockls-root: cannot resolve the root"));
  r = run_blockls({"check", "--root", "/tmp", "--allow-root", "/nonexistent/blockls-root", "-"},
                  kValidTelt);
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("blockls check: /nonexistent/blockls-root: "));
}

TEST_CASE("options that need --root are a usage error without it", "[cli][root-only]") {
  auto r = run_blockls({"check", "--allow-exec", "-"}, kValidTelt);
  CHECK(r.exit_code == 2);
  CHECK(r.err == "blockls check: --allow-exec needs --root DIR (only the checks against the files "
                 "under it use it)\n");
  CHECK(r.out.empty());
  r = run_blockls({"check", "--deny", "x/**", "--allow-root", "/tmp", "-"}, kValidTelt);
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("blockls check: --deny and --allow-root need --root DIR"));
  // stream's options of applying name what was given, the same way.
  r = run_blockls({"stream", "--root", "/tmp", "--allow-exec"}, "");
  CHECK(r.exit_code == 2);
  CHECK(r.err == "blockls stream: --root and --allow-exec are only used with --apply\n");
  // With --root they are taken.
  const std::string dir = test::make_temp_dir();
  r = run_blockls({"check", "--root", dir, "--allow-exec", "--deny", "x/**", "-"}, kValidTelt);
  CHECK(r.exit_code == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("check's text output underlines in terminal cells", "[cli][width]") {
  // 日本語 takes 6 cells, e + U+0301 1, fullwidth Ａ 2, a zero width space 0, \x01 4.
  const std::string path_line = "path = \"日本語e\xcc\x81\xef\xbc\xa1\xe2\x80\x8b.txt\" junk";
  const std::string input = "#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\n" +
                            path_line + "\ncontent = \"\x01x\" y\n#!end_k1w\n";
  auto r = run_blockls({"check", "--color=never", "-"}, input);
  INFO(r.out);
  CHECK(r.out.find(" > 3 | " + path_line + "\n     | " + std::string(23, ' ') + "^^^^\n") !=
        std::string::npos);
  CHECK(r.out.find(" > 4 | content = \"\\x01x\" y\n     | " + std::string(10, ' ') + "^^^^^^^\n") !=
        std::string::npos);
  // A tab inside the underlined range is underlined to its tab stop (it once got one caret):
  // the rows' prefix " > 13 | " is 8 cells, so the tab takes 8 and EOF 3.
  std::string tabbed;
  for (int i = 1; i <= 10; ++i)
    tabbed += "prose " + std::to_string(i) + "\n";
  tabbed += "cat > a.txt << 'EOF'\nhi\n\tEOF\nEOF\n";
  const auto t = run_blockls({"check", "--color=never", "-"}, tabbed);
  INFO(t.out);
  CHECK(t.out.find(" > 13 | \tEOF\n      | " + std::string(11, '^') + "\n") != std::string::npos);
  // JSON columns stay UTF-16 code units: 8 + 3 + 2 + 1 + 1 + 6 before `junk`.
  r = run_blockls({"check", "--format", "json", "-"}, input);
  bool found = false;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& e : doc["files"][0]["errors"])
    if (e["code"] == "TRAILING_CONTENT") {
      found = true;
      CHECK(e["line_number"] == 3);
      CHECK(e["column"] == 22);
    }
  CHECK(found);
}

TEST_CASE("README's usage of stream shows --format jsonl, as its help does", "[cli][wording]") {
  const std::string readme = test::read_file(std::string(BLOCKLS_SOURCE_DIR) + "/README.md");
  CHECK(readme.find("blockls stream [--format jsonl]") != std::string::npos);
}

TEST_CASE("usage errors exit 2 with a message", "[cli]") {
  auto r = run_blockls({"check"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("files") != std::string::npos);
  r = run_blockls({"check", "--format", "xml", "-"});
  CHECK(r.exit_code == 2);
  r = run_blockls({"frobnicate"});
  CHECK(r.exit_code == 2);
}

TEST_CASE("check exits 0 on a clean file and 1 on an error", "[cli]") {
  auto r = run_blockls({"check", "-"}, kValidTelt);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("1 file checked: 1 block (1 valid, 0 invalid), 0 errors") != std::string::npos);
  r = run_blockls({"check", "--color=never", "-"}, kBrokenTelt);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("<stdin>:7:7: error: ") != std::string::npos);
  CHECK(r.out.find("[HASH_MISMATCH]") != std::string::npos);
  CHECK(r.out.find("hint: ") != std::string::npos);
  CHECK(r.out.find("\033[") == std::string::npos); // no colour when not a terminal
}

TEST_CASE("check reports unreadable, binary and oversized input with exit 2", "[cli]") {
  auto r = run_blockls({"check", "/nonexistent/blockls.md"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("/nonexistent/blockls.md: cannot open") != std::string::npos);
  const std::string bin = temp_file("bin.dat", std::string("abc\0def", 7));
  r = run_blockls({"check", bin});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("binary file (NUL byte at offset 3)") != std::string::npos);
  const std::string big = temp_file("big.md", std::string(2000, 'x'));
  r = run_blockls({"check", "--max-size", "1000", big});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("over the limit") != std::string::npos);
  // A good file beside a bad one is still checked and reported.
  const std::string good = temp_file("good.telt", kValidTelt);
  r = run_blockls({"check", "--format", "json", good, "/nonexistent/x"});
  CHECK(r.exit_code == 2);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["files"].size() == 2);
  CHECK(j["files"][1].contains("io_error"));
  // In the order of the arguments, an unreadable one first too (it once came last), whatever -j.
  for (const char* jobs : {"1", "2"}) {
    r = run_blockls({"check", "--format", "json", "--max-size", "1000", "-j", jobs,
                     "/nonexistent/x", good, big});
    const auto k = nlohmann::json::parse(r.out);
    REQUIRE(k["files"].size() == 3);
    CHECK(k["files"][0]["path"] == "/nonexistent/x");
    CHECK(k["files"][0].contains("io_error"));
    CHECK(!k["files"][1].contains("io_error"));
    CHECK(k["files"][2].contains("io_error"));
  }
}

TEST_CASE("check --format json follows the seed's shape plus our fields", "[cli]") {
  const std::string path = temp_file("t.telt", kBrokenTelt);
  auto r = run_blockls({"check", "--format", "json", path});
  CHECK(r.exit_code == 1);
  const auto j = nlohmann::json::parse(r.out);
  const auto& file = j["files"][0];
  CHECK(file["path"] == path);
  CHECK(file["summary"]["blocks_parsed"] == 1);
  CHECK(file["summary"]["blocks_valid"] == 0);
  CHECK(file["blocks"][0]["commands"][0]["type"] == "CREATE_FILE");
  CHECK(file["blocks"][0]["commands"][0]["params"]["FILE"] == "a.txt");
  CHECK(file["blocks"][0]["metadata"]["hash"] == "abc");
  const auto& e = file["errors"][0];
  CHECK(e["code"] == "HASH_MISMATCH");
  CHECK(e["severity"] == "block_fatal");
  CHECK(e["line_number"] == 7);
  CHECK(e["column"] == 7);
  CHECK(e["end_line"] == 7);
  CHECK(e["end_column"] == 10);
  CHECK(e["dialect"] == "telt");
  CHECK(e["block_id"] == "abc");
  CHECK(e["content"] == "--END abx--");
  CHECK(e["block_context"]["start_line"] == 1);
  CHECK(e["context_window"].get<std::string>().find("line 7: --END abx--  <-- ERROR HERE") !=
        std::string::npos);
  REQUIRE(e["fixes"].size() >= 1);
  CHECK(e["fixes"][0]["preferred"] == true);
  CHECK(e["fixes"][0]["edits"][0]["start_line"] == 7);
  CHECK(e["fixes"][0]["edits"][0]["new_text"] == "abc");
}

TEST_CASE("check --format sarif: an unreadable input makes the invocation unsuccessful",
          "[cli][sarif]") {
  const std::string dir = test::make_temp_dir();
  const std::string good = dir + "/good.md", missing = dir + "/missing.md";
  test::write_text(good, kBrokenTelt);
  const auto json_run = run_blockls({"check", "--format", "json", missing});
  const std::string io_error = nlohmann::json::parse(json_run.out)["files"][0]["io_error"];

  auto r = run_blockls({"check", "--format", "sarif", good, missing});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  auto s = nlohmann::json::parse(r.out);
  CHECK(s["runs"][0]["results"].size() == 1); // the readable file is still reported
  const auto& invocation = s["runs"][0]["invocations"][0];
  CHECK(invocation["executionSuccessful"] == false);
  REQUIRE(invocation["toolExecutionNotifications"].size() == 1);
  const auto& n = invocation["toolExecutionNotifications"][0];
  CHECK(n["level"] == "error");
  CHECK(n["message"]["text"] == io_error);
  CHECK(n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "file://" + missing);

  r = run_blockls({"check", "--format", "sarif", good});
  CHECK(r.exit_code == 1);
  s = nlohmann::json::parse(r.out);
  CHECK(s["runs"][0]["invocations"] == nlohmann::json::parse(R"([{"executionSuccessful": true}])"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("check --format sarif is SARIF 2.1.0 with rules, regions and fixes", "[cli]") {
  auto r = run_blockls({"check", "--format", "sarif", "-"}, kBrokenTelt);
  CHECK(r.exit_code == 1);
  const auto s = nlohmann::json::parse(r.out);
  CHECK(s["version"] == "2.1.0");
  const auto& run = s["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "blockls");
  CHECK(run["columnKind"] == "utf16CodeUnits");
  const auto& rules = run["tool"]["driver"]["rules"];
  REQUIRE(rules.size() > 30);
  const auto& result = run["results"][0];
  CHECK(result["ruleId"] == "HASH_MISMATCH");
  CHECK(rules[result["ruleIndex"].get<size_t>()]["id"] == "HASH_MISMATCH");
  CHECK(result["level"] == "error");
  const auto& region = result["locations"][0]["physicalLocation"]["region"];
  CHECK(region["startLine"] == 7);
  CHECK(region["startColumn"] == 7);
  CHECK(region["endColumn"] == 10);
  CHECK(result["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] ==
        "abc");
}

TEST_CASE("columns are UTF-16 units in every format", "[cli]") {
  // "é😀" before the bad hash: 1 + 2 units; the hash sits at UTF-16 column 10 of line 6.
  const std::string text =
      "#!telt [3-char SHA: abc]\r\n=== CREATE_FILE ===\r\n--FILE abc--\r\na.txt\r\n"
      "--CONTENT abc--\r\n\xC3\xA9\xF0\x9F\x98\x80 --FILE abx--\r\n--END abc--\r\n";
  auto r = run_blockls({"check", "--format", "json", "-"}, text);
  const auto j = nlohmann::json::parse(r.out);
  // The indented line is content (another hash): the block is valid.
  CHECK(j["files"][0]["summary"]["blocks_valid"] == 1);
  CHECK(j["files"][0]["blocks"][0]["commands"][0]["params"]["CONTENT"] ==
        "\xC3\xA9\xF0\x9F\x98\x80 --FILE abx--\r");
  const std::string bad =
      "x\xF0\x9F\x98\x80\n#!telt [3-char SHA: abc]\n=== CRAETE_FILE ===\n--END abc--\n";
  r = run_blockls({"check", "--format", "json", "-"}, bad);
  const auto k = nlohmann::json::parse(r.out);
  CHECK(k["files"][0]["errors"][0]["column"] == 5);
}

TEST_CASE("fix prints the fixed text, a diff, or rewrites in place", "[cli]") {
  auto r = run_blockls({"fix", "-"}, kBrokenTelt);
  CHECK(r.exit_code == 0); // nothing error-severity is left
  CHECK(r.out == kValidTelt);
  r = run_blockls({"fix", "--diff", "-"}, kBrokenTelt);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("---END abx--") != std::string::npos);
  CHECK(r.out.find("+--END abc--") != std::string::npos);
  CHECK(r.out.find("@@") != std::string::npos);

  const std::string path = temp_file("fixme.telt", kBrokenTelt);
  chmod(path.c_str(), 0640);
  r = run_blockls({"fix", "--in-place", path});
  CHECK(r.exit_code == 0);
  std::ifstream in(path);
  const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(after == kValidTelt);
  struct stat st {};
  stat(path.c_str(), &st);
  CHECK((st.st_mode & 0777) == 0640);
  // No temporary file is left beside it.
  size_t entries = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(path).parent_path())) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 1);
}

TEST_CASE("fix exits 1 when errors without a fix remain", "[cli]") {
  auto r =
      run_blockls({"fix", "-"}, "#!telt [3-char SHA: abc]\n=== LAUNCH_ROCKETS ===\n--END abc--\n");
  CHECK(r.exit_code == 1);
  r = run_blockls({"fix", "--diff", "--in-place", "-"}, "x");
  CHECK(r.exit_code == 2);
}

TEST_CASE("the bundled example mixes every dialect and era", "[cli]") {
  auto r = run_blockls(
      {"check", "--format", "json", std::string(BLOCKLS_SOURCE_DIR) + "/examples/transcript.md"});
  CHECK(r.exit_code == 1);
  const auto j = nlohmann::json::parse(r.out);
  std::set<std::string> eras;
  for (const auto& b : j["files"][0]["blocks"])
    eras.insert(b["metadata"]["era"].get<std::string>());
  CHECK(eras == std::set<std::string>{"telt", "nesl", "NESL", "sham"});
  CHECK(j["files"][0]["summary"]["blocks_valid"].get<int>() >= 2);
  CHECK(j["files"][0]["summary"]["errors"].get<int>() >= 3);
}

TEST_CASE("feedback of several files names each, even when only one could be read", "[cli]") {
  const std::string good = temp_file("fb.telt", kValidTelt);
  const auto r = run_blockls({"check", "--format", "feedback", "/nonexistent/x", good});
  CHECK(r.exit_code == 2);
  CHECK(r.out.starts_with("== " + good + " ==\n"));
}

TEST_CASE("usage mistakes found by the QA pass get messages in our words", "[cli][wording]") {
  // `check - -` once read standard input twice and reported two files.
  auto r = run_blockls({"check", "-", "-"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("standard input ('-') can be read only once") != std::string::npos);
  r = run_blockls({"apply", "--dry-run", "--root", "/tmp", "-", "-"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("can be read only once") != std::string::npos);
  // An empty name once gave "blockls: : cannot open".
  r = run_blockls({"check", ""});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("'' (an empty file name)") != std::string::npos);
  // CLI11's "At Most 1 required but received 2".
  r = run_blockls({"check", "--format", "json", "--format", "text", "-"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--format: given 2 times; give it once") != std::string::npos);
  // --docs-url is a base: a page is appended after a '/', and it cannot be empty.
  const std::string t = temp_file("docs.telt", kBrokenTelt);
  r = run_blockls({"check", "--format", "sarif", "--docs-url", "https://example.org/codes", t});
  CHECK(r.out.find("\"https://example.org/codes/telt.md#") != std::string::npos);
  r = run_blockls({"check", "--docs-url", "", t});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--docs-url: needs a URL") != std::string::npos);
  // `--deny ''` denied nothing, silently.
  for (const char* command : {"check", "apply"}) {
    r = run_blockls({command, "--root", "/tmp", "--deny", "", t});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--deny: needs a glob, not an empty string") != std::string::npos);
  }
}

TEST_CASE("a TELT value's CRLF break is not underlined: the same columns as with LF", "[cli]") {
  // spec/telt.md keeps a line's final "\r" in the value; the diagnostic on the value once
  // covered it (one column more, length 6 instead of 5 here: found by the QA pass).
  std::string lf = "#!telt [3-char SHA: abc]\n=== REPLACE_ALL_TEXT ===\n--PATH abc--\na.txt\n"
                   "--OLD_TEXT abc--\nx\n--NEW_TEXT abc--\ny\n--COUNT abc--\n\xF0\x9F\x98\x80two\n"
                   "--END abc--\n";
  std::string crlf;
  for (char c : lf)
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const auto errors_of = [](const std::string& path) {
    const auto r = run_blockls({"check", "--format", "json", path});
    return nlohmann::json::parse(r.out)["files"][0]["errors"];
  };
  const nlohmann::json a = errors_of(temp_file("count_lf.telt", lf));
  const nlohmann::json b = errors_of(temp_file("count_crlf.telt", crlf));
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  CHECK(b[0]["code"] == "INVALID_PARAM_TYPE");
  for (const char* field : {"line_number", "column", "end_line", "end_column", "length"})
    CHECK(a[0][field] == b[0][field]);
  CHECK(b[0]["length"] == 5);
}
