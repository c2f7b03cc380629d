// See timed_process.h.
#include "bench/timed_process.h"

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace blockls::bench {

double time_process(const std::string& binary, const std::vector<std::string>& args,
                    const std::string& stdin_path, long* peak_rss_kb) {
  std::vector<std::string> all{binary};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout); // or the child would write our buffered lines a second time
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out = ::open("/dev/null", O_WRONLY);
    if (out < 0 || ::dup2(out, 1) < 0) ::_exit(127);
    if (!stdin_path.empty()) {
      const int in = ::open(stdin_path.c_str(), O_RDONLY);
      if (in < 0 || ::dup2(in, 0) < 0) ::_exit(127);
    }
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid) return -1;
  if (peak_rss_kb) *peak_rss_kb = usage.ru_maxrss;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return WIFEXITED(status) && WEXITSTATUS(status) < 2 ? seconds : -1;
}

} // namespace blockls::bench
