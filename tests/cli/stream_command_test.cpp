// `blockls stream`'s read loop (cli/stream_command.cpp): the events of one read are written
// together, in one flush, before the next read; the text they make is the same as ever.
#include "cli/app.h"
#include "cli/stream_command.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <streambuf>
#include <string>
#include <unistd.h>

using namespace blockls;

namespace {

// A stream buffer that keeps what is written and counts the flushes that had something new
// to write (each is one write(2) to a real standard output).
class CountingBuffer : public std::stringbuf {
public:
  size_t flushes = 0;

protected:
  int sync() override {
    if (str().size() > flushed_) ++flushes;
    flushed_ = str().size();
    return 0;
  }

private:
  size_t flushed_ = 0;
};

// A standard output that cannot be written (its reader gone, a full disk).
class FailingBuffer : public std::streambuf {
protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

// A NESL block writing `path` (relative to the root) with id `id`.
std::string nesl_write(const std::string& id, const std::string& path) {
  return "#!nesl [@three-char-SHA-256: " + id + "]\naction = \"file_write\"\npath = \"" + path +
         "\"\ncontent = \"x\"\n#!end_" + id + "\n";
}

// Runs the stream's read loop on `input`, written into a pipe in one piece before it reads.
int run_on_pipe(const std::string& input, std::streambuf* out_buffer, std::string* err_text,
                const cli::StreamRequest& base = {}) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(input.size() < 65536); // fits the pipe: written whole before the read loop starts
  REQUIRE(::write(fds[1], input.data(), input.size()) == static_cast<ssize_t>(input.size()));
  ::close(fds[1]);
  cli::StreamRequest request = base;
  request.input_fd = fds[0];
  std::ostream out(out_buffer);
  std::ostringstream err;
  const int status = cli::run_stream(request, out, err);
  ::close(fds[0]);
  *err_text = err.str();
  return status;
}

} // namespace

TEST_CASE("stream command: the events of one read are written in one flush", "[cli][stream]") {
  // Three NESL blocks (one broken) arrive in one read: three block_starts, value_chunks,
  // three block_ends and an error — then the end of input, and done.
  std::string input;
  for (int k = 0; k < 3; ++k)
    input += "#!nesl [@three-char-SHA-256: b" + std::to_string(k) +
             "k]\naction = \"file_write\"\npath = \"/tmp/f" + std::to_string(k) +
             ".txt\"\ncontent = <<'EOT_b" + std::to_string(k) + "k'\nline one\nline two\nEOT_b" +
             std::to_string(k) + "k\n#!end_b" + std::to_string(k) + "k\n\n";
  input += "#!nesl [@three-char-SHA-256: bad]\naction = \"file_write\"\n#!end_bad\n";
  CountingBuffer buffer;
  std::string err;
  const int status = run_on_pipe(input, &buffer, &err);
  CHECK(err.empty());
  CHECK(status == 1); // the broken block
  const std::string out = buffer.str();
  size_t lines = 0, block_ends = 0;
  for (size_t at = 0; (at = out.find('\n', at)) != std::string::npos; ++at)
    ++lines;
  for (size_t at = 0; (at = out.find("\"event\":\"block_end\"", at)) != std::string::npos; ++at)
    ++block_ends;
  CHECK(block_ends == 4);
  CHECK(lines > 8);
  CHECK(out.ends_with("\n"));
  CHECK(out.find("\"event\":\"done\"") != std::string::npos);
  // One flush for the read's events, one for what the end of input settles (the last block's
  // block_end, done) — not one per event line.
  CHECK(buffer.flushes == 2);
}

TEST_CASE("stream command: when standard output cannot be written, no block is applied and it "
          "stops",
          "[cli][stream]") {
  namespace fs = std::filesystem;
  const std::string root = test::make_temp_dir();
  cli::StreamRequest request;
  request.apply = true;
  request.apply_options.root = root;
  FailingBuffer failing;
  std::string err;
  const int status = run_on_pipe(nesl_write("a1a", "one.txt") + nesl_write("b2b", "two.txt"),
                                 &failing, &err, request);
  INFO(err);
  CHECK(status == 2);
  CHECK(err.find("cannot write to standard output") != std::string::npos);
  // Its block_end could not be written, so the first block was not applied either.
  CHECK(!fs::exists(root + "/one.txt"));
  CHECK(!fs::exists(root + "/two.txt"));
  fs::remove_all(root);
}

TEST_CASE("stream command: an input error stops after the blocks that came before it in the same "
          "read",
          "[cli][stream]") {
  namespace fs = std::filesystem;
  for (const bool binary : {true, false}) {
    const std::string root = test::make_temp_dir();
    const std::string first = nesl_write("a1a", "one.txt");
    cli::StreamRequest request;
    request.apply = true;
    request.apply_options.root = root;
    std::string input = first;
    if (binary) {
      input += std::string("junk\0", 5) + nesl_write("b2b", "two.txt");
    } else {
      request.limits.max_bytes = first.size() + 10; // the second block goes past it
      input += nesl_write("b2b", "two.txt");
    }
    CountingBuffer out;
    std::string err;
    const int status = run_on_pipe(input, &out, &err, request);
    INFO(err << out.str());
    CHECK(status == 2);
    CHECK(err.find(binary ? "is binary" : "larger than --max-size") != std::string::npos);
    // In one read with the error, as in a read of its own: reported and applied.
    CHECK(out.str().find("\"event\":\"applied\"") != std::string::npos);
    CHECK(fs::exists(root + "/one.txt"));
    CHECK(!fs::exists(root + "/two.txt"));
    CHECK(out.str().find("\"event\":\"done\"") == std::string::npos);
    fs::remove_all(root);
  }
}

TEST_CASE("stream command: options that would be ignored are refused, and a usage error names the "
          "command's help",
          "[cli][stream]") {
  const auto run = [](const std::vector<std::string>& args, std::string* err_text) {
    std::ostringstream out, err;
    const int status = cli::run(args, out, err);
    *err_text = err.str();
    return status;
  };
  std::string err;
  CHECK(run({"stream", "--dialects", ""}, &err) == 2);
  CHECK(err.find("--dialects names no dialect") != std::string::npos);
  CHECK(run({"check", "--dialects", "", "x.md"}, &err) == 2);
  CHECK(err.find("--dialects names no dialect") != std::string::npos);
  CHECK(run({"stream", "--exec-timeout", "5"}, &err) == 2);
  CHECK(err.find("--exec-timeout is only used with --apply") != std::string::npos);
  CHECK(run({"stream", "--bogus"}, &err) == 2);
  CHECK(err.find("Run 'blockls stream --help'") != std::string::npos);
  CHECK(run({"--bogus"}, &err) == 2);
  CHECK(err.find("Run 'blockls --help'") != std::string::npos);
}
