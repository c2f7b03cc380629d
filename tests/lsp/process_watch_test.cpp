// The client-process watch (lsp/process_watch.cpp) and the server exiting when its client's
// process is gone (LSP `processId`, `blockls lsp --clientProcessId`), with real processes.
#include "lsp/process_watch.h"
#include "lsp/server.h"

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace std::chrono_literals;

namespace {

// A child that lives until it is killed.
pid_t spawn_sleeper() {
  const pid_t pid = fork();
  if (pid == 0) {
    for (;;)
      pause();
  }
  REQUIRE(pid > 0);
  return pid;
}

void kill_and_reap(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

} // namespace

TEST_CASE("process_alive: live, ended, zombie and invalid pids", "[lsp][process_watch]") {
  CHECK(blockls::lsp::process_alive(getpid()));
  CHECK_FALSE(blockls::lsp::process_alive(0));
  CHECK_FALSE(blockls::lsp::process_alive(-1));

  const pid_t child = spawn_sleeper();
  CHECK(blockls::lsp::process_alive(child));
  kill(child, SIGKILL);
  // Not reaped yet: a zombie, which counts as gone (waitid with WNOWAIT waits for the death
  // without reaping).
  siginfo_t info{};
  REQUIRE(waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT) == 0);
  CHECK_FALSE(blockls::lsp::process_alive(child));
  waitpid(child, nullptr, 0);
  CHECK_FALSE(blockls::lsp::process_alive(child));
}

TEST_CASE("ProcessWatch reports a watched process once it ends, not before",
          "[lsp][process_watch]") {
  boost::asio::io_context io;
  std::vector<int> gone;
  blockls::lsp::ProcessWatch watch(io, 10ms, [&](int pid) { gone.push_back(pid); });
  const pid_t child = spawn_sleeper();
  REQUIRE(watch.watch(child));
  REQUIRE(watch.watch(getpid())); // a second pid, alive throughout
  CHECK_FALSE(watch.watch(0));    // nothing to watch

  io.run_for(100ms); // ten polls while both live
  CHECK(gone.empty());

  kill_and_reap(child);
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (gone.empty() && std::chrono::steady_clock::now() < deadline)
    io.run_for(20ms);
  REQUIRE(gone == std::vector<int>{child});
  CHECK(watch.pids().count(child) == 0);
  CHECK(watch.pids().count(getpid()) == 1);
}

TEST_CASE("ProcessWatch refuses a pid that names no process", "[lsp][process_watch]") {
  boost::asio::io_context io;
  bool called = false;
  blockls::lsp::ProcessWatch watch(io, 10ms, [&](int) { called = true; });
  const pid_t child = spawn_sleeper();
  kill_and_reap(child); // its pid now names no process (reuse within the test is not expected)
  CHECK_FALSE(watch.watch(child));
  CHECK(watch.pids().empty());
  io.run_for(50ms);
  CHECK_FALSE(called);
}

// run_server with --clientProcessId: the input stays open, so only the watch can end it.
TEST_CASE("the server exits when the process named by --clientProcessId ends",
          "[lsp][process_watch]") {
  int to_server[2], from_server[2];
  REQUIRE(pipe(to_server) == 0);
  REQUIRE(pipe(from_server) == 0);
  const pid_t client = spawn_sleeper();

  blockls::lsp::ServerOptions options;
  options.client_process_id = client;
  options.process_poll_interval = 20ms;
  auto exited = std::async(std::launch::async, [&] {
    return blockls::lsp::run_server(options, to_server[0], from_server[1]);
  });

  CHECK(exited.wait_for(300ms) == std::future_status::timeout); // alive while the client is
  kill_and_reap(client);
  const bool ended = exited.wait_for(20s) == std::future_status::ready;
  // End of input: the server's reader thread sees EOF and ends (on failure, so does the server).
  // The read end stays open: that detached thread may still be reading it.
  close(to_server[1]);
  REQUIRE(ended);
  CHECK(exited.get() == 1); // no shutdown was received
  close(from_server[0]);
  close(from_server[1]);
}
