// `blockls stream` through real pipes: a block's block_end arrives while the writer still holds
// the rest of the input back (the test waits on the event itself, no sleeps), then the rest is
// sent and `done` ends the output; binary input is refused with a clear message.
#include "support/process.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace blockls::test;

namespace {

// A running `blockls stream` with a pipe to its standard input and one from its output.
class StreamProcess {
public:
  StreamProcess() {
    int in[2], out[2];
    REQUIRE(::pipe(in) == 0);
    REQUIRE(::pipe(out) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::close(in[1]);
      ::close(out[0]);
      ::execl(BLOCKLS_BINARY, BLOCKLS_BINARY, "stream", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~StreamProcess() {
    if (to_ >= 0) ::close(to_);
    ::close(from_);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  void send(const std::string& text) {
    REQUIRE(::write(to_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  void close_input() {
    ::close(to_);
    to_ = -1;
  }
  // The next event line, waiting at most 10 s for it (null on timeout or end of output).
  nlohmann::json next_event() {
    for (;;) {
      if (const size_t nl = buffer_.find('\n'); nl != std::string::npos) {
        const std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return nlohmann::json::parse(line);
      }
      pollfd p{from_, POLLIN, 0};
      if (::poll(&p, 1, 10000) <= 0) return nullptr;
      char chunk[4096];
      const ssize_t n = ::read(from_, chunk, sizeof chunk);
      if (n <= 0) return nullptr;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }
  int wait_exit() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buffer_;
};

} // namespace

TEST_CASE("stream: block_end arrives before more input is sent", "[cli][stream]") {
  StreamProcess p;
  p.send("Creating it:\n#!nesl [@three-char-SHA-256: k1w]\naction = \"file_write\"\n");
  nlohmann::json e = p.next_event();
  REQUIRE(e.is_object());
  CHECK(e["event"] == "block_start");
  CHECK(e["dialect"] == "nesl");
  CHECK(e["line"] == 2);
  CHECK(e["block_id"] == "k1w");
  p.send("path = \"a.txt\"\ncontent = \"hi\"\n#!end_k1w\n");
  e = p.next_event(); // the input is still open: the block's end line alone produced this
  REQUIRE(e.is_object());
  CHECK(e["event"] == "block_end");
  CHECK(e["block"]["metadata"]["valid"] == true);
  CHECK(e["errors"].empty());
  // An Aider edit whose file name is missing closes with its error.
  p.send("```\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n");
  e = p.next_event();
  CHECK(e["event"] == "block_start");
  CHECK(e["dialect"] == "editblock");
  e = p.next_event();
  REQUIRE(e.is_object());
  CHECK(e["event"] == "block_end");
  CHECK(e["block"]["metadata"]["valid"] == false);
  CHECK(!e["errors"].empty());
  p.close_input();
  e = p.next_event();
  REQUIRE(e.is_object());
  CHECK(e["event"] == "done");
  CHECK(e["summary"]["blocks_parsed"] == 2);
  CHECK(e["summary"]["blocks_valid"] == 1);
  CHECK(p.next_event().is_null());
  CHECK(p.wait_exit() == 1);
}

TEST_CASE("stream: binary input is refused with a clear message", "[cli][stream]") {
  const ProcessResult r = run_blockls({"stream"}, std::string("text\n\0more", 10));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("binary (a NUL byte at offset 5)") != std::string::npos);
}

TEST_CASE("stream: an empty input ends with done and exit 0", "[cli][stream]") {
  const ProcessResult r = run_blockls({"stream"}, "");
  CHECK(r.exit_code == 0);
  const nlohmann::json e = nlohmann::json::parse(r.out);
  CHECK(e["event"] == "done");
  CHECK(e["summary"]["blocks_parsed"] == 0);
}
