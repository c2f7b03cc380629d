// Hostile input to the real `blockls` binary outside apply/: invalid UTF-8 in every output
// format, schema files that are no regular file, numeric options out of range, inputs that
// never end, a byte order mark before the first block, `fix --in-place` through a symlink.
// Each case once aborted, hung or did the wrong thing; each asserts the exact exit status.
#include "support/process.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using blockls::test::run_blockls;
namespace test = blockls::test;
namespace fs = std::filesystem;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A named pipe whose write end this test holds open (with `bytes` already written) until
// release() or the destructor: a reader that waits for the end of input waits until then, so
// a program that reads such a pipe to its end is seen as slow.
class HeldFifo {
public:
  explicit HeldFifo(const std::string& bytes) : path_(test::make_temp_dir() + "/pipe") {
    REQUIRE(::mkfifo(path_.c_str(), 0600) == 0);
    // O_RDWR does not wait for a reader (Linux); the pipe buffer (64 KiB) holds `bytes`.
    fd_ = ::open(path_.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC); // not in the child
    REQUIRE(fd_ >= 0);
    REQUIRE(::write(fd_, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    closer_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      released_cv_.wait_for(lock, std::chrono::seconds(5), [this] { return released_; });
      ::close(fd_);
    });
  }
  ~HeldFifo() {
    release();
    closer_.join();
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    released_cv_.notify_all();
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
  int fd_ = -1;
  std::mutex mutex_;
  std::condition_variable released_cv_;
  bool released_ = false;
  std::thread closer_;
};

struct Timed {
  test::ProcessResult result;
  double seconds = 0;
};

Timed timed_blockls(const std::vector<std::string>& args) {
  const auto start = std::chrono::steady_clock::now();
  Timed t{run_blockls(args), 0};
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

const std::string kFffd = "\xEF\xBF\xBD";

// A valid TELT block that creates `file` with `content`.
std::string telt_create(const std::string& file, const std::string& content) {
  return "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\n" + file +
         "\n--CONTENT abc--\n" + content + "\n--END abc--\n";
}

// A valid NESL block that writes `file` with `content`.
std::string nesl_write(const std::string& file, const std::string& content) {
  return "#!nesl [@three-char-SHA-256: k1x]\naction = \"write_file\"\npath = \"" + file +
         "\"\ncontent = \"" + content + "\"\n#!end_k1x\n";
}

} // namespace

TEST_CASE("invalid UTF-8 in prose: every check format completes", "[cli][adversarial]") {
  const std::string prose = "prose \xff only\n";
  auto r = run_blockls({"check", "--format", "json", "-"}, prose);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["files"][0]["summary"]["blocks_parsed"] == 0);
  r = run_blockls({"check", "--format", "sarif", "-"}, prose);
  CHECK(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["version"] == "2.1.0");
  r = run_blockls({"check", "--format", "text", "-"}, prose);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("1 file checked: 0 blocks") != std::string::npos);
  // The text report is valid UTF-8 too: the echoed line shows U+FFFD, the caret under it.
  CHECK(r.out.find("prose \xEF\xBF\xBD only") != std::string::npos);
  CHECK(r.out.find('\xff') == std::string::npos);
  CHECK(r.out.find("       ^") != std::string::npos);
}

TEST_CASE("invalid UTF-8 in parameter values: JSON and SARIF carry U+FFFD", "[cli][adversarial]") {
  struct Case {
    std::string text;
    const char* param; // the parameter that holds the invalid byte, or "" (then a diagnostic)
  };
  const std::vector<Case> cases = {
      {telt_create("a.txt", "h\xffi"), "CONTENT"},
      {nesl_write("a.txt", "h\xffi"), "content"},
      // in a line that a diagnostic quotes (its content and excerpt)
      {"#!telt [3-char SHA: abc]\n=== CR\xff"
       "ATE ===\n--END abc--\n",
       ""},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto r = run_blockls({"check", "--format", "json", "-"}, c.text);
    INFO(r.err);
    REQUIRE((r.exit_code == 0 || r.exit_code == 1));
    const auto j = nlohmann::json::parse(r.out);
    const auto& file = j["files"][0];
    CHECK(file["summary"]["blocks_parsed"] == 1);
    if (*c.param) {
      CHECK(file["blocks"][0]["commands"][0]["params"][c.param] == "h" + kFffd + "i");
    } else {
      REQUIRE(!file["errors"].empty());
      CHECK(file["errors"][0]["content"] == "=== CR" + kFffd + "ATE ===");
    }
    r = run_blockls({"check", "--format", "sarif", "-"}, c.text);
    REQUIRE((r.exit_code == 0 || r.exit_code == 1));
    CHECK(nlohmann::json::parse(r.out)["runs"].size() == 1);
    r = run_blockls({"check", "--format", "text", "-"}, c.text);
    CHECK((r.exit_code == 0 || r.exit_code == 1));
    CHECK(r.out.find("1 file checked: 1 block") != std::string::npos);
  }
}

