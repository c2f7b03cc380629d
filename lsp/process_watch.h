// Watches the client's process (LSP `initialize.processId`, `blockls lsp --clientProcessId N`) so
// that a server whose editor died exits instead of living on as an orphan. It polls on the
// server's io_context with a timer (no thread, no busy wait): one kill(pid, 0) per interval.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <set>

namespace blockls::lsp {

// Whether process `pid` exists and has not terminated (a zombie counts as gone: its owner may
// not have reaped it yet, but it will never talk to us again).
bool process_alive(int pid);

class ProcessWatch {
public:
  using GoneFn = std::function<void(int pid)>;

  ProcessWatch(boost::asio::io_context& io, std::chrono::milliseconds interval, GoneFn on_gone);

  // Starts watching `pid` (several may be watched; each is checked every interval). Returns
  // false and watches nothing when `pid` is not a live process now: the client that just sent
  // it is alive, so a pid we cannot see is one from another PID namespace (a container).
  bool watch(int pid);

  // The pids being watched (for the debug info and the tests).
  const std::set<int>& pids() const { return pids_; }

private:
  void arm();
  void check();

  boost::asio::steady_timer timer_;
  std::chrono::milliseconds interval_;
  GoneFn on_gone_;
  std::set<int> pids_;
  bool armed_ = false;
};

} // namespace blockls::lsp
