// `check` of a large input in parts (cli/parted_report.h) must write exactly what the whole
// check writes: the real binary is run with the part size forced small
// (BLOCKLS_CHECK_PART_BYTES, for tests) and with checking in parts turned off (0), over every
// test input and a transcript made to stress the cuts, with -j 1 (parts parsed on the thread
// that writes them) and -j 2 (parsed ahead on a second thread), and the outputs (text and JSON),
// standard errors (less the parts line) and exit statuses are compared byte for byte.
#include "bench/transcript_generator.h"
#include "support/process.h"
#include "support/test_inputs.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

using namespace blockls::test;
namespace fs = std::filesystem;

namespace {

// `blockls check --format FORMAT ARGS…` with BLOCKLS_CHECK_PART_BYTES=`part_bytes` ("0": never
// in parts) and `stdin_text` on standard input.
ProcessResult check(const std::string& part_bytes, const std::string& format,
                    const std::vector<std::string>& args, const std::string& stdin_text = "") {
  std::vector<std::string> argv = {"BLOCKLS_CHECK_PART_BYTES=" + part_bytes,
                                   BLOCKLS_BINARY,
                                   "check",
                                   "--color",
                                   "never",
                                   "--format",
                                   format};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process("/usr/bin/env", argv, stdin_text);
}

// The "checked in N parts" lines of a run's standard error: N per input, in order; the rest of
// the standard error in `*rest`.
std::vector<size_t> parts_of(const std::string& err, std::string* rest) {
  static const std::regex line("blockls check: .*: checked in ([0-9]+) parts?\n");
  std::vector<size_t> parts;
  for (std::sregex_iterator it(err.begin(), err.end(), line), end; it != end; ++it)
    parts.push_back(std::stoul((*it)[1].str()));
  *rest = std::regex_replace(err, line, "");
  return parts;
}

// Runs the whole check and the check in parts of `part_bytes` on the same arguments and
// requires the same output; returns the parts each input took.
std::vector<size_t> require_same(const std::string& part_bytes, const std::string& format,
                                 const std::vector<std::string>& args,
                                 const std::string& stdin_text = "") {
  const ProcessResult whole = check("0", format, args, stdin_text);
  std::string whole_err;
  CHECK(parts_of(whole.err, &whole_err).empty()); // 0: never in parts
  REQUIRE(whole.out.size() > 100);
  std::vector<size_t> parts;
  // -j 1: the parts parsed and reported on one thread; -j 2: parsed ahead on a second one.
  for (const std::string jobs : {"1", "2"}) {
    INFO("--format " << format << ", parts of " << part_bytes << " bytes, -j " << jobs);
    std::vector<std::string> with_jobs = {"-j", jobs};
    with_jobs.insert(with_jobs.end(), args.begin(), args.end());
    const ProcessResult parted = check(part_bytes, format, with_jobs, stdin_text);
    std::string parted_err;
    const std::vector<size_t> these = parts_of(parted.err, &parted_err);
    CHECK(parted.exit_code == whole.exit_code);
    CHECK(parted_err == whole_err);
    REQUIRE(parted.out.size() == whole.out.size());
    REQUIRE(parted.out == whole.out);
    if (jobs != "1") CHECK(these == parts);
    parts = these;
  }
  return parts;
}

// A transcript that stresses the cuts: CRLF line breaks, non-ASCII text (and one invalid
// UTF-8 byte, the document's INVALID_UTF8, and a later one), broken blocks (a bad header, an
// unclosed heredoc, a duplicate id, an unknown action), blocks of several dialects, and blocks far
// longer than a part, which every cut must go around.
std::string stress_transcript() {
  std::string t = "Voilà — a transcript with «non-ASCII» text, emoji 🚀 and CJK 漢字.\n\n";
  for (int i = 0; i < 12; ++i) {
    const std::string id = "q" + std::string(1, static_cast<char>('a' + i)) + "z";
    t += "Turn " + std::to_string(i) + ": here is the change.\n\n```\n";
    t += "#!nesl [@three-char-SHA-256: " + id + "]\naction = \"file_write\"\npath = \"/tmp/é" +
         std::to_string(i) + ".txt\"\ncontent = <<'EOT_" + id + "'\n";
    for (int l = 0; l < 3 + 9 * (i % 3); ++l)
      t += "line " + std::to_string(l) + " — ünïcödé text of the file\n";
    t += "EOT_" + id + "\n#!end_" + id + "\n```\n\n";
    if (i == 3) t += "#!nesl [three-char-SHA-256: bad]\nk = \"v\"\n#!end_bad\n\n";
    if (i == 5) t += "A stray byte: \xff here.\n\n";
    if (i == 6)
      t += "#!nesl [@three-char-SHA-256: qaz]\naction = \"no_such_action\"\n#!end_qaz\n\n";
    if (i == 8) t += "cat > notes.txt << 'EOF'\nnotes\nEOF\n\n";
    if (i == 10) t += "Another stray byte, \xfe, that the document's one INVALID_UTF8 is not.\n\n";
  }
  t += "#!nesl [@three-char-SHA-256: zzz]\naction = \"file_write\"\npath = \"x\"\n"
       "content = <<'EOT_zzz'\nnever closed\n";
  std::string crlf;
  for (char c : t) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  return crlf;
}

} // namespace