TEST_CASE("apply --format json with invalid UTF-8 reports what it wrote", "[cli][adversarial]") {
  for (const std::string& text : {telt_create("a.txt", "h\xffi"), nesl_write("a.txt", "h\xffi")}) {
    const std::string root = test::make_temp_dir();
    const auto r = run_blockls({"apply", "--root", root, "--format", "json", "-"}, text);
    INFO(text << r.out << r.err);
    CHECK(r.exit_code == 0);
    REQUIRE(!r.out.empty());
    const auto j = nlohmann::json::parse(r.out); // complete: the dump did not abort half-way
    CHECK(j["summary"]["applied"] == 1);
    CHECK(read_all(root + "/a.txt").find("h\xffi") == 0); // the bytes as written
  }
}

TEST_CASE("the --schema file must be a regular file below the size limit", "[cli][adversarial]") {
  const std::string dir = test::make_temp_dir();
  for (const char* cmd : {"check", "fix"}) {
    auto r = run_blockls({cmd, "--schema", dir, "-"}, "x\n");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(dir + ": the schema is a directory") != std::string::npos);
  }
  auto r = run_blockls({"apply", "--root", dir, "--schema", dir, "-"}, "x\n");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("the schema is a directory") != std::string::npos);

  r = run_blockls({"check", "--schema", "/dev/zero", "-"}, "x\n");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("/dev/zero: the schema is not a regular file") != std::string::npos);

  { // a pipe that never ends: refused at once, not read until its writer goes away
    HeldFifo fifo("tools:\n");
    const Timed t = timed_blockls({"check", "--schema", fifo.path(), "/dev/null"});
    fifo.release();
    CHECK(t.result.exit_code == 2);
    CHECK(t.result.err.find("the schema is not a regular file") != std::string::npos);
    CHECK(t.seconds < 3);
  }

  const std::string big = dir + "/big.yaml"; // sparse: its size is checked, not read
  { std::ofstream(big) << "tools:\n"; }
  REQUIRE(::truncate(big.c_str(), 16 * 1024 * 1024 + 1) == 0);
  r = run_blockls({"check", "--schema", big, "-"}, "x\n");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("over the limit of 16777216 bytes") != std::string::npos);

  r = run_blockls({"check", "--schema", dir + "/missing.yaml", "-"}, "x\n");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("missing.yaml: cannot open schema file") != std::string::npos);
}

TEST_CASE("numeric options out of range are usage errors", "[cli][adversarial]") {
  const std::string root = test::make_temp_dir();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::string whole = "is not a whole number from ";
  const std::vector<Case> cases = {
      {{"check", "--max-size", "-1", "-"}, "'-1' " + whole + "1 to "},
      {{"check", "--max-size=-1", "-"}, "'-1' " + whole + "1 to "},
      {{"check", "--max-size", "", "-"}, "'' " + whole},
      {{"check", "--max-size", "0", "-"}, "'0' " + whole},
      {{"check", "--max-size", "1.5", "-"}, "'1.5' " + whole},
      {{"check", "--max-size", "12abc", "-"}, "'12abc' " + whole},
      {{"check", "--max-size", "99999999999999999999", "-"}, whole},
      {{"fix", "--max-size", "-1", "-"}, "'-1' " + whole},
      {{"apply", "--root", root, "--max-size", "-1", "-"}, "'-1' " + whole},
      {{"apply", "--root", root, "--exec-timeout", "-1", "-"}, "'-1' is not a number above 0"},
      {{"apply", "--root", root, "--exec-timeout", "0", "-"}, "'0' is not a number above 0"},
      {{"apply", "--root", root, "--exec-timeout", "nan", "-"}, "'nan' is not a number"},
      {{"apply", "--root", root, "--exec-timeout", "inf", "-"}, "'inf' is not a number"},
      {{"apply", "--root", root, "--exec-timeout", "1e300", "-"}, "at most 86400"},
      {{"apply", "--root", root, "--exec-timeout", "", "-"}, "'' is not a number"},
      {{"lsp", "--debounce-ms", "-1"}, "'-1' " + whole + "0 to 60000"},
      {{"lsp", "--debounce-ms", "1e9"}, "'1e9' " + whole},
      {{"lsp", "--max-document-bytes", "-1"}, "'-1' " + whole},
      {{"lsp", "--max-document-bytes", ""}, "'' " + whole},
      {{"lsp", "--max-message-bytes", "-1"}, "'-1' " + whole},
  };
  for (const Case& c : cases) {
    std::string shown;
    for (const std::string& a : c.args)
      shown += " '" + a + "'";
    const auto r = run_blockls(c.args);
    INFO("blockls" << shown << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(r.out.empty());
  }
  // In range they work.
  auto r = run_blockls({"check", "--max-size", "+1000", "-"}, "x\n");
  CHECK(r.exit_code == 0);
  r = run_blockls({"check", "--max-size", "3", "-"}, "abcd\n");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("over the limit of 3 bytes") != std::string::npos);
  r = run_blockls({"apply", "--root", root, "--exec-timeout", "0.5", "--dry-run", "-"}, "x\n");
  CHECK(r.exit_code == 0);
}

