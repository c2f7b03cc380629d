// Running the code of an exec action: the interpreter named by `lang` gets the code as one
// argv element (bash -c CODE, python3 -c CODE, node -e CODE), never a shell string built
// around it. Output is captured, and the process group is killed at the timeout.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace blockls::apply {

struct ProcessOutput {
  bool started = false; // false: the program could not be run (error says why)
  bool timed_out = false;
  int exit_code = -1; // -1 when killed by a signal
  std::string out, err, error;
};

// Runs argv[0] (looked up in PATH) with `argv` in `cwd`, standard input closed.
ProcessOutput run_program(const std::vector<std::string>& argv, const std::string& cwd,
                          std::chrono::milliseconds timeout);

// argv for an exec action's language; empty when the language is unknown.
std::vector<std::string> interpreter_argv(const std::string& lang, const std::string& code);

} // namespace blockls::apply
