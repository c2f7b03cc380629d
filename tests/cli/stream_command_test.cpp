// `blockls stream`'s read loop (cli/stream_command.cpp): the events of one read are written
// together, in one flush, before the next read; the text they make is the same as ever.
#include "cli/stream_command.h"

#include <catch2/catch.hpp>
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

// Runs the stream's read loop on `input`, written into a pipe in one piece before it reads.
int run_on_pipe(const std::string& input, CountingBuffer* out_buffer, std::string* err_text) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(input.size() < 65536); // fits the pipe: written whole before the read loop starts
  REQUIRE(::write(fds[1], input.data(), input.size()) == static_cast<ssize_t>(input.size()));
  ::close(fds[1]);
  cli::StreamRequest request;
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