TEST_CASE("input that never ends: a NUL byte or the size limit stops the read at once",
          "[cli][adversarial]") {
  auto t = timed_blockls({"check", "/dev/zero"});
  CHECK(t.result.exit_code == 2);
  CHECK(t.result.err.find("/dev/zero: looks like a binary file (NUL byte at offset 0)") !=
        std::string::npos);
  {
    HeldFifo fifo(std::string("ab\0cd", 5));
    t = timed_blockls({"check", fifo.path()});
    fifo.release();
    CHECK(t.result.exit_code == 2);
    CHECK(t.result.err.find("NUL byte at offset 2") != std::string::npos);
    CHECK(t.seconds < 3); // not waiting for the end of the pipe
  }
  {
    HeldFifo fifo(std::string(3000, 'x'));
    t = timed_blockls({"check", "--max-size", "1000", fifo.path()});
    fifo.release();
    CHECK(t.result.exit_code == 2);
    CHECK(t.result.err.find("over the limit of 1000 bytes") != std::string::npos);
    CHECK(t.seconds < 3);
  }
  // A NUL past the first chunk is found too, with its offset in the whole input.
  const std::string late = std::string(200000, 'x') + '\0';
  const auto r = run_blockls({"check", "-"}, late);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("NUL byte at offset 200000") != std::string::npos);
}

TEST_CASE("a byte order mark before the first block: the block is found and applied",
          "[cli][adversarial]") {
  const std::string bom = "\xEF\xBB\xBF";
  for (const std::string& block : {telt_create("a.txt", "hi"), nesl_write("a.txt", "hi")}) {
    INFO(block);
    auto r = run_blockls({"check", "--format", "json", "-"}, bom + block);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["files"][0]["summary"]["blocks_parsed"] == 1);
    CHECK(j["files"][0]["summary"]["blocks_valid"] == 1);
    CHECK(j["files"][0]["errors"].empty());

    const std::string root = test::make_temp_dir();
    r = run_blockls({"apply", "--root", root, "-"}, bom + block);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("1 block: 1 applied") != std::string::npos);
    CHECK(read_all(root + "/a.txt").starts_with("hi"));
  }
  // A diagnostic on the start line counts the mark as one UTF-16 column.
  const auto r = run_blockls({"check", "--format", "json", "-"},
                             bom + "#!TELT [3-char SHA: abc]\n=== DELETE_FILE ===\n--FILE "
                                   "abc--\na\n--END abc--\n");
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["files"][0]["errors"].size() == 1);
  CHECK(j["files"][0]["errors"][0]["code"] == "MALFORMED_START");
  CHECK(j["files"][0]["errors"][0]["line_number"] == 1);
  CHECK(j["files"][0]["errors"][0]["column"] == 2);
}

TEST_CASE("fix --in-place through a symlink rewrites the target and keeps the link",
          "[cli][adversarial]") {
  const std::string a = test::make_temp_dir(), b = test::make_temp_dir();
  const std::string broken = "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\na.txt\n"
                             "--CONTENT abc--\nhi\n--END abx--\n";
  const std::string fixed = "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\na.txt\n"
                            "--CONTENT abc--\nhi\n--END abc--\n";
  test::write_text(b + "/target.telt", broken);
  ::chmod((b + "/target.telt").c_str(), 0640);
  const std::string link = a + "/link.telt";
  REQUIRE(::symlink((fs::relative(b, a) / "target.telt").c_str(), link.c_str()) == 0);
  const auto r = run_blockls({"fix", "--in-place", link});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(fs::is_symlink(fs::symlink_status(link)));
  CHECK(read_all(b + "/target.telt") == fixed);
  CHECK(read_all(link) == fixed);
  struct stat st {};
  ::stat((b + "/target.telt").c_str(), &st);
  CHECK((st.st_mode & 0777) == 0640);
  // No temporary file is left in either directory.
  CHECK(std::distance(fs::directory_iterator(a), fs::directory_iterator()) == 1);
  CHECK(std::distance(fs::directory_iterator(b), fs::directory_iterator()) == 1);
}

