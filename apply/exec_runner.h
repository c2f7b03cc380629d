// Running the code of an exec action: the interpreter named by `lang` gets the code as one
// argv element (bash -c CODE, python3 -c CODE, node -e CODE), never a shell string built
// around it. Output is captured (up to a cap), and the process group is killed at the timeout.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace blockls::apply {

struct ProcessOutput {
  bool started = false; // false: the program could not be run (error says why)
  bool timed_out = false;
  int exit_code = -1; // -1 when killed by a signal
  std::string out, err, error;
  // Bytes of standard output / error beyond kMaxCapturedOutput that were read and dropped.
  uint64_t out_dropped = 0, err_dropped = 0;
};

// What is kept of each of a program's output streams (the rest is drained and counted, so a
// program that prints without end cannot exhaust memory; the timeout still ends it).
inline constexpr size_t kMaxCapturedOutput = size_t{1} << 20;

// Runs argv[0] (looked up in PATH) with `argv` in `cwd`, standard input closed.
ProcessOutput run_program(const std::vector<std::string>& argv, const std::string& cwd,
                          std::chrono::milliseconds timeout);

// argv for an exec action's language; empty when the language is unknown.
std::vector<std::string> interpreter_argv(const std::string& lang, const std::string& code);

} // namespace blockls::apply
