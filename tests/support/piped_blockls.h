// A running `blockls ARGS...` of this build with a pipe to its standard input and one from its
// output, read as JSON lines (the `blockls stream` tests): the test writes a piece of the
// input, then waits on the event it must produce, with no sleeps.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>
#include <vector>

namespace blockls::test {

class PipedBlockls {
public:
  explicit PipedBlockls(const std::vector<std::string>& args);
  ~PipedBlockls(); // kills the process if it still runs
  PipedBlockls(const PipedBlockls&) = delete;
  PipedBlockls& operator=(const PipedBlockls&) = delete;

  void send(const std::string& text);
  void close_input();
  // The next event line, waiting at most 10 s for it (null on timeout or end of output).
  nlohmann::json next_event();
  // Events up to and including the next one named `name` (the last is null when none comes).
  std::vector<nlohmann::json> events_until(const std::string& name);
  // Its exit status (-1 when a signal ended it).
  int wait_exit();
  pid_t pid() const { return pid_; }

private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buffer_;
};

} // namespace blockls::test
