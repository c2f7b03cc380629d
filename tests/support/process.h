// Runs the real `blockls` binary as a child process with given arguments and standard
// input, capturing its output and exit status (CLI tests; later the LSP tests).
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace blockls::test {

struct ProcessResult {
  int exit_code = -1; // -1 when killed by a signal
  std::string out;
  std::string err;
};

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& stdin_text = "", const std::string& cwd = "");

// In a forked child: becomes `program` run with `args` (its argv[0] is `program`), or exits
// with 127 when that fails. Never returns.
[[noreturn]] void exec_or_exit(const std::string& program, const std::vector<std::string>& args);

// Starts the blockls of this build with `args`, its output and errors to /dev/null and its
// input from the file `stdin_path` (empty: /dev/null); returns its pid without waiting (the
// crash tests kill it and reap it themselves).
pid_t spawn_blockls(const std::vector<std::string>& args, const std::string& stdin_path = "");

// run_process on the blockls binary of this build.
ProcessResult run_blockls(const std::vector<std::string>& args, const std::string& stdin_text = "");

// A fresh temporary directory (removed by the caller or left for inspection).
std::string make_temp_dir();
void write_text(const std::string& path, const std::string& text);

// The owner and group a file should keep through a rewrite: as root the file is first given to
// another user (4242:4343, what a sudo run finds in a checkout); otherwise it stays the
// process's own (a WARN says that only that case is checked: a user cannot give files away).
struct FileOwner {
  uid_t uid;
  gid_t gid;
};
FileOwner give_to_another_owner(const std::string& path);

} // namespace blockls::test
