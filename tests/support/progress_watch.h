// Counting the filesystem events a child process causes in a directory (inotify), so a test
// can kill it after the k-th one: random moments chosen by the child's own progress, waited
// for on events, not on time (the crash tests of `apply` and `stream --apply`).
#pragma once

#include <cstddef>
#include <string>
#include <sys/types.h>

namespace blockls::test {

// Watches `root` and the directories directly in it (as they are when it is constructed).
class ProgressWatch {
public:
  explicit ProgressWatch(const std::string& root);
  ~ProgressWatch();
  ProgressWatch(const ProgressWatch&) = delete;
  ProgressWatch& operator=(const ProgressWatch&) = delete;

  // Waits until `events` events were seen or the child `pid` has exited; returns the count.
  size_t wait_for(size_t events, pid_t pid);

private:
  int fd_;
  size_t seen_ = 0;
};

} // namespace blockls::test
