// ProcessWatch: the client-process check of `blockls lsp` (see process_watch.h).
#include "lsp/process_watch.h"

#include <cerrno>
#include <fstream>
#include <signal.h>
#include <string>
#include <utility>
#include <vector>

namespace blockls::lsp {

bool process_alive(int pid) {
  if (pid <= 0) return false;
  // EPERM: it exists but belongs to someone else; ESRCH: no such process.
  if (kill(pid, 0) != 0 && errno != EPERM) return false;
  // kill() succeeds on a zombie; /proc tells its state ("pid (comm) S ..."; comm may hold ')').
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true; // no /proc: trust kill()
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos || paren + 2 >= text.size()) return true;
  const char state = text[paren + 2];
  return state != 'Z' && state != 'X';
}

ProcessWatch::ProcessWatch(boost::asio::io_context& io, std::chrono::milliseconds interval,
                           GoneFn on_gone)
    : timer_(io), interval_(interval), on_gone_(std::move(on_gone)) {}

bool ProcessWatch::watch(int pid) {
  if (!process_alive(pid)) return false;
  pids_.insert(pid);
  arm();
  return true;
}

void ProcessWatch::arm() {
  if (armed_ || pids_.empty()) return;
  armed_ = true;
  timer_.expires_after(interval_);
  timer_.async_wait([this](const boost::system::error_code& error) {
    if (error) return; // cancelled: the watch is being destroyed, `this` must not be touched
    armed_ = false;
    check();
  });
}

// Reports each vanished pid once, then keeps polling the others.
void ProcessWatch::check() {
  std::vector<int> gone;
  for (int pid : pids_)
    if (!process_alive(pid)) gone.push_back(pid);
  for (int pid : gone)
    pids_.erase(pid);
  arm();
  for (int pid : gone)
    on_gone_(pid);
}

} // namespace blockls::lsp