TEST_CASE("check in parts writes what the whole check writes, over every test input",
          "[cli][parts]") {
  const fs::path dir = make_temp_dir();
  std::vector<std::string> paths;
  const std::vector<NamedInput>& inputs = all_inputs();
  for (size_t i = 0; i < inputs.size(); ++i) {
    paths.push_back((dir / ("input-" + std::to_string(i) + ".md")).string());
    std::ofstream(paths.back(), std::ios::binary) << inputs[i].text;
  }
  for (const std::string format : {"text", "json"}) {
    for (const std::string part_bytes : {"1", "200"}) {
      const std::vector<size_t> parts = require_same(part_bytes, format, paths);
      REQUIRE(parts.size() == paths.size()); // every input was checked in parts
      // Many inputs are cut somewhere (most test inputs are a block or two).
      const size_t several = static_cast<size_t>(
          std::count_if(parts.begin(), parts.end(), [](size_t n) { return n > 2; }));
      CHECK(several >= (part_bytes == "1" ? 25u : 3u));
    }
    // With several jobs the inputs checked in parts keep their places in the output.
    const ProcessResult one = check("0", format, paths);
    std::vector<std::string> jobs = {"-j", "3"};
    jobs.insert(jobs.end(), paths.begin(), paths.end());
    const ProcessResult three = check("64", format, jobs);
    CHECK(three.out == one.out);
  }
  fs::remove_all(dir);
}

TEST_CASE("check in parts: CRLF, non-ASCII, invalid UTF-8, broken blocks, blocks across cuts",
          "[cli][parts]") {
  const fs::path dir = make_temp_dir();
  const std::string path = (dir / "stress.md").string();
  const std::string text = stress_transcript();
  std::ofstream(path, std::ios::binary) << text;
  for (const std::string format : {"text", "json"}) {
    for (const std::string part_bytes : {"1", "100", "700", "5000"}) {
      const std::vector<size_t> parts = require_same(part_bytes, format, {path});
      REQUIRE(parts.size() == 1);
      CHECK(parts[0] > 1);
      if (part_bytes == "100") CHECK(parts[0] >= 8);
    }
    // Without a temporary file (its directory is missing) JSON's errors wait in memory.
    {
      const ProcessResult whole = check("0", format, {path});
      const ProcessResult parted = run_process(
          "/usr/bin/env", {"TMPDIR=" + (dir / "missing").string(), "BLOCKLS_CHECK_PART_BYTES=100",
                           BLOCKLS_BINARY, "check", "--color", "never", "--format", format, path});
      CHECK(parted.exit_code == whole.exit_code);
      CHECK(parted.out == whole.out);
    }
    // --max-size still refuses an input before any part is checked.
    {
      const std::vector<std::string> args = {"--max-size", "1000", path};
      const ProcessResult whole = check("0", format, args);
      const ProcessResult parted = check("100", format, args);
      CHECK(whole.exit_code == 2);
      CHECK(parted.exit_code == whole.exit_code);
      CHECK(parted.err == whole.err);
      CHECK(parted.out == whole.out);
    }
    // Standard input is checked in parts too.
    const std::vector<size_t> parts = require_same("300", format, {"-"}, text);
    REQUIRE(parts.size() == 1);
    CHECK(parts[0] > 1);
  }
  fs::remove_all(dir);
}

TEST_CASE("check in parts: a large generated transcript of every dialect, at the default size",
          "[cli][parts]") {
  // Above the default threshold (4 MiB) without the test variable: parts of 512 KiB.
  const fs::path dir = make_temp_dir();
  const std::string path = (dir / "large.md").string();
  blockls::bench::TranscriptOptions options;
  options.target_bytes = size_t{5} << 20;
  options.mix = blockls::bench::Mix::every;
  options.broken_rate = 0.1;
  std::ofstream(path, std::ios::binary) << blockls::bench::generate_transcript(options);
  for (const std::string format : {"text", "json"}) {
    const ProcessResult whole = check("0", format, {path});
    const ProcessResult defaults =
        run_process(BLOCKLS_BINARY, {"check", "--color", "never", "--format", format, path});
    CHECK(defaults.exit_code == whole.exit_code);
    CHECK(defaults.err == whole.err);
    REQUIRE(defaults.out.size() == whole.out.size());
    CHECK(defaults.out == whole.out);
    // Its parts, at the default size, as the test variable reports them.
    const std::vector<size_t> parts = require_same("1048576", format, {path});
    REQUIRE(parts.size() == 1);
    CHECK(parts[0] >= 5);
  }
  fs::remove_all(dir);
}
