// fork/exec with three pipes; stdout and stderr are drained with poll() so a child that
// writes a lot to both cannot deadlock the test.
#include "support/process.h"

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace blockls::test {

void exec_or_exit(const std::string& program, const std::vector<std::string>& args) {
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  _exit(127);
}

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& stdin_text, const std::string& cwd) {
  signal(SIGPIPE, SIG_IGN); // a child that exits early must not kill the test
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
      close(fd);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
    exec_or_exit(program, args);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  ProcessResult result;
  size_t written = 0;
  bool in_open = true;
  if (stdin_text.empty()) {
    close(in[1]);
    in_open = false;
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open) {
    pollfd fds[3];
    int n = 0;
    if (out_open) fds[n++] = {out[0], POLLIN, 0};
    if (err_open) fds[n++] = {err[0], POLLIN, 0};
    if (in_open) fds[n++] = {in[1], POLLOUT, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in[1]) {
        const ssize_t w = write(in[1], stdin_text.data() + written, stdin_text.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 || written == stdin_text.size()) {
          close(in[1]);
          in_open = false;
        }
        continue;
      }
      const ssize_t r = read(fds[i].fd, buf, sizeof buf);
      std::string& sink = fds[i].fd == out[0] ? result.out : result.err;
      if (r > 0) {
        sink.append(buf, static_cast<size_t>(r));
      } else {
        close(fds[i].fd);
        (fds[i].fd == out[0] ? out_open : err_open) = false;
      }
    }
  }
  if (in_open) close(in[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

pid_t spawn_blockls(const std::vector<std::string>& args, const std::string& stdin_path) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int in = open(stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY);
    const int null = open("/dev/null", O_RDWR);
    dup2(in, 0);
    dup2(null, 1);
    dup2(null, 2);
    exec_or_exit(BLOCKLS_BINARY, args);
  }
  return pid;
}

ProcessResult run_blockls(const std::vector<std::string>& args, const std::string& stdin_text) {
  return run_process(BLOCKLS_BINARY, args, stdin_text);
}

std::string make_temp_dir() {
  std::string tmpl = (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : "/tmp") +
                     "/blockls-test-XXXXXX";
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

FileOwner give_to_another_owner(const std::string& path) {
  if (::geteuid() != 0) {
    WARN("not root: only the process's own file is checked, not another owner's");
    return {::geteuid(), ::getegid()};
  }
  const FileOwner other{4242, 4343};
  REQUIRE(::chown(path.c_str(), other.uid, other.gid) == 0);
  return other;
}

} // namespace blockls::test
