// See progress_watch.h.
#include "support/progress_watch.h"

#include <filesystem>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

namespace blockls::test {

ProgressWatch::ProgressWatch(const std::string& root)
    : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
  const uint32_t mask = IN_CREATE | IN_MODIFY | IN_MOVED_TO | IN_DELETE | IN_CLOSE_WRITE;
  ::inotify_add_watch(fd_, root.c_str(), mask);
  for (const auto& e : std::filesystem::directory_iterator(root))
    if (e.is_directory()) ::inotify_add_watch(fd_, e.path().c_str(), mask);
}

ProgressWatch::~ProgressWatch() {
  ::close(fd_);
}

size_t ProgressWatch::wait_for(size_t events, pid_t pid) {
  alignas(inotify_event) char buf[16384];
  while (seen_ < events) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 200) == 0) { // no event for a while: is the child still running?
      siginfo_t info{};
      if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          info.si_pid == pid)
        break;
      continue;
    }
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    for (ssize_t off = 0; off < n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(buf + off);
      ++seen_;
      off += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
    }
  }
  return seen_;
}

} // namespace blockls::test