// An address-space limit leaves AddressSanitizer no room for its shadow memory: the sanitizer
// pass leaves this case out (the other pass runs it).
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BLOCKLS_TEST_SANITIZED 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) &&                             \
    !defined(BLOCKLS_TEST_SANITIZED)
TEST_CASE("running out of memory is a message and exit status 2, not an abort",
          "[cli][adversarial]") {
  // 20 MB of unclosed tags: three diagnostics a line, ~2 GB to hold, under a 1.2 GB limit.
  const std::string dir = test::make_temp_dir();
  std::string text;
  for (int i = 0; i < 1250000; ++i)
    text += "<write_to_file>\n";
  test::write_text(dir + "/huge.md", text);
  // Through a shell: the input from the file and the output (the first parts of a check, the
  // stream's events) to /dev/null, so that no pipe fills while the test writes or waits.
  for (const std::string& command :
       {"check '" + dir + "/huge.md'", "check --format json '" + dir + "/huge.md'",
        "stream < '" + dir + "/huge.md'"}) {
    const auto r = test::run_process("/bin/sh", {"-c", "exec /usr/bin/prlimit --as=1258291200 " +
                                                           std::string(BLOCKLS_BINARY) + " " +
                                                           command + " > /dev/null"});
    INFO(command);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.starts_with("blockls: out of memory: "));
    CHECK(r.err.find("any output above is incomplete") != std::string::npos);
  }
}
#endif

TEST_CASE("a failed write to standard output is exit status 2 with a message, not success",
          "[cli][adversarial]") {
  // (`blockls fix t.md > t.new && mv t.new t.md` on a full disk once exited 0 over a cut-off
  // t.new.) /dev/full fails every write with ENOSPC; a pipe whose reader is gone, with SIGPIPE
  // ignored, fails with EPIPE.
  const std::string dir = test::make_temp_dir();
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += "#!nesl [@three-char-SHA-256: k" + std::to_string(10 + i % 80) +
            "]\naction = \"write_file\"\npath = \"f.txt\"\ncontent = \"x\"\n#!end_k" +
            std::to_string(10 + i % 80) + "\n\n";
  test::write_text(dir + "/t.md", text);
  const std::string bin = BLOCKLS_BINARY, t = "'" + dir + "/t.md'";
  for (const std::string& command :
       {bin + " fix " + t + " > /dev/full", bin + " check --format json " + t + " > /dev/full",
        bin + " check --format sarif " + t + " > /dev/full", bin + " codes > /dev/full",
        "trap '' PIPE; " + bin + " check --format json " + t +
            " | head -c 1 > /dev/null; exit ${PIPESTATUS[0]}",
        bin + " apply --dry-run --root '" + dir + "' " + t + " > /dev/full"}) {
    const auto r = test::run_process("/bin/bash", {"-c", command});
    INFO(command);
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("blockls: cannot write standard output") != std::string::npos);
  }
}

TEST_CASE("a file name given on the command line is printed with its control bytes escaped",
          "[cli][adversarial]") {
  // A name holding an escape sequence once reached the terminal as is, in the text report, the
  // feedback's headers and stderr (docs/apply.md: text output escapes control characters).
  const std::string dir = test::make_temp_dir();
  const std::string name = dir + "/x\033[31m.md";
  test::write_text(name, "#!nesl [@three-char-SHA-256: k1w]\naction = \"nope\"\n#!end_k1w\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"check", name},
        std::vector<std::string>{"check", "--format", "feedback", name, name},
        std::vector<std::string>{"check", dir + "/missing\033[2J.md"},
        std::vector<std::string>{"fix", "--in-place", dir + "/missing\033[2J.md"}}) {
    const auto r = test::run_process(BLOCKLS_BINARY, args);
    INFO(args[0] << " " << args[1]);
    CHECK(r.out.find('\033') == std::string::npos);
    CHECK(r.err.find('\033') == std::string::npos);
    CHECK((r.out + r.err).find("\\x1b") != std::string::npos);
  }
}
