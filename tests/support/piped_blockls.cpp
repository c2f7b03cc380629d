// PipedBlockls (see piped_blockls.h).
#include "support/piped_blockls.h"

#include "support/process.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace blockls::test {

PipedBlockls::PipedBlockls(const std::vector<std::string>& args) {
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
    exec_or_exit(BLOCKLS_BINARY, args);
  }
  ::close(in[0]);
  ::close(out[1]);
  to_ = in[1];
  from_ = out[0];
}

PipedBlockls::~PipedBlockls() {
  if (to_ >= 0) ::close(to_);
  ::close(from_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
}

void PipedBlockls::send(const std::string& text) {
  REQUIRE(::write(to_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
}

void PipedBlockls::close_input() {
  ::close(to_);
  to_ = -1;
}

nlohmann::json PipedBlockls::next_event() {
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

std::vector<nlohmann::json> PipedBlockls::events_until(const std::string& name) {
  std::vector<nlohmann::json> events;
  for (;;) {
    events.push_back(next_event());
    if (!events.back().is_object() || events.back()["event"] == name) return events;
  }
}

int PipedBlockls::wait_exit() {
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace blockls::test
