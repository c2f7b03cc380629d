// fork + execvp with pipes drained by poll(); the child gets its own process group so a
// timeout kills everything it started.
#include "apply/exec_runner.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace blockls::apply {

std::vector<std::string> interpreter_argv(const std::string& lang, const std::string& code) {
  if (lang == "bash") return {"bash", "-c", code};
  if (lang == "python") return {"python3", "-c", code};
  if (lang == "javascript") return {"node", "-e", code};
  return {};
}

ProcessOutput run_program(const std::vector<std::string>& argv, const std::string& cwd,
                          std::chrono::milliseconds timeout) {
  ProcessOutput result;
  if (argv.empty()) {
    result.error = "nothing to run";
    return result;
  }
  int out[2], err[2], status_pipe[2];
  if (::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC) || ::pipe2(status_pipe, O_CLOEXEC)) {
    result.error = std::string("pipe failed: ") + std::strerror(errno);
    return result;
  }
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.error = std::string("fork failed: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    const int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    int code = 0;
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) {
      code = errno;
      (void)!::write(status_pipe[1], &code, sizeof code);
      ::_exit(127);
    }
    ::execvp(args[0], args.data());
    code = errno;
    (void)!::write(status_pipe[1], &code, sizeof code);
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  ::close(out[1]);
  ::close(err[1]);
  ::close(status_pipe[1]);
  int exec_errno = 0;
  const ssize_t got = ::read(status_pipe[0], &exec_errno, sizeof exec_errno);
  ::close(status_pipe[0]);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd fds[2];
    int n = 0;
    if (out_open) fds[n++] = {out[0], POLLIN, 0};
    if (err_open) fds[n++] = {err[0], POLLIN, 0};
    const int r = ::poll(fds, n, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (r < 0 && errno != EINTR) break;
    for (int i = 0; i < n && r > 0; ++i) {
      if (!fds[i].revents) continue;
      const ssize_t k = ::read(fds[i].fd, buf, sizeof buf);
      if (k > 0) {
        const bool is_out = fds[i].fd == out[0];
        std::string& kept = is_out ? result.out : result.err;
        const size_t room = kMaxCapturedOutput - std::min(kept.size(), kMaxCapturedOutput);
        const size_t take = std::min(room, static_cast<size_t>(k));
        kept.append(buf, take);
        (is_out ? result.out_dropped : result.err_dropped) += static_cast<size_t>(k) - take;
      } else if (k < 0 && errno == EINTR) {
        continue;
      } else {
        (fds[i].fd == out[0] ? out_open : err_open) = false;
      }
    }
  }
  ::close(out[0]);
  ::close(err[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    result.error = std::strerror(exec_errno);
    return result;
  }
  for (auto [text, dropped] :
       {std::pair{&result.out, result.out_dropped}, std::pair{&result.err, result.err_dropped}})
    if (dropped)
      *text += "\n[blockls: output truncated: " + std::to_string(dropped) +
               " more bytes were not kept]\n";
  result.started = true;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

} // namespace blockls::apply
